// Collect: COMPLETE assets → scores (summary and per-guideline detail) → channel_scores and
// guideline_results, replaced whole in one transaction so a re-fetch never duplicates rows.
// Each result is checked for consistency; what disagrees is recorded, never fatal.
import type { Statement } from 'better-sqlite3';
import { and, eq, getTableName, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/open';
import { assetIssues, assets, channelScores, guidelineResults, guidelines } from '../db/schema';
import type { ScoreResult } from './api/schemas';
import type { StageContext } from './context';
import { workThroughDue } from './due-work';
import { recordAssetFailure } from './failures';
import { matchGuidelines } from './guideline-match';
import { checkScore } from './score-checks';

const chunkSize = 100;

export interface CollectCounts {
  scored: number;
  errors: number;
}

export async function collectScores(ctx: StageContext): Promise<CollectCounts> {
  const counts: CollectCounts = { scored: 0, errors: 0 };
  const now = ctx.clock.now();
  await workThroughDue(
    (limit) =>
      ctx.db
        .select({ id: assets.id, uniqueId: assets.uniqueId })
        .from(assets)
        .where(and(eq(assets.syncState, 'complete'), lte(assets.nextPollAt, now)))
        .orderBy(assets.id)
        .limit(limit)
        .all(),
    async (asset) => {
      try {
        const result = await ctx.api.getScores(asset.uniqueId as string);
        storeScores(ctx, asset.id, result);
        counts.scored++;
      } catch (error) {
        counts.errors++;
        recordAssetFailure(ctx, asset.id, error);
      }
    },
    chunkSize,
  );
  return counts;
}

/**
 * Stores a score result: summaries, detail rows linked to their guidelines where they can
 * be matched, and the consistency problems found in it, all replacing what was there.
 */
export function storeScores(
  ctx: Pick<StageContext, 'db' | 'clock'>,
  assetId: number,
  result: ScoreResult,
): void {
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    tx.delete(channelScores).where(eq(channelScores.assetId, assetId)).run();
    tx.delete(guidelineResults).where(eq(guidelineResults.assetId, assetId)).run();
    tx.delete(assetIssues)
      .where(and(eq(assetIssues.assetId, assetId), eq(assetIssues.kind, 'inconsistent-score')))
      .run();
    const summaries = Object.entries(result.summary).map(([channel, s]) => ({
      assetId,
      channel,
      score: s.score,
      adherence: s.adherencePercent,
      passCount: s.passCount,
      failCount: s.failCount,
      applicableCount: s.applicableCount,
      notApplicableCount: s.notApplicableCount,
      notAvailableCount: s.notAvailableCount,
    }));
    if (summaries.length > 0) tx.insert(channelScores).values(summaries).run();

    const workspaceId =
      tx.select({ workspaceId: assets.workspaceId }).from(assets).where(eq(assets.id, assetId)).get()
        ?.workspaceId ?? null;
    const channels = [...new Set(result.detail.map((d) => d.channel))];
    const candidates =
      channels.length === 0
        ? []
        : tx
            .select({
              id: guidelines.id,
              name: guidelines.name,
              rule: guidelines.rule,
              channel: guidelines.channel,
              workspaceId: guidelines.workspaceId,
            })
            .from(guidelines)
            .where(inArray(guidelines.channel, channels))
            .all();
    const matched = matchGuidelines(result.detail, candidates, workspaceId);
    // One prepared statement, row by row: drizzle would build and prepare a multi-row INSERT for
    // every asset, about a third of this stage's CPU (bench/scenarios/full-run.ts, BENCHMARKS.md).
    const insertDetail = detailInsert(ctx.db);
    result.detail.forEach((d, i) => {
      insertDetail.run(assetId, d.channel, d.name, d.rule, d.result, d.weight, matched[i] ?? null);
    });

    const issues = checkScore(result).map((issue) => ({
      assetId,
      kind: 'inconsistent-score',
      channel: issue.channel,
      message: issue.message,
      createdAt: now,
    }));
    if (issues.length > 0) tx.insert(assetIssues).values(issues).run();

    tx.update(assets)
      .set({
        syncState: 'scored',
        nextPollAt: null,
        scoredAt: now,
        mediaType: result.media.type ?? null,
        lastError: null,
        lastErrorKind: null,
        lastTraceId: null,
        updatedAt: now,
      })
      .where(eq(assets.id, assetId))
      .run();
  });
}

/** The guideline_results INSERT, prepared once per connection (inside storeScores' transaction it joins it). */
const detailInserts = new WeakMap<Db['$client'], Statement>();

function detailInsert(db: Db): Statement {
  let statement = detailInserts.get(db.$client);
  if (!statement) {
    statement = db.$client.prepare(
      `INSERT INTO ${getTableName(guidelineResults)} (asset_id, channel, name, rule, result, weight, guideline_id)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    detailInserts.set(db.$client, statement);
  }
  return statement;
}
