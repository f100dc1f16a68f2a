import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cellText,
  cleanSheetName,
  EXCEL_MAX_CELL_CHARS,
  excelLocalDate,
  localDateStamp,
  localDateTimeStamp,
  looksLikeFormula,
} from '../../src/reports/cells';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('looksLikeFormula', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1'])('is true for %j', (text) => {
    expect(looksLikeFormula(text)).toBe(true);
  });
  it.each(['a=b', '1+1', ' =1', '', 'Brand'])('is false for %j', (text) => {
    expect(looksLikeFormula(text)).toBe(false);
  });
});

describe('cellText', () => {
  it('keeps text that looks like a formula exactly as it came (the cell type and format make it text)', () => {
    for (const text of ['=HYPERLINK("x")', '+1', '-2', '@foo', '\tlead']) expect(cellText(text)).toBe(text);
  });

  it('turns null, undefined and empty text into an empty cell', () => {
    expect(cellText(null)).toBeNull();
    expect(cellText(undefined)).toBeNull();
    expect(cellText('')).toBeNull();
    expect(cellText('\u0001')).toBeNull();
  });

  it('makes every line break a \\n and drops characters XML cannot carry', () => {
    expect(cellText('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
    expect(cellText('\r=1')).toBe('\n=1');
    expect(cellText('a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf')).toBe('abcdef');
  });

  it("keeps text of exactly Excel's limit and cuts longer text to the limit, with a mark", () => {
    const exact = 'x'.repeat(EXCEL_MAX_CELL_CHARS);
    expect(cellText(exact)).toBe(exact);
    const cut = cellText('y'.repeat(EXCEL_MAX_CELL_CHARS + 1)) as string;
    expect(cut).toHaveLength(EXCEL_MAX_CELL_CHARS);
    expect(cut.endsWith('… [truncated]')).toBe(true);
    expect(cut.startsWith('yyyy')).toBe(true);
  });

  it('never cuts an emoji in half', () => {
    const keep = EXCEL_MAX_CELL_CHARS - '… [truncated]'.length;
    // The cut falls between the two halves of the first emoji.
    const text = `${'a'.repeat(keep - 1)}${'😀'.repeat(100)}`;
    const cut = cellText(text) as string;
    expect(cut.length).toBeLessThanOrEqual(EXCEL_MAX_CELL_CHARS);
    expect(cut.length).toBe(EXCEL_MAX_CELL_CHARS - 1);
    expect(LONE_SURROGATE.test(cut)).toBe(false);
  });
});

describe('cleanSheetName', () => {
  it('keeps a valid name', () => {
    expect(cleanSheetName('By Brand')).toBe('By Brand');
  });

  it('replaces the characters Excel forbids', () => {
    expect(cleanSheetName('a[b]c:d*e?f/g\\h')).toBe('a-b-c-d-e-f-g-h');
    expect(cleanSheetName('tab\there\nnewline')).toBe('tab here newline');
  });

  it('cuts to 31 characters without leaving a space or apostrophe at the end', () => {
    expect(cleanSheetName('x'.repeat(40))).toBe('x'.repeat(31));
    expect(cleanSheetName(`${'x'.repeat(29)} 'abc`)).toBe('x'.repeat(29));
  });

  it('removes apostrophes at either end and never returns a blank or reserved name', () => {
    expect(cleanSheetName("'Quoted'")).toBe('Quoted');
    expect(cleanSheetName('  ')).toBe('Sheet');
    expect(cleanSheetName('???')).toBe('---');
    expect(cleanSheetName('history')).toBe('history-');
  });

  it('makes the name unique without regard to case, staying within 31 characters', () => {
    expect(cleanSheetName('By Brand', ['by brand'])).toBe('By Brand (2)');
    expect(cleanSheetName('By Brand', ['By Brand', 'BY BRAND (2)'])).toBe('By Brand (3)');
    const long = 'L'.repeat(31);
    const second = cleanSheetName(long, [long]);
    expect(second).toBe(`${'L'.repeat(27)} (2)`);
    expect(second).toHaveLength(31);
  });
});

describe('local dates', () => {
  const savedTz = process.env.TZ;
  // A zone far from UTC, so that a UTC-based mistake shows.
  beforeAll(() => {
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    process.env.TZ = savedTz;
  });

  it('uses the local calendar date for the stamp', () => {
    const lateEvening = new Date('2025-03-10T02:30:00Z'); // 22:30 on the 9th in New York
    expect(localDateStamp(lateEvening)).toBe('2025-03-09');
    expect(localDateTimeStamp(lateEvening)).toBe('2025-03-09 22:30');
  });

  it('gives exceljs a Date whose UTC fields are the local wall-clock time', () => {
    const ms = Date.parse('2025-07-01T12:00:00Z'); // 08:00 in New York (summer time)
    expect(excelLocalDate(ms)?.toISOString()).toBe('2025-07-01T08:00:00.000Z');
    expect(excelLocalDate(null)).toBeNull();
  });
});
