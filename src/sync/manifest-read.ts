// Reads one manifest file (CSV or JSON) as a stream of records keyed by manifest field,
// each with the line (CSV) or item number (JSON) a person would look for.
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse } from 'csv-parse';
import { fieldForHeader, type ManifestField } from './manifest-row';

export type ManifestFormat = 'csv' | 'json';

export type ManifestRecord =
  | { line: number; fields: Partial<Record<ManifestField, unknown>> }
  | { line: number; problem: string };

/** The file as a whole could not be read past `line`; records before it were still yielded. */
export class ManifestParseError extends Error {
  override readonly name = 'ManifestParseError';
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

export function manifestFormat(path: string): ManifestFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv';
  if (ext === '.json') return 'json';
  return undefined;
}

export interface ManifestReading {
  /** Headers (or JSON keys) that map to no field, each once. */
  unknownColumns: Set<string>;
  records: AsyncIterable<ManifestRecord>;
}

export function readManifest(path: string, format: ManifestFormat): ManifestReading {
  const unknownColumns = new Set<string>();
  const records = format === 'csv' ? readCsv(path, unknownColumns) : readJson(path, unknownColumns);
  return { unknownColumns, records };
}

/** The delimiter of a CSV header line: whichever of `,` `;` tab occurs most outside quotes. */
export function detectDelimiter(sample: string): string {
  const firstLine =
    sample
      .replace(/^\uFEFF/, '')
      .replace(/^[\r\n]+/, '')
      .split(/\r\n|\r|\n/, 1)[0] ?? '';
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  const [best] = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best;
}

async function* readCsv(path: string, unknownColumns: Set<string>): AsyncGenerator<ManifestRecord> {
  const handle = await open(path, 'r');
  const sample = Buffer.alloc(64 * 1024);
  const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
  await handle.close();
  const delimiter = detectDelimiter(sample.subarray(0, bytesRead).toString('utf8'));

  // Line numbers are counted here from each record's raw text rather than taken from
  // csv-parse's `info.lines`, which is the line a record ENDS on (and counts a CRLF inside
  // quotes twice). The raw texts, header included, cover the file end to end: skipped blank
  // lines lead the next record's raw text, and a CRLF record delimiter leaves its `\r`.
  const parser = createReadStream(path).pipe(
    parse({
      bom: true,
      delimiter,
      raw: true,
      relax_column_count: true,
      // A stray quote inside an unquoted cell (`12" screen`) is kept as text, not a fatal error.
      relax_quotes: true,
      skip_empty_lines: true,
    }),
  );
  let headerFields: (ManifestField | undefined)[] | undefined;
  /** The line on which the next record's raw text begins. */
  let nextLine = 1;
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      const line = nextLine + leadingLineBreaks(raw);
      nextLine += countLineBreaks(raw);
      // A row of empty cells (`,,,` as spreadsheets export them) is a blank line, not a row.
      if (record.every((value) => value.trim() === '')) continue;
      if (!headerFields) {
        headerFields = record.map((h) => {
          const field = fieldForHeader(h);
          if (!field && h.trim() !== '') unknownColumns.add(h.trim());
          return field;
        });
        continue;
      }
      const fields: Partial<Record<ManifestField, unknown>> = {};
      record.forEach((value, index) => {
        const field = headerFields?.[index];
        if (field && value !== '') fields[field] = value;
      });
      yield { line, fields };
    }
  } catch (error) {
    // Everything up to the record that starts at `nextLine` was read; that record could not be.
    throw new ManifestParseError(
      `not valid CSV from line ${nextLine} on: ${(error as Error).message}`,
      nextLine,
    );
  }
}

async function* readJson(path: string, unknownColumns: Set<string>): AsyncGenerator<ManifestRecord> {
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ManifestParseError(`not valid JSON: ${(error as Error).message}`, null);
  }
  const items = assetArray(document);
  if (!items) {
    throw new ManifestParseError(
      'JSON must be an array of assets, or an object with one array of assets (e.g. {"assets": [...]})',
      null,
    );
  }
  for (const [index, item] of items.entries()) {
    const line = index + 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      yield {
        line,
        problem: `item ${line} is not an object: each item must be an object of asset fields such as {"id": "a1", "url": "https://…"}`,
      };
      continue;
    }
    const fields: Partial<Record<ManifestField, unknown>> = {};
    for (const [key, value] of Object.entries(item)) {
      const field = fieldForHeader(key);
      if (field) fields[field] = value;
      else unknownColumns.add(key);
    }
    yield { line, fields };
  }
}

function assetArray(document: unknown): unknown[] | undefined {
  if (Array.isArray(document)) return document;
  if (typeof document !== 'object' || document === null) return undefined;
  const arrays = Object.values(document).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** Line breaks in `text`, where CRLF, LF and a lone CR each count once. */
function countLineBreaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}

/** Line breaks before the first other character: the blank lines csv-parse skipped. */
function leadingLineBreaks(text: string): number {
  return countLineBreaks(/^[\r\n]*/.exec(text)?.[0] ?? '');
}
