// Submit: pending assets → POST /v1/media → uniqueId. The service dedupes on
// (id, version, source), so a retried or repeated submit never creates a second job.
import { and, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { assetBrands, assetChannels, assetMarkets, assets } from '../db/schema';
import type { MediaSubmission } from './api/client';
import { isApiStopped } from './api/stopped';
import type { StageContext } from './context';
import { workThroughDue } from './due-work';
import { recordAssetFailure } from './failures';
import { holdBackUnknownWorkspaces, workspaceKnown } from './workspace-check';

export interface SubmitCounts {
  submitted: number;
  /** Pending assets not submitted because their workspace is not the organization's (workspace-check.ts). */
  heldBack: number;
  duplicates: number;
  refused: number;
  retrying: number;
}

export async function submitPending(
  ctx: StageContext,
  options: { holdFlaggedUrls?: boolean } = {},
): Promise<SubmitCounts> {
  const now = ctx.clock.now();
  const heldBack = holdBackUnknownWorkspaces(ctx.db, now);
  const counts: SubmitCounts = { submitted: 0, heldBack, duplicates: 0, refused: 0, retrying: 0 };
  let lists = new Map<number, Lists>();
  await workThroughDue(
    (limit) => {
      const due = ctx.db
        .select()
        .from(assets)
        .where(dueForSubmit(now, options))
        .orderBy(assets.id)
        .limit(limit)
        .all();
      lists = listsOf(
        ctx,
        due.map((a) => a.id),
      );
      return due;
    },
    async (asset) => {
      const submission = toSubmission(asset, lists.get(asset.id));
      try {
        const outcome = await ctx.api.submitMedia(submission);
        const at = ctx.clock.now();
        ctx.db
          .update(assets)
          .set({
            uniqueId: outcome.uniqueId,
            syncState: 'submitted',
            submittedAt: at,
            submitAttempts: asset.submitAttempts + 1,
            // A duplicate may already be done at the service: ask at once.
            nextPollAt: outcome.duplicate ? at : at + ctx.policy.intervalMs,
            lastError: null,
            lastErrorKind: null,
            lastTraceId: null,
            updatedAt: at,
          })
          .where(eq(assets.id, asset.id))
          .run();
        if (outcome.duplicate) counts.duplicates++;
        else counts.submitted++;
      } catch (error) {
        // A call the client never made (it stopped calling the service) is no attempt.
        if (!isApiStopped(error)) {
          ctx.db
            .update(assets)
            .set({ submitAttempts: asset.submitAttempts + 1 })
            .where(eq(assets.id, asset.id))
            .run();
        }
        const result = recordAssetFailure(ctx, asset.id, error, {
          'bad-request': 'rejected',
          forbidden: 'forbidden',
        });
        if (result === 'final') counts.refused++;
        else if (result === 'retry') counts.retrying++;
      }
    },
  );
  return counts;
}

/**
 * Pending assets whose (re)submission is due at `now` and whose workspace is not held back; with
 * `holdFlaggedUrls`, nor their url flagged by the pre-flight.
 */
export function dueForSubmit(now: number, options: { holdFlaggedUrls?: boolean } = {}) {
  return and(
    eq(assets.syncState, 'pending'),
    or(isNull(assets.nextPollAt), lte(assets.nextPollAt, now)),
    workspaceKnown,
    options.holdFlaggedUrls ? isNull(assets.urlFlag) : undefined,
  );
}

type Lists = { brands: string[]; markets: string[]; channels: string[] };

function listsOf(ctx: StageContext, ids: number[]): Map<number, Lists> {
  const lists = new Map<number, Lists>(ids.map((id) => [id, { brands: [], markets: [], channels: [] }]));
  const tables = [
    ['brands', assetBrands],
    ['markets', assetMarkets],
    ['channels', assetChannels],
  ] as const;
  for (const [key, table] of tables) {
    for (const row of ctx.db.select().from(table).where(inArray(table.assetId, ids)).all()) {
      lists.get(row.assetId)?.[key].push(row.value);
    }
  }
  return lists;
}

/** Strict writer: exactly the fields the interface takes, empty ones left out. */
export function toSubmission(asset: typeof assets.$inferSelect, lists?: Lists): MediaSubmission {
  return {
    id: asset.clientId,
    url: asset.url,
    ...(asset.version ? { version: asset.version } : {}),
    ...(asset.source ? { source: asset.source } : {}),
    ...(asset.workspaceId !== null ? { workspaceId: asset.workspaceId } : {}),
    ...(lists?.channels.length ? { channels: lists.channels } : {}),
    ...(asset.name ? { name: asset.name } : {}),
    ...(asset.description ? { description: asset.description } : {}),
    ...(lists?.brands.length ? { brands: lists.brands } : {}),
    ...(lists?.markets.length ? { markets: lists.markets } : {}),
  };
}
