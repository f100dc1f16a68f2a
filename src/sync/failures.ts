// How a failed call lands on an asset: the error, its kind and traceId are kept on the row,
// a final refusal changes the state, a passing one only delays the next try.
import { eq } from 'drizzle-orm';
import { assets, type SyncState } from '../db/schema';
import { ApiError } from './api/errors';
import { isApiStopped } from './api/stopped';
import type { StageContext } from './context';
import { retryAt } from './polling';

/** The run cannot go on: the key is refused, so every further call would be too. */
export class FatalRunError extends Error {
  override readonly name = 'FatalRunError';
}

/**
 * Rethrows what must stop the run; otherwise records the failure on the asset. A call the
 * client did not make because it stopped calling the service ('stopped') leaves the asset as
 * it was: it is still due, and the next run takes it up; the run itself says why it stopped.
 */
export function recordAssetFailure(
  ctx: StageContext,
  assetId: number,
  error: unknown,
  finalStates: Partial<Record<ApiError['kind'], SyncState>> = {},
): 'final' | 'retry' | 'stopped' {
  if (isApiStopped(error)) return 'stopped';
  if (!(error instanceof ApiError)) throw error;
  if (error.kind === 'unauthorized') {
    throw new FatalRunError(`The API key is not valid (${error.message}). Check SCORING_API_KEY.`, {
      cause: error,
    });
  }
  const now = ctx.clock.now();
  const finalState = finalStates[error.kind];
  ctx.db
    .update(assets)
    .set({
      // An answer we could not read keeps its raw body (shortened, key redacted), so support can see it.
      lastError:
        error.kind === 'invalid-response' && error.body
          ? `${error.message} Raw answer: ${error.body}`
          : error.message,
      lastErrorKind: error.kind,
      lastTraceId: error.traceId ?? null,
      updatedAt: now,
      ...(finalState
        ? { syncState: finalState, nextPollAt: null }
        : { nextPollAt: retryAt(now, ctx.policy, error.retryAfterSeconds) }),
    })
    .where(eq(assets.id, assetId))
    .run();
  ctx.log.warn(
    { assetId, kind: error.kind, status: error.status, traceId: error.traceId },
    `asset ${assetId}: ${error.message}`,
  );
  return finalState ? 'final' : 'retry';
}
