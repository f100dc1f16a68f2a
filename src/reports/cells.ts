// Pure helpers that turn database values into what an Excel cell or sheet name may hold:
// text that can never become a formula, Excel's length limits, local dates, legal sheet names.

/** Excel refuses (or silently cuts) cell text longer than this many UTF-16 code units. */
export const EXCEL_MAX_CELL_CHARS = 32_767;
/** Excel's limit on the length of a sheet name. */
export const EXCEL_MAX_SHEET_NAME_CHARS = 31;
/** Excel's "Text" number format: whatever is in, or later typed into, the cell stays text. */
export const TEXT_FORMAT = '@';

const TRUNCATION_MARK = '… [truncated]';
// Characters XML 1.0 cannot carry at all; exceljs drops them silently, we drop them first so the
// length we truncate to is the length Excel sees.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** True when spreadsheet software would read this text, typed or pasted into a cell, as a formula. */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_TRIGGER.test(text);
}

/**
 * Makes text from outside (ids, names, brands, urls, errors) safe for a cell.
 *
 * Formula defence: the value is kept exactly as it came and written as a string cell (exceljs writes a
 * JavaScript string as `t="str"` with no `<f>` element, so Excel never evaluates it), and the writer gives
 * every such cell the Text format `@` (TEXT_FORMAT), so it stays text even when someone edits the cell and
 * presses Enter. We do not prefix an apostrophe: in a .xlsx file the apostrophe is not a hidden marker but
 * part of the value, so users would see and filter on `'=SUM(..)` and ids would no longer match the
 * manifest. (A CSV export would need the prefix; this is not one.)
 *
 * Line breaks become `\n` (what Excel uses inside a cell, and what XML turns a bare CR into anyway),
 * XML-illegal control characters are dropped, empty text becomes an empty cell, and text past Excel's
 * 32,767-character limit is cut with a visible mark.
 */
export function cellText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  let text = value.replace(/\r\n?/g, '\n').replace(XML_ILLEGAL, '');
  // Empty text is an empty cell: Excel shows no difference, and a filter then lists one "(Blanks)", not two.
  if (text === '') return null;
  if (text.length > EXCEL_MAX_CELL_CHARS) {
    let cut = EXCEL_MAX_CELL_CHARS - TRUNCATION_MARK.length;
    // Never leave half of a surrogate pair (an emoji, say) at the cut.
    if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
    text = text.slice(0, cut) + TRUNCATION_MARK;
  }
  return text;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Excel dates have no time zone: exceljs stores a Date by its UTC fields. Readers expect the wall-clock time
 * of the machine that ran the sync (the file name uses its local date too), so shift by the local offset.
 */
export function excelLocalDate(epochMs: number | null | undefined): Date | null {
  if (epochMs === null || epochMs === undefined) return null;
  const local = new Date(epochMs);
  return new Date(epochMs - local.getTimezoneOffset() * 60_000);
}

/** `YYYY-MM-DD` of the local calendar date. */
export function localDateStamp(date: Date): string {
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
}

/** `YYYY-MM-DD HH:MM` in local time, for titles. */
export function localDateTimeStamp(date: Date): string {
  return `${localDateStamp(date)} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * A name Excel accepts for a new sheet: none of `[]:*?/\` (each becomes `-`) or control characters, no
 * apostrophe at either end, not blank, not the reserved `History`, at most 31 characters, and unlike every
 * name in `taken` — compared without case, as Excel does — by adding ` (2)`, ` (3)`… inside the 31.
 */
export function cleanSheetName(name: string, taken: Iterable<string> = []): string {
  let base = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not allowed in names
    .replace(/[\u0000-\u001F\u007F]/g, ' ')
    .replace(/[[\]:*?/\\]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '')
    .trim();
  if (base === '') base = 'Sheet';
  if (base.toLowerCase() === 'history') base = `${base}-`;
  base = truncateName(base, EXCEL_MAX_SHEET_NAME_CHARS);

  const takenLower = new Set(Array.from(taken, (t) => t.toLowerCase()));
  if (!takenLower.has(base.toLowerCase())) return base;
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = truncateName(base, EXCEL_MAX_SHEET_NAME_CHARS - suffix.length) + suffix;
    if (!takenLower.has(candidate.toLowerCase())) return candidate;
  }
}

function truncateName(name: string, max: number): string {
  if (name.length <= max) return name;
  let cut = max;
  if (isHighSurrogate(name.charCodeAt(cut - 1))) cut -= 1;
  // Cutting can expose a trailing apostrophe or space, which Excel would refuse or users would not see.
  return name.slice(0, cut).replace(/[\s']+$/, '') || 'Sheet';
}

/** The letters of a 1-based column number: 1 → A, 27 → AA. */
export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}
