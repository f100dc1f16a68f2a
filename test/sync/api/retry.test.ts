import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/random';
import { CircuitBreaker } from '../../../src/sync/api/circuit-breaker';
import { decideRetry, defaultRetryPolicy, isIdempotent, parseRetryAfter } from '../../../src/sync/api/retry';

const policy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 8_000, minDelayMs: 250, maxWaitMs: 60_000 };
const server = { kind: 'server' as const, retryAfterSeconds: undefined };

describe('isIdempotent', () => {
  it('retries every GET, the deduped submission and the criteria lookup, never a tagging job', () => {
    expect(isIdempotent('GET', 'GET /v1/media/{uniqueId}/status')).toBe(true);
    expect(isIdempotent('POST', 'POST /v1/media')).toBe(true);
    expect(isIdempotent('POST', 'POST /v1/scoring/criteria/metadata')).toBe(true);
    expect(isIdempotent('POST', 'POST /v1/media/aperture')).toBe(false);
    expect(isIdempotent('POST', 'POST /v1/anything-new')).toBe(false);
  });
});

describe('decideRetry', () => {
  it('draws the wait uniformly below a ceiling that doubles with each attempt (full jitter)', () => {
    const waits = [1, 2, 3].map((attempt) =>
      decideRetry({ attempt, error: server, idempotent: true, random: 0.999 }, policy),
    );
    expect(waits).toEqual([
      { action: 'retry', delayMs: 999 },
      { action: 'retry', delayMs: 1998 },
      { action: 'retry', delayMs: 3996 },
    ]);
    expect(decideRetry({ attempt: 3, error: server, idempotent: true, random: 0.5 }, policy)).toEqual({
      action: 'retry',
      delayMs: 2000,
    });
  });

  it('caps the ceiling, and never waits less than the floor however low the draw', () => {
    const p = { ...policy, maxAttempts: 20 };
    expect(decideRetry({ attempt: 15, error: server, idempotent: true, random: 0.999 }, p)).toEqual({
      action: 'retry',
      delayMs: 7992,
    });
    expect(decideRetry({ attempt: 1, error: server, idempotent: true, random: 0 }, p)).toEqual({
      action: 'retry',
      delayMs: 250,
    });
  });

  it('gives up after the last attempt', () => {
    expect(decideRetry({ attempt: 4, error: server, idempotent: true, random: 0.5 }, policy)).toEqual({
      action: 'give-up',
    });
  });

  it('never retries a call that is not idempotent', () => {
    for (const kind of ['network', 'server', 'rate-limited'] as const) {
      expect(
        decideRetry(
          { attempt: 1, error: { kind, retryAfterSeconds: undefined }, idempotent: false, random: 0.5 },
          policy,
        ),
      ).toEqual({ action: 'give-up' });
    }
  });

  it('never retries what the service said about the request itself', () => {
    for (const kind of ['bad-request', 'forbidden', 'not-found', 'conflict', 'unauthorized'] as const) {
      expect(
        decideRetry(
          { attempt: 1, error: { kind, retryAfterSeconds: undefined }, idempotent: true, random: 0.5 },
          policy,
        ),
      ).toEqual({ action: 'give-up' });
    }
  });

  it('retries network errors, 5xx, 429 and garbled envelopes', () => {
    for (const kind of ['network', 'server', 'rate-limited', 'invalid-response'] as const) {
      expect(
        decideRetry(
          { attempt: 1, error: { kind, retryAfterSeconds: undefined }, idempotent: true, random: 0.5 },
          policy,
        ).action,
      ).toBe('retry');
    }
  });

  it('waits as long as Retry-After asks, with a floor so that 0 is not a tight loop', () => {
    const waitAfter = (retryAfterSeconds: number) =>
      decideRetry(
        { attempt: 1, error: { kind: 'rate-limited', retryAfterSeconds }, idempotent: true, random: 0 },
        policy,
      );
    expect(waitAfter(7)).toEqual({ action: 'retry', delayMs: 7000 });
    expect(waitAfter(0)).toEqual({ action: 'retry', delayMs: 250 });
    expect(waitAfter(60)).toEqual({ action: 'retry', delayMs: 60_000 });
  });

  it('stops, rather than waits, when the service asks for longer than a run should sit through', () => {
    for (const idempotent of [true, false]) {
      expect(
        decideRetry(
          { attempt: 1, error: { kind: 'rate-limited', retryAfterSeconds: 3600 }, idempotent, random: 0.5 },
          policy,
        ),
      ).toEqual({ action: 'stop', waitMs: 3_600_000 });
    }
  });

  it('bounds the total wait of one call by the policy, whatever the draws', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      let total = 0;
      let attempts = 1;
      for (;;) {
        const d = decideRetry(
          { attempt: attempts, error: server, idempotent: true, random: random() },
          defaultRetryPolicy,
        );
        if (d.action !== 'retry') break;
        total += d.delayMs;
        attempts++;
      }
      expect(attempts).toBe(defaultRetryPolicy.maxAttempts);
      expect(total).toBeLessThanOrEqual(1_000 + 2_000 + 4_000);
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 10, 22, 2, 0, 0);
  const http = (ms: number) => new Date(ms).toUTCString();

  it('reads seconds, and a negative number as zero', () => {
    expect(parseRetryAfter('120', undefined, now)).toBe(120);
    expect(parseRetryAfter(['5', '9'], undefined, now)).toBe(5);
    expect(parseRetryAfter('-3', undefined, now)).toBe(0);
  });

  it('counts a date from the answer’s Date header, and from now without one', () => {
    expect(parseRetryAfter(http(now + 30_000), http(now), now + 3_600_000)).toBe(30);
    expect(parseRetryAfter(http(now + 30_000), undefined, now)).toBe(30);
    expect(parseRetryAfter(http(now + 30_000), 'garbage', now)).toBe(30);
  });

  it('reads a past date as zero and anything unreadable as not given', () => {
    expect(parseRetryAfter(http(now - 10_000), http(now), now)).toBe(0);
    expect(parseRetryAfter('soon', undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', undefined, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, undefined, now)).toBeUndefined();
  });
});

describe('seededRandom', () => {
  it('draws the same sequence for the same seed, in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const draws = Array.from({ length: 1000 }, () => a());
    expect(draws).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(new Set(draws).size).toBe(1000);
  });
});

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures, and only then', () => {
    const breaker = new CircuitBreaker(3);
    expect(breaker.recordFailure('a')).toBe(false);
    expect(breaker.recordFailure('b')).toBe(false);
    breaker.recordSuccess();
    expect(breaker.recordFailure('c')).toBe(false);
    expect(breaker.recordFailure('d')).toBe(false);
    expect(breaker.isOpen).toBe(false);
    expect(breaker.recordFailure('e')).toBe(true);
    expect(breaker.isOpen).toBe(true);
    expect(breaker.describe()).toBe('failed 3 requests in a row (the last: e)');
  });

  it('stays open for the rest of the run, whatever answers come in late', () => {
    const breaker = new CircuitBreaker(1);
    breaker.recordFailure('down');
    breaker.recordSuccess();
    expect(breaker.isOpen).toBe(true);
    expect(breaker.recordFailure('again')).toBe(false);
  });

  it('refuses a threshold that is not a positive whole number', () => {
    expect(() => new CircuitBreaker(0)).toThrow(/integer >= 1, got 0/);
    expect(() => new CircuitBreaker(2.5)).toThrow(RangeError);
  });
});
