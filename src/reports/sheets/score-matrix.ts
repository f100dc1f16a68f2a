// The table shared by Brand x Channel and Market x Channel: mean score per (group, channel), coloured from
// red (lowest on the sheet) through yellow to green (highest), so the weak spots show at a glance.
import { columnLetter } from '../cells';
import {
  type Column,
  HEADER_ROW,
  NONE_LABEL,
  SCORE_DEFINITION,
  type SheetContext,
  startSheet,
  type Value,
  versionsNote,
  writeRow,
} from '../layout';
import type { GroupRollupRow, MatrixCell } from '../rollups';

/** Red, yellow, green: Excel's own three-colour scale. */
export const COLOUR_SCALE = ['FFF8696B', 'FFFFEB84', 'FF63BE7B'] as const;

/** Rows of the matrix: one per group with a score, one column per channel; null where there is none. */
export function matrixRows(
  cells: MatrixCell[],
  channels: string[],
): { key: string | null; scores: (number | null)[] }[] {
  const rows = new Map<string | null, Map<string, number | null>>();
  for (const cell of cells) {
    const row = rows.get(cell.key) ?? new Map<string, number | null>();
    row.set(cell.channel, cell.meanScore);
    rows.set(cell.key, row);
  }
  // The cells come sorted by group, so the map keeps the sheet's order.
  return [...rows].map(([key, byChannel]) => ({
    key,
    scores: channels.map((c) => byChannel.get(c) ?? null),
  }));
}

export function writeScoreMatrix(
  ctx: SheetContext,
  spec: { name: string; groupHeader: string; title: string; groupNote: string; rollupSheet: string },
  cells: MatrixCell[],
  groups: GroupRollupRow[],
): void {
  const channels = ctx.rollups.scoredChannels();
  const columns: Column[] = [
    { header: spec.groupHeader, width: 28, kind: 'text' },
    ...channels.map((channel): Column => ({ header: channel, width: 12, kind: 'percent' })),
    { header: 'All channels', width: 12, kind: 'percent' },
  ];
  const note =
    `Mean score per ${spec.groupHeader.toLowerCase()} and channel. ${SCORE_DEFINITION} ` +
    `Colour: red is the lowest score on this sheet, yellow the middle, green the highest; blank: no score. ` +
    `All channels: the ${spec.groupHeader.toLowerCase()}'s mean over every channel, as on '${spec.rollupSheet}'. ` +
    `${spec.groupNote} ${versionsNote(ctx.options)}`;
  const sheet = startSheet(ctx, { name: spec.name, title: spec.title, note, columns });
  const overall = new Map(groups.map((g) => [g.key, g.meanScore]));
  const rows = matrixRows(cells, channels);
  for (const row of rows) {
    const values: Value[] = [row.key ?? NONE_LABEL, ...row.scores, overall.get(row.key) ?? null];
    writeRow(sheet, columns, values);
  }
  if (rows.length > 0 && channels.length > 0) {
    const first = HEADER_ROW + 1;
    const last = HEADER_ROW + rows.length;
    sheet.addConditionalFormatting({
      ref: `B${first}:${columnLetter(1 + channels.length)}${last}`,
      rules: [
        {
          type: 'colorScale',
          priority: 1,
          cfvo: [{ type: 'min' }, { type: 'percentile', value: 50 }, { type: 'max' }],
          color: COLOUR_SCALE.map((argb) => ({ argb })),
        },
      ],
    });
  }
  sheet.commit();
  ctx.written.push({ name: sheet.name, rows: rows.length, columns: columns.length });
}
