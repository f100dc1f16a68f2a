// The per-row streams behind the Assets and Issues sheets: one database row at a time, never the whole
// set in memory. The connection is busy until an iteration ends, so run no other statement inside the loop.

import type { Db } from '../db/open';
import type { SyncState } from '../db/schema';
import { unknownWorkspaceKind } from '../sync/workspace-check';
import { countedIdsSql, NEWEST_ONLY, type RollupScope } from './rollups';

/** One row of the Assets sheet. Times are epoch milliseconds; scores 0.0–1.0. */
export interface AssetReportRow {
  assetId: number;
  clientId: string;
  version: string;
  source: string;
  url: string;
  name: string | null;
  brands: string | null;
  markets: string | null;
  channels: string | null;
  workspaceId: number | null;
  workspaceName: string | null;
  syncState: SyncState;
  remoteStatus: string | null;
  /** Score by channel, for the channels this asset was scored on. */
  scores: Record<string, number | null>;
  submittedAt: number | null;
  completedAt: number | null;
  manifestPath: string | null;
  manifestLine: number | null;
  lastError: string | null;
  lastTraceId: string | null;
  /** How many tag-report rows name this asset (0 when it has not been tagged). */
  tags: number;
}

function assetRowsSql(scope: RollupScope): string {
  return `
SELECT
  a.id AS assetId,
  a.client_id AS clientId,
  a.version AS version,
  a.source AS source,
  a.url AS url,
  a.name AS name,
  (SELECT group_concat(brand, ', ' ORDER BY brand) FROM asset_brands WHERE asset_id = a.id) AS brands,
  (SELECT group_concat(market, ', ' ORDER BY market) FROM asset_markets WHERE asset_id = a.id) AS markets,
  (SELECT group_concat(channel, ', ' ORDER BY channel) FROM asset_channels WHERE asset_id = a.id) AS channels,
  a.workspace_id AS workspaceId,
  w.name AS workspaceName,
  a.sync_state AS syncState,
  a.remote_status AS remoteStatus,
  (SELECT json_group_object(channel, score) FROM channel_scores WHERE asset_id = a.id) AS scoresJson,
  a.submitted_at AS submittedAt,
  a.completed_at AS completedAt,
  mf.path AS manifestPath,
  a.manifest_line AS manifestLine,
  a.last_error AS lastError,
  a.last_trace_id AS lastTraceId,
  -- counted from creative_tags_asset_idx alone, one index range per asset
  (SELECT COUNT(*) FROM creative_tags WHERE asset_id = a.id) AS tags
FROM assets a
LEFT JOIN workspaces w ON w.id = a.workspace_id
LEFT JOIN manifest_files mf ON mf.id = a.manifest_file_id
WHERE a.id IN (${countedIdsSql(scope)})
ORDER BY a.client_id COLLATE NOCASE, a.client_id, a.source, a.id`;
}

type RawAssetRow = Omit<AssetReportRow, 'scores'> & { scoresJson: string };

/** The counted assets (the newest version of each, unless the scope says all), one at a time. */
export function* assetRows(db: Db, scope: RollupScope = NEWEST_ONLY): Generator<AssetReportRow> {
  for (const raw of db.$client.prepare<[], RawAssetRow>(assetRowsSql(scope)).iterate()) {
    const { scoresJson, ...row } = raw;
    yield { ...row, scores: JSON.parse(scoresJson) as Record<string, number | null> };
  }
}

/** A manifest row that was rejected (`error`) or went in with something to look at (`warning`). */
export interface ManifestErrorRow {
  path: string;
  line: number | null;
  field: string | null;
  value: string | null;
  message: string;
  severity: 'error' | 'warning';
}

/** Every recorded manifest problem, by file and line. */
export function* manifestErrorRows(db: Db): Generator<ManifestErrorRow> {
  yield* db.$client
    .prepare<[], ManifestErrorRow>(
      `SELECT mf.path AS path, me.line AS line, me.field AS field, me.value AS value, me.message AS message,
         me.severity AS severity
       FROM manifest_errors me JOIN manifest_files mf ON mf.id = me.manifest_file_id
       ORDER BY mf.path, me.line IS NULL DESC, me.line, me.id`,
    )
    .iterate();
}

/** The states that need a person's attention (or at least an explanation) on the Issues sheet. */
/** Sync states that need a person, plus `held`: a pending asset held back for its workspace (workspace-check.ts). */
export const PROBLEM_STATES = ['rejected', 'forbidden', 'held', 'unsupported', 'failed', 'stalled'] as const;
export type ProblemState = (typeof PROBLEM_STATES)[number];

export interface ProblemAssetRow {
  clientId: string;
  version: string;
  source: string;
  syncState: ProblemState;
  remoteStatus: string | null;
  lastError: string | null;
  lastTraceId: string | null;
  manifestPath: string | null;
  manifestLine: number | null;
}

const PROBLEM_STATE_LIST = PROBLEM_STATES.map((s) => `'${s}'`).join(', ');
/** An asset's problem state: its sync state, or `held` for a pending asset held back. */
const PROBLEM_STATE_SQL = `CASE WHEN a.sync_state = 'pending' AND a.last_error_kind = '${unknownWorkspaceKind}' THEN 'held' ELSE a.sync_state END`;

/** Counted assets in a problem state, the most pressing states first. */
export function* problemAssetRows(db: Db, scope: RollupScope = NEWEST_ONLY): Generator<ProblemAssetRow> {
  const order = PROBLEM_STATES.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ');
  yield* db.$client
    .prepare<[], ProblemAssetRow>(
      `SELECT a.client_id AS clientId, a.version AS version, a.source AS source, ${PROBLEM_STATE_SQL} AS syncState,
         a.remote_status AS remoteStatus, a.last_error AS lastError, a.last_trace_id AS lastTraceId,
         mf.path AS manifestPath, a.manifest_line AS manifestLine
       FROM assets a LEFT JOIN manifest_files mf ON mf.id = a.manifest_file_id
       WHERE ${PROBLEM_STATE_SQL} IN (${PROBLEM_STATE_LIST}) AND a.id IN (${countedIdsSql(scope)})
       ORDER BY CASE ${PROBLEM_STATE_SQL} ${order} END, a.client_id COLLATE NOCASE, a.client_id, a.source, a.id`,
    )
    .iterate();
}

/** A counted asset whose url the pre-flight flagged (url-preflight.ts). */
export interface FlaggedUrlRow {
  clientId: string;
  version: string;
  source: string;
  url: string;
  urlFlag: string;
  manifestPath: string | null;
  manifestLine: number | null;
}

export function* flaggedUrlRows(db: Db, scope: RollupScope = NEWEST_ONLY): Generator<FlaggedUrlRow> {
  yield* db.$client
    .prepare<[], FlaggedUrlRow>(
      `SELECT a.client_id AS clientId, a.version AS version, a.source AS source, a.url AS url,
         a.url_flag AS urlFlag, mf.path AS manifestPath, a.manifest_line AS manifestLine
       FROM assets a LEFT JOIN manifest_files mf ON mf.id = a.manifest_file_id
       WHERE a.url_flag IS NOT NULL AND a.id IN (${countedIdsSql(scope)})
       ORDER BY a.client_id COLLATE NOCASE, a.client_id, a.source, a.id`,
    )
    .iterate();
}

/** Something found wrong with a counted asset's results, e.g. summary counts that disagree with the detail. */
export interface AssetIssueRow {
  clientId: string;
  version: string;
  source: string;
  kind: string;
  channel: string | null;
  message: string;
  lastTraceId: string | null;
}

export function* assetIssueRows(db: Db, scope: RollupScope = NEWEST_ONLY): Generator<AssetIssueRow> {
  yield* db.$client
    .prepare<[], AssetIssueRow>(
      `SELECT a.client_id AS clientId, a.version AS version, a.source AS source, ai.kind AS kind,
         ai.channel AS channel, ai.message AS message, a.last_trace_id AS lastTraceId
       FROM asset_issues ai JOIN assets a ON a.id = ai.asset_id
       WHERE ai.asset_id IN (${countedIdsSql(scope)})
       ORDER BY a.client_id COLLATE NOCASE, a.client_id, a.source, ai.channel, ai.id`,
    )
    .iterate();
}

/** How many rows the Issues sheet will have, so it can plan its continuation sheets. */
export function issueRowCount(db: Db, scope: RollupScope = NEWEST_ONLY): number {
  const ids = countedIdsSql(scope);
  return (
    db.$client
      .prepare<[], { n: number }>(
        `SELECT
           (SELECT COUNT(*) FROM manifest_errors)
         + (SELECT COUNT(*) FROM assets a WHERE ${PROBLEM_STATE_SQL} IN (${PROBLEM_STATE_LIST}) AND a.id IN (${ids}))
         + (SELECT COUNT(*) FROM asset_issues WHERE asset_id IN (${ids}))
         + (SELECT COUNT(*) FROM assets WHERE url_flag IS NOT NULL AND id IN (${ids})) AS n`,
      )
      .get()?.n ?? 0
  );
}
