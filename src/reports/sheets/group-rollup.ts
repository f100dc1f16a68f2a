// The table shared by By Brand, By Market and By Channel: one row per group with its counts and scores.

import {
  type Column,
  NONE_LABEL,
  SCORE_DEFINITIONS,
  type SheetContext,
  versionsNote,
  writeTable,
} from '../layout';
import type { GroupRollupRow } from '../rollups';

const COUNT_DEFINITIONS =
  'Scores counted: the (asset, channel) scores behind the means. Scored: assets whose scoring finished. ' +
  "Unsupported / Failed: assets the service said it can't / couldn't score.";

export const GROUP_ROLLUP_HEADERS = [
  'Assets',
  'Scored',
  'Scores counted',
  'Mean score',
  'Median score',
  'Mean adherence',
  'Pass',
  'Fail',
  'Not applicable',
  'Not available',
  'Unsupported',
  'Failed',
] as const;

export async function writeGroupRollup(
  ctx: SheetContext,
  spec: { name: string; groupHeader: string; title: string; noteParts: string[] },
  rows: GroupRollupRow[],
): Promise<void> {
  const widths = [10, 10, 10, 10, 10, 11, 10, 10, 11, 11, 12, 10];
  const kinds = ['integer', 'integer', 'integer', 'percent', 'percent', 'percent'] as const;
  const columns: Column[] = [
    { header: spec.groupHeader, width: 28, kind: 'text' },
    ...GROUP_ROLLUP_HEADERS.map(
      (header, i): Column => ({ header, width: widths[i] ?? 10, kind: kinds[i] ?? 'integer' }),
    ),
  ];
  const note = [SCORE_DEFINITIONS, ...spec.noteParts, versionsNote(ctx.options), COUNT_DEFINITIONS].join(' ');
  await writeTable(
    ctx,
    { name: spec.name, title: spec.title, note, columns },
    rows.map((r) => [
      r.key === null ? NONE_LABEL : r.key,
      r.assets,
      r.scored,
      r.scoreRows,
      r.meanScore,
      r.medianScore,
      r.meanAdherence,
      r.passCount,
      r.failCount,
      r.notApplicableCount,
      r.notAvailableCount,
      r.unsupported,
      r.failed,
    ]),
  );
}
