// Tags: what the tagging reports found, one row per tag type and name — how many creatives carry the
// tag, how many report rows name it, and the mean confidence — most widespread first.
import type { Db } from '../../db/open';
import { type Column, type SheetBuilder, TableWriter, versionsNote } from '../layout';
import { countedIdsSql, type RollupScope } from '../rollups';

export interface TagRollupRow {
  tagType: string | null;
  tagName: string | null;
  /** Distinct assets with at least one row of this tag. */
  creatives: number;
  rows: number;
  /** 0.0–1.0; null when no row gave a confidence. */
  meanConfidence: number | null;
}

/** Aggregated by SQLite over the counted assets' tag rows, so memory stays flat however many rows there are. */
export function tagRollup(db: Db, scope: RollupScope): TagRollupRow[] {
  const sql = `
SELECT
  t.tag_type AS tagType,
  t.tag_name AS tagName,
  COUNT(DISTINCT t.asset_id) AS creatives,
  COUNT(*) AS rows,
  AVG(t.confidence) AS meanConfidence
FROM creative_tags t
WHERE t.asset_id IN (${countedIdsSql(scope)})
GROUP BY t.tag_type, t.tag_name
ORDER BY creatives DESC, rows DESC, t.tag_type, t.tag_name`;
  return db.$client.prepare<[], TagRollupRow>(sql).all();
}

export const tagsSheet: SheetBuilder = {
  name: 'Tags',
  async build(ctx) {
    const rows = tagRollup(ctx.db, ctx.rollups.scope);
    const columns: Column[] = [
      { header: 'Tag type', width: 14, kind: 'text' },
      { header: 'Tag name', width: 28, kind: 'text' },
      { header: 'Creatives tagged', width: 12, kind: 'integer' },
      { header: 'Rows', width: 10, kind: 'integer' },
      { header: 'Mean confidence', width: 12, kind: 'percent' },
    ];
    const note =
      'One row per tag (type and name) in the tagging reports. Creatives tagged: assets with at least one ' +
      'row of the tag. Rows: report rows naming it (a video repeats a tag for each moment it is seen). ' +
      `Mean confidence: over those rows. ${versionsNote(ctx.options)}`;
    const table = new TableWriter(
      ctx,
      { name: 'Tags', title: 'Tags found by tagging', note, columns, frozenColumns: 2 },
      rows.length,
    );
    for (const r of rows) await table.add([r.tagType, r.tagName, r.creatives, r.rows, r.meanConfidence]);
    table.finish();
  },
};
