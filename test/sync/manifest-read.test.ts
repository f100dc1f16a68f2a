import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  detectDelimiter,
  type ManifestFormat,
  ManifestParseError,
  type ManifestRecord,
  manifestFormat,
  readManifest,
} from '../../src/sync/manifest-read';
import { tempFolder } from './intake-world';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder('creative-sync-read-');
});
afterEach(() => {
  folder.dispose();
});

/** Writes `content` as `name` and reads it back whole. */
async function read(name: string, content: string | Buffer, format: ManifestFormat = 'csv') {
  const reading = readManifest(folder.write(name, content), format);
  const records: ManifestRecord[] = [];
  for await (const record of reading.records) records.push(record);
  return { records, unknownColumns: [...reading.unknownColumns] };
}

/** Reads a file that must fail part-way: the records before the failure, and the error. */
async function readUntilError(name: string, content: string, format: ManifestFormat = 'csv') {
  const reading = readManifest(folder.write(name, content), format);
  const records: ManifestRecord[] = [];
  try {
    for await (const record of reading.records) records.push(record);
  } catch (error) {
    if (!(error instanceof ManifestParseError)) throw error;
    return { records, error };
  }
  throw new Error(`${name} was read without an error`);
}

describe('manifestFormat', () => {
  it.each([
    ['spring.csv', 'csv'],
    ['SPRING.CSV', 'csv'],
    ['spring.tsv', 'csv'],
    ['spring.txt', 'csv'],
    ['spring.json', 'json'],
    ['spring.xml', undefined],
    ['spring', undefined],
  ])('reads %s as %s', (name, format) => {
    expect(manifestFormat(`/drop/${name}`)).toBe(format);
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['id,url,brand\n', ','],
    ['id;url;brand\r\n', ';'],
    ['id\turl\tbrand\n', '\t'],
    ['\uFEFFid;url\n', ';'],
    ['"Media ID, internal";url;brand\n', ';'],
    ['\n\nid;url\n', ';'],
    ['id;url\ra,b,c,d,e\r', ';'],
    ['id\n', ','],
  ])('finds the delimiter of %j', (sample, delimiter) => {
    expect(detectDelimiter(sample)).toBe(delimiter);
  });
});

describe('reading CSV', () => {
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
  ])('reads a %j-separated (%s) file, numbering records by their line', async (d) => {
    const { records } = await read(
      'm.csv',
      [`id${d}url${d}brand`, `a1${d}https://x.example/a1${d}Acme`, `a2${d}https://x.example/a2${d}`].join(
        '\n',
      ),
    );
    expect(records).toEqual([
      { line: 2, fields: { id: 'a1', url: 'https://x.example/a1', brands: 'Acme' } },
      { line: 3, fields: { id: 'a2', url: 'https://x.example/a2' } },
    ]);
  });

  it('reads a UTF-8 BOM and CRLF line ends', async () => {
    const { records } = await read(
      'm.csv',
      '\uFEFFMedia ID;URL\r\na1;https://x.example/a1\r\na2;https://x.example/a2\r\n',
    );
    expect(records).toEqual([
      { line: 2, fields: { id: 'a1', url: 'https://x.example/a1' } },
      { line: 3, fields: { id: 'a2', url: 'https://x.example/a2' } },
    ]);
  });

  it('reports the line a record starts on when quoted fields hold newlines and doubled quotes', async () => {
    const { records } = await read(
      'm.csv',
      [
        'id,name,url',
        'a1,"The ""big""',
        'launch',
        'film",https://x.example/a1',
        'a2,"two',
        'lines",https://x.example/a2',
        'a3,plain,https://x.example/a3',
      ].join('\n'),
    );
    expect(records).toEqual([
      { line: 2, fields: { id: 'a1', name: 'The "big"\nlaunch\nfilm', url: 'https://x.example/a1' } },
      { line: 5, fields: { id: 'a2', name: 'two\nlines', url: 'https://x.example/a2' } },
      { line: 7, fields: { id: 'a3', name: 'plain', url: 'https://x.example/a3' } },
    ]);
  });

  it('counts a CRLF inside a quoted field as one line', async () => {
    const { records } = await read('m.csv', 'id,name\r\na1,"one\r\ntwo\r\nthree"\r\na2,x\r\n');
    expect(records.map((r) => r.line)).toEqual([2, 5]);
  });

  it('skips blank lines and rows of empty cells but counts them as lines', async () => {
    const { records } = await read(
      'm.csv',
      '\nid,url\n\na1,https://x.example/a1\n\n\n,,\n   \na2,https://x.example/a2\n\n',
    );
    expect(records).toEqual([
      { line: 4, fields: { id: 'a1', url: 'https://x.example/a1' } },
      { line: 9, fields: { id: 'a2', url: 'https://x.example/a2' } },
    ]);
  });

  it('leaves empty cells out and ignores cells beyond the header', async () => {
    const { records } = await read('m.csv', 'id,url,brand\na1,,\na2,https://x.example/a2,Acme,extra\na3\n');
    expect(records).toEqual([
      { line: 2, fields: { id: 'a1' } },
      { line: 3, fields: { id: 'a2', url: 'https://x.example/a2', brands: 'Acme' } },
      { line: 4, fields: { id: 'a3' } },
    ]);
  });

  it('maps header aliases and names each unknown column once', async () => {
    const { records, unknownColumns } = await read(
      'm.csv',
      'Media ID,Download URL,Workspace,Brand,Colour, Owner \na1,https://x.example/a1,7,Acme,red,me\na2,https://x.example/a2,8,Beta,blue,you\n',
    );
    expect(records[0]).toEqual({
      line: 2,
      fields: { id: 'a1', url: 'https://x.example/a1', workspaceId: '7', brands: 'Acme' },
    });
    expect(unknownColumns).toEqual(['Colour', 'Owner']);
  });

  it('keeps a stray quote inside an unquoted cell as text instead of failing the file', async () => {
    const { records } = await read(
      'm.csv',
      'id,name,url\na1,12" screen,https://x.example/a1\na2,x,https://x.example/a2\n',
    );
    expect(records).toEqual([
      { line: 2, fields: { id: 'a1', name: '12" screen', url: 'https://x.example/a1' } },
      { line: 3, fields: { id: 'a2', name: 'x', url: 'https://x.example/a2' } },
    ]);
  });

  it('yields the records before an unclosed quote, then fails naming the line the broken record starts on', async () => {
    const { records, error } = await readUntilError(
      'm.csv',
      'id,name,url\na1,ok,https://x.example/a1\na2,"never closed,https://x.example/a2\na3,x,https://x.example/a3\n',
    );
    expect(records).toEqual([{ line: 2, fields: { id: 'a1', name: 'ok', url: 'https://x.example/a1' } }]);
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^not valid CSV from line 3 on: Quote Not Closed/);
  });

  it('reads an empty file as no records', async () => {
    expect(await read('m.csv', '')).toEqual({ records: [], unknownColumns: [] });
  });
});

describe('reading JSON', () => {
  it('reads an array of objects, numbering items from 1', async () => {
    const { records, unknownColumns } = await read(
      'm.json',
      JSON.stringify([
        { 'Media ID': 'a1', url: 'https://x.example/a1', brands: ['Acme', 'Beta'], colour: 'red' },
        { id: 'a2', url: 'https://x.example/a2', workspace: 7, colour: 'blue' },
      ]),
      'json',
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
      'json',
    );
    expect(records).toEqual([{ line: 1, fields: { id: 'a1', url: 'https://x.example/a1' } }]);
  });

  it('yields a problem for an item that is not an object and goes on', async () => {
    const { records } = await read(
      'm.json',
      JSON.stringify([{ id: 'a1', url: 'https://x.example/a1' }, 'a2', null, [1], { id: 'a3' }]),
      'json',
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
      problem: expect.stringMatching(/^item 2 is not an object: each item must be an object of asset fields/),
    });
  });

  it.each([
    ['invalid JSON', '[{"id": "a1",', /^not valid JSON: /],
    ['a bare value', '"a1"', /^JSON must be an array of assets/],
    ['an object with two arrays', '{"assets": [], "tags": []}', /^JSON must be an array of assets/],
    ['an object with no array', '{"id": "a1"}', /^JSON must be an array of assets/],
  ])('fails the whole file on %s', async (_, content, message) => {
    const { records, error } = await readUntilError('m.json', content, 'json');
    expect(records).toEqual([]);
    expect(error.line).toBeNull();
    expect(error.message).toMatch(message);
  });
});
