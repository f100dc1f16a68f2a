// When a failed request is tried again, and after how long: exponential backoff with full
// jitter, Retry-After honoured with a floor, and waits too long for one run left to the next.
// Pure decisions; the client does the sleeping, on an injected clock.
import type { ApiError } from './errors';

export interface RetryPolicy {
  /** Attempts of one idempotent call, the first one included. */
  maxAttempts: number;
  /** Backoff ceiling of the first retry; it doubles with every further attempt. */
  baseDelayMs: number;
  /** The backoff ceiling never grows past this. */
  maxDelayMs: number;
  /** No retry sooner than this, whatever the jitter drew or Retry-After said (`Retry-After: 0` included). */
  minDelayMs: number;
  /** A service asking for a longer wait than this is left alone until the next run. */
  maxWaitMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  minDelayMs: 250,
  maxWaitMs: 120_000,
};

/**
 * Calls that may be sent twice without doing anything twice: every GET, the submission (the
 * service dedupes on id, version and source) and the criteria lookup (a read in a POST).
 * Anything else, such as POST /v1/media/aperture, which creates a tagging job each time, is not.
 */
const idempotentPosts = new Set(['POST /v1/media', 'POST /v1/scoring/criteria/metadata']);

export function isIdempotent(method: string, endpoint: string): boolean {
  return method === 'GET' || idempotentPosts.has(endpoint);
}

/** Failures that say nothing about the request itself: the same request may well succeed later. */
export function isTransient(error: Pick<ApiError, 'kind'>): boolean {
  return (
    error.kind === 'network' ||
    error.kind === 'server' ||
    error.kind === 'rate-limited' ||
    // Reaching the retry decision, this is a garbled envelope (cut or non-JSON), not a schema change.
    error.kind === 'invalid-response'
  );
}

export type RetryDecision =
  | { action: 'retry'; delayMs: number }
  | { action: 'give-up' }
  /** The service asked for a longer pause than a run should sit through. */
  | { action: 'stop'; waitMs: number };

/**
 * What to do after attempt number `attempt` (1-based) failed with `error`. `random` is a draw
 * in [0, 1) for the full jitter: the wait is uniform between 0 and the backoff ceiling.
 */
export function decideRetry(
  input: {
    attempt: number;
    error: Pick<ApiError, 'kind' | 'retryAfterSeconds'>;
    idempotent: boolean;
    random: number;
  },
  policy: RetryPolicy = defaultRetryPolicy,
): RetryDecision {
  const { attempt, error, idempotent, random } = input;
  if (!isTransient(error)) return { action: 'give-up' };
  const askedMs = error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000;
  if (askedMs !== undefined && askedMs > policy.maxWaitMs) return { action: 'stop', waitMs: askedMs };
  if (!idempotent || attempt >= policy.maxAttempts) return { action: 'give-up' };
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt - 1, 30));
  const jittered = Math.floor(Math.min(Math.max(random, 0), 1) * ceiling);
  return { action: 'retry', delayMs: Math.max(policy.minDelayMs, askedMs ?? jittered) };
}

/**
 * Seconds a `Retry-After` header asks for: a number of seconds, or an HTTP date. A date is
 * counted from the answer's own `Date` header when it has one, so a skewed local clock does
 * not matter; otherwise from `now`. A date in the past is zero; anything unreadable is not given.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  responseDate: string | string[] | undefined,
  now: number,
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  const sent = Date.parse((Array.isArray(responseDate) ? responseDate[0] : responseDate) ?? '');
  return Math.max(0, (at - (Number.isNaN(sent) ? now : sent)) / 1000);
}
