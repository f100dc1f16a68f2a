// What every manifest reader (CSV, JSON, JSON Lines, xlsx) yields: one record per row, with the
// line (or JSON item number) a person would look for, and the error for a file that cannot be
// read on from some point.
import type { ColumnNotes, RecordFields } from './manifest-columns';
import { type Sniffed, sniff, type TextEncoding, zipAsText } from './manifest-sniff';

export type ManifestRecord =
  /** A row, its values keyed by manifest field, not yet validated. */
  | { line: number; fields: RecordFields }
  /** A row that could not be read as a row at all (a broken JSON line, an item that is not an object). */
  | { line: number; problem: string };

/** The file cannot be read past `line` (null: not at all); the records before it were still yielded. */
export class ManifestParseError extends Error {
  override readonly name = 'ManifestParseError';
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

export interface ManifestReading {
  /** Columns not used and fields given twice, for one warning per file. */
  notes: ColumnNotes;
  /** The line of the header row once read (CSV, xlsx), where the column warning points; null for JSON. */
  headerLine: number | null;
  records: AsyncIterable<ManifestRecord>;
}

/** The first 64 KB of a text manifest and its encoding; a file that is not text fails whole. */
export async function textSample(path: string): Promise<{ encoding: TextEncoding; sample: string }> {
  const sniffed: Sniffed = await sniff(path);
  if (sniffed.kind === 'zip') throw new ManifestParseError(zipAsText, null);
  if (sniffed.kind === 'unreadable') throw new ManifestParseError(sniffed.problem, null);
  return sniffed;
}

/** The largest single row, JSON item or line a reader takes, in characters. */
export const maxRecordChars = 16 * 1024 * 1024;
