import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assets, channelScores, guidelineResults, manifestErrors, runs } from '../../src/db/schema';
import { FatalRunError } from '../../src/sync/failures';
import { type Harness, harnessPerTest, withStaleWorkspace } from './harness';

const header = 'id,version,source,url,workspaceId,channels,brands,markets,name';
const manifest = [
  header,
  'A-1,v1,dam,https://cdn.example.com/a1.mp4,1201,META;TIKTOK,Brand A,US,Spot one',
  'A-2,v1,dam,https://cdn.example.com/a2.jpg,1202,,Brand A,UK,Still two',
  'B-1,,,https://cdn.example.com/b1.mov,,META;X,Brand B,DE;FR,Film',
  'B-2,v1,dam,https://cdn.example.com/b2.pdf,,META,Brand B,DE,Storyboard',
  'B-3,v1,dam,https://cdn.example.com/corrupt/b3.mp4,1205,TIKTOK,Brand B,US,Broken upload',
  ',v1,dam,https://cdn.example.com/x.mp4,,META,Brand C,US,No id',
  'C-1,v1,dam,,,META,Brand C,US,No url',
].join('\n');

/** A fresh world for one test, closed after it. */
const world = harnessPerTest();

function stateOf(h: Harness, clientId: string) {
  return h.db.select().from(assets).where(eq(assets.clientId, clientId)).get();
}

describe('a run', () => {
  it.each(['spec', 'live'] as const)(
    'takes every good row from manifest to stored scores, in the %s dialect',
    async (dialect) => {
      const h = await world({ simulator: { dialect } });
      h.manifest('spring.csv', manifest);

      const { run, reportPath } = await h.run();

      expect(run.outcome).toBe('completed');
      expect(run.rowsAccepted).toBe(5);
      expect(run.rowsRejected).toBe(2);
      expect(run.stillInFlight).toBe(0);
      expect(reportPath).toMatch(/creative-report-\d{4}-\d{2}-\d{2}\.xlsx$/);
      expect(stateOf(h, 'B-2')?.syncState).toBe('unsupported');
      expect(stateOf(h, 'B-3')?.syncState).toBe('failed');
      for (const id of ['A-1', 'A-2', 'B-1']) {
        const asset = stateOf(h, id);
        expect(asset?.syncState).toBe('scored');
        const truth = h.simulator.scoreResult(asset?.uniqueId as string);
        const stored = h.db
          .select()
          .from(channelScores)
          .where(eq(channelScores.assetId, asset?.id as number))
          .all();
        expect(Object.fromEntries(stored.map((s) => [s.channel, s.score]))).toEqual(
          Object.fromEntries(Object.entries(truth?.summary ?? {}).map(([c, s]) => [c, s.score])),
        );
        const details = h.db
          .select()
          .from(guidelineResults)
          .where(eq(guidelineResults.assetId, asset?.id as number))
          .all();
        expect(details).toHaveLength(truth?.detail.length ?? -1);
      }
      // A-2 named no channels: its workspace's scorecard (META, ADWORDS, DV360) was scored.
      const a2 = stateOf(h, 'A-2');
      const a2Channels = h.db
        .select()
        .from(channelScores)
        .where(eq(channelScores.assetId, a2?.id as number))
        .all();
      expect(a2Channels.map((c) => c.channel).sort()).toEqual(['ADWORDS', 'DV360', 'META']);
      // B-1 asked for X: stored under its canonical id even when the live service says TWITTER.
      const b1 = stateOf(h, 'B-1');
      expect(b1?.version).toBe('');
      expect(b1?.source).toBe('');
      const b1Channels = h.db
        .select()
        .from(channelScores)
        .where(eq(channelScores.assetId, b1?.id as number))
        .all();
      expect(b1Channels.map((c) => c.channel).sort()).toEqual(['META', 'X']);
    },
  );

  it('records rows without id or url with file, line and field, and stores the rest', async () => {
    const h = await world();
    const path = h.manifest('spring.csv', manifest);
    await h.run();
    const errors = h.db.select().from(manifestErrors).orderBy(manifestErrors.line).all();
    expect(errors.map((e) => [e.line, e.field])).toEqual([
      [7, 'id'],
      [8, 'url'],
    ]);
    expect(h.db.select().from(assets).all()).toHaveLength(5);
    const { rejectedRows } = await h.run();
    // Already reported and unchanged: the second run does not report the same rows again.
    expect(rejectedRows).toEqual([]);
    expect(path).toContain('spring.csv');
  });

  it('submits nothing again on a second run, and polls nothing that is finished', async () => {
    const h = await world();
    h.manifest('spring.csv', manifest);
    await h.run();
    const created = h.simulator.stats().mediaCreated;
    const requestsBefore = h.simulator.requests().length;

    const { run } = await h.run();

    expect(h.simulator.stats().mediaCreated).toBe(created);
    expect(run.submitted).toBe(0);
    const second = h.simulator.requests().slice(requestsBefore);
    expect(second.filter((r) => r.method === 'POST')).toEqual([]);
    expect(second.filter((r) => r.path.includes('/status'))).toEqual([]);
  });

  it('never polls one asset sooner than the poll interval', async () => {
    const h = await world({ env: { POLL_INTERVAL_SECONDS: '600' } });
    h.manifest('spring.csv', manifest);
    await h.run();
    const polls = new Map<string, number[]>();
    for (const r of h.simulator.requests()) {
      const match = /^\/v1\/media\/([^/]+)\/status$/.exec(r.path);
      if (match?.[1]) polls.set(match[1], [...(polls.get(match[1]) ?? []), r.at]);
    }
    expect(polls.size).toBe(5);
    const gaps = [...polls.values()].flatMap((times) =>
      times.slice(1).map((t, i) => t - (times[i] as number)),
    );
    expect(gaps.length).toBeGreaterThan(0);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(600_000);
  });

  it('leaves what is still processing to the next run when the time budget is spent', async () => {
    const h = await world({
      env: { MAX_RUN_MINUTES: '5' },
      simulator: { processingMinutes: [30, 40] },
    });
    h.manifest('spring.csv', manifest);

    const first = await h.run();
    expect(first.run.outcome).toBe('completed');
    expect(first.run.stillInFlight).toBe(5);
    expect(first.run.note).toMatch(/Time budget of 5 minutes reached; 5 assets left/);

    h.clock.advance(60 * 60_000);
    const second = await h.run({ env: { MAX_RUN_MINUTES: '120' } });
    expect(second.run.stillInFlight).toBe(0);
    expect(second.run.submitted).toBe(0);
    expect(second.run.scored).toBe(3);
    expect(h.simulator.stats().mediaCreated).toBe(5);
  });

  it('marks an asset in another organization’s workspace forbidden, keeps its traceId, and goes on', async () => {
    const h = await world();
    // Our list of workspaces has gone stale: it still names 9901, which the service refuses.
    await withStaleWorkspace(h, 9901);
    h.manifest(
      'mixed.csv',
      [
        header,
        'G-1,v1,,https://cdn.example.com/g1.mp4,9901,META,Brand G,US,Theirs',
        'A-1,v1,,https://cdn.example.com/a1.mp4,,META,Brand A,US,Ours',
      ].join('\n'),
    );
    const { run } = await h.run();
    const g1 = stateOf(h, 'G-1');
    expect(g1?.syncState).toBe('forbidden');
    expect(g1?.lastErrorKind).toBe('forbidden');
    expect(g1?.lastTraceId).toMatch(/\S+/);
    expect(stateOf(h, 'A-1')?.syncState).toBe('scored');
    expect(run.finalFailures).toBe(1);
  });

  it('stops with a clear error and a failed run record when the key is refused', async () => {
    const h = await world();
    h.manifest('spring.csv', manifest);
    await expect(h.run({ apiKey: 'not-a-key' })).rejects.toThrow(FatalRunError);
    await expect(h.run({ apiKey: 'not-a-key' })).rejects.toThrow(/API key is not valid/);
    const recorded = h.db.select().from(runs).all();
    expect(recorded.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(
      h.db
        .select()
        .from(assets)
        .all()
        .every((a) => a.syncState === 'pending'),
    ).toBe(true);
  });

  it('records an aborted run as interrupted, and the next run finishes the work', async () => {
    const h = await world();
    h.manifest('spring.csv', manifest);
    const controller = new AbortController();
    controller.abort();
    const first = await h.run({ signal: controller.signal });
    expect(first.run.outcome).toBe('interrupted');
    const second = await h.run();
    expect(second.run.outcome).toBe('completed');
    expect(second.run.stillInFlight).toBe(0);
    expect(h.simulator.stats().mediaCreated).toBe(5);
  });
});
