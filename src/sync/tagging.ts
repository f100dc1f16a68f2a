// Tagging: assets → Aperture jobs (≤200 creatives, grouped by client tags) → polled politely →
// CSV report → creative_tags. Every step reads its work from the tag_jobs rows, so a run
// stopped anywhere carries on, and a lost submission answer costs at most one extra job.
import { and, inArray, isNotNull, min } from 'drizzle-orm';
import type { Db } from '../db/open';
import { tagJobs } from '../db/schema';
import type { ReportDownloadOptions } from './api/tag-report';
import type { StageContext } from './context';
import { planTagJobs } from './tagging-plan';
import { dueJobs, emptyPollTagCounts, type PollTagCounts, pollJob } from './tagging-poll';
import {
  dueIntents,
  emptySubmitTagCounts,
  resolveAmbiguous,
  type SubmitTagCounts,
  settleInDoubt,
  submitIntent,
} from './tagging-submit';

export interface TaggingOptions {
  /** The run doing the work: a job whose answer was lost is resubmitted only by a later run. */
  runId: number;
  /** Off: no job is planned or sent; jobs already at the service are still followed to their end. */
  enabled: boolean;
  batchSize: number;
  /** Once aborted, no further job is sent or polled; what is in hand finishes. */
  signal?: AbortSignal;
  /** How reports are fetched from storage (a dispatcher for tests or proxies, a timeout). */
  download?: ReportDownloadOptions;
}

export interface TaggingCounts {
  planned: number;
  submit: SubmitTagCounts;
  poll: PollTagCounts;
}

export async function tagAssets(ctx: StageContext, options: TaggingOptions): Promise<TaggingCounts> {
  const submit = emptySubmitTagCounts();
  const poll = emptyPollTagCounts();
  let planned = 0;
  settleInDoubt(ctx, submit, options.runId);
  if (options.enabled) {
    resolveAmbiguous(ctx, submit, options.runId);
    planned = planTagJobs(ctx.db, {
      runId: options.runId,
      batchSize: options.batchSize,
      now: ctx.clock.now(),
    }).length;
    // One job at a time: each POST is a new job at the service, and each report is held whole
    // until its rows are replaced, so there is nothing to gain from more at once.
    for (const job of dueIntents(ctx)) {
      if (options.signal?.aborted) break;
      await submitIntent(ctx, job, options.runId, submit);
    }
  }
  for (const job of dueJobs(ctx)) {
    if (options.signal?.aborted) break;
    await pollJob(ctx, job, poll, options.download);
  }
  return { planned, submit, poll };
}

/** When tagging next has something to do: a job's next poll, or a submission's retry. */
export function nextTagWorkAt(db: Db, options: { enabled: boolean }): number | null {
  const states = options.enabled ? (['submitted', 'intent'] as const) : (['submitted'] as const);
  return (
    db
      .select({ at: min(tagJobs.nextPollAt) })
      .from(tagJobs)
      .where(and(inArray(tagJobs.state, [...states]), isNotNull(tagJobs.nextPollAt)))
      .get()?.at ?? null
  );
}

/** The run's `details` entries of one tagging pass, to be added up over the run's rounds. */
export function taggingDetails(counts: TaggingCounts): Record<string, number> {
  return {
    tagJobsPlanned: counts.planned,
    tagJobsSubmitted: counts.submit.submitted,
    tagJobSubmitRetries: counts.submit.retrying,
    tagJobsAmbiguous: counts.submit.ambiguous + counts.poll.lost,
    tagJobsResubmitted: counts.submit.resubmitted,
    tagJobsAbandoned: counts.submit.abandoned,
    tagJobsRefused: counts.submit.refused,
    tagJobsPolled: counts.poll.polled,
    tagJobsCompleted: counts.poll.completed,
    tagJobsFailed: counts.poll.failed,
    tagReportsDownloaded: counts.poll.downloaded,
    tagReportLinksRefreshed: counts.poll.linksRefreshed,
    tagRows: counts.poll.rows,
    creativesTagged: counts.poll.creativesTagged,
    creativesTagFailed: counts.poll.creativesFailed,
  };
}
