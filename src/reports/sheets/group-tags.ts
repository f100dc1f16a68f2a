// The shared shape of Tags by Brand and Tags by Channel: the most widespread tags within each brand or
// channel, ranked and cut in SQL so memory stays flat however many tag rows there are.
import type { Db } from '../../db/open';
import { type Column, NONE_LABEL, type SheetContext, TableWriter, versionsNote } from '../layout';
import { countedIdsSql, type RollupScope } from '../rollups';

/** How many tags each brand or channel shows, the most widespread first. */
export const TOP_TAGS_PER_GROUP = 20;

export type TagGroupBy = 'brand' | 'channel';

export interface GroupTagRow {
  /** The brand or channel; null for the counted assets that have none. */
  key: string | null;
  /** 1 for the group's most widespread tag. */
  rank: number;
  tagType: string | null;
  tagName: string | null;
  /** Distinct assets of the group with at least one row of this tag. */
  creatives: number;
  rows: number;
  /** 0.0–1.0; null when no row gave a confidence. */
  meanConfidence: number | null;
}

const GROUP_TABLE: Record<TagGroupBy, string> = { brand: 'asset_brands', channel: 'asset_channels' };

/**
 * The top `limit` tags of each brand (or channel the manifest asked for), by creatives tagged, then rows,
 * then type and name. An asset with two brands counts in both; assets with none are the `key` null group.
 */
export function groupTagRollup(
  db: Db,
  by: TagGroupBy,
  scope: RollupScope,
  limit = TOP_TAGS_PER_GROUP,
): GroupTagRow[] {
  const sql = `
WITH
  counted AS (SELECT id FROM assets WHERE id IN (${countedIdsSql(scope)})),
  grp AS (
    SELECT c.id AS asset_id, v.${by} AS key
    FROM counted c LEFT JOIN ${GROUP_TABLE[by]} v ON v.asset_id = c.id
  ),
  per_tag AS (
    SELECT g.key, t.tag_type, t.tag_name,
      COUNT(DISTINCT t.asset_id) AS creatives,
      COUNT(*) AS rows,
      AVG(t.confidence) AS mean_confidence
    FROM grp g JOIN creative_tags t ON t.asset_id = g.asset_id
    GROUP BY g.key, t.tag_type, t.tag_name
  ),
  ranked AS (
    SELECT *, ROW_NUMBER() OVER (
      PARTITION BY key ORDER BY creatives DESC, rows DESC, tag_type, tag_name
    ) AS rank
    FROM per_tag
  )
SELECT key, rank, tag_type AS tagType, tag_name AS tagName, creatives, rows, mean_confidence AS meanConfidence
FROM ranked
WHERE rank <= ?
ORDER BY key IS NULL, key COLLATE NOCASE, key, rank`;
  return db.$client.prepare<[number], GroupTagRow>(sql).all(limit);
}

export interface GroupTagsSpec {
  name: string;
  by: TagGroupBy;
  groupHeader: string;
  title: string;
  /** What the group is and how an asset counts in it. */
  groupNote: string;
}

export async function writeGroupTags(ctx: SheetContext, spec: GroupTagsSpec): Promise<void> {
  const rows = groupTagRollup(ctx.db, spec.by, ctx.rollups.scope);
  const columns: Column[] = [
    { header: spec.groupHeader, width: 18, kind: 'text' },
    { header: 'Rank', width: 6, kind: 'integer' },
    { header: 'Tag type', width: 14, kind: 'text' },
    { header: 'Tag name', width: 28, kind: 'text' },
    { header: 'Creatives tagged', width: 12, kind: 'integer' },
    { header: 'Rows', width: 10, kind: 'integer' },
    { header: 'Mean confidence', width: 12, kind: 'percent' },
  ];
  const note =
    `The top ${TOP_TAGS_PER_GROUP} tags (type and name) of each ${spec.by}, ranked by creatives tagged, ` +
    `then rows. ${spec.groupNote} Creatives tagged: the ${spec.by}'s assets with at least one row of the ` +
    'tag. Rows: report rows naming it. Mean confidence: over those rows. ' +
    versionsNote(ctx.options);
  const table = new TableWriter(
    ctx,
    { name: spec.name, title: spec.title, note, columns, frozenColumns: 2 },
    rows.length,
  );
  for (const r of rows) {
    await table.add([
      r.key ?? NONE_LABEL,
      r.rank,
      r.tagType,
      r.tagName,
      r.creatives,
      r.rows,
      r.meanConfidence,
    ]);
  }
  table.finish();
}
