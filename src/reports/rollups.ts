// The SQL behind the report's figures: rollups by brand, market, channel and overall, the mean-score
// matrices, assets by state, what is in flight and how fresh the data is. Every figure is aggregated by
// SQLite, so memory stays flat however many assets there are. Presentation is the sheet builders' job.
import type { Db } from '../db/open';
import type { SyncState } from '../db/schema';

/** Which asset rows a report counts. */
export interface RollupScope {
  /** False (the default): only the newest version of each (client id, source). True: every version. */
  allVersions: boolean;
}

export const NEWEST_ONLY: RollupScope = { allVersions: false };

// The same rule as `newestVersionFilter` in db/schema.ts, spelled out because these queries are raw SQL.
const NEWEST_IDS = 'SELECT MAX(id) FROM assets GROUP BY client_id, source';

/** SQL yielding the ids of the assets the report counts. */
export function countedIdsSql(scope: RollupScope): string {
  return scope.allVersions ? 'SELECT id FROM assets' : NEWEST_IDS;
}

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

/**
 * Shared tail of the rollups. `grp` must yield (asset_id, key, sync_state) once per asset and group;
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
function valueTableRollupSql(
  table: 'asset_brands' | 'asset_markets',
  column: 'brand' | 'market',
  scope: RollupScope,
): string {
  return `
WITH
  counted AS (SELECT id, sync_state FROM assets WHERE id IN (${countedIdsSql(scope)})),
  grp AS (
    SELECT n.id AS asset_id, v.${column} AS key, n.sync_state
    FROM counted n LEFT JOIN ${table} v ON v.asset_id = n.id
  ),
  score_rows AS (
    SELECT g.key, ${SCORE_COLUMNS}
    FROM grp g JOIN channel_scores cs ON cs.asset_id = g.asset_id
  ),${ROLLUP_TAIL}`;
}

function channelRollupSql(scope: RollupScope): string {
  return `
WITH
  counted AS (SELECT id, sync_state FROM assets WHERE id IN (${countedIdsSql(scope)})),
  -- a channel's assets: those that asked for it and those the service scored on it (UNION removes doubles)
  asset_channel AS (
    SELECT asset_id, channel FROM asset_channels
    UNION
    SELECT asset_id, channel FROM channel_scores
  ),
  grp AS (
    SELECT n.id AS asset_id, ac.channel AS key, n.sync_state
    FROM counted n LEFT JOIN asset_channel ac ON ac.asset_id = n.id
  ),
  score_rows AS (
    SELECT cs.channel AS key, ${SCORE_COLUMNS}
    FROM counted n JOIN channel_scores cs ON cs.asset_id = n.id
  ),${ROLLUP_TAIL}`;
}

function overallRollupSql(scope: RollupScope): string {
  return `
WITH
  counted AS (SELECT id, sync_state FROM assets WHERE id IN (${countedIdsSql(scope)})),
  grp AS (SELECT id AS asset_id, 'all' AS key, sync_state FROM counted),
  score_rows AS (
    SELECT 'all' AS key, ${SCORE_COLUMNS}
    FROM counted n JOIN channel_scores cs ON cs.asset_id = n.id
  ),${ROLLUP_TAIL}`;
}

/** One row per brand (plus one for assets with no brand); an asset with two brands counts in both. */
export function brandRollup(db: Db, scope: RollupScope = NEWEST_ONLY): GroupRollupRow[] {
  return db.$client.prepare<[], GroupRollupRow>(valueTableRollupSql('asset_brands', 'brand', scope)).all();
}

/** One row per market (plus one for assets with no market); an asset in two markets counts in both. */
export function marketRollup(db: Db, scope: RollupScope = NEWEST_ONLY): GroupRollupRow[] {
  return db.$client.prepare<[], GroupRollupRow>(valueTableRollupSql('asset_markets', 'market', scope)).all();
}

/**
 * One row per channel that an asset asked for or was scored on (plus one for assets with neither). Scores
 * and guideline counts are that channel's only.
 */
export function channelRollup(db: Db, scope: RollupScope = NEWEST_ONLY): GroupRollupRow[] {
  return db.$client.prepare<[], GroupRollupRow>(channelRollupSql(scope)).all();
}

/** Every counted asset and every one of their channel scores, as one row (key `all`). */
export function overallRollup(db: Db, scope: RollupScope = NEWEST_ONLY): GroupRollupRow {
  return (
    db.$client.prepare<[], GroupRollupRow>(overallRollupSql(scope)).get() ?? {
      key: 'all',
      assets: 0,
      scored: 0,
      meanScore: null,
      medianScore: null,
      meanAdherence: null,
      scoreRows: 0,
      passCount: 0,
      failCount: 0,
      notApplicableCount: 0,
      notAvailableCount: 0,
      unsupported: 0,
      failed: 0,
    }
  );
}

/** One cell of a group × channel matrix: the mean of the group's scores on that channel. */
export interface MatrixCell {
  /** The brand or market; null for the assets that have none. */
  key: string | null;
  channel: string;
  meanScore: number | null;
  /** How many non-empty scores the mean is over. */
  scores: number;
}

/** Mean score per (brand or market, channel), for the pairs that have at least one score row. */
export function scoreMatrix(db: Db, by: 'brand' | 'market', scope: RollupScope = NEWEST_ONLY): MatrixCell[] {
  const table = by === 'brand' ? 'asset_brands' : 'asset_markets';
  return db.$client
    .prepare<[], MatrixCell>(
      `WITH
         counted AS (SELECT id FROM assets WHERE id IN (${countedIdsSql(scope)})),
         grp AS (SELECT c.id AS asset_id, v.${by} AS key FROM counted c LEFT JOIN ${table} v ON v.asset_id = c.id)
       SELECT g.key AS key, cs.channel AS channel, AVG(cs.score) AS meanScore, COUNT(cs.score) AS scores
       FROM grp g JOIN channel_scores cs ON cs.asset_id = g.asset_id
       GROUP BY g.key, cs.channel
       ORDER BY g.key IS NULL, g.key COLLATE NOCASE, g.key, cs.channel COLLATE NOCASE, cs.channel`,
    )
    .all();
}

/** The channels the counted assets have scores for, in the order the sheets show their columns. */
export function scoredChannels(db: Db, scope: RollupScope = NEWEST_ONLY): string[] {
  return db.$client
    .prepare<[], { channel: string }>(
      `SELECT DISTINCT channel FROM channel_scores WHERE asset_id IN (${countedIdsSql(scope)})
       ORDER BY channel COLLATE NOCASE, channel`,
    )
    .all()
    .map((r) => r.channel);
}

/** How many counted assets are in each sync state (states with none are left out). */
export function stateCounts(
  db: Db,
  scope: RollupScope = NEWEST_ONLY,
): { state: SyncState; assets: number }[] {
  return db.$client
    .prepare<[], { state: SyncState; assets: number }>(
      `SELECT sync_state AS state, COUNT(*) AS assets FROM assets WHERE id IN (${countedIdsSql(scope)})
       GROUP BY sync_state`,
    )
    .all();
}

/** What the service still has to finish, over the counted assets. Times are epoch milliseconds. */
export interface InFlight {
  /** In the manifest, not yet accepted by the service (new, or retrying after a passing failure). */
  pending: number;
  /** Submitted and being scored. */
  submitted: number;
  /** Scored by the service; the scores are still to be fetched. */
  complete: number;
  /** In flight longer than the configured limit; still polled. */
  stalled: number;
  /** When the longest-waiting asset in flight was submitted. */
  oldestSubmittedAt: number | null;
  /** When the next asset in flight is due to be asked about. */
  nextPollAt: number | null;
}

export function inFlight(db: Db, scope: RollupScope = NEWEST_ONLY): InFlight {
  const row = db.$client
    .prepare<[], InFlight>(
      `SELECT
         COALESCE(SUM(sync_state = 'pending'), 0) AS pending,
         COALESCE(SUM(sync_state = 'submitted'), 0) AS submitted,
         COALESCE(SUM(sync_state = 'complete'), 0) AS complete,
         COALESCE(SUM(sync_state = 'stalled'), 0) AS stalled,
         MIN(CASE WHEN sync_state IN ('submitted', 'complete', 'stalled') THEN submitted_at END) AS oldestSubmittedAt,
         MIN(CASE WHEN sync_state IN ('submitted', 'complete', 'stalled') THEN next_poll_at END) AS nextPollAt
       FROM assets WHERE id IN (${countedIdsSql(scope)})`,
    )
    .get();
  return row as InFlight;
}

/** When the data behind the report last changed, by source. Times are epoch milliseconds. */
export interface Freshness {
  /** The organizations discovery found, by name. */
  organizations: string[];
  lastScoredAt: number | null;
  lastPolledAt: number | null;
  manifestsLastReadAt: number | null;
  lastFinishedRunAt: number | null;
}

export function freshness(db: Db): Freshness {
  const organizations = db.$client
    .prepare<[], { name: string }>('SELECT name FROM organizations ORDER BY name COLLATE NOCASE, name')
    .all()
    .map((r) => r.name);
  const times = db.$client
    .prepare<[], Omit<Freshness, 'organizations'>>(
      `SELECT
         (SELECT MAX(scored_at) FROM assets) AS lastScoredAt,
         (SELECT MAX(last_polled_at) FROM assets) AS lastPolledAt,
         (SELECT MAX(last_read_at) FROM manifest_files) AS manifestsLastReadAt,
         (SELECT MAX(finished_at) FROM runs WHERE outcome <> 'running') AS lastFinishedRunAt`,
    )
    .get() as Omit<Freshness, 'organizations'>;
  return { organizations, ...times };
}

/** How many assets the report counts. */
export function countedAssets(db: Db, scope: RollupScope = NEWEST_ONLY): number {
  return (
    db.$client.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM (${countedIdsSql(scope)})`).get()?.n ?? 0
  );
}
