import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assets } from '../../src/db/schema';
import { intake } from '../../src/sync/intake';
import { batchSize } from '../../src/sync/manifest-store';
import { type IntakeWorld, intakeWorld, silentLog } from './intake-world';

let world: IntakeWorld;
beforeEach(() => {
  world = intakeWorld();
});
afterEach(() => {
  world.close();
});

/** Every table intake writes, whole, to compare before and after. */
function snapshot() {
  const all = (table: string) => world.db.$client.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
  return Object.fromEntries(
    ['assets', 'asset_brands', 'asset_markets', 'asset_channels', 'manifest_files', 'manifest_errors'].map(
      (t) => [t, all(t)],
    ),
  );
}

const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('intake of CSV files', () => {
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
  ])('stores the rows of a %j-separated (%s) file', async (d) => {
    world.write(
      'spring.csv',
      csv(
        ['id', 'url', 'workspaceId', 'brands'].join(d),
        ['a1', 'https://cdn.example.com/a1.mp4', '7', 'Acme'].join(d),
        ['a2', 'https://cdn.example.com/a2.mp4', '', 'Beta'].join(d),
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({
      filesRead: 1,
      rowsAccepted: 2,
      rowsRejected: 0,
      assetsNew: 2,
      warnings: [],
    });
    expect(world.asset('a1')).toMatchObject({
      url: 'https://cdn.example.com/a1.mp4',
      workspaceId: 7,
      manifestLine: 2,
    });
    expect(world.asset('a2')).toMatchObject({ workspaceId: null, manifestLine: 3 });
    expect(world.errors()).toEqual([]);
  });

  it('reads a file with a UTF-8 BOM and CRLF line ends, reporting the right line of a bad row', async () => {
    world.write(
      'excel.csv',
      '\uFEFFMedia ID;URL\r\na1;https://cdn.example.com/a1.mp4\r\na2;htp://x\r\na3;https://cdn.example.com/a3.mp4\r\n',
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 2, rowsRejected: 1, warnings: [] });
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['a1', 'a3']);
    expect(world.errors()).toEqual([
      {
        file: 'excel.csv',
        line: 3,
        field: 'url',
        value: 'htp://x',
        message: 'url is not an absolute http(s) URL such as https://cdn.example.com/ad.mp4',
        severity: 'error',
      },
    ]);
  });

  it('reports a bad row after quoted multi-line fields at the line it starts on', async () => {
    world.write(
      'quoted.csv',
      csv(
        'id,description,url',
        'a1,"He said ""hello""',
        'and left",https://cdn.example.com/a1.mp4',
        'a2,"three',
        'line',
        'note",https://cdn.example.com/a2.mp4',
        'a3,"bad ""one""",htp://x',
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 2, rowsRejected: 1 });
    expect(world.asset('a1')).toMatchObject({ description: 'He said "hello"\nand left', manifestLine: 2 });
    expect(world.asset('a2')).toMatchObject({ manifestLine: 4 });
    expect(world.errors()).toEqual([expect.objectContaining({ file: 'quoted.csv', line: 7, field: 'url' })]);
  });

  it('skips blank lines without counting them as rows, but counts them as lines', async () => {
    world.write(
      'gaps.csv',
      csv(
        'id,url',
        '',
        'a1,https://cdn.example.com/a1.mp4',
        '',
        '',
        ',',
        'a2,',
        'a3,https://cdn.example.com/a3.mp4',
        '',
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 2, rowsRejected: 1 });
    expect(world.asset('a3')?.manifestLine).toBe(8);
    expect(world.errors()).toEqual([expect.objectContaining({ line: 7, field: 'url', value: null })]);
    expect(world.file('gaps.csv')).toMatchObject({ rowsRead: 3, rowsAccepted: 2, rowsRejected: 1 });
  });

  it('maps header aliases and warns once per file about columns it does not use', async () => {
    world.write(
      'aliases.csv',
      csv(
        'Media ID,Download URL,workspace,brand,Market,Platform,Colour,Owner',
        'a1,https://cdn.example.com/a1.mp4,7,Acme,US,facebook,red,me',
        'a2,https://cdn.example.com/a2.mp4,8,Beta,DE,tiktok,blue,you',
      ),
    );
    const summary = await world.intake();
    expect(summary.rowsAccepted).toBe(2);
    const message =
      'columns not used: Colour, Owner (rename a column to use it; see the README for the names)';
    expect(summary.warnings).toEqual([`${join(world.manifestDir, 'aliases.csv')}: ${message}`]);
    // Once for the file, at its header line, however many rows it has.
    expect(world.errors()).toEqual([
      { file: 'aliases.csv', line: 1, field: null, value: 'Colour, Owner', message, severity: 'warning' },
    ]);
    const a1 = world.asset('a1');
    expect(a1).toMatchObject({ url: 'https://cdn.example.com/a1.mp4', workspaceId: 7 });
    expect(world.lists(a1?.id ?? -1)).toEqual({ brands: ['Acme'], markets: ['US'], channels: ['META'] });
  });

  it('records a row without id and a row without url, and stores the others', async () => {
    world.write(
      'holes.csv',
      csv(
        'id,url,name',
        'a1,https://cdn.example.com/a1.mp4,first',
        ',https://cdn.example.com/nameless.mp4,no id',
        'a3,,no url',
        'a4,https://cdn.example.com/a4.mp4,last',
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 2, rowsRejected: 2 });
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['a1', 'a4']);
    expect(world.errors()).toEqual([
      {
        file: 'holes.csv',
        line: 3,
        field: 'id',
        value: null,
        message: 'id is empty: every row needs the asset id',
        severity: 'error',
      },
      {
        file: 'holes.csv',
        line: 4,
        field: 'url',
        value: null,
        message: 'url is missing: every row needs a direct http(s) link to the media file',
        severity: 'error',
      },
    ]);
  });

  it('rejects bad urls and a workspace id that is not a whole number, one error per field', async () => {
    world.write(
      'bad.csv',
      csv(
        'id,url,workspaceId',
        'a1,htp://x,',
        'a2,https://cdn.example.com/my ad.mp4,',
        'a3,https://cdn.example.com/a3.mp4,12.5',
        'a4,https://cdn.example.com/a4.mp4,abc',
        'a5,htp://x,abc',
        'a6,https://cdn.example.com/a6.mp4,6',
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 1, rowsRejected: 5 });
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['a6']);
    expect(world.errors().map((e) => [e.line, e.field, e.value])).toEqual([
      [2, 'url', 'htp://x'],
      [3, 'url', 'https://cdn.example.com/my ad.mp4'],
      [4, 'workspaceId', '12.5'],
      [5, 'workspaceId', 'abc'],
      [6, 'url', 'htp://x'],
      [6, 'workspaceId', 'abc'],
    ]);
    expect(world.errors()[1]?.message).toBe('url contains whitespace: encode spaces as %20');
    expect(world.file('bad.csv')).toMatchObject({
      status: 'read',
      rowsRead: 6,
      rowsAccepted: 1,
      rowsRejected: 5,
    });
  });

  it('reads past a stray quote in an unquoted cell', async () => {
    world.write(
      'quote.csv',
      csv(
        'id,name,url',
        'a1,12" screen,https://cdn.example.com/a1.mp4',
        'a2,x,https://cdn.example.com/a2.mp4',
      ),
    );
    expect(await world.intake()).toMatchObject({ rowsAccepted: 2, rowsRejected: 0 });
    expect(world.asset('a1')?.name).toBe('12" screen');
  });

  it('keeps the rows before an unclosed quote and records where the broken part starts', async () => {
    world.write(
      'broken.csv',
      csv(
        'id,name,url',
        'a1,ok,https://cdn.example.com/a1.mp4',
        'a2,"open,https://cdn.example.com/a2.mp4',
        'a3,x,y',
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 1, rowsRejected: 0 });
    expect(summary.warnings).toEqual([
      expect.stringMatching(/broken\.csv: not valid CSV from line 3 on: Quote Not Closed/),
    ]);
    expect(world.asset('a1')).toBeDefined();
    expect(world.errors()).toEqual([
      expect.objectContaining({
        file: 'broken.csv',
        line: 3,
        field: null,
        severity: 'error',
        message: expect.stringMatching(/^not valid CSV from line 3 on: Quote Not Closed.*never closed\)$/),
      }),
    ]);
    expect(world.file('broken.csv')?.status).toBe('read');
  });
});

describe('intake of JSON files', () => {
  it('stores the items of a JSON array', async () => {
    world.write(
      'drop.json',
      JSON.stringify([
        {
          id: 'a1',
          url: 'https://cdn.example.com/a1.mp4',
          workspaceId: 7,
          channels: ['facebook', 'instagram'],
        },
        { id: 'a2', url: 'https://cdn.example.com/a2.mp4', version: 2, source: 'dam' },
      ]),
    );
    expect(await world.intake()).toMatchObject({ rowsAccepted: 2, rowsRejected: 0, assetsNew: 2 });
    expect(world.asset('a1')).toMatchObject({ workspaceId: 7, manifestLine: 1 });
    expect(world.asset('a2', '2', 'dam')).toMatchObject({ manifestLine: 2 });
  });

  it('stores the items of {"assets": [...]} and records an item that is not an object by its number', async () => {
    world.write(
      'export.json',
      JSON.stringify({
        exportedAt: '2026-11-21',
        assets: [{ id: 'a1', url: 'https://cdn.example.com/a1.mp4' }, 'a2', { id: 'a3', url: 'htp://x' }],
      }),
    );
    expect(await world.intake()).toMatchObject({ rowsAccepted: 1, rowsRejected: 2 });
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['a1']);
    expect(world.errors().map((e) => [e.file, e.line, e.field])).toEqual([
      ['export.json', 2, null],
      ['export.json', 3, 'url'],
    ]);
  });

  it('records a JSON file broken before its first item as unreadable, with one error for the whole file', async () => {
    world.write('broken.json', '{"assets": {"id": "a1", "url": "https://cdn.example.com/a1.mp4"},');
    world.write('good.json', '[{"id": "a2", "url": "https://cdn.example.com/a2.mp4"}]');
    const summary = await world.intake();
    const message = 'not valid JSON: the file ends before the document is complete, at line 1';
    expect(summary).toMatchObject({
      filesRead: 2,
      rowsAccepted: 1,
      rowsRejected: 0,
      filesUnreadable: [join(world.manifestDir, 'broken.json')],
    });
    expect(summary.warnings).toEqual([`${join(world.manifestDir, 'broken.json')}: ${message}`]);
    expect(world.file('broken.json')).toMatchObject({ status: 'unreadable', rowsRead: 0 });
    expect(world.errors()).toEqual([
      { file: 'broken.json', line: null, field: null, value: null, message, severity: 'error' },
    ]);
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['a2']);
  });

  it('keeps the items before the point where a JSON file breaks off', async () => {
    world.write('cut.json', '[{"id": "a1", "url": "https://cdn.example.com/a1.mp4"},\n{"id": "a2", "url"');
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsRead: 1, rowsAccepted: 1, filesUnreadable: [] });
    expect(world.file('cut.json')).toMatchObject({ status: 'read', rowsRead: 1 });
    expect(world.errors()).toEqual([
      {
        file: 'cut.json',
        line: 2,
        field: null,
        value: null,
        message: 'not valid JSON: the file ends before the document is complete, at line 2 (in item 2)',
        severity: 'error',
      },
    ]);
  });
});

describe('what intake stores', () => {
  it('stores lists from JSON arrays and ;-separated text, de-duplicated, with channels canonicalised', async () => {
    world.write(
      'lists.csv',
      csv(
        'id,url,brands,markets,channels',
        'a1,https://cdn.example.com/a1.mp4,"[""Acme"",""Beta"",""Acme""]",US; DE;US,facebook;Instagram;twitter;TikTok',
      ),
    );
    await world.intake();
    const a1 = world.asset('a1');
    expect(world.lists(a1?.id ?? -1)).toEqual({
      brands: ['Acme', 'Beta'],
      markets: ['DE', 'US'],
      channels: ['META', 'TIKTOK', 'X'],
    });
  });

  it('keeps an unknown channel, with one warning per file naming its rows, and counts past 100 together', async () => {
    world.write(
      'odd.csv',
      csv(
        'id,url,channels',
        'a1,https://cdn.example.com/1.mp4,META;Myspace',
        'a2,https://cdn.example.com/2.mp4,myspace',
        'a3,https://cdn.example.com/3.mp4,MYSPACE;Friendster',
      ),
    );
    world.write(
      'many.jsonl',
      Array.from({ length: 150 }, (_, i) =>
        JSON.stringify({ id: `m${i}`, url: `https://cdn.example.com/m${i}.mp4`, channels: [`odd${i}`] }),
      ).join('\n'),
    );
    await world.intake();
    expect(world.lists(world.asset('a1')?.id ?? -1).channels).toEqual(['META', 'MYSPACE']);
    const odd = world.errors().filter((e) => e.file === 'odd.csv');
    expect(odd.map((e) => [e.line, e.severity, e.value])).toEqual([
      [2, 'warning', 'MYSPACE'],
      [4, 'warning', 'FRIENDSTER'],
    ]);
    expect(odd[0]?.message).toMatch(/\(on 3 rows, first on line 2\)$/);
    const many = world.errors().filter((e) => e.file === 'many.jsonl');
    expect(many).toHaveLength(101);
    expect(many.at(-1)).toMatchObject({
      line: 101,
      message:
        'channels: more channels the service does not document are kept as written (on 50 rows, first on line 101)',
    });
  });

  it("stores version and source as '' when absent, so the key stays unique", async () => {
    world.write('a.csv', csv('id,url', 'a1,https://cdn.example.com/a1.mp4'));
    await world.intake();
    world.write(
      'b.json',
      JSON.stringify([{ id: 'a1', url: 'https://cdn.example.com/b.mp4', version: null }]),
    );
    await world.intake();
    expect(world.allAssets()).toEqual([
      expect.objectContaining({
        clientId: 'a1',
        version: '',
        source: '',
        url: 'https://cdn.example.com/b.mp4',
      }),
    ]);
  });

  it('keeps one asset per (id, version, source); a different version or source is another asset', async () => {
    world.write(
      'keys.csv',
      csv(
        'id,version,source,url',
        'a1,,,https://cdn.example.com/1.mp4',
        'a1,2,,https://cdn.example.com/2.mp4',
        'a1,2,dam,https://cdn.example.com/3.mp4',
      ),
    );
    expect(await world.intake()).toMatchObject({ rowsAccepted: 3, assetsNew: 3 });
    expect(world.allAssets().map((a) => [a.clientId, a.version, a.source])).toEqual([
      ['a1', '', ''],
      ['a1', '2', ''],
      ['a1', '2', 'dam'],
    ]);
  });

  it('stores the same key twice in one file as one asset, the later row winning', async () => {
    world.write(
      'twice.csv',
      csv(
        'id,url,name,brands,channels',
        'a1,https://cdn.example.com/old.mp4,Old,Acme;Beta,META',
        'a2,https://cdn.example.com/a2.mp4,Other,,',
        'a1,https://cdn.example.com/new.mp4,New,Gamma,tiktok',
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ rowsAccepted: 3, rowsRejected: 0, assetsNew: 2 });
    const a1 = world.asset('a1');
    expect(a1).toMatchObject({ url: 'https://cdn.example.com/new.mp4', name: 'New', manifestLine: 4 });
    expect(world.lists(a1?.id ?? -1)).toEqual({ brands: ['Gamma'], markets: [], channels: ['TIKTOK'] });
    expect(world.allAssets()).toHaveLength(2);
    expect(world.errors()).toEqual([
      {
        file: 'twice.csv',
        line: 4,
        field: 'id',
        value: 'a1',
        message:
          "asset a1 is also on line 2 of this file: it is one asset, and this later row's details are kept",
        severity: 'warning',
      },
    ]);
    expect(summary.files[0]).toMatchObject({ rowsRead: 3, rowsAccepted: 3, warnings: 1 });
  });

  it('commits files larger than one batch whole, lists included', async () => {
    const count = 2 * batchSize + 345;
    const rows = Array.from(
      { length: count },
      (_, i) => `a${i},https://cdn.example.com/${i}.mp4,Brand${i % 7},US;DE,${i % 3 === 0 ? 'META' : ''}`,
    );
    world.write('big.csv', csv('id,url,brand,markets,channels', ...rows));
    expect(await world.intake()).toMatchObject({ rowsAccepted: count, assetsNew: count });
    expect(world.allAssets()).toHaveLength(count);
    const last = world.asset(`a${count - 1}`);
    expect(last).toMatchObject({ manifestLine: count + 1 });
    expect(world.lists(last?.id ?? -1)).toEqual({
      brands: [`Brand${(count - 1) % 7}`],
      markets: ['DE', 'US'],
      channels: ['META'],
    });
    const counts = world.db.$client
      .prepare(
        'SELECT (SELECT COUNT(*) FROM asset_brands) AS b, (SELECT COUNT(*) FROM asset_markets) AS m, (SELECT COUNT(*) FROM asset_channels) AS c',
      )
      .get();
    expect(counts).toEqual({ b: count, m: 2 * count, c: Math.ceil(count / 3) });
  });

  it('keeps the last row of a key repeated within one batch, lists included', async () => {
    world.write(
      'again.csv',
      csv(
        'id,url,brands,channels',
        'a1,https://cdn.example.com/1.mp4,Acme;Beta,META',
        'a1,https://cdn.example.com/2.mp4,Gamma,',
        'a1,https://cdn.example.com/3.mp4,Delta,TIKTOK;X',
      ),
    );
    await world.intake();
    const a1 = world.asset('a1');
    expect(a1).toMatchObject({ url: 'https://cdn.example.com/3.mp4', manifestLine: 4 });
    expect(world.lists(a1?.id ?? -1)).toEqual({ brands: ['Delta'], markets: [], channels: ['TIKTOK', 'X'] });
    expect(world.errors().map((e) => [e.line, e.severity, e.message.slice(0, 36)])).toEqual([
      [3, 'warning', 'asset a1 is also on line 2 of this f'],
      [4, 'warning', 'asset a1 is also on line 3 of this f'],
    ]);
  });
});

describe('which files intake reads', () => {
  it('skips an unknown extension and ignores README and dotfiles', async () => {
    world.write('feed.xml', '<assets/>');
    world.write('README.md', '# drop manifests here');
    world.write('README.csv', 'id,url\nr,https://cdn.example.com/r.mp4\n');
    world.write('.hidden.csv', 'id,url\nh,https://cdn.example.com/h.mp4\n');
    world.write('real.csv', 'id,url\na1,https://cdn.example.com/a1.mp4\n');
    const summary = await world.intake();
    expect(summary).toMatchObject({
      filesRead: 1,
      filesUnchanged: 0,
      filesSkipped: [join(world.manifestDir, 'feed.xml')],
      rowsAccepted: 1,
    });
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['a1']);
  });

  it('reads nothing and changes nothing when run again on an unchanged folder', async () => {
    world.write('a.csv', csv('id,url', 'a1,https://cdn.example.com/a1.mp4', 'a2,htp://x'));
    world.write('b.json', '[{"id": "b1", "url": "https://cdn.example.com/b1.mp4", "brands": ["Acme"]}]');
    await world.intake();
    const before = snapshot();
    world.clock.advance(86_400_000);
    const summary = await world.intake();
    expect(summary).toEqual({
      filesRead: 0,
      filesUnchanged: 2,
      filesSkipped: [],
      filesUnreadable: [],
      rowsRead: 0,
      rowsAccepted: 0,
      rowsRejected: 0,
      rowWarnings: 0,
      assetsNew: 0,
      changedAfterSubmission: 0,
      warnings: [],
      files: [],
    });
    expect(snapshot()).toEqual(before);
  });

  it('re-reads an edited file, replacing its old errors and its assets’ lists', async () => {
    world.write('a.csv', csv('id,url,brands', 'a1,https://cdn.example.com/a1.mp4,Acme;Beta', 'a2,htp://x,'));
    await world.intake();
    expect(world.errors().map((e) => [e.line, e.field])).toEqual([[3, 'url']]);

    world.clock.advance(60_000);
    world.write(
      'a.csv',
      csv(
        'id,url,brands',
        'a1,https://cdn.example.com/a1-v2.mp4,Gamma',
        'a2,https://cdn.example.com/a2.mp4,',
        ',https://cdn.example.com/n.mp4,',
      ),
    );
    const summary = await world.intake();
    expect(summary).toMatchObject({ filesRead: 1, rowsAccepted: 2, rowsRejected: 1, assetsNew: 1 });
    expect(world.errors().map((e) => [e.line, e.field])).toEqual([[4, 'id']]);
    const a1 = world.asset('a1');
    expect(a1).toMatchObject({ url: 'https://cdn.example.com/a1-v2.mp4', updatedAt: world.clock.now() });
    expect(world.lists(a1?.id ?? -1).brands).toEqual(['Gamma']);
    expect(world.file('a.csv')).toMatchObject({
      rowsRead: 3,
      rowsAccepted: 2,
      rowsRejected: 1,
      lastReadAt: world.clock.now(),
    });
  });

  it('reads a new file again on the next run when the previous run died half-way through it', async () => {
    world.write(
      'a.csv',
      csv('id,url', 'a1,https://cdn.example.com/a1.mp4', 'boom,https://cdn.example.com/b.mp4'),
    );
    // A real failure in the middle of the file: the database refuses one row.
    world.db.$client.exec(
      `CREATE TRIGGER refuse_boom BEFORE INSERT ON assets WHEN NEW.client_id = 'boom'
       BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`,
    );
    await expect(world.intake()).rejects.toThrow('disk on fire');
    world.db.$client.exec('DROP TRIGGER refuse_boom');

    const summary = await world.intake();
    expect(summary).toMatchObject({ filesRead: 1, filesUnchanged: 0, rowsAccepted: 2 });
    expect(
      world
        .allAssets()
        .map((a) => a.clientId)
        .sort(),
    ).toEqual(['a1', 'boom']);
    expect((await world.intake()).filesUnchanged).toBe(1);
  });

  it('warns, without throwing, when the folder does not exist', async () => {
    const manifestDir = join(world.dir, 'nowhere');
    const summary = await intake(world.db, { manifestDir, clock: world.clock, log: silentLog });
    expect(summary).toMatchObject({ filesRead: 0, rowsAccepted: 0 });
    expect(summary.warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^The manifest folder ${manifestDir} cannot be read .*Create it or set MANIFEST_DIR\\.$`),
      ),
    ]);
  });
});

describe('an asset already submitted', () => {
  async function submitted() {
    world.write(
      'a.csv',
      csv('id,url,workspaceId,channels,name', 'a1,https://cdn.example.com/a1.mp4,7,META;TIKTOK,First'),
    );
    await world.intake();
    world.db
      .update(assets)
      .set({ uniqueId: 'u-1', syncState: 'submitted' })
      .where(eq(assets.clientId, 'a1'))
      .run();
  }

  it('keeps its url and flags the row when the manifest changes the url', async () => {
    await submitted();
    world.write(
      'a.csv',
      csv('id,url,workspaceId,channels,name', 'a1,https://cdn.example.com/other.mp4,7,META;TIKTOK,Renamed'),
    );
    const summary = await world.intake();
    expect(summary.filesRead).toBe(1);
    expect(world.asset('a1')).toMatchObject({
      url: 'https://cdn.example.com/a1.mp4',
      uniqueId: 'u-1',
      name: 'Renamed',
    });
    expect(world.errors()).toEqual([
      {
        file: 'a.csv',
        line: 2,
        field: 'url',
        value: 'https://cdn.example.com/other.mp4',
        message:
          'asset a1 was already submitted and its url changed; the service would keep the old ones, so the asset keeps them too: give it a new version to have it scored again',
        severity: 'warning',
      },
    ]);
  });

  it('keeps its workspace and channels and names both in the flag', async () => {
    await submitted();
    world.write(
      'a.csv',
      csv('id,url,workspaceId,channels,name', 'a1,https://cdn.example.com/a1.mp4,8,META,First'),
    );
    await world.intake();
    const a1 = world.asset('a1');
    expect(a1).toMatchObject({ workspaceId: 7 });
    expect(world.lists(a1?.id ?? -1).channels).toEqual(['META', 'TIKTOK']);
    expect(world.errors()).toEqual([
      {
        file: 'a.csv',
        line: 2,
        field: 'workspaceId, channels',
        value: 'workspaceId: 8; channels: ["META"]',
        message: expect.stringMatching(
          /^asset a1 was already submitted and its workspaceId, channels changed; .*give it a new version/,
        ),
        severity: 'warning',
      },
    ]);
  });

  it('raises no flag when only its name, brands or channel order change', async () => {
    await submitted();
    world.write(
      'a.csv',
      csv(
        'id,url,workspaceId,channels,name,brands',
        'a1,https://cdn.example.com/a1.mp4,7,tiktok;facebook,Second,Acme',
      ),
    );
    await world.intake();
    const a1 = world.asset('a1');
    expect(a1).toMatchObject({ name: 'Second' });
    expect(world.lists(a1?.id ?? -1)).toMatchObject({ brands: ['Acme'], channels: ['META', 'TIKTOK'] });
    expect(world.errors()).toEqual([]);
  });

  it('takes a new version as a new asset', async () => {
    await submitted();
    world.write(
      'a.csv',
      csv('id,version,url,workspaceId,channels', 'a1,2,https://cdn.example.com/other.mp4,7,META;TIKTOK'),
    );
    expect(await world.intake()).toMatchObject({ assetsNew: 1 });
    expect(world.asset('a1', '2')).toMatchObject({
      url: 'https://cdn.example.com/other.mp4',
      uniqueId: null,
    });
    expect(world.errors()).toEqual([]);
  });
});
