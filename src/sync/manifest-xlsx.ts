// Excel workbooks (.xlsx), because that is what people fill in: the first sheet, its first
// non-empty row the header, each row numbered as Excel numbers it. Read with exceljs's
// streaming reader, so a large sheet never sits in memory whole.
import { createReadStream } from 'node:fs';
import type ExcelJS from 'exceljs';
import { ColumnNotes, HeaderRow } from './manifest-columns';
import { ManifestParseError, type ManifestReading, type ManifestRecord } from './manifest-record';
import { sniff } from './manifest-sniff';

export function readXlsx(path: string): ManifestReading {
  const reading: Omit<ManifestReading, 'records'> = { notes: new ColumnNotes(), headerLine: null };
  return Object.assign(reading, { records: records(path, reading) });
}

interface SheetReader extends AsyncIterable<ExcelJS.Row> {
  name?: string;
}

async function* records(
  path: string,
  reading: Omit<ManifestReading, 'records'>,
): AsyncGenerator<ManifestRecord> {
  const sniffed = await sniff(path);
  if (sniffed.kind === 'unreadable' && sniffed.problem.includes('empty')) {
    throw new ManifestParseError(sniffed.problem, null);
  }
  if (sniffed.kind !== 'zip') {
    throw new ManifestParseError(
      'the file is not an .xlsx workbook (it is not a zip file): save it from Excel as .xlsx, or give it the extension of what it is (.csv, .json)',
      null,
    );
  }
  const input = createReadStream(path);
  // exceljs can wait forever on a corrupt entry: the unzip stream reports the error, but the
  // reader is blocked waiting for the entry to finish. So the error is caught here, on whatever
  // the file is piped into, and raced against each step of the reading.
  let fail: (error: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failure.catch(() => {});
  input.on('error', fail);
  const pipe = input.pipe.bind(input);
  input.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }) => {
    destination.on('error', fail);
    return pipe(destination, options);
  }) as typeof input.pipe;
  const step = <T>(next: Promise<T>) => Promise.race([next, failure]);

  // Loaded here, not at the top: exceljs takes a tenth of a second to load, and most manifests are not workbooks.
  const { default: exceljs } = await import('exceljs');
  const workbook = new exceljs.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  let header: HeaderRow | undefined;
  let lastRow = 0;
  let sheetFound = false;
  const sheets = (workbook as AsyncIterable<SheetReader>)[Symbol.asyncIterator]();
  try {
    for (let next = await step(sheets.next()); !next.done; next = await step(sheets.next())) {
      const sheet = next.value;
      // Sheets arrive in the order the zip holds them; the first tab is named in workbook.xml.
      const firstTab = (workbook as { model?: { sheets?: { name?: string }[] } }).model?.sheets?.[0]?.name;
      const wanted: boolean =
        !sheetFound && (firstTab === undefined || sheet.name === undefined || sheet.name === firstTab);
      sheetFound ||= wanted;
      const rows = sheet[Symbol.asyncIterator]();
      for (let more = await step(rows.next()); !more.done; more = await step(rows.next())) {
        // The other sheets are read through unused: exceljs closes and deletes its temporary copy
        // of a sheet only once it has been read, and stopping early would leak a file handle each time.
        if (!wanted) continue;
        const row = more.value;
        lastRow = row.number;
        const values = row.values as unknown[];
        const cells = Array.from({ length: Math.max(0, values.length - 1) }, (_, i) =>
          cellText(values[i + 1]),
        );
        if (cells.every((cell) => cell === undefined || cell.trim() === '')) continue;
        if (!header) {
          header = new HeaderRow(
            cells.map((cell) => cell ?? ''),
            reading.notes,
          );
          reading.headerLine = row.number;
          header.requireKeyColumns(row.number);
          continue;
        }
        yield { line: row.number, fields: header.record(cells) };
      }
    }
    if (!sheetFound) {
      throw new ManifestParseError(
        'the workbook holds no worksheet that could be read: open it in Excel and save it again as .xlsx',
        null,
      );
    }
  } catch (error) {
    if (error instanceof ManifestParseError) throw error;
    const where = lastRow > 0 ? ` after row ${lastRow}` : '';
    const message = (error as Error).message;
    const why = message === 'FILE_ENDED' ? 'the file ends early (was it still being copied?)' : message;
    throw new ManifestParseError(
      `not a readable .xlsx workbook${where}: ${why}. Open it in Excel and save it again as .xlsx`,
      lastRow > 0 ? lastRow + 1 : null,
    );
  } finally {
    input.destroy();
  }
}

/**
 * A cell as the text a person sees: numbers and dates written out, booleans as Excel shows
 * them, rich text joined, a formula's last computed value, an error cell's code (`#N/A`).
 */
export function cellText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value === 'object') {
    const cell = value as {
      richText?: { text?: string }[];
      text?: unknown;
      result?: unknown;
      formula?: string;
      sharedFormula?: string;
      error?: string;
    };
    if (Array.isArray(cell.richText)) return cell.richText.map((r) => r.text ?? '').join('');
    if ('formula' in cell || 'sharedFormula' in cell) return cellText(cell.result);
    if (typeof cell.error === 'string') return cell.error;
    if (cell.text !== undefined) return cellText(cell.text);
  }
  return undefined;
}
