// Pure decisions of the tagging stage: whether a failed (non-idempotent) job submission may be
// sent again, what a job's status means for its next poll, and what to make of a row left behind.
import type { TagJob } from '../db/schema';
import { ApiError } from './api/errors';
import type { TagJobRecord } from './api/schemas';
import type { PollPolicy } from './polling';

/**
 * What a failed POST /v1/media/aperture means:
 * - `not-processed`: it surely never made a job (no connection, or 429/503 refused it), so it may be sent again;
 * - `ambiguous`: it may have made a job whose answer was lost (reset or timeout after sending, other 5xx, an unreadable 2xx);
 * - `refused`: the service said no (400, 403, …), sending it again would change nothing;
 * - `fatal`: the key is not valid, the run must stop.
 */
export type SubmitFailure = 'not-processed' | 'ambiguous' | 'refused' | 'fatal';

/** Codes of errors raised before a byte of the request could reach the service. */
const connectCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function classifySubmitFailure(error: unknown): SubmitFailure {
  if (!(error instanceof ApiError)) return 'ambiguous';
  switch (error.kind) {
    case 'unauthorized':
      return 'fatal';
    case 'rate-limited':
      return 'not-processed';
    case 'server':
      // A 503 is the gateway turning the request away; any other 5xx may come after the job was made.
      return error.status === 503 ? 'not-processed' : 'ambiguous';
    case 'network':
      return connectCodes.has(errorCode(error.cause) ?? '') ? 'not-processed' : 'ambiguous';
    case 'invalid-response':
      return 'ambiguous';
    default:
      return 'refused';
  }
}

/** The `code` of an error or of any error in its cause chain (undici wraps socket errors). */
function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * An `intent` row is written before its POST, and the attempt is counted just before sending
 * (clearing the last error). So an intent with attempts but no recorded error is one whose
 * POST was under way when the process stopped: it may have made a job, it is in doubt.
 */
export function intentInDoubt(job: Pick<TagJob, 'state' | 'submitAttempts' | 'lastErrorKind'>): boolean {
  return job.state === 'intent' && job.submitAttempts > 0 && job.lastErrorKind === null;
}

export type JobPollDecision =
  | { action: 'wait'; nextPollAt: number }
  | { action: 'download'; url: string }
  | { action: 'failed' };

/**
 * What a polled job status means. COMPLETED with a link: download now. FAILED without a link:
 * the job is over and its creatives failed (a FAILED job that still offers a report is read,
 * so the creatives that worked keep their tags). QUEUED, PROCESSING, anything unknown, or
 * COMPLETED without a link yet: ask again after the polite interval (less often once stalled).
 */
export function decideAfterJobPoll(
  job: Pick<TagJob, 'submittedAt'>,
  record: Pick<TagJobRecord, 'status' | 'downloadUrlCsv'>,
  now: number,
  policy: PollPolicy,
): JobPollDecision {
  if ((record.status === 'COMPLETED' || record.status === 'FAILED') && record.downloadUrlCsv) {
    return { action: 'download', url: record.downloadUrlCsv };
  }
  if (record.status === 'FAILED') return { action: 'failed' };
  const stalled = job.submittedAt !== null && now - job.submittedAt > policy.stalledAfterMs;
  return {
    action: 'wait',
    nextPollAt: now + Math.min(policy.intervalMs * (stalled ? 4 : 1), policy.maxBackoffMs),
  };
}

/** Storage answers an expired or revoked signed link with 403, 404 or 410: ask the job for a fresh one. */
export function isExpiredLink(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 404 || error.status === 410);
}

/** The message kept for a creative the job names in `errors`, or that a FAILED job took down with it. */
export function creativeFailureReason(
  record: Pick<TagJobRecord, 'status' | 'message' | 'errors'>,
  creativeId: string,
): string | null {
  const reason = record.errors[creativeId];
  if (reason !== undefined) return reason;
  if (record.status === 'FAILED') return record.message ?? 'The tagging job failed without a reason.';
  return null;
}
