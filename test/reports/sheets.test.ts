import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/open';
import { assetIssues, assets, manifestErrors, organizations } from '../../src/db/schema';
import { writeTable } from '../../src/reports/layout';
import { channelRollup } from '../../src/reports/rollups';
import { scoreBars } from '../../src/reports/sheets/overview';
import { writeWorkbook } from '../../src/reports/workbook';
import { writeReport } from '../../src/reports/write-report';
import { expectedRollup, mean, median, newestAssets } from './expected';
import { type FixtureAsset, seed, T0 } from './fixture';
import { type ReadValue, readSheet, readWorkbook, records } from './read-back';

const HOUR = 3_600_000;

/** Assets in every state that needs a person, an old failed version that must not show, and a new scored one. */
const PROBLEMS: FixtureAsset[] = [
  {
    asset: {
      clientId: 'rej-1',
      syncState: 'rejected',
      lastError: 'workspaceId must be a number',
      lastTraceId: 'tr-rej',
    },
  },
  { asset: { clientId: 'forb-1', syncState: 'forbidden', workspaceId: 4242, lastTraceId: 'tr-forb' } },
  {
    asset: {
      clientId: 'stall-1',
      syncState: 'stalled',
      submittedAt: T0 - 72 * HOUR,
      nextPollAt: T0 + 6 * HOUR,
    },
    channels: ['META'],
  },
  {
    asset: {
      clientId: 'sub-1',
      syncState: 'submitted',
      submittedAt: T0 - 2 * HOUR,
      nextPollAt: T0 + HOUR / 6,
    },
    brands: ['Beta'],
  },
  { asset: { clientId: 'comp-1', syncState: 'complete', submittedAt: T0 - HOUR, nextPollAt: T0 + HOUR } },
  {
    asset: {
      clientId: 'fixed-1',
      version: 'v1',
      syncState: 'failed',
      lastError: 'old failure',
      lastTraceId: 'tr-old',
    },
  },
  {
    asset: { clientId: 'fixed-1', version: 'v2', syncState: 'scored' },
    brands: ['Gamma'],
    markets: ['US'],
    scores: [{ channel: 'TIKTOK', score: 0.3, adherence: 0.25, pass: 1, fail: 3, na: 0, nav: 0 }],
  },
];

function seedAll(db: Db): void {
  const ids = seed(db);
  seed(db, PROBLEMS);
  db.insert(organizations).values({ id: 'org-1', name: 'Northwind Brands', fetchedAt: T0 }).run();
  const fileId = db.$client.prepare<[], { id: number }>('SELECT id FROM manifest_files').get()?.id as number;
  db.insert(manifestErrors)
    .values([
      {
        manifestFileId: fileId,
        line: 14,
        field: 'url',
        value: '=cmd|calc',
        message: 'url is not an absolute http(s) URL',
        createdAt: T0,
      },
      {
        manifestFileId: fileId,
        line: 3,
        field: 'channels',
        value: 'MYSPACE',
        message: 'unknown channel MYSPACE kept as it is',
        severity: 'warning',
        createdAt: T0,
      },
    ])
    .run();
  // hero-3 (newest) has an inconsistency; hero-1 v1 (an old version) has one that must not show.
  db.insert(assetIssues)
    .values([
      {
        assetId: ids[2] as number,
        kind: 'count_mismatch',
        channel: 'META',
        message: 'summary says 5 passes, detail 4',
        createdAt: T0,
      },
      { assetId: ids[0] as number, kind: 'count_mismatch', channel: 'META', message: 'old', createdAt: T0 },
    ])
    .run();
}

describe('the sheets, against an independent computation', () => {
  let dir: string;
  let db: Db;
  let workbook: ExcelJS.Workbook;
  const generatedAt = new Date(T0 + 10 * HOUR);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'creative-sheets-'));
    db = openDatabase(':memory:');
    seedAll(db);
    const { path } = await writeReport(db, {
      reportDir: dir,
      runDate: new Date(T0),
      demo: false,
      generatedAt,
    });
    workbook = await readWorkbook(path);
  });
  afterAll(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['By Brand', 'brand'],
    ['By Market', 'market'],
    ['By Channel', 'channel'],
  ] as const)('%s matches, with problem assets in the database too', (name, by) => {
    const expected = expectedRollup(db.$client, by);
    const rows = new Map(readSheet(workbook, name).rows.map((r) => [r[0] as string, r.slice(1)]));
    expect([...rows.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, e] of expected) {
      const want = [e.assets, e.scored, e.scoresCounted, e.meanScore, e.medianScore, e.meanAdherence];
      want.forEach((w, i) => {
        const got = rows.get(key)?.[i];
        if (w === null) expect(got, `${name}/${key}/${i}`).toBeNull();
        else expect(got as number, `${name}/${key}/${i}`).toBeCloseTo(w, 10);
      });
    }
  });

  it.each([
    ['Brand x Channel', 'brand'],
    ['Market x Channel', 'market'],
  ] as const)('%s holds the mean score of every (group, channel) pair, coloured by a scale', (name, by) => {
    const state = newestAssets(db.$client);
    const members = db.$client
      .prepare<[], { asset_id: number; key: string }>(`SELECT asset_id, ${by} AS key FROM asset_${by}s`)
      .all();
    const scores = db.$client
      .prepare<[], { asset_id: number; channel: string; score: number | null }>(
        'SELECT asset_id, channel, score FROM channel_scores',
      )
      .all()
      .filter((s) => state.has(s.asset_id));
    const groupsOf = (id: number) => {
      const keys = members.filter((m) => m.asset_id === id).map((m) => m.key);
      return keys.length > 0 ? keys : ['(none)'];
    };
    const cells = new Map<string, number[]>();
    for (const s of scores) {
      for (const key of groupsOf(s.asset_id)) {
        const k = `${key}|${s.channel}`;
        cells.set(k, [...(cells.get(k) ?? []), ...(s.score === null ? [] : [s.score])]);
      }
    }
    const read = readSheet(workbook, name);
    const channels = [...new Set(scores.map((s) => s.channel))].sort();
    expect(read.header).toEqual([by === 'brand' ? 'Brand' : 'Market', ...channels, 'All channels']);
    const groups = [...new Set([...cells.keys()].map((k) => k.split('|')[0]))].sort();
    expect(read.rows.map((r) => r[0]).sort()).toEqual(groups);
    for (const row of read.rows) {
      channels.forEach((channel, i) => {
        const want = cells.has(`${row[0]}|${channel}`) ? mean(cells.get(`${row[0]}|${channel}`) ?? []) : null;
        if (want === null) expect(row[i + 1], `${row[0]}/${channel}`).toBeNull();
        else expect(row[i + 1] as number, `${row[0]}/${channel}`).toBeCloseTo(want, 10);
      });
    }
    // All channels equals the By… sheet's mean score.
    const byRows = new Map(
      readSheet(workbook, by === 'brand' ? 'By Brand' : 'By Market').rows.map((r) => [r[0], r[4]]),
    );
    for (const row of read.rows) expect(row.at(-1)).toBe(byRows.get(row[0] as string));

    const formats = (
      read.sheet as unknown as { conditionalFormattings: { ref: string; rules: { type: string }[] }[] }
    ).conditionalFormattings;
    expect(formats).toHaveLength(1);
    expect(formats[0]?.rules[0]?.type).toBe('colorScale');
    const lastCol = String.fromCharCode(65 + channels.length);
    expect(formats[0]?.ref).toBe(`B4:${lastCol}${3 + read.rows.length}`);
  });

  it('the Overview shows the same figures as an independent computation', () => {
    const overview = records(readSheet(workbook, 'Overview'));
    const value = (section: string, figure: string) =>
      overview.find((r) => r.Section === section && r.Figure === figure)?.Value;
    const state = newestAssets(db.$client);
    const states = [...state.values()];
    expect(value('Run', 'Organization')).toBe('Northwind Brands');
    expect(value('Assets by state', 'All assets')).toBe(state.size);
    for (const s of [
      'pending',
      'submitted',
      'complete',
      'scored',
      'unsupported',
      'failed',
      'rejected',
      'forbidden',
      'stalled',
    ]) {
      expect(value('Assets by state', s), s).toBe(states.filter((x) => x === s).length);
    }
    const scores = db.$client
      .prepare<[], { asset_id: number; score: number | null; adherence: number | null }>(
        'SELECT asset_id, score, adherence FROM channel_scores',
      )
      .all()
      .filter((s) => state.has(s.asset_id));
    const values = scores.map((s) => s.score).filter((v): v is number => v !== null);
    expect(value('Scores', 'Mean score') as number).toBeCloseTo(mean(values) as number, 10);
    expect(value('Scores', 'Median score') as number).toBeCloseTo(median(values) as number, 10);
    const adherence = scores.map((s) => s.adherence).filter((v): v is number => v !== null);
    expect(value('Scores', 'Mean adherence') as number).toBeCloseTo(mean(adherence) as number, 10);

    for (const [by, label] of [
      ['brand', 'brands'],
      ['channel', 'channels'],
    ] as const) {
      const ranked = [...expectedRollup(db.$client, by)]
        .filter(([key, e]) => key !== '(none)' && e.meanScore !== null)
        .sort((a, b) => (b[1].meanScore as number) - (a[1].meanScore as number) || a[0].localeCompare(b[0]));
      const best = overview.filter((r) => r.Section === `Best ${label}`);
      const worst = overview.filter((r) => r.Section === `Worst ${label}`);
      expect(best.length + worst.length).toBe(Math.min(ranked.length, 6));
      expect(best.map((r) => r.Figure)).toEqual(ranked.slice(0, best.length).map(([k]) => k));
      expect(worst.map((r) => r.Figure)).toEqual(
        ranked
          .slice(ranked.length - worst.length)
          .reverse()
          .map(([k]) => k),
      );
      for (const r of [...best, ...worst]) {
        expect(r.Value as number).toBeCloseTo(
          ranked.find(([k]) => k === r.Figure)?.[1].meanScore as number,
          10,
        );
      }
    }

    const inFlight = db.$client
      .prepare<
        [],
        { sync_state: string; submitted_at: number | null; next_poll_at: number | null; id: number }
      >(
        "SELECT id, sync_state, submitted_at, next_poll_at FROM assets WHERE sync_state IN ('submitted','complete','stalled')",
      )
      .all()
      .filter((a) => state.has(a.id));
    expect(value('In flight', 'Being scored')).toBe(
      inFlight.filter((a) => a.sync_state === 'submitted').length,
    );
    expect(value('In flight', 'Stalled')).toBe(inFlight.filter((a) => a.sync_state === 'stalled').length);
    const oldest = Math.min(...inFlight.map((a) => a.submitted_at ?? Number.POSITIVE_INFINITY));
    expect(localWallClock(value('In flight', 'Oldest in flight since'))).toBe(wallClock(oldest));
    const nextDue = Math.min(...inFlight.map((a) => a.next_poll_at ?? Number.POSITIVE_INFINITY));
    expect(localWallClock(value('In flight', 'Next status check due'))).toBe(wallClock(nextDue));
    expect(value('Issues', 'Rows on the Issues sheet')).toBe(readSheet(workbook, 'Issues').rows.length);
  });

  it('draws three charts on the Overview, the channel chart from the By Channel figures', () => {
    const sheet = readSheet(workbook, 'Overview').sheet;
    const images = sheet.getImages();
    expect(images).toHaveLength(3);
    for (const image of images) {
      const media = workbook.getImage(Number(image.imageId));
      expect(media.extension).toBe('png');
      expect((media.buffer as unknown as Buffer).subarray(1, 4).toString()).toBe('PNG');
      // To the right of the table (columns A–D), so no figure is hidden behind a chart.
      expect(image.range.tl.nativeCol).toBeGreaterThanOrEqual(4);
    }
    const byChannel = readSheet(workbook, 'By Channel').rows.filter(
      (r) => r[0] !== '(none)' && r[4] !== null,
    );
    const bars = scoreBars(channelRollup(db));
    expect(new Map(bars.map((b) => [b.label, b.value]))).toEqual(
      new Map(byChannel.map((r) => [r[0] as string, r[4] as number])),
    );
    expect(bars.map((b) => b.value)).toEqual([...bars.map((b) => b.value)].sort((a, b) => b - a));
  });

  it('lists every issue with what to do: manifest rows, problem assets (newest only) and inconsistencies', () => {
    const rows = records(readSheet(workbook, 'Issues'));
    const brief = rows.map((r) => [
      r.Kind,
      r.Severity,
      r['Manifest file'],
      r.Line,
      r.Field,
      r['Asset ID'],
      r['Trace ID'],
    ]);
    expect(brief).toEqual([
      ['Manifest row warning', 'warning', 'manifests/spring.csv', 3, 'channels', null, null],
      ['Manifest row rejected', 'error', 'manifests/spring.csv', 14, 'url', null, null],
      ['Asset rejected by the service', 'error', 'manifests/spring.csv', null, null, 'rej-1', 'tr-rej'],
      ['Asset in a workspace not ours', 'error', 'manifests/spring.csv', null, null, 'forb-1', 'tr-forb'],
      ['Asset unsupported', 'error', 'manifests/spring.csv', null, null, 'hero-4', null],
      ['Asset failed', 'error', 'manifests/spring.csv', null, null, 'hero-5', null],
      ['Asset stalled', 'warning', 'manifests/spring.csv', null, null, 'stall-1', null],
      ['Score inconsistency', 'warning', null, null, null, 'hero-3', null],
    ]);
    expect(rows[1]?.Value).toBe('=cmd|calc');
    expect(rows[2]?.['What happened']).toBe('workspaceId must be a number');
    expect(rows[7]).toMatchObject({
      Channel: 'META',
      'What happened': 'count_mismatch: summary says 5 passes, detail 4',
    });
    for (const r of rows) expect(String(r['What to do']).length, String(r.Kind)).toBeGreaterThan(20);

    const independent = db.$client
      .prepare<[], { n: number }>(
        `SELECT (SELECT COUNT(*) FROM manifest_errors)
           + (SELECT COUNT(*) FROM assets a WHERE sync_state IN ('rejected','forbidden','unsupported','failed','stalled')
                AND NOT EXISTS (SELECT 1 FROM assets b WHERE b.client_id = a.client_id AND b.source = a.source AND b.id > a.id))
           + (SELECT COUNT(*) FROM asset_issues i JOIN assets a ON a.id = i.asset_id
                WHERE NOT EXISTS (SELECT 1 FROM assets b WHERE b.client_id = a.client_id AND b.source = a.source AND b.id > a.id)) AS n`,
      )
      .get()?.n;
    expect(rows).toHaveLength(independent as number);
  });
});

describe('continuation sheets', () => {
  it('splits Assets over `Assets (2)`… at the row limit, each part saying where the rest is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'creative-split-'));
    const db = openDatabase(':memory:');
    try {
      seedAll(db);
      const now = new Date(T0);
      const whole = await writeReport(db, {
        reportDir: join(dir, 'a'),
        runDate: now,
        demo: false,
        generatedAt: now,
      });
      const split = await writeReport(db, {
        reportDir: join(dir, 'b'),
        runDate: now,
        demo: false,
        generatedAt: now,
        maxRowsPerSheet: 10,
      });
      const all = readSheet(await readWorkbook(whole.path), 'Assets').rows;
      expect(all).toHaveLength(newestAssets(db.$client).size);
      const book = await readWorkbook(split.path);
      const parts = book.worksheets.filter((s) => s.name.startsWith('Assets'));
      expect(parts.map((s) => s.name)).toEqual(['Assets', 'Assets (2)']);
      // 10 rows a sheet: title, note, header and 7 assets.
      const [first, second] = parts.map((s) => readSheet(book, s.name));
      expect(first?.rows).toHaveLength(7);
      expect(first?.sheet.rowCount).toBe(10);
      expect([...(first?.rows ?? []), ...(second?.rows ?? [])]).toEqual(all);
      expect(first?.note).toMatch(/^Part 1 of 2: rows 1–7 of 13; .* the others are on 'Assets \(2\)'\./);
      expect(second?.note).toMatch(/^Part 2 of 2: rows 8–13 of 13; .*'Assets'\./);
      expect(second?.header).toEqual(first?.header);
      expect(split.sheets.filter((s) => s.name.startsWith('Assets')).map((s) => s.rows)).toEqual([7, 6]);
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('all versions', () => {
  it('counts every version when the setting says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'creative-versions-'));
    const db = openDatabase(':memory:');
    try {
      seedAll(db);
      const now = new Date(T0);
      const { path } = await writeReport(db, {
        reportDir: dir,
        runDate: now,
        demo: false,
        generatedAt: now,
        allVersions: true,
      });
      const book = await readWorkbook(path);
      const total = db.select().from(assets).all().length;
      expect(readSheet(book, 'Assets').rows).toHaveLength(total);
      const brands = new Map(records(readSheet(book, 'By Brand')).map((r) => [r.Brand, r]));
      // Only hero-1 v1 has Oldbrand; it counts now.
      expect(brands.get('Oldbrand')?.Assets).toBe(1);
      expect(readSheet(book, 'By Brand').note).toContain('Every version of each asset counts');
      const issues = records(readSheet(book, 'Issues'));
      expect(issues.map((r) => r['Asset ID'])).toContain('fixed-1');
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sheet names and text from outside', () => {
  it('cleans and de-duplicates the names builders give, and writes formula-like text as text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'creative-names-'));
    const db = openDatabase(':memory:');
    try {
      const path = join(dir, 'names.xlsx');
      const stream = createWriteStream(path);
      const closed = once(stream, 'close');
      const table = (name: string) => ({
        name,
        build: (ctx: Parameters<typeof writeTable>[0]) =>
          writeTable(
            ctx,
            { name, title: 'T', note: 'N', columns: [{ header: 'Text', width: 20, kind: 'text' }] },
            [['=SUM(A1:A2)'], ['+1'], ['-1'], ['@cmd'], ['\t=1'], ['\r=2']],
          ),
      });
      await writeWorkbook(db, stream, { demo: false, generatedAt: new Date(T0) }, [
        table('Tags: [draft]/2025?'),
        table("'History'"),
        table('tags- -draft--2025-'),
        table('A guideline name that is far too long for a sheet'),
        table('TAGS- -DRAFT--2025-'),
      ]);
      await closed;
      const book = await readWorkbook(path);
      expect(book.worksheets.map((s) => s.name)).toEqual([
        'Tags- -draft--2025-',
        'History-',
        'tags- -draft--2025- (2)',
        'A guideline name that is far to',
        'TAGS- -DRAFT--2025- (3)',
      ]);
      const values: ReadValue[] = readSheet(book, 'History-').rows.map((r) => r[0] ?? null);
      expect(values).toEqual(['=SUM(A1:A2)', '+1', '-1', '@cmd', '\t=1', '\n=2']);
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a long table', () => {
  it('is written whole and in order, past the points where it waits for the zip', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'creative-long-'));
    const db = openDatabase(':memory:');
    try {
      const path = join(dir, 'long.xlsx');
      const stream = createWriteStream(path);
      const closed = once(stream, 'close');
      const rows = Array.from({ length: 20_000 }, (_, i) => [
        `asset-${i}`,
        i,
        `a note long enough to deflate slowly ${i}`,
      ]);
      await writeWorkbook(db, stream, { demo: false, generatedAt: new Date(T0) }, [
        {
          name: 'Long',
          build: (ctx: Parameters<typeof writeTable>[0]) =>
            writeTable(
              ctx,
              {
                name: 'Long',
                title: 'T',
                note: 'N',
                columns: [
                  { header: 'Asset', width: 20, kind: 'text' },
                  { header: 'N', width: 10, kind: 'integer' },
                  { header: 'Note', width: 40, kind: 'text' },
                ],
              },
              rows,
            ),
        },
      ]);
      await closed;
      const sheet = readSheet(await readWorkbook(path), 'Long');
      expect(sheet.rows).toHaveLength(20_000);
      expect(sheet.rows[0]).toEqual(['asset-0', 0, 'a note long enough to deflate slowly 0']);
      expect(sheet.rows[19_999]).toEqual([
        'asset-19999',
        19_999,
        'a note long enough to deflate slowly 19999',
      ]);
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The wall-clock time a local-time Excel date stands for, to the minute. */
function localWallClock(value: unknown): string {
  if (!(value instanceof Date)) throw new Error(`not a date: ${String(value)}`);
  return value.toISOString().slice(0, 16);
}
function wallClock(ms: number): string {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()))
    .toISOString()
    .slice(0, 16);
}
