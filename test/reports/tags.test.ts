// Tags, Tags by Brand, Tags by Channel and the Assets sheet's Tags column, checked against the raw tag rows
// aggregated in JavaScript (no window functions, no src/reports SQL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/open';
import { creativeTags, tagJobs } from '../../src/db/schema';
import { writeReport } from '../../src/reports/write-report';
import { newestAssets } from './expected';
import { seed, T0 } from './fixture';
import { readSheet, readWorkbook, records } from './read-back';

const TOP = 20;

interface ExpectedTag {
  key: string;
  tagType: string;
  tagName: string;
  creatives: number;
  rows: number;
  meanConfidence: number | null;
}

/** Tag rows for the assets at these seed positions; hero-6 (position 5) gets none. */
function seedTags(db: Db, ids: number[]): void {
  const job = db
    .insert(tagJobs)
    .values({ state: 'completed', creativeCount: ids.length, createdAt: T0 })
    .returning({ id: tagJobs.id })
    .get();
  ids.forEach((assetId, i) => {
    if (i === 5) return;
    // More than TOP distinct tags for the bigger assets, so the per-group cut is exercised.
    for (let k = 0; k < 8 + 4 * i; k += 1) {
      for (let r = 0; r < 1 + (k % 3); r += 1) {
        db.insert(creativeTags)
          .values({
            tagJobId: job.id,
            assetId,
            creativeId: String(assetId),
            tagType: k % 2 === 0 ? 'label' : 'object',
            tagName: `tag-${String(k).padStart(2, '0')}`,
            confidence: (k + i + r) % 7 === 0 ? null : ((k + i + r) % 10) / 10,
            raw: {},
          })
          .run();
      }
    }
  });
}

/** Aggregates the counted assets' raw tag rows per (group, type, name) and keeps each group's top `limit`. */
function expectedTags(db: Db, groupSql: string | null, limit: number): ExpectedTag[] {
  const newest = newestAssets(db.$client);
  const groups = new Map<number, string[]>();
  for (const id of newest.keys()) groups.set(id, []);
  if (groupSql) {
    for (const g of db.$client.prepare<[], { asset_id: number; value: string }>(groupSql).all()) {
      groups.get(g.asset_id)?.push(g.value);
    }
  }
  const tags = db.$client
    .prepare<[], { asset_id: number; tag_type: string; tag_name: string; confidence: number | null }>(
      'SELECT asset_id, tag_type, tag_name, confidence FROM creative_tags',
    )
    .all();
  const acc = new Map<string, { e: ExpectedTag; assets: Set<number>; confidences: number[] }>();
  for (const t of tags) {
    const keys = groups.get(t.asset_id);
    if (!keys) continue; // not a counted asset
    for (const key of groupSql ? (keys.length ? keys : ['(none)']) : ['all']) {
      const id = JSON.stringify([key, t.tag_type, t.tag_name]);
      let a = acc.get(id);
      if (!a) {
        a = {
          e: { key, tagType: t.tag_type, tagName: t.tag_name, creatives: 0, rows: 0, meanConfidence: null },
          assets: new Set(),
          confidences: [],
        };
        acc.set(id, a);
      }
      a.e.rows += 1;
      a.assets.add(t.asset_id);
      if (t.confidence !== null) a.confidences.push(t.confidence);
    }
  }
  const all = [...acc.values()].map(({ e, assets, confidences }) => ({
    ...e,
    creatives: assets.size,
    meanConfidence: confidences.length ? confidences.reduce((x, y) => x + y, 0) / confidences.length : null,
  }));
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  all.sort(
    (a, b) =>
      cmp(a.key, b.key) ||
      b.creatives - a.creatives ||
      b.rows - a.rows ||
      cmp(a.tagType, b.tagType) ||
      cmp(a.tagName, b.tagName),
  );
  const kept = new Map<string, number>();
  return all.filter((e) => {
    const n = (kept.get(e.key) ?? 0) + 1;
    kept.set(e.key, n);
    return n <= limit;
  });
}

describe('the tag sheets', () => {
  let dir: string;
  let db: Db;
  let ids: number[];
  let workbook: ExcelJS.Workbook;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'creative-report-'));
    db = openDatabase(':memory:');
    ids = seed(db);
    seedTags(db, ids);
    const now = new Date(T0);
    const { path } = await writeReport(db, { reportDir: dir, runDate: now, demo: false, generatedAt: now });
    workbook = await readWorkbook(path);
  });

  afterAll(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function compare(sheet: string, groupHeader: string | null, expected: ExpectedTag[]): void {
    const rows = records(readSheet(workbook, sheet));
    const key = (r: Record<string, unknown>) => (groupHeader ? String(r[groupHeader]) : 'all');
    // Sheet order within a group is the rank; groups are by name with (none) last.
    const byGroup = (xs: { key: string }[]) => [...new Set(xs.map((x) => x.key))].sort();
    expect(byGroup(rows.map((r) => ({ key: key(r) })))).toEqual(byGroup(expected));
    const actual = rows.map((r) => ({
      key: key(r),
      tagType: r['Tag type'],
      tagName: r['Tag name'],
      creatives: r['Creatives tagged'],
      rows: r.Rows,
    }));
    const sortedActual = [...actual].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    expect(sortedActual).toEqual(expected.map(({ meanConfidence: _, ...e }) => e));
    expected.forEach((e, i) => {
      const row = rows.find(
        (r) => key(r) === e.key && r['Tag type'] === e.tagType && r['Tag name'] === e.tagName,
      );
      const context = `${sheet} / ${e.key} / ${e.tagType}:${e.tagName} (${i})`;
      if (e.meanConfidence === null) expect(row?.['Mean confidence'], context).toBeNull();
      else expect(row?.['Mean confidence'] as number, context).toBeCloseTo(e.meanConfidence, 10);
    });
  }

  it('Tags matches the raw rows of the counted assets', () => {
    compare('Tags', null, expectedTags(db, null, Number.POSITIVE_INFINITY));
  });

  it('Tags by Brand has each brand’s top 20 tags, matching the raw rows', () => {
    const expected = expectedTags(db, 'SELECT asset_id, brand AS value FROM asset_brands', TOP);
    compare('Tags by Brand', 'Brand', expected);
    const rows = records(readSheet(workbook, 'Tags by Brand'));
    // Acme has more than 20 distinct tags, cut at 20 and ranked 1…20; the old version's Oldbrand is absent.
    const acme = rows.filter((r) => r.Brand === 'Acme');
    expect(acme.map((r) => r.Rank)).toEqual(Array.from({ length: TOP }, (_, i) => i + 1));
    expect(rows.some((r) => r.Brand === 'Oldbrand')).toBe(false);
    expect(rows.at(-1)?.Brand).toBe('(none)');
    expect(readSheet(workbook, 'Tags by Brand').note).toContain('top 20 tags');
  });

  it('Tags by Channel has each channel’s top 20 tags, matching the raw rows', () => {
    const expected = expectedTags(db, 'SELECT asset_id, channel AS value FROM asset_channels', TOP);
    compare('Tags by Channel', 'Channel', expected);
    const read = readSheet(workbook, 'Tags by Channel');
    expect(read.header).toEqual([
      'Channel',
      'Rank',
      'Tag type',
      'Tag name',
      'Creatives tagged',
      'Rows',
      'Mean confidence',
    ]);
    expect(read.note).toContain('top 20 tags');
  });

  it('the Assets sheet counts each asset’s tag rows, 0 when it has none', () => {
    const rows = records(readSheet(workbook, 'Assets'));
    const count = (id: number) =>
      db.$client
        .prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM creative_tags WHERE asset_id = ?')
        .get(id)?.n;
    const names = db.$client
      .prepare<[], { id: number; client_id: string; source: string; version: string }>(
        'SELECT id, client_id, source, version FROM assets',
      )
      .all();
    for (const id of newestAssets(db.$client).keys()) {
      const a = names.find((n) => n.id === id);
      const row = rows.find(
        (r) => r.ID === a?.client_id && (r.Source ?? '') === a?.source && (r.Version ?? '') === a?.version,
      );
      expect(row?.Tags, `asset ${a?.client_id}/${a?.source}/${a?.version}`).toBe(count(id));
    }
    expect(rows.find((r) => r.ID === 'hero-6')?.Tags).toBe(0);
    // hero-1 v2 is the last seeded asset: 8 + 4·7 = 36 tags, rows 1+(k%3) each.
    const v2 = rows.find((r) => r.ID === 'hero-1' && r.Version === 'v2');
    expect(v2?.Tags).toBe(Array.from({ length: 36 }, (_, k) => 1 + (k % 3)).reduce((x, y) => x + y, 0));
  });
});
