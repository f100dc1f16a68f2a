// Submits planned tagging jobs. A POST is not idempotent (each one makes a new, slow job), so it
// is sent again only when it surely made none; a lost answer makes the job `ambiguous`, which a
// later run resubmits once, and gives up on after that.
import { and, eq, inArray, isNull, lte, ne, or } from 'drizzle-orm';
import { assets, type TagJob, tagJobCreatives, tagJobs } from '../db/schema';
import { ApiError } from './api/errors';
import { isApiStopped } from './api/stopped';
import type { StageContext } from './context';
import { FatalRunError } from './failures';
import { retryAt } from './polling';
import { classifySubmitFailure, intentInDoubt } from './tagging-decisions';

export interface SubmitTagCounts {
  submitted: number;
  /** POSTs that surely made no job, to be sent again when due. */
  retrying: number;
  /** POSTs whose answer was lost (or that were under way when a run stopped). */
  ambiguous: number;
  /** Ambiguous jobs from an earlier run whose creatives were put into a new job. */
  resubmitted: number;
  /** Ambiguous jobs given up on: their creatives were already resubmitted once. */
  abandoned: number;
  refused: number;
}

export const emptySubmitTagCounts = (): SubmitTagCounts => ({
  submitted: 0,
  retrying: 0,
  ambiguous: 0,
  resubmitted: 0,
  abandoned: 0,
  refused: 0,
});

/** An intent whose POST was under way when its run stopped may have made a job: it is ambiguous. */
export function settleInDoubt(ctx: StageContext, counts: SubmitTagCounts, runId: number): void {
  const intents = ctx.db.select().from(tagJobs).where(eq(tagJobs.state, 'intent')).all();
  for (const job of intents.filter(intentInDoubt)) {
    // Only a stopped run leaves one; within this run every POST is awaited before the stage returns.
    if (job.runId === runId) continue;
    ctx.db
      .update(tagJobs)
      .set({
        state: 'ambiguous',
        lastError:
          'The run stopped while this job was being submitted; the service may or may not have made it.',
        lastErrorKind: 'interrupted',
      })
      .where(eq(tagJobs.id, job.id))
      .run();
    counts.ambiguous++;
  }
}

/**
 * Ambiguous jobs of earlier runs: each is abandoned and its creatives go into one new intent,
 * unless they were already resubmitted once (they sit in an earlier abandoned job), in which case
 * they are marked failed with a message saying what to do. So a lost answer costs at most one
 * extra job, and never two jobs in one run.
 */
export function resolveAmbiguous(ctx: StageContext, counts: SubmitTagCounts, runId: number): void {
  const now = ctx.clock.now();
  const stale = ctx.db
    .select()
    .from(tagJobs)
    .where(and(eq(tagJobs.state, 'ambiguous'), or(isNull(tagJobs.runId), ne(tagJobs.runId, runId))))
    .all();
  for (const job of stale) {
    ctx.db.transaction((tx) => {
      const creatives = tx.select().from(tagJobCreatives).where(eq(tagJobCreatives.tagJobId, job.id)).all();
      const assetIds = creatives.map((c) => c.assetId);
      const alreadyRetried =
        assetIds.length > 0 &&
        tx
          .select({ id: tagJobs.id })
          .from(tagJobs)
          .innerJoin(tagJobCreatives, eq(tagJobCreatives.tagJobId, tagJobs.id))
          .where(and(eq(tagJobs.state, 'abandoned'), inArray(tagJobCreatives.assetId, assetIds)))
          .get() !== undefined;
      if (alreadyRetried || assetIds.length === 0) {
        const reason =
          'Tagging was submitted twice and both answers were lost; to tag this asset again, give it a new version.';
        tx.update(tagJobs)
          .set({ state: 'abandoned', message: reason, completedAt: now })
          .where(eq(tagJobs.id, job.id))
          .run();
        tx.update(tagJobCreatives)
          .set({ state: 'failed', error: reason })
          .where(eq(tagJobCreatives.tagJobId, job.id))
          .run();
        counts.abandoned++;
        return;
      }
      const { id } = tx
        .insert(tagJobs)
        .values({
          state: 'intent',
          clientTags: job.clientTags,
          creativeCount: creatives.length,
          runId,
          createdAt: now,
          message: `Resubmission of tag job row ${job.id}, whose submission answer was lost.`,
        })
        .returning({ id: tagJobs.id })
        .get();
      tx.insert(tagJobCreatives)
        .values(creatives.map((c) => ({ tagJobId: id, assetId: c.assetId, creativeId: c.creativeId })))
        .run();
      tx.update(tagJobs)
        .set({
          state: 'abandoned',
          message: `Its submission answer was lost; resubmitted once as tag job row ${id}.`,
        })
        .where(eq(tagJobs.id, job.id))
        .run();
      counts.resubmitted++;
    });
  }
}

/** Intents that are due (never sent, or sent and surely not received, and their retry time has come). */
export function dueIntents(ctx: StageContext): TagJob[] {
  return ctx.db
    .select()
    .from(tagJobs)
    .where(
      and(
        eq(tagJobs.state, 'intent'),
        or(isNull(tagJobs.nextPollAt), lte(tagJobs.nextPollAt, ctx.clock.now())),
      ),
    )
    .orderBy(tagJobs.id)
    .all()
    .filter((job) => !intentInDoubt(job));
}

export async function submitIntent(
  ctx: StageContext,
  job: TagJob,
  runId: number,
  counts: SubmitTagCounts,
): Promise<void> {
  const creatives = ctx.db
    .select({ id: tagJobCreatives.creativeId, url: assets.url })
    .from(tagJobCreatives)
    .innerJoin(assets, eq(assets.id, tagJobCreatives.assetId))
    .where(eq(tagJobCreatives.tagJobId, job.id))
    .all();
  // Counted, with the last error cleared, before sending: should the process stop during the
  // POST, the next run sees an attempt without an outcome and treats the job as ambiguous.
  ctx.db
    .update(tagJobs)
    .set({
      submitAttempts: job.submitAttempts + 1,
      lastError: null,
      lastErrorKind: null,
      lastTraceId: null,
      nextPollAt: null,
      runId,
    })
    .where(eq(tagJobs.id, job.id))
    .run();
  const clientTags = job.clientTags && Object.keys(job.clientTags).length > 0 ? job.clientTags : undefined;
  try {
    const answer = await ctx.api.submitTagJob({ creatives, ...(clientTags ? { clientTags } : {}) });
    const now = ctx.clock.now();
    ctx.db
      .update(tagJobs)
      .set({
        jobId: answer.jobId,
        state: 'submitted',
        remoteStatus: answer.status,
        submittedAt: now,
        nextPollAt: now + ctx.policy.intervalMs,
      })
      .where(eq(tagJobs.id, job.id))
      .run();
    counts.submitted++;
  } catch (error) {
    recordSubmitFailure(ctx, job, error, counts);
  }
}

function recordSubmitFailure(ctx: StageContext, job: TagJob, error: unknown, counts: SubmitTagCounts): void {
  // A client that stopped calling the service (circuit open) did not send this one.
  const failure = isApiStopped(error) ? 'not-processed' : classifySubmitFailure(error);
  const apiError = error instanceof ApiError ? error : undefined;
  if (failure === 'fatal') {
    throw new FatalRunError(`The API key is not valid (${apiError?.message}). Check SCORING_API_KEY.`, {
      cause: error,
    });
  }
  const now = ctx.clock.now();
  const message = apiError?.message ?? String(error);
  const base = {
    lastError: message,
    lastErrorKind: apiError?.kind ?? (isApiStopped(error) ? 'stopped' : 'unknown'),
    lastTraceId: apiError?.traceId ?? null,
  };
  if (failure === 'not-processed') {
    ctx.db
      .update(tagJobs)
      .set({ ...base, nextPollAt: retryAt(now, ctx.policy, apiError?.retryAfterSeconds) })
      .where(eq(tagJobs.id, job.id))
      .run();
    counts.retrying++;
  } else if (failure === 'ambiguous') {
    ctx.db
      .update(tagJobs)
      .set({ ...base, state: 'ambiguous' })
      .where(eq(tagJobs.id, job.id))
      .run();
    counts.ambiguous++;
  } else {
    ctx.db.transaction((tx) => {
      tx.update(tagJobs)
        .set({ ...base, state: 'failed', completedAt: now })
        .where(eq(tagJobs.id, job.id))
        .run();
      tx.update(tagJobCreatives)
        .set({ state: 'failed', error: `The service refused the tagging job: ${message}` })
        .where(eq(tagJobCreatives.tagJobId, job.id))
        .run();
    });
    counts.refused++;
  }
  ctx.log.warn(
    { tagJob: job.id, failure, kind: apiError?.kind, status: apiError?.status, traceId: apiError?.traceId },
    `tagging job row ${job.id}: ${message}`,
  );
  // The client's stop ends the run cleanly; a bug is not a service failure: recorded (the job may exist), then it surfaces.
  if (!apiError) throw error;
}
