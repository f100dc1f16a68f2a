// One run: intake → discovery → submit/reconcile/collect, looping until nothing is in flight
// or the time budget is spent → report. Each stage reads its work from the database, so a
// run killed anywhere carries on where it stopped the next time.
import { and, count, eq, inArray, isNotNull, min, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/open';
import { assets, manifestErrors, manifestFiles, type Run, runs } from '../db/schema';
import type { RunProgress, StageName } from '../progress';
import { writeReport } from '../reports/write-report';
import type { ApiClient } from './api/client';
import { isApiError } from './api/errors';
import { isApiStopped } from './api/stopped';
import { collectScores } from './collect';
import type { StageContext } from './context';
import { discover } from './discovery';
import { dueWorkScope } from './due-work';
import { FatalRunError } from './failures';
import { intake } from './intake';
import { pollPolicy } from './polling';
import { reconcileDue } from './reconcile';
import { submitPending } from './submit';
import { nextTagWorkAt, tagAssets, taggingDetails } from './tagging';
import { preflightUrls } from './url-preflight';

export interface RunOptions {
  config: Config;
  api: ApiClient;
  clock: Clock;
  log: Logger;
  /** Aborting stops the run between two steps; it is then recorded as interrupted. */
  signal?: AbortSignal;
  /** Told the counts of each stage as they go, for the bars or lines on screen. */
  progress?: RunProgress;
}

export interface RunResult {
  run: Run;
  reportPath: string | null;
  /** Set when the report could not replace today's file (open in Excel) and was written beside it. */
  reportNote?: string;
  /** Manifest rows rejected in this run, for the summary on screen. */
  /** Manifest rows rejected (`error`) or let in with a remark (`warning`) in this run, for the summary on screen. */
  rejectedRows: ManifestProblem[];
  organization: string | null;
}

/** States whose assets still need the service: waiting to be polled or to have scores fetched. */
const waitingStates = ['submitted', 'stalled', 'complete'] as const;

export async function runOnce(db: Db, options: RunOptions): Promise<RunResult> {
  const { config, api, clock, log, signal, progress } = options;
  // The stages share one loop; through it they stop starting rows on abort and report progress.
  const scope = {
    signal,
    inHand: Math.max(8, config.concurrency * 2),
    found: (n: number) => progress?.found(n),
    handled: () => progress?.handled(),
  };
  const step = <T>(name: StageName, work: () => Promise<T>): Promise<T> => {
    progress?.stage(name);
    return dueWorkScope.run(scope, work);
  };
  const ctx: StageContext = { db, api, clock, policy: pollPolicy(config), log };
  const startedAt = clock.now();
  const deadline = startedAt + config.maxRunMinutes * 60_000;
  const runId = db.insert(runs).values({ startedAt, mode: config.mode }).returning({ id: runs.id }).get().id;
  const totals = { submitted: 0, polled: 0, scored: 0, finalFailures: 0 };
  /** Tagging's counts, summed over the rounds, for runs.details. */
  const tagging: Record<string, number> = {};
  /** Intake's counts beyond the runs columns, for runs.details. */
  let intakeDetails: Record<string, number> = {};
  /** Assets the service finished scoring during this run (scores fetched or not). */
  let completed = 0;
  let organization: string | null = null;
  let note: string | null = null;
  let outcome: Run['outcome'] = 'completed';

  const finish = (reportPath: string | null) => {
    const stillInFlight = countWaiting(db);
    return db
      .update(runs)
      .set({
        finishedAt: clock.now(),
        outcome,
        ...totals,
        stillInFlight,
        apiCalls: api.totalCalls(),
        apiCallsByEndpoint: api.callCounts(),
        details: { ...intakeDetails, completed, ...tagging },
        note,
        reportPath,
      })
      .where(eq(runs.id, runId))
      .returning()
      .get();
  };

  try {
    progress?.stage('intake');
    const intakeSummary = await intake(db, {
      manifestDir: config.manifestDir,
      clock,
      log,
      move: !config.keepManifests,
      settleMs: config.manifestSettleSeconds * 1000,
    });
    intakeDetails = {
      filesUnchanged: intakeSummary.filesUnchanged,
      filesUnreadable: intakeSummary.filesUnreadable.length,
      filesSkipped: intakeSummary.filesSkipped.length,
      rowWarnings: intakeSummary.rowWarnings,
      assetsNew: intakeSummary.assetsNew,
    };
    progress?.found(intakeSummary.filesRead + intakeSummary.filesUnchanged);
    progress?.handled(intakeSummary.filesRead + intakeSummary.filesUnchanged);
    db.update(runs)
      .set({
        filesRead: intakeSummary.filesRead,
        rowsAccepted: intakeSummary.rowsAccepted,
        rowsRejected: intakeSummary.rowsRejected,
      })
      .where(eq(runs.id, runId))
      .run();

    try {
      const found = await discover(ctx);
      organization = found.organization.name;
      const what = found.refreshed
        ? `; ${found.refreshed.workspaceCount} workspaces and ${found.refreshed.guidelineCount} guidelines refreshed`
        : '';
      log.info({ ...found.refreshed }, `organization ${found.organization.name}${what}`);
    } catch (error) {
      if (isApiError(error, 'unauthorized')) {
        throw new FatalRunError(`The API key is not valid (${error.message}). Check SCORING_API_KEY.`, {
          cause: error,
        });
      }
      if (!isApiError(error)) throw error;
      // Discovery only names things; scoring can go on without it.
      log.warn({ kind: error.kind, traceId: error.traceId }, `discovery failed: ${error.message}`);
    }

    if (config.urlPreflight) {
      const checked = await preflightUrls(db, { clock, ...(signal ? { signal } : {}) });
      if (checked.checked > 0) {
        log.info(
          checked,
          `url check: ${checked.checked} new urls, ${checked.flagged} likely to fail at the service (see the Issues sheet)`,
        );
      }
    }

    for (let round = 1; ; round++) {
      signal?.throwIfAborted();
      const submitted = await step('submit', () =>
        submitPending(ctx, { holdFlaggedUrls: config.holdFlaggedUrls }),
      );
      const reconciled = await step('polling', () => reconcileDue(ctx));
      const collected = await step('scores', () => collectScores(ctx));
      const tagged = await tagAssets(ctx, {
        runId,
        enabled: config.tagging,
        batchSize: config.tagBatchSize,
        signal,
      });
      for (const [key, n] of Object.entries(taggingDetails(tagged))) tagging[key] = (tagging[key] ?? 0) + n;
      totals.submitted += submitted.submitted;
      totals.polled += reconciled.polled;
      totals.scored += collected.scored;
      totals.finalFailures += submitted.refused + reconciled.final;
      completed += reconciled.completed;
      // The stages stop early on abort and return what they did; counted above, then stop.
      signal?.throwIfAborted();
      log.info(
        {
          round,
          ...submitted,
          polled: reconciled.polled,
          scored: collected.scored,
          inFlight: countWaiting(db),
          retries: api.totalRetries(),
        },
        `round ${round}: ${submitted.submitted} submitted, ${reconciled.polled} polled, ${collected.scored} scored`,
      );

      // The client stopped calling the service (circuit open, or a pause longer than a run):
      // what is done stays done, the rest is due for the next run, and the run ends cleanly.
      const stopped = api.stopReason();
      if (stopped) {
        note = stopped;
        log.warn(note);
        break;
      }

      const assetsDue = nextDueAt(db);
      const tagsDue = nextTagWorkAt(db, { enabled: config.tagging });
      const nextDue =
        assetsDue === null ? tagsDue : tagsDue === null ? assetsDue : Math.min(assetsDue, tagsDue);
      if (nextDue === null) break;
      if (nextDue > deadline) {
        note = `Time budget of ${config.maxRunMinutes} minutes reached; ${countWaiting(db)} assets left for the next run.`;
        log.info(note);
        break;
      }
      progress?.note(`next poll due ${new Date(nextDue).toLocaleTimeString()}`);
      await clock.sleep(Math.max(0, nextDue - clock.now()), signal);
    }
  } catch (error) {
    if (signal?.aborted) {
      outcome = 'interrupted';
      note = 'Interrupted; the next run carries on where this one stopped.';
      return { run: finish(null), reportPath: null, rejectedRows: rejectedRows(db, startedAt), organization };
    }
    if (!isApiStopped(error)) {
      outcome = 'failed';
      note = (error as Error).message;
      finish(null);
      throw error;
    }
    // A stage that let the client's stop through: the same clean end as after a round.
    note = error.message;
    log.warn(note);
  }

  progress?.stage('report');
  progress?.found(1);
  const report = await writeReport(db, {
    reportDir: config.reportDir,
    runDate: new Date(startedAt),
    demo: config.mode === 'demo',
    generatedAt: new Date(clock.now()),
    allVersions: config.reportAllVersions,
  });
  progress?.handled();
  return {
    run: finish(report.path),
    reportPath: report.path,
    ...(report.note ? { reportNote: report.note } : {}),
    rejectedRows: rejectedRows(db, startedAt),
    organization,
  };
}

function countWaiting(db: Db): number {
  return (
    db
      .select({ n: count() })
      .from(assets)
      .where(inArray(assets.syncState, [...waitingStates]))
      .get()?.n ?? 0
  );
}

/**
 * When the next piece of work falls due: the earliest poll or score fetch, or a pending
 * asset's retry after a passing failure. Null when nothing is left for the service.
 */
function nextDueAt(db: Db): number | null {
  const waiting = db
    .select({ at: min(assets.nextPollAt) })
    .from(assets)
    .where(inArray(assets.syncState, [...waitingStates]))
    .get()?.at;
  const retrying = db
    .select({ at: min(assets.nextPollAt) })
    .from(assets)
    .where(and(eq(assets.syncState, 'pending'), isNotNull(assets.nextPollAt)))
    .get()?.at;
  const candidates = [waiting, retrying].filter((v): v is number => typeof v === 'number');
  return candidates.length > 0 ? Math.min(...candidates) : null;
}

export interface ManifestProblem {
  path: string;
  line: number | null;
  field: string | null;
  message: string;
  severity: 'error' | 'warning';
}

/** The manifest errors and warnings recorded since `since`, by file and line. */
export function rejectedRows(db: Db, since: number): ManifestProblem[] {
  return db
    .select({
      path: manifestFiles.path,
      line: manifestErrors.line,
      field: manifestErrors.field,
      message: manifestErrors.message,
      severity: manifestErrors.severity,
    })
    .from(manifestErrors)
    .innerJoin(manifestFiles, eq(manifestFiles.id, manifestErrors.manifestFileId))
    .where(sql`${manifestErrors.createdAt} >= ${since}`)
    .orderBy(manifestFiles.path, manifestErrors.line)
    .all();
}
