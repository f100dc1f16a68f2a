// Collect: COMPLETE assets → scores (summary and per-guideline detail) → channel_scores and
// guideline_results, replaced whole in one transaction so a re-fetch never duplicates rows.
// Each result is checked for consistency; what disagrees is recorded, never fatal.
import { and, eq, getTableName, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { assetIssues, assets, channelScores, guidelineResults, guidelines } from '../db/schema';
import type { ScoreResult } from './api/schemas';
import type { StageContext } from './context';
import { workThroughDue } from './due-work';
import { recordAssetFailure } from './failures';
import { type GuidelineCandidate, matchGuidelines } from './guideline-match';
import { checkScore } from './score-checks';

const chunkSize = 100;

export interface CollectCounts {
  scored: number;
  errors: number;
}

export async function collectScores(ctx: StageContext): Promise<CollectCounts> {
  const counts: CollectCounts = { scored: 0, errors: 0 };
  const now = ctx.clock.now();
  const scores = new ScoreStore(ctx.db);
  await workThroughDue(
    // By next_poll_at, the order assets_due_idx keeps them in: no sort of every due row per chunk.
    (limit) =>
      ctx.db
        .select({ id: assets.id, uniqueId: assets.uniqueId, workspaceId: assets.workspaceId })
        .from(assets)
        .where(and(eq(assets.syncState, 'complete'), lte(assets.nextPollAt, now)))
        .orderBy(assets.nextPollAt)
        .limit(limit)
        .all(),
    async (asset) => {
      try {
        const result = await ctx.api.getScores(asset.uniqueId as string);
        scores.store(asset, result, ctx.clock.now());
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
 * Stores score results: summaries, detail rows linked to their guidelines where they can be
 * matched, and the consistency problems found in them, each result replacing what was there.
 * Made once per collect: its statements are prepared once, and the guidelines of a set of
 * channels read once (discovery has refreshed them before), instead of for every asset.
 */
class ScoreStore {
  private readonly candidates = new Map<string, GuidelineCandidate[]>();
  private readonly statements;

  constructor(private readonly db: Db) {
    const value = (name: string) => sql`${sql.placeholder(name)}`;
    const client = db.$client;
    this.statements = {
      clearSummaries: db
        .delete(channelScores)
        .where(eq(channelScores.assetId, value('assetId')))
        .prepare(),
      clearDetail: db
        .delete(guidelineResults)
        .where(eq(guidelineResults.assetId, value('assetId')))
        .prepare(),
      clearIssues: db
        .delete(assetIssues)
        .where(and(eq(assetIssues.assetId, value('assetId')), eq(assetIssues.kind, 'inconsistent-score')))
        .prepare(),
      insertSummary: client.prepare(
        `INSERT INTO ${getTableName(channelScores)} (asset_id, channel, score, adherence, pass_count, fail_count,
           applicable_count, not_applicable_count, not_available_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertDetail: client.prepare(
        `INSERT INTO ${getTableName(guidelineResults)} (asset_id, channel, name, rule, result, weight, guideline_id)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertIssue: client.prepare(
        `INSERT INTO ${getTableName(assetIssues)} (asset_id, kind, channel, message, created_at)
         VALUES (?, 'inconsistent-score', ?, ?, ?)`,
      ),
      markScored: db
        .update(assets)
        .set({
          syncState: 'scored',
          nextPollAt: null,
          scoredAt: value('now'),
          mediaType: value('mediaType'),
          lastError: null,
          lastErrorKind: null,
          lastTraceId: null,
          updatedAt: value('now'),
        })
        .where(eq(assets.id, value('assetId')))
        .prepare(),
    };
  }

  store(asset: { id: number; workspaceId: number | null }, result: ScoreResult, now: number): void {
    const s = this.statements;
    const assetId = asset.id;
    const matched = matchGuidelines(
      result.detail,
      this.candidatesFor(result.detail.map((d) => d.channel)),
      asset.workspaceId,
    );
    const issues = checkScore(result);
    this.db.$client.transaction(() => {
      s.clearSummaries.run({ assetId });
      s.clearDetail.run({ assetId });
      s.clearIssues.run({ assetId });
      for (const [channel, summary] of Object.entries(result.summary)) {
        s.insertSummary.run(
          assetId,
          channel,
          summary.score,
          summary.adherencePercent,
          summary.passCount,
          summary.failCount,
          summary.applicableCount,
          summary.notApplicableCount,
          summary.notAvailableCount,
        );
      }
      result.detail.forEach((d, i) => {
        s.insertDetail.run(assetId, d.channel, d.name, d.rule, d.result, d.weight, matched[i] ?? null);
      });
      for (const issue of issues) s.insertIssue.run(assetId, issue.channel, issue.message, now);
      s.markScored.run({ assetId, now, mediaType: result.media.type ?? null });
    })();
  }

  /** The guidelines of these channels, organization and workspace ones alike. */
  private candidatesFor(channels: readonly string[]): GuidelineCandidate[] {
    const set = [...new Set(channels)].sort();
    if (set.length === 0) return [];
    const key = set.join('\u0000');
    let found = this.candidates.get(key);
    if (!found) {
      found = this.db
        .select({
          id: guidelines.id,
          name: guidelines.name,
          rule: guidelines.rule,
          channel: guidelines.channel,
          workspaceId: guidelines.workspaceId,
        })
        .from(guidelines)
        .where(inArray(guidelines.channel, set))
        .all();
      this.candidates.set(key, found);
    }
    return found;
  }
}
