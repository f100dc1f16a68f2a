// Issue 8: with a fifth of the service's answers faulty (every kind, fixed seed), a run ends
// where a fault-free run ends — same tables, same rollups — creates no media twice, and the
// extra calls it needed are counted and bounded. Politeness holds through the retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultKinds } from '../../src/simulator';
import { defaultRetryPolicy } from '../../src/sync/api/retry';
import { faultManifest } from './manifest';
import { type FaultWorld, faultWorld, outcomeSnapshot, statusPollsByAsset } from './world';

const intervalMs = 600_000;
let clean: FaultWorld;
let faulty: FaultWorld;
let cleanRun: Awaited<ReturnType<FaultWorld['runWithPolicy']>>;
let faultyRun: Awaited<ReturnType<FaultWorld['runWithPolicy']>>;

beforeAll(async () => {
  clean = await faultWorld();
  faulty = await faultWorld({
    faults: { seed: 'issue-8', rate: 0.2, kinds: faultKinds, slowMs: 2500, retryAfterSeconds: [0, 5] },
  });
  for (const w of [clean, faulty]) w.manifest('autumn.csv', faultManifest());
  cleanRun = await clean.runWithPolicy();
  faultyRun = await faulty.runWithPolicy();
}, 60_000);
afterAll(async () => {
  await clean?.close();
  await faulty?.close();
});

describe('a run with 20% of answers faulty', () => {
  it('met every kind of fault, about a fifth of the time', () => {
    const injected = faulty.simulator.faults();
    const requests = faulty.simulator.stats().requests;
    expect(new Set(injected.map((f) => f.kind)).size).toBeGreaterThanOrEqual(10);
    expect(injected.length / requests).toBeGreaterThan(0.12);
    expect(injected.length / requests).toBeLessThan(0.28);
  });

  it('ends with the same tables and rollups as a fault-free run', () => {
    expect(cleanRun.result.run.outcome).toBe('completed');
    expect(faultyRun.result.run.outcome).toBe('completed');
    expect(faultyRun.result.run.stillInFlight).toBe(0);
    const truth = outcomeSnapshot(clean);
    expect(truth.channelScores.length).toBeGreaterThan(20);
    expect(outcomeSnapshot(faulty)).toEqual(truth);
  });

  it('creates no media twice at the service', () => {
    const media = faulty.simulator.media();
    const keys = new Set(media.map((m) => `${m.id}\u0000${m.version}\u0000${m.source}`));
    expect(keys.size).toBe(media.length);
    expect(faulty.simulator.stats().mediaCreated).toBe(clean.simulator.stats().mediaCreated);
  });

  it('counts its extra calls, and keeps them bounded', () => {
    const { api, result } = faultyRun;
    const cleanCalls = cleanRun.api.totalCalls();
    const faultyCalls = api.totalCalls();
    const logicalCalls = faultyCalls - api.totalRetries();
    // Every request reached the simulator and was counted by the client, retries included.
    expect(faultyCalls).toBe(faulty.simulator.stats().requests);
    expect(result.run.apiCalls).toBe(faultyCalls);
    expect(api.totalRetries()).toBeGreaterThan(0);
    // No call repeats more than the policy allows …
    expect(api.totalRetries()).toBeLessThanOrEqual(logicalCalls * (defaultRetryPolicy.maxAttempts - 1));
    // … and the whole run needs at most twice the calls of a fault-free one.
    expect(faultyCalls).toBeLessThanOrEqual(2 * cleanCalls);
    console.info(
      `faults: ${faulty.simulator.faults().length} injected; calls ${cleanCalls} fault-free vs ${faultyCalls} faulty ` +
        `(${api.totalRetries()} retries, ${logicalCalls} logical calls; ` +
        `${JSON.stringify(api.retryCounts())})`,
    );
  });

  it('never retries one call more than the policy allows', () => {
    const attempts = new Map<string, number>();
    for (const r of faulty.simulator.requests()) {
      const id = String(r.headers['x-request-id']);
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
    }
    expect(Math.max(...attempts.values())).toBeLessThanOrEqual(defaultRetryPolicy.maxAttempts);
    expect(Math.max(...attempts.values())).toBeGreaterThan(1);
  });

  it('polls no asset sooner than the interval, retries of one poll not counting as polls', () => {
    const byAsset = statusPollsByAsset(faulty);
    expect(byAsset.size).toBe(clean.simulator.stats().mediaCreated);
    let gaps = 0;
    let retriedPolls = 0;
    for (const polls of byAsset.values()) {
      for (let i = 1; i < polls.length; i++) {
        const previous = polls[i - 1]?.times ?? [];
        const gap = (polls[i]?.times[0] ?? 0) - (previous.at(-1) ?? 0);
        expect(gap).toBeGreaterThanOrEqual(intervalMs);
        gaps++;
      }
      retriedPolls += polls.filter((p) => p.times.length > 1).length;
    }
    expect(gaps).toBeGreaterThan(10);
    expect(retriedPolls).toBeGreaterThan(0);
  });
});
