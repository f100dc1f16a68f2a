// What is where: counts by state, what is due next, the last runs. Read from the database
// alone, for `status` and for anyone who wants the same facts as JSON.
import { count, desc, inArray, isNotNull, min, sql } from 'drizzle-orm';
import type { Db } from './db/open';
import { assets, inFlightStates, runs } from './db/schema';

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
    .select({ clientId: assets.clientId, version: assets.version, submittedAt: assets.submittedAt })
    .from(assets)
    .where(inFlight)
    .orderBy(assets.submittedAt)
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
  const lastRuns = db.select().from(runs).orderBy(desc(runs.id)).limit(5).all();
  return {
    assets: { bySyncState, byRemoteStatus },
    oldestInFlight: oldest
      ? { ...oldest, ageMinutes: oldest.submittedAt ? Math.round((now - oldest.submittedAt) / 60_000) : null }
      : null,
    dueNow,
    nextDueAt,
    lastRuns,
  };
}

export type Status = ReturnType<typeof readStatus>;
