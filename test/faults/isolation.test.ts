// Issue 8, failure isolation: what one asset's trouble does to the run (nothing but that
// asset), what the service's trouble does to the run (it ends cleanly and says why), and how
// an answer we cannot read is kept (as such, with the raw body) without touching the row.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { assets, channelScores } from '../../src/db/schema';
import { DEMO_API_KEY } from '../../src/simulator';
import { ApiClient } from '../../src/sync/api/client';
import { pollPolicy } from '../../src/sync/polling';
import { reconcileDue } from '../../src/sync/reconcile';
import { silentLog, withStaleWorkspace } from '../sync/harness';
import { faultManifestHeader } from './manifest';
import { type FaultWorld, faultWorld } from './world';

const opened: FaultWorld[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((w) => w.close()));
});

async function world(options?: Parameters<typeof faultWorld>[0]): Promise<FaultWorld> {
  const w = await faultWorld(options);
  opened.push(w);
  return w;
}

const twoAssets = [
  faultManifestHeader,
  'A-1,v1,dam,https://cdn.example.com/a1.mp4,1201,META,Brand A,US,One',
  'A-2,v1,dam,https://cdn.example.com/a2.mp4,,META;TIKTOK,Brand A,UK,Two',
].join('\n');

function asset(w: FaultWorld, clientId: string) {
  const row = w.db.select().from(assets).where(eq(assets.clientId, clientId)).get();
  if (!row) throw new Error(`no asset ${clientId}`);
  return row;
}

describe('one asset’s trouble', () => {
  it('marks a submission the service refuses (400) rejected, with message and traceId, and scores the rest', async () => {
    const w = await world();
    // A workspace our (stale) list names but the service does not know: it answers 400.
    await withStaleWorkspace(w, 424242);
    w.manifest(
      'm.csv',
      `${twoAssets}\nR-1,v1,dam,https://cdn.example.com/r1.mp4,424242,META,Brand A,US,No such workspace`,
    );

    const { result } = await w.runWithPolicy();

    const refused = asset(w, 'R-1');
    expect(refused).toMatchObject({ syncState: 'rejected', lastErrorKind: 'bad-request', nextPollAt: null });
    expect(refused.lastError).toMatch(/answered 400: workspaceId 424242 does not exist/);
    expect(refused.lastTraceId).toMatch(/\S/);
    expect([asset(w, 'A-1').syncState, asset(w, 'A-2').syncState]).toEqual(['scored', 'scored']);
    expect(result.run.outcome).toBe('completed');
  });

  it('falls back to the (id, source, version) lookup when the service does not know a uniqueId', async () => {
    const w = await world();
    w.manifest('m.csv', twoAssets);
    await w.runWithPolicy();
    const real = asset(w, 'A-1').uniqueId;
    const unknown = '00000000-0000-4000-8000-000000000000';
    w.db
      .update(assets)
      .set({ syncState: 'submitted', uniqueId: unknown, nextPollAt: w.clock.now() })
      .where(eq(assets.clientId, 'A-1'))
      .run();
    const api = new ApiClient({ baseUrl: w.simulator.url, apiKey: DEMO_API_KEY, requestsPerSecond: 1000 });
    const before = w.simulator.requests().length;

    const counts = await reconcileDue({
      db: w.db,
      api,
      clock: w.clock,
      policy: pollPolicy(w.config),
      log: silentLog,
    });

    expect(counts).toMatchObject({ polled: 1, completed: 1, errors: 0 });
    expect(asset(w, 'A-1')).toMatchObject({
      uniqueId: real,
      syncState: 'complete',
      remoteStatus: 'COMPLETE',
    });
    expect(
      w.simulator
        .requests()
        .slice(before)
        .map((r) => `${r.path}?${r.query}`),
    ).toEqual([`/v1/media/${unknown}/status?`, '/v1/media/A-1/status?source=dam&version=v1']);
  });

  it('keeps an unreadable answer as such, with its raw body, and leaves the row as it was', async () => {
    const w = await world({
      faults: {
        seed: 's',
        rate: 1,
        kinds: ['malformed-json'],
        endpoints: ['GET /v1/scoring/media/:key/scores'],
      },
    });
    w.manifest('m.csv', twoAssets);

    const { result } = await w.runWithPolicy({ env: { MAX_RUN_MINUTES: '90' } });

    const a1 = asset(w, 'A-1');
    expect(a1).toMatchObject({
      syncState: 'complete',
      remoteStatus: 'COMPLETE',
      lastErrorKind: 'invalid-response',
    });
    expect(a1.lastError).toMatch(
      /^GET \/v1\/scoring\/media\/\{uniqueId\}\/scores answered 200 with a body that is not the JSON envelope\. Raw answer: \{"status":"OK","result":\{/,
    );
    expect(a1.lastError?.length).toBeLessThan(700);
    expect(w.db.select().from(channelScores).all()).toEqual([]);
    expect(result.run.outcome).toBe('completed');
    // An endpoint that only ever answers garbage trips the breaker too: the run stops asking.
    expect(result.run.note).toMatch(/^The service failed 10 requests in a row .*stopped calling it/);
  });

  it('keeps a well-formed answer of the wrong shape from changing an asset’s state', async () => {
    const w = await world({
      faults: { seed: 's', rate: 1, kinds: ['unexpected-shape'], endpoints: ['GET /v1/media/:key/status'] },
    });
    w.manifest('m.csv', twoAssets);

    await w.runWithPolicy({ env: { MAX_RUN_MINUTES: '30' } });

    const a1 = asset(w, 'A-1');
    expect(a1).toMatchObject({ syncState: 'submitted', remoteStatus: null, pollCount: 0 });
    expect(a1.lastErrorKind).toBe('invalid-response');
    expect(a1.lastError).toMatch(/answered in an unexpected shape .* Raw answer: "unexpected"$/);
  });
});

describe('the service’s trouble', () => {
  it('stops calling after consecutive failures and ends the run cleanly, saying why, with what it did', async () => {
    const w = await world({
      faults: { seed: 's', rate: 1, kinds: ['503'], endpoints: ['GET /v1/media/:key/status'] },
    });
    w.manifest('m.csv', twoAssets);

    const { result, api } = await w.runWithPolicy({ breakerThreshold: 5 });

    expect(result.run.outcome).toBe('completed');
    expect(result.run.submitted).toBe(2);
    expect(result.run.note).toMatch(
      /^The service failed 5 requests in a row \(the last: GET \/v1\/media\/\{uniqueId\}\/status answered 503\), so this run stopped calling it; the rest is left for the next run\.$/,
    );
    expect(result.reportPath).toMatch(/\.xlsx$/);
    expect(api.stopReason()).toBe(result.run.note);
    // The five failures, plus at most the other asset's poll already on the wire; nothing after.
    const polls = w.simulator.requests().filter((r) => r.path.endsWith('/status')).length;
    expect(polls).toBeGreaterThanOrEqual(5);
    expect(polls).toBeLessThanOrEqual(6);
    expect([asset(w, 'A-1').syncState, asset(w, 'A-2').syncState]).toEqual(['submitted', 'submitted']);
  });

  it('leaves the rest to the next run when the service asks for an hour’s pause', async () => {
    const w = await world({
      faults: {
        seed: 's',
        rate: 1,
        kinds: ['429-retry-after'],
        retryAfterSeconds: [3600, 3600],
        endpoints: ['GET /v1/media/:key/status'],
      },
    });
    w.manifest('m.csv', twoAssets);

    const { result } = await w.runWithPolicy();

    expect(result.run.outcome).toBe('completed');
    expect(result.run.note).toMatch(/^The service asked to wait 3600 seconds .*left for the next run\.$/);
    // No retry, no sleep: one request per asset polled (both were on the wire together).
    const polls = w.simulator.requests().filter((r) => r.path.endsWith('/status'));
    expect(new Set(polls.map((r) => r.path)).size).toBe(polls.length);
    // An asset that met the 429 waits the hour asked for, into the next run.
    const waited = [asset(w, 'A-1'), asset(w, 'A-2')].filter((a) => a.lastErrorKind === 'rate-limited');
    expect(waited.length).toBe(polls.length);
    for (const a of waited)
      expect((a.nextPollAt ?? 0) - w.clock.now()).toBeGreaterThanOrEqual(3600_000 - 60_000);
  });
});
