// CSV as Excel and DAM systems export it in any locale: comma, semicolon or tab (detected), UTF-8
// with or without BOM (or Excel's UTF-16 "Unicode Text"), CRLF, quoted fields with newlines and
// quotes, trailing empty columns and blank lines. Streams: one record in memory at a time.
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse';
import { ColumnNotes, HeaderRow } from './manifest-columns';
import {
  ManifestParseError,
  type ManifestReading,
  type ManifestRecord,
  maxRecordChars,
  textSample,
} from './manifest-record';
import type { TextEncoding } from './manifest-sniff';

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

export function readCsv(path: string): ManifestReading {
  const reading: Omit<ManifestReading, 'records'> = { notes: new ColumnNotes(), headerLine: null };
  return Object.assign(reading, { records: records(path, reading) });
}

async function* records(
  path: string,
  reading: Omit<ManifestReading, 'records'>,
): AsyncGenerator<ManifestRecord> {
  const { encoding, sample } = await textSample(path);
  const delimiter = detectDelimiter(sample);

  // Line numbers are counted here rather than taken from csv-parse's `info.lines`, which is the
  // line a record ENDS on (and counts a CRLF inside quotes twice): each record takes one line
  // plus the line breaks inside its quoted cells. Blank lines come through as records of one
  // empty cell, so they are counted too (and then skipped, below).
  const input = createReadStream(path);
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    // A stray quote inside an unquoted cell (`12" screen`) is kept as text, not a fatal error.
    relax_quotes: true,
    max_record_size: maxRecordChars,
  });
  input.on('error', (error) => parser.destroy(error));
  (encoding === 'utf8' ? input : input.pipe(toUtf8(encoding))).pipe(parser);

  let header: HeaderRow | undefined;
  /** The line on which the next record begins. */
  let nextLine = 1;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const line = nextLine;
      nextLine += 1 + cellLineBreaks(record);
      // A row of empty cells (`,,,` as spreadsheets export them) is a blank line, not a row.
      if (record.every((value) => value === '' || value.trim() === '')) continue;
      if (!header) {
        header = new HeaderRow(record, reading.notes);
        reading.headerLine = line;
        header.requireKeyColumns(line);
        continue;
      }
      yield { line, fields: header.record(record) };
    }
  } catch (error) {
    if (error instanceof ManifestParseError) throw error;
    // Everything up to the record that starts at `nextLine` was read; that record could not be.
    const code = (error as { code?: string }).code;
    const hint =
      code === 'CSV_MAX_RECORD_SIZE' || code === 'CSV_QUOTE_NOT_CLOSED'
        ? ' (look for a quote " that is opened and never closed)'
        : '';
    throw new ManifestParseError(
      `not valid CSV from line ${nextLine} on: ${(error as Error).message}${hint}`,
      nextLine,
    );
  } finally {
    input.destroy();
  }
}

/** Re-encodes a UTF-16 stream as UTF-8, so the parser and the line counting see one encoding. */
function toUtf8(encoding: TextEncoding): Transform {
  const decoder = new StringDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, Buffer.from(decoder.write(chunk), 'utf8'));
    },
    flush(done) {
      done(null, Buffer.from(decoder.end(), 'utf8'));
    },
  });
}

/** Line breaks in `text`, where CRLF, LF and a lone CR each count once. */
export function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  // Lone CRs (old Mac files) are rare: look for them only where a CR exists at all.
  if (text.includes('\r')) count += text.match(/\r(?!\n)/g)?.length ?? 0;
  return count;
}

/** Line breaks inside a record's cells (quoted cells may span lines). */
function cellLineBreaks(record: readonly string[]): number {
  let count = 0;
  for (const cell of record) {
    if (cell.includes('\n') || cell.includes('\r')) count += countLineBreaks(cell);
  }
  return count;
}
