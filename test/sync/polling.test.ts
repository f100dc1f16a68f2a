import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideAfterStatus,
  errorBackoff,
  type PollPolicy,
  pollPolicy,
  retryAt,
} from '../../src/sync/polling';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.UTC(2026, 10, 22, 2, 0, 0);

/** Every 10 minutes, stalled after 48 hours, backoff capped at 6 hours. */
const policy = pollPolicy({ pollIntervalSeconds: 600, stalledAfterHours: 48 });
const fresh = { submittedAt: NOW - HOUR, errorPolls: 0 };

describe('pollPolicy', () => {
  it('turns the settings into milliseconds, capping backoff at six hours', () => {
    expect(policy).toEqual({ intervalMs: 10 * MINUTE, stalledAfterMs: 48 * HOUR, maxBackoffMs: 6 * HOUR });
  });

  it('never caps backoff below the interval itself', () => {
    expect(pollPolicy({ pollIntervalSeconds: 86_400, stalledAfterHours: 48 }).maxBackoffMs).toBe(24 * HOUR);
  });
});

describe('decideAfterStatus', () => {
  it('makes the scores of a COMPLETE asset due now', () => {
    expect(decideAfterStatus({ ...fresh, errorPolls: 2 }, 'COMPLETE', NOW, policy)).toEqual({
      syncState: 'complete',
      nextPollAt: NOW,
      errorPolls: 0,
      completedAt: NOW,
    });
  });

  it.each([
    ['UNSUPPORTED', 'unsupported'],
    ['FAILED', 'failed'],
  ] as const)('takes %s as final: nothing more is polled', (status, syncState) => {
    expect(decideAfterStatus(fresh, status, NOW, policy)).toEqual({
      syncState,
      nextPollAt: null,
      errorPolls: 0,
      completedAt: NOW,
    });
  });

  it('polls a PROCESSING asset again after the interval and forgets earlier errors', () => {
    expect(decideAfterStatus({ ...fresh, errorPolls: 3 }, 'PROCESSING', NOW, policy)).toEqual({
      syncState: 'submitted',
      nextPollAt: NOW + 10 * MINUTE,
      errorPolls: 0,
      completedAt: null,
    });
  });

  it('treats a status it does not know like PROCESSING', () => {
    expect(decideAfterStatus(fresh, 'QUEUED', NOW, policy)).toMatchObject({
      syncState: 'submitted',
      nextPollAt: NOW + 10 * MINUTE,
    });
  });

  it('backs an ERROR off from the interval, doubling each time, up to the cap', () => {
    const waits: number[] = [];
    let asset = fresh;
    for (let i = 0; i < 8; i++) {
      const decision = decideAfterStatus(asset, 'ERROR', NOW, policy);
      expect(decision.syncState).toBe('submitted');
      waits.push(((decision.nextPollAt ?? Number.NaN) - NOW) / MINUTE);
      asset = { ...asset, errorPolls: decision.errorPolls };
    }

    expect(waits).toEqual([10, 20, 40, 80, 160, 320, 360, 360]);
    expect(asset.errorPolls).toBe(8);
  });

  it('polls an asset in flight longer than the stalled limit four times less often', () => {
    const stalled = { submittedAt: NOW - 48 * HOUR - 1, errorPolls: 0 };

    expect(decideAfterStatus(stalled, 'PROCESSING', NOW, policy)).toEqual({
      syncState: 'stalled',
      nextPollAt: NOW + 40 * MINUTE,
      errorPolls: 0,
      completedAt: null,
    });
  });

  it('does not count an asset as stalled at exactly the limit, nor one never submitted', () => {
    expect(
      decideAfterStatus({ submittedAt: NOW - 48 * HOUR, errorPolls: 0 }, 'PROCESSING', NOW, policy),
    ).toMatchObject({ syncState: 'submitted', nextPollAt: NOW + 10 * MINUTE });
    expect(decideAfterStatus({ submittedAt: null, errorPolls: 0 }, 'PROCESSING', NOW, policy)).toMatchObject({
      syncState: 'submitted',
    });
  });

  it('caps the wait of a stalled asset at the longest backoff', () => {
    const hourly = pollPolicy({ pollIntervalSeconds: 2 * 3600, stalledAfterHours: 1 });

    expect(
      decideAfterStatus({ submittedAt: NOW - 2 * HOUR, errorPolls: 0 }, 'PROCESSING', NOW, hourly),
    ).toMatchObject({
      syncState: 'stalled',
      nextPollAt: NOW + 6 * HOUR,
    });
  });

  it('never asks again sooner than the interval, nor later than the cap, for any status still in flight', () => {
    const settings = fc.record({
      pollIntervalSeconds: fc.integer({ min: 1, max: 86_400 }),
      stalledAfterHours: fc.integer({ min: 1, max: 24 * 365 }),
    });
    const status = fc.constantFrom('PROCESSING', 'ERROR', 'QUEUED');
    fc.assert(
      fc.property(
        settings,
        status,
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 400 * 24 }),
        (s, remote, errorPolls, hoursInFlight) => {
          const p: PollPolicy = pollPolicy(s);
          const decision = decideAfterStatus(
            { submittedAt: NOW - hoursInFlight * HOUR, errorPolls },
            remote,
            NOW,
            p,
          );
          const wait = (decision.nextPollAt ?? Number.NaN) - NOW;
          expect(wait).toBeGreaterThanOrEqual(p.intervalMs);
          expect(wait).toBeLessThanOrEqual(p.maxBackoffMs);
        },
      ),
    );
  });
});

describe('errorBackoff', () => {
  it('waits the interval after the first error (and for a count of zero)', () => {
    expect(errorBackoff(0, policy)).toBe(10 * MINUTE);
    expect(errorBackoff(1, policy)).toBe(10 * MINUTE);
  });

  it('stays at the cap for very long error streaks', () => {
    expect(errorBackoff(1000, policy)).toBe(6 * HOUR);
  });
});

describe('retryAt', () => {
  it('waits the interval when the service did not say how long', () => {
    expect(retryAt(NOW, policy)).toBe(NOW + 10 * MINUTE);
  });

  it('waits the interval even when the service asked for less', () => {
    expect(retryAt(NOW, policy, 120)).toBe(NOW + 10 * MINUTE);
    expect(retryAt(NOW, policy, 0)).toBe(NOW + 10 * MINUTE);
  });

  it('waits as long as the service asked when that is longer', () => {
    expect(retryAt(NOW, policy, 3600)).toBe(NOW + HOUR);
  });

  it('waits no longer than the cap, however long the service asked', () => {
    expect(retryAt(NOW, policy, 10 * 24 * 3600)).toBe(NOW + 6 * HOUR);
  });
});
