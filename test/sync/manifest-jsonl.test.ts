import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lines } from '../../src/sync/manifest-jsonl';
import { readAll, tempFolder } from './intake-world';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder('creative-sync-jsonl-');
});
afterEach(() => {
  folder.dispose();
});

const read = (content: string | Buffer) => readAll(folder.write('m.jsonl', content), 'jsonl');

describe('reading JSON Lines', () => {
  it('reads one object per line, numbered by its line, skipping blank lines, after a BOM and with CRLF', async () => {
    const { records, unknownColumns, error } = await read(
      '\uFEFF{"id": "a1", "url": "https://x.example/a1", "colour": "red"}\r\n\r\n{"Media ID": "a2", "tag:campaign": "spring"}\r\n',
    );
    expect(error).toBeUndefined();
    expect(records).toEqual([
      { line: 1, fields: { id: 'a1', url: 'https://x.example/a1' } },
      { line: 3, fields: { id: 'a2', clientTags: { campaign: 'spring' } } },
    ]);
    expect(unknownColumns).toEqual(['colour']);
  });

  it('records a broken line as one problem and reads the lines after it', async () => {
    const { records, error } = await read('{"id": "a1"}\n{"id": "a2",\n"a3"\n[1]\n{"id": "a5"}');
    expect(error).toBeUndefined();
    expect(records).toEqual([
      { line: 1, fields: { id: 'a1' } },
      {
        line: 2,
        problem: expect.stringMatching(
          /^line 2 is not valid JSON \(.*\): each line must hold one JSON object/,
        ),
      },
      {
        line: 3,
        problem: expect.stringMatching(/^line 3 is not a JSON object: each line must hold one JSON object/),
      },
      { line: 4, problem: expect.stringMatching(/^line 4 is not a JSON object/) },
      { line: 5, fields: { id: 'a5' } },
    ]);
  });

  it('says a JSON array is not JSON Lines', async () => {
    const { records, error } = await read('[\n{"id": "a1"}\n]\n');
    expect(records).toEqual([]);
    expect(error?.message).toBe(
      'the file holds a JSON array, not JSON Lines: name it .json, or write one object per line',
    );
  });

  it('fails a binary file whole', async () => {
    const { records, error } = await read(Buffer.from([0x7b, 0x00, 0x7d]));
    expect(records).toEqual([]);
    expect(error?.message).toMatch(/^the file is not text/);
  });
});

describe('lines', () => {
  it('splits on LF, drops the CR of CRLF, and numbers from 1, across read chunks', async () => {
    const long = 'x'.repeat(300_000);
    const path = folder.write('l.txt', `a\r\n\n${long}\nlast`);
    const seen: { line: number; text: string | undefined }[] = [];
    for await (const line of lines(path, 1_000_000)) seen.push(line);
    expect(seen).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: '' },
      { line: 3, text: long },
      { line: 4, text: 'last' },
    ]);
  });

  it('skips a line longer than the limit without keeping it', async () => {
    const path = folder.write('l.txt', `${'x'.repeat(600_000)}\nnext\n`);
    const seen: { line: number; text: string | undefined }[] = [];
    for await (const line of lines(path, 100_000)) seen.push(line);
    expect(seen).toEqual([
      { line: 1, text: undefined },
      { line: 2, text: 'next' },
    ]);
  });
});
