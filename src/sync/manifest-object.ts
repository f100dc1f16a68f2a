// What the two JSON readers (JSON, JSON Lines) share: a reading of objects with no header row,
// refused whole when it is not UTF-8, and one JSON text turned into a record or a problem.
import { ColumnNotes, ObjectColumns } from './manifest-columns';
import { ManifestParseError, type ManifestReading, type ManifestRecord, textSample } from './manifest-record';
import { shorten } from './manifest-text';

/**
 * A reading of JSON objects (JSON, JSON Lines): no header row, and keys mapped to fields as they
 * come. JSON is UTF-8 by definition, so a UTF-16 file is refused whole before `records` starts.
 */
export function objectReading(
  path: string,
  records: (columns: ObjectColumns) => AsyncIterable<ManifestRecord>,
): ManifestReading {
  const notes = new ColumnNotes();
  const columns = new ObjectColumns(notes);
  async function* utf8Records(): AsyncGenerator<ManifestRecord> {
    const { encoding } = await textSample(path);
    if (encoding !== 'utf8') throw new ManifestParseError('the file is UTF-16 text: save it as UTF-8', null);
    yield* records(columns);
  }
  return { notes, headerLine: null, records: utf8Records() };
}

/**
 * One JSON text that should hold an asset: its fields, or what is wrong with it. `where` names
 * it for the person fixing it (`line 3`, `item 3`); `example` says what it should look like.
 */
export function objectRecord(
  line: number,
  text: string,
  columns: ObjectColumns,
  { where, example }: { where: string; example: string },
): ManifestRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      line,
      problem: `${where} is not valid JSON (${shorten((error as Error).message, 200)}): ${example}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, problem: `${where} is not a JSON object: ${example}` };
  }
  return { line, fields: columns.record(value as Record<string, unknown>) };
}
