import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetArrayScanner, type ScannedItem } from '../../src/sync/manifest-json';
import { readAll, tempFolder } from './intake-world';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder('creative-sync-json-');
});
afterEach(() => {
  folder.dispose();
});

async function read(name: string, content: string | Buffer) {
  const { records, unknownColumns, error } = await readAll(folder.write(name, content), 'json');
  if (error) throw error;
  return { records, unknownColumns };
}

async function readUntilError(name: string, content: string | Buffer) {
  const { records, error } = await readAll(folder.write(name, content), 'json');
  if (!error) throw new Error(`${name} was read without an error`);
  return { records, error };
}

describe('reading JSON', () => {
  it('reads an array of objects, numbering items from 1', async () => {
    const { records, unknownColumns } = await read(
      'm.json',
      JSON.stringify([
        { 'Media ID': 'a1', url: 'https://x.example/a1', brands: ['Acme', 'Beta'], colour: 'red' },
        { id: 'a2', url: 'https://x.example/a2', workspace: 7, colour: 'blue' },
      ]),
    );
    expect(records).toEqual([
      { line: 1, fields: { id: 'a1', url: 'https://x.example/a1', brands: ['Acme', 'Beta'] } },
      { line: 2, fields: { id: 'a2', url: 'https://x.example/a2', workspaceId: 7 } },
    ]);
    expect(unknownColumns).toEqual(['colour']);
  });

  it('reads the one array of an object such as {"assets": [...]}, after a BOM', async () => {
    const { records } = await read(
      'm.json',
      `\uFEFF${JSON.stringify({ exportedBy: 'DAM', assets: [{ id: 'a1', url: 'https://x.example/a1' }] })}`,
    );
    expect(records).toEqual([{ line: 1, fields: { id: 'a1', url: 'https://x.example/a1' } }]);
  });

  it('yields a problem for an item that is not an object and goes on', async () => {
    const { records } = await read(
      'm.json',
      JSON.stringify([{ id: 'a1', url: 'https://x.example/a1' }, 'a2', null, [1], { id: 'a3' }]),
    );
    expect(records.map((r) => ('problem' in r ? `${r.line}: problem` : `${r.line}: fields`))).toEqual([
      '1: fields',
      '2: problem',
      '3: problem',
      '4: problem',
      '5: fields',
    ]);
    expect(records[1]).toEqual({
      line: 2,
      problem: expect.stringMatching(
        /^item 2 is not a JSON object: each item must be an object of asset fields/,
      ),
    });
  });

  it.each([
    ['a bare value', '"a1"'],
    ['an object with two arrays', '{"assets": [], "tags": []}'],
    ['an object with no array', '{"id": "a1"}'],
    ['an object whose array is nested deeper', '{"data": {"assets": [{"id": "a1"}]}}'],
  ])('fails the whole file on %s', async (_, content) => {
    const { records, error } = await readUntilError('m.json', content);
    expect(records).toEqual([]);
    expect(error.line).toBeNull();
    expect(error.message).toMatch(/^JSON must be an array of assets, or an object with one array of assets/);
  });

  it('keeps the items before the file breaks off, and names the item and position where it did', async () => {
    const { records, error } = await readUntilError(
      'm.json',
      '[\n{"id": "a1", "url": "https://x.example/a1"},\n{"id": "a2",',
    );
    expect(records).toEqual([{ line: 1, fields: { id: 'a1', url: 'https://x.example/a1' } }]);
    expect(error).toMatchObject({
      line: 2,
      message: 'not valid JSON: the file ends before the document is complete, at line 3 (in item 2)',
    });
  });

  it.each([
    [
      '[{"id": "a1"} {"id": "a2"}]',
      1,
      'not valid JSON at line 1, column 15 (after item 1): a missing comma between two items',
    ],
    [
      '[{"id": "a1"},, {"id": "a2"}]',
      1,
      'not valid JSON at line 1, column 15 (after item 1): a comma with no item before it',
    ],
    [
      '[{"id": "a1"]',
      0,
      'not valid JSON at line 1, column 13 (in item 1): a "]" that closes nothing opened with it',
    ],
  ])('stops at a break in the structure: %s', async (content, itemsBefore, message) => {
    const { records, error } = await readUntilError('m.json', content);
    expect(records).toEqual([{ line: 1, fields: { id: 'a1' } }].slice(0, itemsBefore));
    expect(error.message).toBe(message);
  });

  it('says a file of one object per line is JSON Lines', async () => {
    const { records, error } = await readUntilError('m.json', '{"id": "a1"}\n{"id": "a2"}\n');
    expect(records).toEqual([]);
    expect(error.message).toMatch(/more after the end of the JSON document: .* name it \.jsonl$/);
  });

  it('records an item that is not valid JSON by its number and reads on', async () => {
    const { records } = await read('m.json', '[{"id": "a1"}, {"id": tru}, {"id": "a3"}]');
    expect(records).toEqual([
      { line: 1, fields: { id: 'a1' } },
      { line: 2, problem: expect.stringMatching(/^item 2 is not valid JSON \(/) },
      { line: 3, fields: { id: 'a3' } },
    ]);
  });

  it('takes brackets, braces and escaped quotes inside strings as text', async () => {
    const item = { id: 'a]1', name: 'say \\"[hi]\\" {x}', url: 'https://x.example/a1' };
    const { records } = await read(
      'm.json',
      JSON.stringify({ meta: { note: '[not this]' }, assets: [item] }),
    );
    expect(records).toEqual([{ line: 1, fields: item }]);
  });

  it('reads a large file in many chunks, item by item', async () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      id: `a${i}`,
      url: `https://x.example/${i}`,
      name: `"${'x'.repeat(i % 97)}"`,
    }));
    const { records } = await read('m.json', JSON.stringify({ assets: items }, null, 2));
    expect(records).toHaveLength(5000);
    expect(records[4999]).toEqual({ line: 5000, fields: items[4999] });
  });
});

describe('AssetArrayScanner', () => {
  /** Feeds `text` split at every given offset and returns the items' texts. */
  function scan(text: string, cuts: number[], max = 1000): ScannedItem[] {
    const scanner = new AssetArrayScanner(max);
    const items: ScannedItem[] = [];
    let from = 0;
    for (const cut of [...cuts, text.length]) {
      scanner.feed(text.slice(from, cut), items);
      from = cut;
    }
    scanner.end();
    return items;
  }

  const document = '{"x": 1, "assets": [ {"id": "a\\"1", "n": [1, {"b": "]"}]}, "s", 12 , true,null ] }';
  const expected = ['{"id": "a\\"1", "n": [1, {"b": "]"}]}', '"s"', '12', 'true', 'null'];

  it('finds the same items however the text is cut into chunks', () => {
    for (let cut = 0; cut <= document.length; cut++) {
      expect(scan(document, [cut]).map((i) => i.text)).toEqual(expected);
    }
    expect(
      scan(
        document,
        Array.from({ length: document.length }, (_, i) => i),
      ).map((i) => i.text),
    ).toEqual(expected);
  });

  it('drops the text of an item larger than the limit but still counts it', () => {
    const items = scan(`[{"id": "${'x'.repeat(50)}"}, {"id": "b"}]`, [10, 20, 30], 40);
    expect(items).toEqual([
      { number: 1, text: undefined },
      { number: 2, text: '{"id": "b"}' },
    ]);
  });

  it('follows nesting far deeper than it checks, without recursion', () => {
    const depth = 100_000;
    const items = scan(`[${'['.repeat(depth)}${']'.repeat(depth)}, {"id": "b"}]`, [], 10_000_000);
    expect(items.map((i) => i.number)).toEqual([1, 2]);
    expect(items[1]?.text).toBe('{"id": "b"}');
  });
});
