// One run: intake → discovery → submit/reconcile/collect, looping until nothing is in flight
// or the time budget is spent → report. Each stage reads its work from the database, so a
// run killed anywhere carries on where it stopped the next time.
import { and, count, eq, inArray, isNotNull, min, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/open';
import { assets, manifestErrors, manifestFiles, type Run, runs } from '../db/schema';
import { writeReport } from '../reports/write-report';
import type { ApiClient } from './api/client';
import { isApiError } from './api/errors';
import { collectScores } from './collect';
import type { StageContext } from './context';
import { discover } from './discovery';
import { FatalRunError } from './failures';
import { intake } from './intake';
import { pollPolicy } from './polling';
import { reconcileDue } from './reconcile';
import { submitPending } from './submit';

export interface RunOptions {
  config: Config;
  api: ApiClient;
  clock: Clock;
  log: Logger;
  /** Aborting stops the run between two steps; it is then recorded as interrupted. */
  signal?: AbortSignal;
}

export interface RunResult {
  run: Run;
  reportPath: string | null;
  /** Manifest rows rejected in this run, for the summary on screen. */
  rejectedRows: { path: string; line: number | null; field: string | null; message: string }[];
  organization: string | null;
}

/** States whose assets still need the service: waiting to be polled or to have scores fetched. */
const waitingStates = ['submitted', 'stalled', 'complete'] as const;

export async function runOnce(db: Db, options: RunOptions): Promise<RunResult> {
  const { config, api, clock, log, signal } = options;
  const ctx: StageContext = { db, api, clock, policy: pollPolicy(config), log };
  const startedAt = clock.now();
  const deadline = startedAt + config.maxRunMinutes * 60_000;
  const runId = db.insert(runs).values({ startedAt, mode: config.mode }).returning({ id: runs.id }).get().id;
  const totals = { submitted: 0, polled: 0, scored: 0, finalFailures: 0 };
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
        note,
        reportPath,
      })
      .where(eq(runs.id, runId))
      .returning()
      .get();
  };

  try {
    const intakeSummary = await intake(db, { manifestDir: config.manifestDir, clock, log });
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
      log.info({ workspaces: found.workspaceCount }, `organization ${found.organization.name}`);
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

    for (let round = 1; ; round++) {
      signal?.throwIfAborted();
      const submitted = await submitPending(ctx);
      const reconciled = await reconcileDue(ctx);
      const collected = await collectScores(ctx);
      totals.submitted += submitted.submitted;
      totals.polled += reconciled.polled;
      totals.scored += collected.scored;
      totals.finalFailures += submitted.refused + reconciled.final;
      log.info(
        {
          round,
          ...submitted,
          polled: reconciled.polled,
          scored: collected.scored,
          inFlight: countWaiting(db),
        },
        `round ${round}: ${submitted.submitted} submitted, ${reconciled.polled} polled, ${collected.scored} scored`,
      );

      const nextDue = nextDueAt(db);
      if (nextDue === null) break;
      if (nextDue > deadline) {
        note = `Time budget of ${config.maxRunMinutes} minutes reached; ${countWaiting(db)} assets left for the next run.`;
        log.info(note);
        break;
      }
      await clock.sleep(Math.max(0, nextDue - clock.now()), signal);
    }
  } catch (error) {
    if (signal?.aborted) {
      outcome = 'interrupted';
      note = 'Interrupted; the next run carries on where this one stopped.';
      return { run: finish(null), reportPath: null, rejectedRows: rejectedRows(db, startedAt), organization };
    }
    outcome = 'failed';
    note = (error as Error).message;
    finish(null);
    throw error;
  }

  const report = await writeReport(db, {
    reportDir: config.reportDir,
    runDate: new Date(startedAt),
    demo: config.mode === 'demo',
    generatedAt: new Date(clock.now()),
  });
  return {
    run: finish(report.path),
    reportPath: report.path,
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

function rejectedRows(db: Db, since: number): RunResult['rejectedRows'] {
  return db
    .select({
      path: manifestFiles.path,
      line: manifestErrors.line,
      field: manifestErrors.field,
      message: manifestErrors.message,
    })
    .from(manifestErrors)
    .innerJoin(manifestFiles, eq(manifestFiles.id, manifestErrors.manifestFileId))
    .where(sql`${manifestErrors.createdAt} >= ${since}`)
    .orderBy(manifestFiles.path, manifestErrors.line)
    .all();
}
