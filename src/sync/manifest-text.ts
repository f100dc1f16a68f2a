// Text that came from a manifest: what may be stored as it is, what is a recorded error, and
// how an offending value is shown in an error row. Formula-looking text and control characters
// are stored as given (the report writes every cell as text and escapes them); a NUL byte or
// bytes that were not UTF-8 are refused, because they mean the file is not the text it claims.

/** A NUL, a replacement character or any surrogate: the slow check below is needed. */
const suspect = /[\0\uFFFD\uD800-\uDFFF]/;
const brokenSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` cannot be stored as text, or undefined when it can. */
export function textProblem(value: string): string | undefined {
  if (!suspect.test(value)) return undefined;
  if (value.includes('\0')) {
    return 'contains a NUL byte, so the file is probably not plain text: export it again as CSV UTF-8';
  }
  // A decoder turns bytes that are not UTF-8 into U+FFFD; JSON escapes can also carry lone surrogates.
  if (value.includes('\uFFFD') || brokenSurrogate.test(value)) {
    return 'is not valid UTF-8 text (� marks the bytes that are not): save the file as UTF-8, in Excel "CSV UTF-8"';
  }
  return undefined;
}

const previewChars = 120;

/** A value as an error row shows it: text as it is, other values as JSON, shortened; never throws. */
export function previewValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : safeStringify(value);
  return shorten(text, previewChars).replaceAll('\0', '\\0');
}

/** `text` cut to at most `max` characters (plus an ellipsis), never between the halves of a surrogate pair. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** JSON where possible; never throws (bigints, cycles, deep nesting fall back to simpler forms). */
function safeStringify(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (typeof json === 'string') return json;
  } catch {}
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
