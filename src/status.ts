// What is where: counts by state, what is due next, tagging in flight, the last runs and the
// last errors. Read from the database alone, for `status` and for scripts (`status --json`).
import { count, desc, eq, inArray, isNotNull, min, sql } from 'drizzle-orm';
import type { Db } from './db/open';
import { assets, inFlightStates, runs, type TagJobState, tagJobs } from './db/schema';

/** Tagging jobs the service still has (or may have: an `intent` row's POST may have gone out). */
const tagJobsInFlightStates = ['intent', 'submitted'] as const satisfies readonly TagJobState[];

export function readStatus(db: Db, now: number) {
  const bySyncState = Object.fromEntries(
    db
      .select({ state: assets.syncState, n: count() })
      .from(assets)
      .groupBy(assets.syncState)
      .all()
      .map((r) => [r.state, r.n]),
  );
  const byRemoteStatus = Object.fromEntries(
    db
      .select({ status: assets.remoteStatus, n: count() })
      .from(assets)
      .where(isNotNull(assets.remoteStatus))
      .groupBy(assets.remoteStatus)
      .all()
      .map((r) => [r.status, r.n]),
  );
  const inFlight = inArray(assets.syncState, [...inFlightStates]);
  const oldest = db
    .select({
      clientId: assets.clientId,
      version: assets.version,
      source: assets.source,
      syncState: assets.syncState,
      submittedAt: assets.submittedAt,
    })
    .from(assets)
    .where(inFlight)
    // Submissions run concurrently, so the manifest's order says nothing; ties go to the first row written.
    .orderBy(assets.submittedAt, assets.id)
    .limit(1)
    .get();
  const dueNow =
    db.select({ n: count() }).from(assets).where(sql`${inFlight} AND ${assets.nextPollAt} <= ${now}`).get()
      ?.n ?? 0;
  const nextDueAt =
    db
      .select({ at: min(assets.nextPollAt) })
      .from(assets)
      .where(inFlight)
      .get()?.at ?? null;
  const tagging = db
    .select({
      state: tagJobs.state,
      n: count(),
      creatives: sql<number>`coalesce(sum(${tagJobs.creativeCount}), 0)`,
    })
    .from(tagJobs)
    .where(inArray(tagJobs.state, [...tagJobsInFlightStates]))
    .groupBy(tagJobs.state)
    .all();
  const lastRuns = db
    .select()
    .from(runs)
    .orderBy(desc(runs.id))
    .limit(5)
    .all()
    .map((run) => ({
      id: run.id,
      mode: run.mode,
      outcome: run.outcome,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      durationSeconds: run.finishedAt === null ? null : Math.round((run.finishedAt - run.startedAt) / 1000),
      filesRead: run.filesRead,
      rowsAccepted: run.rowsAccepted,
      rowsRejected: run.rowsRejected,
      submitted: run.submitted,
      polled: run.polled,
      scored: run.scored,
      finalFailures: run.finalFailures,
      stillInFlight: run.stillInFlight,
      apiCalls: run.apiCalls,
      details: run.details ?? {},
      note: run.note,
      reportPath: run.reportPath,
    }));
  const lastCompleted = db
    .select({ at: sql<number | null>`max(${runs.finishedAt})` })
    .from(runs)
    .where(eq(runs.outcome, 'completed'))
    .get();
  const lastErrors = db
    .select({
      clientId: assets.clientId,
      version: assets.version,
      source: assets.source,
      syncState: assets.syncState,
      kind: assets.lastErrorKind,
      message: assets.lastError,
      traceId: assets.lastTraceId,
      at: assets.updatedAt,
    })
    .from(assets)
    .where(isNotNull(assets.lastError))
    .orderBy(desc(assets.updatedAt), desc(assets.id))
    .limit(5)
    .all();
  return {
    assets: { bySyncState, byRemoteStatus },
    oldestInFlight: oldest
      ? {
          ...oldest,
          ageMinutes: oldest.submittedAt === null ? null : Math.round((now - oldest.submittedAt) / 60_000),
        }
      : null,
    dueNow,
    nextDueAt,
    taggingJobsInFlight: {
      jobs: tagging.reduce((sum, t) => sum + t.n, 0),
      creatives: tagging.reduce((sum, t) => sum + Number(t.creatives), 0),
      byState: Object.fromEntries(tagging.map((t) => [t.state, t.n])),
    },
    lastCompletedRunAt: lastCompleted?.at ?? null,
    lastRuns,
    lastErrors,
  };
}

export type Status = ReturnType<typeof readStatus>;
