// Reconcile: assets whose next poll is due → GET status → our state and next poll time.
// Never polls an asset before its time, so the service's 10–15 minute advice holds per asset.
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { type Asset, assets } from '../db/schema';
import { isApiError } from './api/errors';
import type { MediaStatus } from './api/schemas';
import type { StageContext } from './context';
import { workThroughDue } from './due-work';
import { recordAssetFailure } from './failures';
import { decideAfterStatus } from './polling';

export interface ReconcileCounts {
  polled: number;
  completed: number;
  final: number;
  errors: number;
}

export async function reconcileDue(ctx: StageContext): Promise<ReconcileCounts> {
  const counts: ReconcileCounts = { polled: 0, completed: 0, final: 0, errors: 0 };
  const now = ctx.clock.now();
  const recordPoll = pollUpdate(ctx.db);
  await workThroughDue(
    (limit) => pickDueForPolling(ctx.db, now, limit),
    async (asset) => {
      try {
        const status = await statusOf(ctx, asset);
        counts.polled++;
        const at = ctx.clock.now();
        const decision = decideAfterStatus(asset, status.status, at, ctx.policy);
        recordPoll.run({
          id: asset.id,
          remoteStatus: status.status,
          syncState: decision.syncState,
          nextPollAt: decision.nextPollAt,
          errorPolls: decision.errorPolls,
          completedAt: decision.completedAt ?? asset.completedAt,
          uniqueId: status.uniqueId ?? asset.uniqueId,
          pollCount: asset.pollCount + 1,
          at,
        });
        if (decision.syncState === 'complete') counts.completed++;
        else if (decision.nextPollAt === null) counts.final++;
      } catch (error) {
        counts.errors++;
        recordAssetFailure(ctx, asset.id, error);
      }
    },
  );
  return counts;
}

/**
 * A poll's answer, written back. Prepared once per reconcile: drizzle building the UPDATE anew
 * for each poll was a fifth of this stage's CPU at 100k assets.
 */
function pollUpdate(db: Db) {
  // Wrapped in sql``: set() takes SQL, not a bare placeholder.
  const value = (name: string) => sql`${sql.placeholder(name)}`;
  return db
    .update(assets)
    .set({
      remoteStatus: value('remoteStatus'),
      syncState: value('syncState'),
      nextPollAt: value('nextPollAt'),
      errorPolls: value('errorPolls'),
      completedAt: value('completedAt'),
      uniqueId: value('uniqueId'),
      pollCount: value('pollCount'),
      lastPolledAt: value('at'),
      // The service answered: a passing failure of an earlier poll is no longer the news.
      lastError: null,
      lastErrorKind: null,
      lastTraceId: null,
      updatedAt: value('at'),
    })
    .where(eq(assets.id, value('id')))
    .prepare();
}

/**
 * The assets whose status poll is due at `now`, earliest first within each state, at most
 * `limit` of them: the pick reconcile runs, exported so the benchmark (bench/scenarios/due-pick.ts)
 * times this very query. One query per state, because `sync_state = ?` lets `assets_due_idx`
 * (sync_state, next_poll_at) deliver rows already in order: no sort of every due row for each
 * chunk, which made a round's cost grow with the square of the assets in flight.
 */
export function pickDueForPolling(db: Db, now: number, limit: number): Asset[] {
  const picked: Asset[] = [];
  for (const state of pollingStates) {
    if (picked.length >= limit) break;
    picked.push(...dueForPollingQuery(db, now, limit - picked.length, state).all());
  }
  return picked;
}

const pollingStates = ['submitted', 'stalled'] as const;

/** The query of pickDueForPolling for one state, unrun: its SQL (`.toSQL()`) is what the benchmark EXPLAINs. */
export function dueForPollingQuery(
  db: Db,
  now: number,
  limit: number,
  state: (typeof pollingStates)[number] = 'submitted',
) {
  return db
    .select()
    .from(assets)
    .where(and(eq(assets.syncState, state), isNotNull(assets.uniqueId), lte(assets.nextPollAt, now)))
    .orderBy(assets.nextPollAt)
    .limit(limit);
}

/** By uniqueId; should the service not know that id, by the client key, which it also answers to. */
async function statusOf(ctx: StageContext, asset: Asset): Promise<MediaStatus> {
  try {
    return await ctx.api.getStatus({ uniqueId: asset.uniqueId as string });
  } catch (error) {
    if (!isApiError(error, 'not-found')) throw error;
    return ctx.api.getStatus({ id: asset.clientId, version: asset.version, source: asset.source });
  }
}
