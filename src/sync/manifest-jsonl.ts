// JSON Lines (`.jsonl`, `.ndjson`): one JSON object per line, as scripts and DAM exports write
// them. A broken line is one recorded problem and the lines after it go on. Streams: one line
// in memory at a time, and a line longer than the limit is skipped, not buffered.
import { createReadStream } from 'node:fs';
import type { ObjectColumns } from './manifest-columns';
import { objectReading, objectRecord } from './manifest-object';
import {
  ManifestParseError,
  type ManifestReading,
  type ManifestRecord,
  maxRecordChars,
} from './manifest-record';

export function readJsonLines(path: string): ManifestReading {
  return objectReading(path, (columns) => records(path, columns));
}

const example = 'each line must hold one JSON object, such as {"id": "a1", "url": "https://…"}';

async function* records(path: string, columns: ObjectColumns): AsyncGenerator<ManifestRecord> {
  let first = true;
  for await (const { line, text } of lines(path, maxRecordChars)) {
    if (text === undefined) {
      yield { line, problem: `line ${line} is longer than ${maxRecordChars} bytes: ${example}` };
      continue;
    }
    const trimmed = (first ? text.replace(/^\uFEFF/, '') : text).trim();
    if (trimmed === '') continue;
    if (first && trimmed.startsWith('[')) {
      throw new ManifestParseError(
        'the file holds a JSON array, not JSON Lines: name it .json, or write one object per line',
        line,
      );
    }
    first = false;
    yield objectRecord(line, trimmed, columns, { where: `line ${line}`, example });
  }
}

/**
 * The lines of a file, numbered from 1, split on LF (a CR before it is dropped) and decoded as
 * UTF-8; `text` is undefined for a line longer than `maxBytes`, which is skipped unread.
 */
export async function* lines(
  path: string,
  maxBytes: number,
): AsyncGenerator<{ line: number; text: string | undefined }> {
  let pieces: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 1;
  const append = (piece: Buffer) => {
    if (tooLong || piece.length === 0) return;
    size += piece.length;
    if (size > maxBytes) {
      tooLong = true;
      pieces = [];
    } else pieces.push(piece);
  };
  const take = () => {
    let text: string | undefined;
    if (!tooLong) {
      const bytes = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
      text = bytes.toString('utf8', 0, end);
    }
    pieces = [];
    size = 0;
    tooLong = false;
    return { line: line++, text };
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      append(chunk.subarray(start, nl));
      yield take();
      start = nl + 1;
    }
    append(chunk.subarray(start));
  }
  if (size > 0 || tooLong) yield take();
}
