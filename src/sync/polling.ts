// Pure decisions about time: when an asset is next due, how far an ERROR backs off, when
// an asset counts as stalled, and what a remote status means for our own state.
import type { SyncState } from '../db/schema';

export interface PollPolicy {
  /** The service's recommended gap between two status polls of one asset. */
  intervalMs: number;
  /** In flight longer than this after submission: flagged stalled. */
  stalledAfterMs: number;
  /** The longest an ERROR or a stalled asset waits between polls. */
  maxBackoffMs: number;
}

export function pollPolicy(settings: { pollIntervalSeconds: number; stalledAfterHours: number }): PollPolicy {
  const intervalMs = settings.pollIntervalSeconds * 1000;
  return {
    intervalMs,
    stalledAfterMs: settings.stalledAfterHours * 3_600_000,
    maxBackoffMs: Math.max(intervalMs, 6 * 3_600_000),
  };
}

export interface PollDecision {
  syncState: SyncState;
  /** Null when nothing more needs asking (a final state). */
  nextPollAt: number | null;
  errorPolls: number;
  completedAt: number | null;
}

/**
 * What a status answer means. COMPLETE makes the scores due at once; UNSUPPORTED and
 * FAILED are final; ERROR backs off exponentially; PROCESSING and unknown statuses are
 * polled again after the interval (less often once the asset is stalled).
 */
export function decideAfterStatus(
  asset: { submittedAt: number | null; errorPolls: number },
  remoteStatus: string,
  now: number,
  policy: PollPolicy,
): PollDecision {
  switch (remoteStatus) {
    case 'COMPLETE':
      return { syncState: 'complete', nextPollAt: now, errorPolls: 0, completedAt: now };
    case 'UNSUPPORTED':
      return { syncState: 'unsupported', nextPollAt: null, errorPolls: 0, completedAt: now };
    case 'FAILED':
      return { syncState: 'failed', nextPollAt: null, errorPolls: 0, completedAt: now };
  }
  const stalled = asset.submittedAt !== null && now - asset.submittedAt > policy.stalledAfterMs;
  const errorPolls = remoteStatus === 'ERROR' ? asset.errorPolls + 1 : 0;
  const wait =
    remoteStatus === 'ERROR' ? errorBackoff(errorPolls, policy) : policy.intervalMs * (stalled ? 4 : 1);
  return {
    syncState: stalled ? 'stalled' : 'submitted',
    nextPollAt: now + Math.min(wait, policy.maxBackoffMs),
    errorPolls,
    completedAt: null,
  };
}

/** Wait after the n-th consecutive ERROR: the interval, doubled each time, capped. */
export function errorBackoff(consecutiveErrors: number, policy: PollPolicy): number {
  const doublings = Math.max(0, consecutiveErrors - 1);
  return Math.min(policy.intervalMs * 2 ** Math.min(doublings, 20), policy.maxBackoffMs);
}

/** After a call failed for a passing reason (network, 5xx, 429): try again no sooner than this. */
export function retryAt(now: number, policy: PollPolicy, retryAfterSeconds?: number): number {
  const asked = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
  return now + Math.min(Math.max(policy.intervalMs, asked), policy.maxBackoffMs);
}
