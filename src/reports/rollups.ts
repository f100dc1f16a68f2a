// The SQL behind the report: rollups by brand, market and channel, and the per-asset rows, all over the
// newest version of each (client id, source). Presentation (labels, formats, reasons) is workbook.ts's job.
import type { Db } from '../db/open';
import type { SyncState } from '../db/schema';

/** One row of By Brand / By Market / By Channel. Scores are 0.0–1.0; null when nothing was scored. */
export interface GroupRollupRow {
  /** The brand, market or channel; null for the assets that have none. */
  key: string | null;
  assets: number;
  scored: number;
  meanScore: number | null;
  medianScore: number | null;
  meanAdherence: number | null;
  /** How many (asset, channel) scores the means and medians are over. */
  scoreRows: number;
  passCount: number;
  failCount: number;
  notApplicableCount: number;
  notAvailableCount: number;
  unsupported: number;
  failed: number;
}

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
}

// The same rule as `newestVersionFilter` in db/schema.ts, spelled out because these queries are raw SQL.
const NEWEST_IDS = 'SELECT MAX(id) FROM assets GROUP BY client_id, source';

/**
 * Shared tail of the three rollups. `grp` must yield (asset_id, key, sync_state) once per asset and group;
 * `score_rows` yields (key, score, adherence, counts…) once per channel score counted in a group.
 */
const ROLLUP_TAIL = `
  asset_counts AS (
    SELECT key,
      COUNT(*) AS assets,
      SUM(sync_state = 'scored') AS scored,
      SUM(sync_state = 'unsupported') AS unsupported,
      SUM(sync_state = 'failed') AS failed
    FROM grp GROUP BY key
  ),
  score_stats AS (
    SELECT key,
      AVG(score) AS mean_score,
      AVG(adherence) AS mean_adherence,
      COUNT(*) AS score_rows,
      SUM(pass_count) AS pass_count,
      SUM(fail_count) AS fail_count,
      SUM(not_applicable_count) AS not_applicable_count,
      SUM(not_available_count) AS not_available_count
    FROM score_rows GROUP BY key
  ),
  ranked AS (
    SELECT key, score,
      ROW_NUMBER() OVER (PARTITION BY key ORDER BY score) AS rn,
      COUNT(*) OVER (PARTITION BY key) AS n
    FROM score_rows WHERE score IS NOT NULL
  ),
  medians AS (
    -- the middle value, or the mean of the two middle values when there is an even number
    SELECT key, AVG(score) AS median_score FROM ranked WHERE rn IN ((n + 1) / 2, (n + 2) / 2) GROUP BY key
  )
SELECT
  a.key AS key,
  a.assets AS assets,
  a.scored AS scored,
  s.mean_score AS meanScore,
  m.median_score AS medianScore,
  s.mean_adherence AS meanAdherence,
  COALESCE(s.score_rows, 0) AS scoreRows,
  COALESCE(s.pass_count, 0) AS passCount,
  COALESCE(s.fail_count, 0) AS failCount,
  COALESCE(s.not_applicable_count, 0) AS notApplicableCount,
  COALESCE(s.not_available_count, 0) AS notAvailableCount,
  a.unsupported AS unsupported,
  a.failed AS failed
FROM asset_counts a
LEFT JOIN score_stats s ON s.key IS a.key
LEFT JOIN medians m ON m.key IS a.key
ORDER BY a.key IS NULL, a.key COLLATE NOCASE, a.key`;

const SCORE_COLUMNS = `cs.score, cs.adherence, cs.pass_count, cs.fail_count, cs.not_applicable_count,
  cs.not_available_count`;

/** Brand and market share one shape: a value table joined to the assets; the assets without one get `key` null. */
function valueTableRollupSql(table: 'asset_brands' | 'asset_markets', column: 'brand' | 'market'): string {
  return `
WITH
  newest AS (SELECT id, sync_state FROM assets WHERE id IN (${NEWEST_IDS})),
  grp AS (
    SELECT n.id AS asset_id, v.${column} AS key, n.sync_state
    FROM newest n LEFT JOIN ${table} v ON v.asset_id = n.id
  ),
  score_rows AS (
    SELECT g.key, ${SCORE_COLUMNS}
    FROM grp g JOIN channel_scores cs ON cs.asset_id = g.asset_id
  ),${ROLLUP_TAIL}`;
}

const CHANNEL_ROLLUP_SQL = `
WITH
  newest AS (SELECT id, sync_state FROM assets WHERE id IN (${NEWEST_IDS})),
  -- a channel's assets: those that asked for it and those the service scored on it (UNION removes doubles)
  asset_channel AS (
    SELECT asset_id, channel FROM asset_channels
    UNION
    SELECT asset_id, channel FROM channel_scores
  ),
  grp AS (
    SELECT n.id AS asset_id, ac.channel AS key, n.sync_state
    FROM newest n LEFT JOIN asset_channel ac ON ac.asset_id = n.id
  ),
  score_rows AS (
    SELECT cs.channel AS key, ${SCORE_COLUMNS}
    FROM newest n JOIN channel_scores cs ON cs.asset_id = n.id
  ),${ROLLUP_TAIL}`;

/** One row per brand (plus one for assets with no brand); an asset with two brands counts in both. */
export function brandRollup(db: Db): GroupRollupRow[] {
  return db.$client.prepare<[], GroupRollupRow>(valueTableRollupSql('asset_brands', 'brand')).all();
}

/** One row per market (plus one for assets with no market); an asset in two markets counts in both. */
export function marketRollup(db: Db): GroupRollupRow[] {
  return db.$client.prepare<[], GroupRollupRow>(valueTableRollupSql('asset_markets', 'market')).all();
}

/**
 * One row per channel that an asset asked for or was scored on (plus one for assets with neither). Scores
 * and guideline counts are that channel's only.
 */
export function channelRollup(db: Db): GroupRollupRow[] {
  return db.$client.prepare<[], GroupRollupRow>(CHANNEL_ROLLUP_SQL).all();
}

/** The channels the newest assets have scores for, in the order the Assets sheet shows their columns. */
export function scoredChannels(db: Db): string[] {
  return db.$client
    .prepare<[], { channel: string }>(
      `SELECT DISTINCT channel FROM channel_scores WHERE asset_id IN (${NEWEST_IDS})
       ORDER BY channel COLLATE NOCASE, channel`,
    )
    .all()
    .map((r) => r.channel);
}

const ASSET_ROWS_SQL = `
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
  a.last_error AS lastError
FROM assets a
LEFT JOIN workspaces w ON w.id = a.workspace_id
LEFT JOIN manifest_files mf ON mf.id = a.manifest_file_id
WHERE a.id IN (${NEWEST_IDS})
ORDER BY a.client_id COLLATE NOCASE, a.client_id, a.source`;

type RawAssetRow = Omit<AssetReportRow, 'scores'> & { scoresJson: string };

/**
 * The newest version of every asset, one at a time. The connection is busy until the iteration ends (or
 * the loop breaks), so do not run other statements on `db` inside the loop.
 */
export function* assetRows(db: Db): Generator<AssetReportRow> {
  for (const raw of db.$client.prepare<[], RawAssetRow>(ASSET_ROWS_SQL).iterate()) {
    const { scoresJson, ...row } = raw;
    yield { ...row, scores: JSON.parse(scoresJson) as Record<string, number | null> };
  }
}
