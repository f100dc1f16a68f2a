// Tagging end to end: manifests → Aperture jobs → CSV reports from storage → creative_tags,
// against the simulator on loopback, in both answer styles, with its faults.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  assetBrands,
  assetChannels,
  assetMarkets,
  assets,
  creativeTags,
  runs,
  tagJobCreatives,
  tagJobs,
} from '../../src/db/schema';
import { tagRollup } from '../../src/reports/sheets/tags';
import { DEMO_API_KEY } from '../../src/simulator';
import { ApiClient } from '../../src/sync/api/client';
import { pollPolicy } from '../../src/sync/polling';
import { nextTagWorkAt, tagAssets, taggingDetails } from '../../src/sync/tagging';
import { type Harness, harnessPerTest, silentLog } from './harness';

const header = 'id,version,source,url,channels,brands,markets,name';
const manifest = [
  header,
  'A-1,v1,dam,https://cdn.example.com/a1.mp4,META;TIKTOK,Brand A,US,Spot one',
  'A-2,v1,dam,https://cdn.example.com/a2.jpg,TIKTOK;META,Brand A,US,Still two',
  'A-3,v1,dam,https://cdn.example.com/a3.mp4,META,Brand A,UK,Spot three',
  'B-1,,,https://cdn.example.com/b1.mov,META;X,Brand B,DE;FR,Film',
].join('\n');

/** A fresh world for one test, closed after it. */
const world = harnessPerTest();

/** Assets as intake leaves them: the row, and its brands, markets and channels. */
function seed(
  h: Harness,
  rows: { id: string; url: string; brands?: string[]; markets?: string[]; channels?: string[] }[],
) {
  const now = h.clock.now();
  for (const row of rows) {
    const { id } = h.db
      .insert(assets)
      .values({
        clientId: row.id,
        version: 'v1',
        source: 'dam',
        url: row.url,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: assets.id })
      .get();
    for (const [table, values] of [
      [assetBrands, row.brands],
      [assetMarkets, row.markets],
      [assetChannels, row.channels],
    ] as const) {
      for (const value of values ?? []) h.db.insert(table).values({ assetId: id, value }).run();
    }
  }
}

/**
 * A run of the tagging stage alone, as runOnce drives it: a run record, a fresh client (a new
 * process), and rounds until tagging has nothing left to wait for. Returns the run's tagging counts.
 */
async function tagRun(h: Harness, options: { batchSize?: number } = {}): Promise<Record<string, number>> {
  const runId = h.db
    .insert(runs)
    .values({ startedAt: h.clock.now(), mode: 'live' })
    .returning({ id: runs.id })
    .get().id;
  const api = new ApiClient({
    baseUrl: h.simulator.url,
    apiKey: DEMO_API_KEY,
    requestsPerSecond: 1000,
    concurrency: 8,
  });
  const ctx = { db: h.db, api, clock: h.clock, policy: pollPolicy(h.config), log: silentLog };
  const totals: Record<string, number> = {};
  for (let round = 0; round < 100; round++) {
    const counts = await tagAssets(ctx, { runId, enabled: true, batchSize: options.batchSize ?? 200 });
    for (const [key, n] of Object.entries(taggingDetails(counts))) totals[key] = (totals[key] ?? 0) + n;
    const next = nextTagWorkAt(h.db, { enabled: true });
    if (next === null) return totals;
    await h.clock.sleep(Math.max(0, next - h.clock.now()));
  }
  throw new Error('tagging never settled');
}

const one = [{ id: 'A-1', url: 'https://cdn.example.com/a1.mp4', brands: ['Brand A'] }];

/** The rows the simulator generated for every job it was asked to make. */
function generatedRows(h: Harness): number {
  return h.simulator.aperture.jobs().reduce((n, j) => n + h.simulator.aperture.reportRowCount(j.jobId), 0);
}

function assetId(h: Harness, clientId: string): number {
  return h.db.select().from(assets).where(eq(assets.clientId, clientId)).get()?.id as number;
}

describe('tagging in a run', () => {
  it.each(['spec', 'live'] as const)(
    'brings every generated tag row home, linked to its asset, in the %s dialect',
    async (dialect) => {
      const h = await world({ simulator: { dialect } });
      h.manifest('spring.csv', manifest);

      const { run } = await h.run();

      // Grouped by identical client tags: share brand, market and channels.
      const jobs = h.simulator.aperture.jobs();
      expect(jobs.map((j) => j.creatives.map((c) => c.id))).toEqual([['A-1', 'A-2'], ['A-3'], ['B-1']]);
      expect(jobs[0]?.clientTags).toEqual({ brand: 'Brand A', market: 'US', channels: 'META;TIKTOK' });
      expect(jobs[2]?.clientTags).toEqual({ brand: 'Brand B', market: 'DE;FR', channels: 'META;X' });

      const rows = h.db.select().from(creativeTags).all();
      expect(rows.length).toBe(generatedRows(h));
      expect(rows.length).toBeGreaterThan(4 * 100);
      const ids = new Map(
        h.db
          .select()
          .from(assets)
          .all()
          .map((a) => [a.clientId, a.id]),
      );
      expect(rows.filter((row) => row.assetId !== ids.get(row.creativeId as string))).toEqual([]);
      // The known columns are mapped, whatever the dialect calls them, and each row is kept whole.
      const first = rows[0];
      expect(first?.tagType).toMatch(/^[A-Z]+$/);
      expect(first?.tagName).toBeTruthy();
      expect(first?.confidence).toBeGreaterThanOrEqual(0.5);
      expect(first?.confidence).toBeLessThan(1);
      expect(Object.keys(first?.raw ?? {}).length).toBe(dialect === 'live' ? 8 : 7);
      const still = rows.filter((r) => r.assetId === assetId(h, 'A-2'));
      expect(still.every((r) => r.startTime === null)).toBe(true);
      expect(rows.filter((r) => r.assetId === assetId(h, 'A-1')).every((r) => r.endTime !== null)).toBe(true);

      const stored = h.db.select().from(tagJobs).all();
      expect(stored.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
      expect(stored.map((j) => j.jobId)).toEqual(jobs.map((j) => j.jobId));
      expect(stored.every((j) => j.message?.startsWith('Processed'))).toBe(true);
      expect(run.details).toMatchObject({ tagJobsSubmitted: 3, tagJobsCompleted: 3, tagRows: rows.length });
      expect(run.stillInFlight).toBe(0);

      // Polled no more often than the polite interval.
      const polls = h.simulator.requests().filter((r) => r.path.startsWith('/v1/media/aperture/'));
      for (const job of jobs) {
        const times = polls.filter((p) => p.path.endsWith(job.jobId)).map((p) => p.at);
        for (let i = 1; i < times.length; i++) {
          expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(600_000);
        }
      }
    },
  );

  it('never sends the API key to the storage host', async () => {
    const h = await world();
    h.manifest('spring.csv', manifest);
    await h.run();
    const downloads = h.simulator.aperture.storageRequests();
    expect(downloads.length).toBe(3);
    expect(new URL(h.simulator.aperture.storageUrl).hostname).not.toBe(new URL(h.simulator.url).hostname);
    for (const request of downloads) expect(request.headers.authorization).toBeUndefined();
    // …while every API request carried it.
    expect(h.simulator.requests().every((r) => typeof r.headers.authorization === 'string')).toBe(true);
  });
});

// The stage alone, on assets as intake leaves them: each behaviour without the rest of a run.
describe('the tagging stage', () => {
  it('brings every generated row home, linked to its asset, in both dialects', async () => {
    for (const dialect of ['spec', 'live'] as const) {
      const h = await world({ simulator: { dialect } });
      seed(h, [
        { id: 'A-1', url: 'https://cdn.example.com/a1.mp4', brands: ['Brand A'], channels: ['META'] },
        { id: 'A-2', url: 'https://cdn.example.com/a2.jpg', brands: ['Brand A'], channels: ['META'] },
        { id: 'B-1', url: 'https://cdn.example.com/b1.mp4', brands: ['Brand B'], markets: ['DE'] },
      ]);
      const totals = await tagRun(h);
      const jobs = h.simulator.aperture.jobs();
      expect(jobs.map((j) => j.creatives.map((c) => c.id))).toEqual([['A-1', 'A-2'], ['B-1']]);
      const rows = h.db.select().from(creativeTags).all();
      expect(rows.length).toBe(generatedRows(h));
      const ids = new Map(
        h.db
          .select()
          .from(assets)
          .all()
          .map((a) => [a.clientId, a.id]),
      );
      expect(rows.filter((row) => row.assetId !== ids.get(row.creativeId as string))).toEqual([]);
      expect(totals).toMatchObject({ tagJobsSubmitted: 2, tagJobsCompleted: 2, tagRows: rows.length });
      for (const request of h.simulator.aperture.storageRequests()) {
        expect(request.headers.authorization).toBeUndefined();
      }
    }
  });

  it('asks the job for a fresh link when the report link has expired, and downloads the report once', async () => {
    const h = await world();
    seed(h, one);
    h.simulator.aperture.faults.expiredLinks = 1;

    const totals = await tagRun(h);

    const downloads = h.simulator.aperture.storageRequests();
    expect(downloads.map((d) => d.status)).toEqual([403, 200]);
    expect(h.db.select().from(creativeTags).all().length).toBe(generatedRows(h));
    expect(totals).toMatchObject({ tagReportLinksRefreshed: 1, tagReportsDownloaded: 1 });
  });

  it('records the creatives a partly failed job could not tag, with the reason, and keeps the others’ tags', async () => {
    const h = await world();
    seed(h, [
      { id: 'A-1', url: 'https://cdn.example.com/a1.mp4' },
      { id: 'A-9', url: 'https://cdn.example.com/corrupt/a9.mp4' },
    ]);

    await tagRun(h);

    const creatives = h.db.select().from(tagJobCreatives).orderBy(tagJobCreatives.creativeId).all();
    expect(creatives.map((c) => [c.creativeId, c.state, c.error])).toEqual([
      ['A-1', 'tagged', null],
      ['A-9', 'failed', 'Media could not be downloaded from the url'],
    ]);
    const rows = h.db.select().from(creativeTags).all();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBe(generatedRows(h));
    expect(rows.every((r) => r.assetId === assetId(h, 'A-1'))).toBe(true);
    expect(h.db.select().from(tagJobs).get()?.state).toBe('completed');
  });

  it('marks every creative of a FAILED job failed, with its reason', async () => {
    const h = await world();
    seed(h, [{ id: 'A-9', url: 'https://cdn.example.com/corrupt/a9.mp4' }]);
    const totals = await tagRun(h);
    expect(h.db.select().from(tagJobs).get()).toMatchObject({ state: 'failed', remoteStatus: 'FAILED' });
    expect(h.db.select().from(tagJobCreatives).get()).toMatchObject({
      state: 'failed',
      error: 'Media could not be downloaded from the url',
    });
    expect(totals).toMatchObject({ tagJobsFailed: 1, creativesTagFailed: 1 });
  });

  it('after a lost submission answer, a later run resubmits once, and tags the creatives', async () => {
    const h = await world();
    seed(h, one);
    // The job is made at the service, then the connection is reset before the answer.
    h.simulator.aperture.faults.resetAfterCreate = 1;

    const first = await tagRun(h);
    expect(h.simulator.aperture.jobs()).toHaveLength(1);
    expect(
      h.db
        .select()
        .from(tagJobs)
        .all()
        .map((j) => j.state),
    ).toEqual(['ambiguous']);
    expect(first).toMatchObject({ tagJobsAmbiguous: 1, tagJobsSubmitted: 0 });
    expect(h.db.select().from(creativeTags).all()).toHaveLength(0);

    const second = await tagRun(h);
    expect(h.simulator.aperture.jobs()).toHaveLength(2);
    expect(
      h.db
        .select()
        .from(tagJobs)
        .all()
        .map((j) => j.state),
    ).toEqual(['abandoned', 'completed']);
    expect(second).toMatchObject({ tagJobsResubmitted: 1, tagJobsSubmitted: 1 });
    const jobs = h.simulator.aperture.jobs();
    expect(h.db.select().from(creativeTags).all()).toHaveLength(
      h.simulator.aperture.reportRowCount(jobs[1]?.jobId as string),
    );

    await tagRun(h);
    expect(h.simulator.aperture.jobs()).toHaveLength(2);
  });

  it('gives up, saying what to do, when the one resubmission loses its answer too', async () => {
    const h = await world();
    seed(h, one);
    h.simulator.aperture.faults.resetAfterCreate = 2;

    for (let run = 0; run < 4; run++) await tagRun(h);

    expect(h.simulator.aperture.jobs()).toHaveLength(2);
    expect(
      h.db
        .select()
        .from(tagJobs)
        .all()
        .map((j) => j.state),
    ).toEqual(['abandoned', 'abandoned']);
    const creative = h.db.select().from(tagJobCreatives).where(eq(tagJobCreatives.tagJobId, 2)).get();
    expect(creative?.state).toBe('failed');
    expect(creative?.error).toMatch(/give it a new version/);
  });

  it('treats an intent left mid-POST by a killed process as ambiguous: one extra job at most', async () => {
    const h = await world();
    seed(h, one);
    h.simulator.aperture.faults.resetAfterCreate = 1;
    await tagRun(h);
    // What a process killed after sending leaves behind: the intent, its attempt counted, no outcome.
    h.db.update(tagJobs).set({ state: 'intent', lastError: null, lastErrorKind: null }).run();
    expect(h.db.select().from(tagJobs).get()?.submitAttempts).toBe(1);

    const next = await tagRun(h);
    await tagRun(h);

    expect(next).toMatchObject({ tagJobsAmbiguous: 1, tagJobsResubmitted: 1 });
    expect(h.simulator.aperture.jobs()).toHaveLength(2);
    expect(
      h.db
        .select()
        .from(tagJobs)
        .all()
        .map((j) => j.state),
    ).toEqual(['abandoned', 'completed']);
    expect(h.db.select().from(creativeTags).all().length).toBeGreaterThan(0);
  });

  it('never sends two jobs for the same creatives in one run, and never tags an asset twice', async () => {
    const h = await world();
    seed(h, one);
    h.simulator.aperture.faults.resetAfterCreate = 1;
    await tagRun(h);
    // Even with time passing within the run, the ambiguous job waits for a later run.
    expect(h.simulator.aperture.jobs()).toHaveLength(1);
    await tagRun(h);
    await tagRun(h);
    expect(h.simulator.aperture.jobs()).toHaveLength(2);
  });

  it('rolls the rows up per tag for the Tags sheet', async () => {
    const h = await world();
    seed(h, [
      { id: 'A-1', url: 'https://cdn.example.com/a1.mp4' },
      { id: 'A-2', url: 'https://cdn.example.com/a2.mp4' },
    ]);
    await tagRun(h);
    const rollup = tagRollup(h.db, { allVersions: false });
    const rows = h.db.select().from(creativeTags).all();
    expect(rollup.reduce((n, r) => n + r.rows, 0)).toBe(rows.length);
    const top = rollup[0];
    const ofTop = rows.filter((r) => r.tagType === top?.tagType && r.tagName === top?.tagName);
    expect(top?.creatives).toBe(new Set(ofTop.map((r) => r.assetId)).size);
    const mean = ofTop.reduce((n, r) => n + (r.confidence ?? 0), 0) / ofTop.length;
    expect(top?.meanConfidence).toBeCloseTo(mean, 10);
    expect(rollup.map((r) => r.creatives)).toEqual([...rollup.map((r) => r.creatives)].sort((a, b) => b - a));
  });

  it('cuts jobs at the batch size', async () => {
    const h = await world();
    seed(
      h,
      Array.from({ length: 5 }, (_, i) => ({
        id: `A-${i}`,
        url: `https://cdn.example.com/a${i}.mp4`,
        brands: ['X'],
      })),
    );
    await tagRun(h, { batchSize: 2 });
    expect(h.simulator.aperture.jobs().map((j) => j.creatives.length)).toEqual([2, 2, 1]);
  });

  it('replaces a job’s rows when its report is downloaded again, never duplicates them', async () => {
    const h = await world();
    seed(h, one);
    await tagRun(h);
    const before = h.db.select().from(creativeTags).all().length;
    h.db.update(tagJobs).set({ state: 'submitted', nextPollAt: h.clock.now() }).run();

    await tagRun(h);

    expect(h.simulator.aperture.storageRequests()).toHaveLength(2);
    expect(h.db.select().from(creativeTags).all().length).toBe(before);
  });
});
