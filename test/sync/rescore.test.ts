import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assets, guidelineResults } from '../../src/db/schema';
import {
  createRescoreVersions,
  rescoreLaterCandidates,
  rescoreVersion,
  selectForRescore,
} from '../../src/sync/rescore';
import { readSheet, readWorkbook, records } from '../reports/read-back';
import { harnessPerTest } from './harness';

/** A fresh harness for one test, closed after it. */
const harness = harnessPerTest();

async function scoredWorld() {
  const h = await harness();
  h.manifest(
    'm.csv',
    [
      'id,version,url,channels,brands',
      'R-1,v1,https://cdn.example.com/r1.mp4,META;TIKTOK,Brand A',
      'R-2,v1,https://cdn.example.com/r2.mp4,META,Brand A',
      'R-3,,https://cdn.example.com/r3.jpg,META,Brand B',
    ].join('\n'),
  );
  await h.run();
  return h;
}

describe('rescore', () => {
  it('labels a new version after the old one and the date, and never reuses a label', () => {
    const taken = new Set(['v1+rescore-2026-11-22']);
    expect(rescoreVersion('v1', '2026-11-22', (l) => taken.has(l))).toBe('v1+rescore-2026-11-22-2');
    expect(rescoreVersion('', '2026-11-22', () => false)).toBe('rescore-2026-11-22');
  });

  it('creates new versions that the next run submits; rollups then count only the newest version', async () => {
    const h = await scoredWorld();
    const createdBefore = h.simulator.stats().mediaCreated;
    const picks = selectForRescore(h.db, { brands: ['Brand A'] });
    expect(picks.map((p) => [p.clientId, p.reason])).toEqual([
      ['R-1', 'brand Brand A'],
      ['R-2', 'brand Brand A'],
    ]);

    const created = createRescoreVersions(h.db, picks, { now: h.clock.now(), date: '2026-11-22' });
    expect(created.map((c) => c.version)).toEqual(['v1+rescore-2026-11-22', 'v1+rescore-2026-11-22']);
    const fresh = h.db.select().from(assets).where(eq(assets.version, 'v1+rescore-2026-11-22')).all();
    expect(fresh.map((a) => a.syncState)).toEqual(['pending', 'pending']);

    const { run, reportPath } = await h.run();
    expect(run.submitted).toBe(2);
    expect(h.simulator.stats().mediaCreated).toBe(createdBefore + 2);
    // The old versions keep their results as history…
    const old = h.db.select().from(assets).where(eq(assets.version, 'v1')).all();
    expect(old.every((a) => a.syncState === 'scored')).toBe(true);
    expect(
      h.db
        .select()
        .from(guidelineResults)
        .where(eq(guidelineResults.assetId, old[0]?.id as number))
        .all().length,
    ).toBeGreaterThan(0);
    // …but the rollups count each asset once, by its newest version.
    const byBrand = records(readSheet(await readWorkbook(reportPath as string), 'By Brand'));
    expect(byBrand.find((r) => r.Brand === 'Brand A')?.Assets).toBe(2);
    expect(byBrand.find((r) => r.Brand === 'Brand B')?.Assets).toBe(1);
  });

  it('picks assets whose results carry a "rescore later" code, with the codes as the reason', async () => {
    const h = await scoredWorld();
    const laterRows = h.db
      .select({ assetId: guidelineResults.assetId, result: guidelineResults.result })
      .from(guidelineResults)
      .all()
      .filter((r) =>
        [
          'NO_DATA',
          'NO_DATA_NEW_CRITERIA',
          'NO_DATA_MISSING_REQUIRED_TAGS',
          'NO_DATA_ERROR_RETRIEVING_TAGS',
          'NO_DATA_MEDIA_NOT_TAGGED',
          'NO_DATA_SCORING_BACKLOG',
        ].includes(r.result),
      );
    // The simulator's deterministic results include such codes for these assets.
    expect(laterRows.length).toBeGreaterThan(0);
    const candidates = rescoreLaterCandidates(h.db);
    expect(candidates.map((c) => c.assetId).sort()).toEqual(
      [...new Set(laterRows.map((r) => r.assetId))].sort(),
    );
    for (const c of candidates) expect(c.reason).toMatch(/^NO_DATA\S* on [A-Z0-9_]+/);
  });
});
