// A look at the first bytes of a manifest before parsing it, so that an empty file, a workbook
// saved under a .csv name or some other binary file is recorded with a sentence that says what
// it is and what to do, instead of as a thousand rows of garbage.
import { open } from 'node:fs/promises';

export type TextEncoding = 'utf8' | 'utf16le';

export type Sniffed =
  | { kind: 'text'; encoding: TextEncoding; sample: string }
  | { kind: 'zip' }
  | { kind: 'unreadable'; problem: string };

const sampleBytes = 64 * 1024;

const signatures: [bytes: number[], what: string, fix: string][] = [
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Excel workbook (.xls)', 'save it from Excel as .xlsx or CSV UTF-8'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF', 'export the manifest as CSV UTF-8, .xlsx or JSON'],
  [[0x1f, 0x8b], 'a gzip archive', 'unpack it into the folder'],
];

/** What the file at `path` holds, judged from its first 64 KB. */
export async function sniff(path: string): Promise<Sniffed> {
  const handle = await open(path, 'r');
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(sampleBytes);
    const { bytesRead } = await handle.read(buffer, 0, sampleBytes, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  return sniffBytes(bytes);
}

export function sniffBytes(bytes: Buffer): Sniffed {
  if (bytes.length === 0) {
    return {
      kind: 'unreadable',
      problem:
        'the file is empty (0 bytes): there is nothing to read. Save the manifest again, with its rows',
    };
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return { kind: 'zip' };
  for (const [signature, what, fix] of signatures) {
    if (startsWith(bytes, signature)) {
      return { kind: 'unreadable', problem: `the file is ${what}, not text: ${fix}` };
    }
  }
  // Excel's "Unicode Text" export is UTF-16LE with a BOM; csv-parse reads it once told.
  if (startsWith(bytes, [0xff, 0xfe])) {
    return { kind: 'text', encoding: 'utf16le', sample: bytes.toString('utf16le') };
  }
  if (startsWith(bytes, [0xfe, 0xff])) {
    return {
      kind: 'unreadable',
      problem: 'the file is UTF-16 big-endian text, which is not supported: save it as CSV UTF-8',
    };
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    return {
      kind: 'unreadable',
      problem: `the file is not text (it holds a NUL byte at byte ${nul + 1}): export the manifest as CSV UTF-8, .xlsx or JSON`,
    };
  }
  return { kind: 'text', encoding: 'utf8', sample: bytes.toString('utf8') };
}

/** The problem with a text manifest (CSV, JSON) that turned out to be a zip file. */
export const zipAsText =
  'the file is an Excel workbook (.xlsx) or another zip file, not text: rename it to .xlsx, or save it from Excel as CSV UTF-8';

function startsWith(bytes: Buffer, signature: number[]): boolean {
  return signature.length <= bytes.length && signature.every((b, i) => bytes[i] === b);
}
