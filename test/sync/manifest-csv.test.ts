import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectDelimiter } from '../../src/sync/manifest-csv';
import { readAll, tempFolder } from './intake-world';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder('creative-sync-csv-');
});
afterEach(() => {
  folder.dispose();
});

/** Writes `content` as `name` and reads it back whole; it must read without a file-level error. */
async function read(name: string, content: string | Buffer) {
  const { records, unknownColumns, error } = await readAll(folder.write(name, content), 'csv');
  if (error) throw error;
  return { records, unknownColumns };
}

/** Reads a file that must fail part-way: the records before the failure, and the error. */
async function readUntilError(name: string, content: string | Buffer) {
  const { records, error } = await readAll(folder.write(name, content), 'csv');
  if (!error) throw new Error(`${name} was read without an error`);
  return { records, error };
}

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
    const { records } = await read('m.csv', 'id,url,name\r\na1,u,"one\r\ntwo\r\nthree"\r\na2,u,x\r\n');
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

  it('reads a header without rows as no records', async () => {
    expect(await read('m.csv', 'id,url\r\n\r\n')).toEqual({ records: [], unknownColumns: [] });
  });

  it('reads Excel\'s UTF-16 "Unicode Text" export (tab-separated, with a BOM)', async () => {
    const text =
      'Media ID\tURL\tName\r\na1\thttps://x.example/a1\tCafé crème\r\na2\thttps://x.example/a2\t"two\r\nlines"\r\n';
    const { records } = await read(
      'm.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    expect(records).toEqual([
      { line: 2, fields: { id: 'a1', url: 'https://x.example/a1', name: 'Café crème' } },
      { line: 3, fields: { id: 'a2', url: 'https://x.example/a2', name: 'two\r\nlines' } },
    ]);
  });
});

describe('a CSV file that cannot be read at all', () => {
  it.each([
    ['a 0-byte file', Buffer.alloc(0), /^the file is empty \(0 bytes\)/],
    [
      'an xlsx workbook named .csv',
      Buffer.from('PK\x03\x04\x14\x00\x06\x00rest of a zip', 'latin1'),
      /^the file is an Excel workbook \(\.xlsx\) or another zip file, not text: rename it to \.xlsx/,
    ],
    [
      'an old .xls workbook',
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      /^the file is an old Excel workbook \(\.xls\)/,
    ],
    ['a PDF', Buffer.from('%PDF-1.7\n'), /^the file is a PDF, not text/],
    [
      'binary bytes',
      Buffer.from([0x69, 0x64, 0x2c, 0x00, 0x01, 0x02, 0xff]),
      /^the file is not text \(it holds a NUL byte at byte 4\)/,
    ],
  ])('fails on %s without reading a row', async (_, bytes, message) => {
    const { records, error } = await readUntilError('m.csv', bytes);
    expect(records).toEqual([]);
    expect(error.line).toBeNull();
    expect(error.message).toMatch(message);
  });

  it('fails at the header when it names no id or no url column, showing what it reads', async () => {
    const { records, error } = await readUntilError(
      'm.csv',
      '\na1,https://x.example/a1,Acme\na2,https://x.example/a2,Beta\n',
    );
    expect(records).toEqual([]);
    expect(error.line).toBe(2);
    expect(error.message).toBe(
      'the header row (line 2) has no id and no url column: the first row must name the columns, with at least id and url ' +
        '(or aliases such as "Media ID" and "Media URL"); it reads: a1, https://x.example/a1, Acme',
    );
  });
});
