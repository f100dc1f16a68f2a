// Reads one manifest and checks every row, in batches: the part of intake that needs no database,
// so that for a large file it can run on a worker thread (manifest-thread.ts) while the main
// thread writes the batch before.
import type { ManifestFormat } from './manifest-read';
import { readManifest } from './manifest-read';
import { ManifestParseError, type ManifestRecord } from './manifest-record';
import type { ManifestRow, RowProblem } from './manifest-row';
import { checkRow } from './manifest-row-fast';

/** One row of the file: accepted as `row`, or rejected with its problems. */
export type CheckedRow = { line: number; row: ManifestRow } | { line: number; problems: RowProblem[] };

/** What is known once the file has been read to its end, or as far as it could be. */
export interface CheckedFile {
  /** Why the file, or its rest from some line on, could not be read. */
  broken?: { message: string; line: number | null };
  /** The one warning about columns not used or fields given twice. */
  columns?: string;
  unknownColumns: string[];
  headerLine: number | null;
}

/**
 * Rows per batch: big enough that a message to the writer thread costs little next to its rows,
 * small enough to keep the rows in flight few (measured at 1M rows: 2000 a batch costs 30 MB more
 * peak memory than 1000, for no gain in speed).
 */
export const checkBatchRows = 1000;

/**
 * Yields the rows of `path` in file order, batched, and returns how the reading ended. A reader's
 * failure ends the reading and is returned as `broken`, never thrown: the rows before it stand.
 */
export async function* checkManifest(
  path: string,
  format: ManifestFormat,
): AsyncGenerator<CheckedRow[], CheckedFile, undefined> {
  const reading = readManifest(path, format);
  const records = reading.records[Symbol.asyncIterator]();
  let broken: CheckedFile['broken'];
  let batch: CheckedRow[] = [];
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<ManifestRecord>;
      try {
        next = await records.next();
      } catch (error) {
        done = true;
        broken =
          error instanceof ManifestParseError
            ? { message: error.message, line: error.line }
            : { message: `the file could not be read on: ${(error as Error).message}`, line: null };
        break;
      }
      if (next.done) {
        done = true;
        break;
      }
      batch.push(check(next.value));
      if (batch.length >= checkBatchRows) {
        yield batch;
        batch = [];
      }
    }
  } finally {
    // Stopped early by the caller: let the reader close its file.
    if (!done) await records.return?.();
  }
  if (batch.length > 0) yield batch;
  return {
    ...(broken && { broken }),
    ...(reading.notes.message() !== undefined && { columns: reading.notes.message() }),
    unknownColumns: reading.notes.unknownColumns,
    headerLine: reading.headerLine,
  };
}

function check(record: ManifestRecord): CheckedRow {
  if ('problem' in record) {
    return { line: record.line, problems: [{ field: null, value: null, message: record.problem }] };
  }
  const result = checkRow(record.fields);
  return result.ok
    ? { line: record.line, row: result.row }
    : { line: record.line, problems: result.problems };
}
