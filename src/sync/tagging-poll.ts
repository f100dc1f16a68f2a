// Polls submitted tagging jobs no more often than the polite interval and, once a job offers its
// report, streams the CSV in and replaces that job's tag rows in one transaction.
import { and, eq, lte } from 'drizzle-orm';
import { creativeTags, type TagJob, tagJobCreatives, tagJobs } from '../db/schema';
import { ApiError, isApiError } from './api/errors';
import type { TagJobRecord } from './api/schemas';
import { describeLink, type ReportDownloadOptions, readTagReport } from './api/tag-report';
import type { StageContext } from './context';
import { FatalRunError } from './failures';
import { retryAt } from './polling';
import { creativeFailureReason, decideAfterJobPoll, isExpiredLink } from './tagging-decisions';
import { type ColumnMap, columnMapFor, type TagRowValues, toTagRow } from './tagging-report';

export interface PollTagCounts {
  polled: number;
  downloaded: number;
  /** Expired report links answered by asking the job for a fresh one. */
  linksRefreshed: number;
  completed: number;
  failed: number;
  rows: number;
  creativesTagged: number;
  creativesFailed: number;
  /** Jobs the service no longer knows, now ambiguous. */
  lost: number;
}

export const emptyPollTagCounts = (): PollTagCounts => ({
  polled: 0,
  downloaded: 0,
  linksRefreshed: 0,
  completed: 0,
  failed: 0,
  rows: 0,
  creativesTagged: 0,
  creativesFailed: 0,
  lost: 0,
});

/** A fresh link is asked for at most this often per job and round before the download waits for a later poll. */
const maxLinkRefreshes = 2;
/** Rows per INSERT: well within SQLite's limit on bound parameters. */
const insertChunk = 500;

export function dueJobs(ctx: StageContext): TagJob[] {
  return ctx.db
    .select()
    .from(tagJobs)
    .where(and(eq(tagJobs.state, 'submitted'), lte(tagJobs.nextPollAt, ctx.clock.now())))
    .orderBy(tagJobs.nextPollAt)
    .all();
}

export async function pollJob(
  ctx: StageContext,
  job: TagJob,
  counts: PollTagCounts,
  download: ReportDownloadOptions = {},
): Promise<void> {
  let record: TagJobRecord;
  try {
    record = await poll(ctx, job, counts);
  } catch (error) {
    if (isApiError(error, 'not-found')) {
      // The service does not know the job (any more): like a lost answer, a later run resubmits it once.
      ctx.db
        .update(tagJobs)
        .set({ state: 'ambiguous', lastError: error.message, lastErrorKind: 'not-found' })
        .where(eq(tagJobs.id, job.id))
        .run();
      counts.lost++;
      return;
    }
    recordPassingFailure(ctx, job, error);
    return;
  }

  for (let refreshes = 0; ; refreshes++) {
    const decision = decideAfterJobPoll(job, record, ctx.clock.now(), ctx.policy);
    if (decision.action === 'wait') {
      ctx.db.update(tagJobs).set({ nextPollAt: decision.nextPollAt }).where(eq(tagJobs.id, job.id)).run();
      return;
    }
    if (decision.action === 'failed') {
      storeOutcome(ctx, job, record, null, counts);
      return;
    }
    try {
      const rows = await readReport(decision.url, download);
      counts.downloaded++;
      storeOutcome(ctx, job, record, rows, counts);
      return;
    } catch (error) {
      if (isExpiredLink(error) && refreshes < maxLinkRefreshes) {
        ctx.log.info(
          { tagJob: job.id, link: describeLink(decision.url) },
          'report link expired; asking for a fresh one',
        );
        counts.linksRefreshed++;
        try {
          record = await poll(ctx, job, counts);
        } catch (pollError) {
          recordPassingFailure(ctx, job, pollError);
          return;
        }
        continue;
      }
      // The job stays submitted and is polled again later, which also brings a fresh link.
      recordPassingFailure(ctx, job, error);
      return;
    }
  }
}

async function poll(ctx: StageContext, job: TagJob, counts: PollTagCounts): Promise<TagJobRecord> {
  const record = await ctx.api.getTagJob(job.jobId as string);
  counts.polled++;
  job.pollCount++;
  ctx.db
    .update(tagJobs)
    .set({
      remoteStatus: record.status,
      // PROCESSING carries progress ("Processed 4 out of 12 media."); keep the last one said.
      message: record.message ?? job.message,
      pollCount: job.pollCount,
      lastError: null,
      lastErrorKind: null,
      lastTraceId: null,
    })
    .where(eq(tagJobs.id, job.id))
    .run();
  return record;
}

async function readReport(url: string, download: ReportDownloadOptions): Promise<TagRowValues[]> {
  // Parsed as it streams in; the rows are held until the replace, which must be one transaction.
  const rows: TagRowValues[] = [];
  let map: ColumnMap | undefined;
  for await (const record of readTagReport(url, download)) {
    map ??= columnMapFor(Object.keys(record));
    rows.push(toTagRow(record, map));
  }
  return rows;
}

/**
 * One transaction: the job's previous rows (from an earlier download) are replaced, each row is
 * linked to its asset by creative id, and every creative is marked tagged or failed with its reason.
 */
function storeOutcome(
  ctx: StageContext,
  job: TagJob,
  record: TagJobRecord,
  rows: TagRowValues[] | null,
  counts: PollTagCounts,
): void {
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    const creatives = tx.select().from(tagJobCreatives).where(eq(tagJobCreatives.tagJobId, job.id)).all();
    const assetOf = new Map(creatives.map((c) => [c.creativeId, c.assetId]));
    tx.delete(creativeTags).where(eq(creativeTags.tagJobId, job.id)).run();
    if (rows) {
      for (let i = 0; i < rows.length; i += insertChunk) {
        tx.insert(creativeTags)
          .values(
            rows.slice(i, i + insertChunk).map((row) => ({
              ...row,
              tagJobId: job.id,
              assetId: row.creativeId === null ? null : (assetOf.get(row.creativeId) ?? null),
            })),
          )
          .run();
      }
    }
    let failed = 0;
    for (const creative of creatives) {
      const reason = creativeFailureReason(record, creative.creativeId);
      const state = reason === null && rows !== null ? 'tagged' : 'failed';
      if (state === 'failed') failed++;
      tx.update(tagJobCreatives)
        .set({ state, error: state === 'failed' ? (reason ?? 'The job ended without a report.') : null })
        .where(and(eq(tagJobCreatives.tagJobId, job.id), eq(tagJobCreatives.assetId, creative.assetId)))
        .run();
    }
    const allFailed = failed === creatives.length;
    tx.update(tagJobs)
      .set({
        state: rows === null || allFailed ? 'failed' : 'completed',
        remoteStatus: record.status,
        message: record.message ?? job.message,
        nextPollAt: null,
        reportRows: rows?.length ?? null,
        completedAt: job.completedAt ?? now,
        downloadedAt: rows === null ? null : now,
      })
      .where(eq(tagJobs.id, job.id))
      .run();
    counts.creativesFailed += failed;
    counts.creativesTagged += creatives.length - failed;
    counts.rows += rows?.length ?? 0;
    if (rows === null || allFailed) counts.failed++;
    else counts.completed++;
  });
}

/** A failure that passes (network, throttling, storage trouble): recorded, and asked again later. */
function recordPassingFailure(ctx: StageContext, job: TagJob, error: unknown): void {
  if (!(error instanceof ApiError)) throw error;
  if (error.kind === 'unauthorized' && error.endpoint !== 'GET (tag report)') {
    throw new FatalRunError(`The API key is not valid (${error.message}). Check SCORING_API_KEY.`, {
      cause: error,
    });
  }
  const now = ctx.clock.now();
  ctx.db
    .update(tagJobs)
    .set({
      lastError: error.message,
      lastErrorKind: error.kind,
      lastTraceId: error.traceId ?? null,
      nextPollAt: retryAt(now, ctx.policy, error.retryAfterSeconds),
    })
    .where(eq(tagJobs.id, job.id))
    .run();
  ctx.log.warn(
    { tagJob: job.id, kind: error.kind, traceId: error.traceId },
    `tagging job row ${job.id}: ${error.message}`,
  );
}
