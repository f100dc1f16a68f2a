import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cellText } from '../../src/sync/manifest-xlsx';
import { readAll, tempFolder, writeWorkbook } from './intake-world';

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder('creative-sync-xlsx-');
});
afterEach(() => {
  folder.dispose();
});

describe('reading xlsx', () => {
  it('reads the first sheet, its first non-empty row the header, rows numbered as Excel numbers them', async () => {
    const path = await writeWorkbook(folder.write('m.xlsx', ''), [
      [
        'Assets',
        [
          [],
          ['Media ID', 'URL', 'Workspace', 'Channels', 'Tag', 'tag:campaign', 'Colour'],
          ['a1', 'https://x.example/a1', 1201, 'META;TIKTOK', false, 'spring', 'red'],
          [],
          [42, { text: 'https://x.example/a2', hyperlink: 'https://x.example/a2' }, null, null, true],
          [
            'a3',
            { richText: [{ text: 'https://x.example/' }, { text: 'a3' }] },
            { formula: '1200+2', result: 1202 },
          ],
        ],
      ],
      [
        'Notes',
        [
          ['id', 'url'],
          ['not-read', 'https://x.example/n'],
        ],
      ],
    ]);
    const { records, unknownColumns, headerLine, error } = await readAll(path, 'xlsx');
    expect(error).toBeUndefined();
    expect(headerLine).toBe(2);
    expect(unknownColumns).toEqual(['Colour']);
    expect(records).toEqual([
      {
        line: 3,
        fields: {
          id: 'a1',
          url: 'https://x.example/a1',
          workspaceId: '1201',
          channels: 'META;TIKTOK',
          tagWanted: 'FALSE',
          clientTags: { campaign: 'spring' },
        },
      },
      { line: 5, fields: { id: '42', url: 'https://x.example/a2', tagWanted: 'TRUE' } },
      { line: 6, fields: { id: 'a3', url: 'https://x.example/a3', workspaceId: '1202' } },
    ]);
  });

  it('fails a workbook whose header has no url column, at its row', async () => {
    const path = await writeWorkbook(folder.write('m.xlsx', ''), [
      [
        'S',
        [
          ['id', 'link to file'],
          ['a1', 'x'],
        ],
      ],
    ]);
    const { records, error } = await readAll(path, 'xlsx');
    expect(records).toEqual([]);
    expect(error).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^the header row \(line 1\) has no url column/),
    });
  });

  it.each([
    ['a 0-byte file', Buffer.alloc(0), /^the file is empty \(0 bytes\)/],
    [
      'a CSV named .xlsx',
      Buffer.from('id,url\na1,https://x.example/a1\n'),
      /^the file is not an \.xlsx workbook \(it is not a zip file\)/,
    ],
    [
      'a broken zip',
      Buffer.from('PK\x03\x04 and then nonsense that is not a zip at all', 'latin1'),
      /^not a readable \.xlsx workbook: .*Open it in Excel and save it again as \.xlsx$/,
    ],
  ])('fails %s whole, without throwing', async (_, bytes, message) => {
    const { records, error } = await readAll(folder.write('m.xlsx', bytes), 'xlsx');
    expect(records).toEqual([]);
    expect(error?.message).toMatch(message);
  });
});

describe('cellText', () => {
  it.each([
    [null, undefined],
    ['x', 'x'],
    [12.5, '12.5'],
    [true, 'TRUE'],
    [new Date(Date.UTC(2026, 0, 2)), '2026-01-02T00:00:00.000Z'],
    [{ richText: [{ text: 'a' }, { text: 'b' }] }, 'ab'],
    [{ formula: 'A1', result: 'r' }, 'r'],
    [{ sharedFormula: 'A1', result: 3 }, '3'],
    [{ formula: 'A1' }, undefined],
    [{ error: '#N/A' }, '#N/A'],
    [{ text: 'shown', hyperlink: 'https://x' }, 'shown'],
    [{ other: 1 }, undefined],
  ])('reads %j as %j', (value, text) => {
    expect(cellText(value)).toBe(text);
  });
});
