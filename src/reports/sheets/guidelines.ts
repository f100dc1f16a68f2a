// Guidelines: how each guideline fares on each channel across the counted assets — pass rate,
// failures, and how often it could not be evaluated (by NO_DATA code) — worst pass rate first,
// so the guideline that costs the most points is on top.
import type { Db } from '../../db/open';
import { type Column, type SheetBuilder, TableWriter, versionsNote } from '../layout';
import { countedIdsSql, type RollupScope } from '../rollups';

export interface GuidelineRollupRow {
  channel: string;
  name: string;
  category: string | null;
  consideration: string | null;
  /** Distinct assets with a result for this guideline on this channel. */
  assets: number;
  pass: number;
  fail: number;
  notApplicable: number;
  notAvailable: number;
  /** PASS / (PASS + FAIL), 0.0–1.0; null when never evaluated. */
  passRate: number | null;
  /** e.g. "NO_DATA_SCORING_BACKLOG: 3, NO_DATA: 1". */
  noDataByCode: string | null;
}

/**
 * Grouped by the linked guideline where the detail row could be matched to one, else by
 * channel and name, so an organization guideline and its same-named workspace twin stay apart.
 */
export function guidelineRollup(db: Db, scope: RollupScope): GuidelineRollupRow[] {
  const sql = `
WITH counted AS (
  SELECT r.*, COALESCE(r.guideline_id, 'name:' || r.channel || ':' || r.name) AS gkey
  FROM guideline_results r
  WHERE r.asset_id IN (${countedIdsSql(scope)})
),
codes AS (
  SELECT gkey, channel, group_concat(result || ': ' || n, ', ') AS noDataByCode
  FROM (
    SELECT gkey, channel, result, COUNT(*) AS n FROM counted
    WHERE result = 'NO_DATA' OR result LIKE 'NO\\_DATA\\_%' ESCAPE '\\'
    GROUP BY gkey, channel, result ORDER BY n DESC, result
  )
  GROUP BY gkey, channel
)
SELECT
  c.channel AS channel,
  MIN(c.name) AS name,
  g.category AS category,
  g.consideration AS consideration,
  COUNT(DISTINCT c.asset_id) AS assets,
  SUM(c.result = 'PASS') AS pass,
  SUM(c.result = 'FAIL') AS fail,
  SUM(c.result = 'NOT_APPLICABLE') AS notApplicable,
  SUM(c.result = 'NO_DATA' OR c.result LIKE 'NO\\_DATA\\_%' ESCAPE '\\') AS notAvailable,
  CAST(SUM(c.result = 'PASS') AS REAL) / NULLIF(SUM(c.result IN ('PASS', 'FAIL')), 0) AS passRate,
  codes.noDataByCode AS noDataByCode
FROM counted c
LEFT JOIN guidelines g ON g.id = c.guideline_id
LEFT JOIN codes ON codes.gkey = c.gkey AND codes.channel = c.channel
GROUP BY c.gkey, c.channel
ORDER BY passRate IS NULL, passRate, fail DESC, c.channel, name`;
  return db.$client.prepare<[], GuidelineRollupRow>(sql).all();
}

export const guidelinesSheet: SheetBuilder = {
  name: 'Guidelines',
  async build(ctx) {
    const rows = guidelineRollup(ctx.db, ctx.rollups.scope);
    const columns: Column[] = [
      { header: 'Guideline', width: 32, kind: 'text' },
      { header: 'Channel', width: 12, kind: 'text' },
      { header: 'Category', width: 16, kind: 'text' },
      { header: 'Consideration', width: 13, kind: 'text' },
      { header: 'Assets', width: 9, kind: 'integer' },
      { header: 'Pass rate', width: 10, kind: 'percent' },
      { header: 'Pass', width: 8, kind: 'integer' },
      { header: 'Fail', width: 8, kind: 'integer' },
      { header: 'Not applicable', width: 11, kind: 'integer' },
      { header: 'Not available', width: 11, kind: 'integer' },
      { header: 'Not available, by code', width: 48, kind: 'text' },
    ];
    const note =
      'One row per guideline and channel. Pass rate: PASS / (PASS + FAIL) over the counted assets; ' +
      'not-applicable and not-available results are left out of it. Not available: NO_DATA codes, listed by ' +
      'code (see the Rescore sheet for the ones worth re-scoring). Worst pass rate first. ' +
      versionsNote(ctx.options);
    const table = new TableWriter(
      ctx,
      { name: 'Guidelines', title: 'Guidelines: how each one fares', note, columns, frozenColumns: 2 },
      rows.length,
    );
    for (const r of rows) {
      await table.add([
        r.name,
        r.channel,
        r.category,
        r.consideration,
        r.assets,
        r.passRate,
        r.pass,
        r.fail,
        r.notApplicable,
        r.notAvailable,
        r.noDataByCode,
      ]);
    }
    table.finish();
  },
};
