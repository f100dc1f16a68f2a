import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assets } from '../../src/db/schema';
import { intake } from '../../src/sync/intake';
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
    expect(summary.warnings).toEqual([
      `${join(world.manifestDir, 'aliases.csv')}: columns not used: Colour, Owner`,
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
      },
      {
        file: 'holes.csv',
        line: 4,
        field: 'url',
        value: null,
        message: 'url is missing: every row needs a direct http(s) link to the media file',
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
        message: expect.stringMatching(/Fix the file\.$/),
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

  it('records invalid JSON as an unreadable file with one error for the whole file', async () => {
    world.write('broken.json', '[{"id": "a1", "url": "https://cdn.example.com/a1.mp4"},');
    world.write('good.json', '[{"id": "a2", "url": "https://cdn.example.com/a2.mp4"}]');
    const summary = await world.intake();
    expect(summary).toMatchObject({ filesRead: 2, rowsAccepted: 1, rowsRejected: 0 });
    expect(summary.warnings).toEqual([expect.stringMatching(/broken\.json: not valid JSON: /)]);
    expect(world.file('broken.json')).toMatchObject({ status: 'unreadable', rowsRead: 0 });
    expect(world.errors()).toEqual([
      {
        file: 'broken.json',
        line: null,
        field: null,
        value: null,
        message: expect.stringMatching(/^not valid JSON: .*\. Fix the file\.$/),
      },
    ]);
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['a2']);
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
  });

  it('commits files larger than one batch whole', async () => {
    const rows = Array.from(
      { length: 1234 },
      (_, i) => `a${i},https://cdn.example.com/${i}.mp4,Brand${i % 7}`,
    );
    world.write('big.csv', csv('id,url,brand', ...rows));
    expect(await world.intake()).toMatchObject({ rowsAccepted: 1234, assetsNew: 1234 });
    expect(world.allAssets()).toHaveLength(1234);
    expect(world.asset('a1233')).toMatchObject({ manifestLine: 1235 });
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
      rowsAccepted: 0,
      rowsRejected: 0,
      assetsNew: 0,
      warnings: [],
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
        value: null,
        message:
          'asset a1 was already submitted and its url changed: give it a new version to have it scored again',
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
    expect(world.errors().map((e) => [e.line, e.field])).toEqual([[2, 'workspaceId, channels']]);
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

describe('intake of generated files', () => {
  const cell = fc.oneof(
    fc.constant(''),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.constantFrom(
      'htp://x',
      'https://cdn.example.com/a.mp4',
      'https://cdn.example.com/a b.mp4',
      '12.5',
      '7',
      'facebook;x',
      '["Acme","Acme"]',
      '"quoted"',
      'a,b',
      'line\nbreak',
      'cr\r\nlf',
    ),
  );
  const row = fc.tuple(fc.option(fc.stringMatching(/^[a-z0-9]{1,6}$/), { nil: '' }), cell, cell, cell, cell);
  const quote = (value: string) =>
    /[",;\t\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;

  it('accounts for every written row as accepted or rejected', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 30 }), fc.boolean(), async (rows, crlf) => {
        const eol = crlf ? '\r\n' : '\n';
        const text = ['id,url,workspaceId,channels,name', ...rows.map((r) => r.map(quote).join(','))].join(
          eol,
        );
        world.write('random.csv', text);
        const summary = await world.intake();
        // A row whose every cell is blank is a blank line, not a row.
        const written = rows.filter((r) => r.some((c) => c.trim() !== '')).length;
        expect(summary.rowsAccepted + summary.rowsRejected).toBe(written);
        expect(world.file('random.csv')?.rowsRead).toBe(written);
        expect(summary.warnings).toEqual([]);
        const lines = world.errors().map((e) => e.line ?? 0);
        expect(new Set(lines).size).toBe(summary.rowsRejected);
      }),
      { numRuns: 60 },
    );
  });
});
