// Reads one manifest file (CSV or JSON) as a stream of records keyed by manifest field,
// each with the line (CSV) or item number (JSON) a person would look for.
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type Info, parse } from 'csv-parse';
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
  const firstLine = sample.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
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

  let headerFields: (ManifestField | undefined)[] = [];
  const parser = createReadStream(path).pipe(
    parse({
      bom: true,
      delimiter,
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
      columns: (header: string[]) => {
        headerFields = header.map((h) => {
          const field = fieldForHeader(h);
          if (!field && h.trim() !== '') unknownColumns.add(h.trim());
          return field;
        });
        return header.map((h, i) => `${i}:${h}`);
      },
    }),
  );
  try {
    for await (const entry of parser as AsyncIterable<{
      record: Record<string, string>;
      info: Info;
      raw: string;
    }>) {
      const line = entry.info.lines - countNewlines(entry.raw);
      const fields: Partial<Record<ManifestField, unknown>> = {};
      Object.values(entry.record).forEach((value, index) => {
        const field = headerFields[index];
        if (field && value !== '') fields[field] = value;
      });
      yield { line, fields };
    }
  } catch (error) {
    const err = error as Error & { lines?: number };
    throw new ManifestParseError(`not valid CSV: ${err.message}`, err.lines ?? null);
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
      yield { line, problem: `item ${line} is not an object with asset fields` };
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

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
