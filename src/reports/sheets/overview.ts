// Overview: the page people read first — whose data, how fresh, assets by state, the overall score, the
// best and worst brands and channels, what is still in flight, and charts of the same figures.
import { type SyncState, syncStates } from '../../db/schema';
import { excelLocalDate } from '../cells';
import { type Bar, barChart, type Picture } from '../charts';
import {
  type Column,
  HEADER_ROW,
  type Kind,
  SCORE_DEFINITIONS,
  type SheetBuilder,
  type SheetContext,
  STYLES,
  setCell,
  startSheet,
  type Value,
  versionsNote,
} from '../layout';
import { addPictures, type PlacedPicture } from '../pictures';
import type { GroupRollupRow } from '../rollups';
import { issueRowCount } from '../rows';

/** One line of the Overview table. */
export interface OverviewLine {
  section: string;
  figure: string;
  value: Value;
  kind: Kind;
  detail?: string | null;
}

export const STATE_MEANINGS: Record<SyncState, string> = {
  pending: 'In a manifest, not yet accepted by the service',
  submitted: 'Submitted; the service is scoring it',
  complete: 'Scored by the service; scores still to fetch',
  scored: 'Scores fetched; counted in the rollups',
  unsupported: "The service can't score this kind of media",
  failed: "The service couldn't process the media",
  rejected: 'The service refused the submission',
  forbidden: "The workspace isn't your organization's",
  stalled: 'In flight longer than the limit; still polled',
};

/** How many groups each best and worst list shows. */
export const RANKED = 3;
/** The brand chart shows at most this many brands (those with the most scores). */
export const MAX_CHART_BRANDS = 15;

/**
 * The best and worst groups by mean score (ties by name), excluding the (none) row and groups with no score.
 * The two lists never share a group: with few groups, the better half is "best" and the rest "worst".
 */
export function bestAndWorst(
  rows: GroupRollupRow[],
  n = RANKED,
): { best: GroupRollupRow[]; worst: GroupRollupRow[] } {
  const ranked = rows
    .filter((r) => r.key !== null && r.meanScore !== null)
    .sort((a, b) => (b.meanScore as number) - (a.meanScore as number) || compareKeys(a.key, b.key));
  const bestCount = Math.min(n, Math.ceil(ranked.length / 2));
  const worstCount = Math.min(n, ranked.length - bestCount);
  return {
    best: ranked.slice(0, bestCount),
    worst: ranked.slice(ranked.length - worstCount).reverse(),
  };
}

function compareKeys(a: string | null, b: string | null): number {
  return (a ?? '').localeCompare(b ?? '');
}

/** The bars of a score chart: groups with a score, best first. */
export function scoreBars(rows: GroupRollupRow[], limit = Number.POSITIVE_INFINITY): Bar[] {
  return rows
    .filter(
      (r): r is GroupRollupRow & { key: string; meanScore: number } => r.key !== null && r.meanScore !== null,
    )
    .sort((a, b) => b.scoreRows - a.scoreRows || compareKeys(a.key, b.key))
    .slice(0, limit)
    .sort((a, b) => b.meanScore - a.meanScore || compareKeys(a.key, b.key))
    .map((r) => ({ label: r.key, value: r.meanScore }));
}

/** The bars of the state chart: states with assets, in the order an asset goes through them. */
export function stateBars(states: { state: SyncState; assets: number }[]): Bar[] {
  const counts = new Map(states.map((s) => [s.state, s.assets]));
  return syncStates
    .filter((s) => (counts.get(s) ?? 0) > 0)
    .map((s) => ({ label: s, value: counts.get(s) ?? 0 }));
}

/** Every line of the Overview table, from the workbook's rollups. */
export function overviewLines(ctx: SheetContext): OverviewLine[] {
  const { rollups, options } = ctx;
  const fresh = rollups.freshness();
  const overall = rollups.overall();
  const flight = rollups.inFlight();
  const counts = new Map(rollups.states().map((s) => [s.state, s.assets]));
  const date = (ms: number | null): Value => excelLocalDate(ms);
  const lines: OverviewLine[] = [
    {
      section: 'Run',
      figure: 'Organization',
      value: fresh.organizations.length > 0 ? fresh.organizations.join(', ') : 'not known yet',
      kind: 'text',
      detail: fresh.organizations.length > 0 ? null : 'Found by the first run that reaches the service',
    },
    {
      section: 'Run',
      figure: 'Run started',
      value: date((options.runDate ?? options.generatedAt).getTime()),
      kind: 'date',
    },
    { section: 'Run', figure: 'Report generated', value: date(options.generatedAt.getTime()), kind: 'date' },
    {
      section: 'Run',
      figure: 'Versions counted',
      value: options.allVersions ? 'all versions' : 'newest version of each asset',
      kind: 'text',
    },
    {
      section: 'Data freshness',
      figure: 'Latest scores fetched',
      value: date(fresh.lastScoredAt),
      kind: 'date',
      detail: 'Newer scores may be waiting at the service; see In flight',
    },
    {
      section: 'Data freshness',
      figure: 'Latest status check',
      value: date(fresh.lastPolledAt),
      kind: 'date',
    },
    {
      section: 'Data freshness',
      figure: 'Manifests last read',
      value: date(fresh.manifestsLastReadAt),
      kind: 'date',
    },
    {
      section: 'Data freshness',
      figure: 'Last finished run',
      value: date(fresh.lastFinishedRunAt),
      kind: 'date',
    },
    { section: 'Assets by state', figure: 'All assets', value: overall.assets, kind: 'integer' },
    ...syncStates.map(
      (state): OverviewLine => ({
        section: 'Assets by state',
        figure: state,
        value: counts.get(state) ?? 0,
        kind: 'integer',
        detail: STATE_MEANINGS[state],
      }),
    ),
    {
      section: 'Scores',
      figure: 'Mean score',
      value: overall.meanScore,
      kind: 'percent',
      detail: `Over ${overall.scoreRows.toLocaleString('en-US')} (asset, channel) scores`,
    },
    { section: 'Scores', figure: 'Median score', value: overall.medianScore, kind: 'percent' },
    { section: 'Scores', figure: 'Mean adherence', value: overall.meanAdherence, kind: 'percent' },
  ];
  const ranking = (section: string, rows: GroupRollupRow[], sheet: string) => {
    const { best, worst } = bestAndWorst(rows);
    const line =
      (label: string) =>
      (r: GroupRollupRow): OverviewLine => ({
        section: `${label} ${section}`,
        figure: r.key as string,
        value: r.meanScore,
        kind: 'percent',
        detail: `${r.scoreRows.toLocaleString('en-US')} scores; see '${sheet}'`,
      });
    lines.push(...best.map(line('Best')), ...worst.map(line('Worst')));
  };
  ranking('brands', rollups.brand(), 'By Brand');
  ranking('channels', rollups.channel(), 'By Channel');
  lines.push(
    {
      section: 'In flight',
      figure: 'Waiting to be submitted',
      value: flight.pending,
      kind: 'integer',
      detail: 'pending: the next run submits them',
    },
    {
      section: 'In flight',
      figure: 'Being scored',
      value: flight.submitted,
      kind: 'integer',
      detail: 'submitted',
    },
    {
      section: 'In flight',
      figure: 'Scores to fetch',
      value: flight.complete,
      kind: 'integer',
      detail: 'complete: fetched on the next run',
    },
    {
      section: 'In flight',
      figure: 'Stalled',
      value: flight.stalled,
      kind: 'integer',
      detail: "still polled; see 'Issues'",
    },
    {
      section: 'In flight',
      figure: 'Oldest in flight since',
      value: date(flight.oldestSubmittedAt),
      kind: 'date',
    },
    { section: 'In flight', figure: 'Next status check due', value: date(flight.nextPollAt), kind: 'date' },
    {
      section: 'Issues',
      figure: 'Rows on the Issues sheet',
      value: issueRowCount(ctx.db, rollups.scope),
      kind: 'integer',
      detail: "Rejected manifest rows, assets that didn't score, inconsistent scores: see 'Issues'",
    },
  );
  return lines;
}

/** The three charts, drawn from the same rollup rows as the tables. */
export async function overviewCharts(ctx: SheetContext): Promise<Picture[]> {
  const brands = ctx.rollups.brand();
  const brandBars = scoreBars(brands, MAX_CHART_BRANDS);
  const scoredBrands = brands.filter((r) => r.key !== null && r.meanScore !== null).length;
  const brandTitle =
    scoredBrands > MAX_CHART_BRANDS
      ? `Mean score by brand (the ${MAX_CHART_BRANDS} with most scores, of ${scoredBrands})`
      : 'Mean score by brand';
  return [
    await barChart({
      title: 'Mean score by channel',
      bars: scoreBars(ctx.rollups.channel()),
      format: 'percent',
    }),
    await barChart({ title: brandTitle, bars: brandBars, format: 'percent' }),
    await barChart({ title: 'Assets by state', bars: stateBars(ctx.rollups.states()), format: 'count' }),
  ];
}

const COLUMNS: Column[] = [
  { header: 'Section', width: 18, kind: 'text' },
  { header: 'Figure', width: 26, kind: 'text' },
  { header: 'Value', width: 18, kind: 'text' },
  { header: 'Detail', width: 52, kind: 'text' },
];
/** Charts start in the column after the table, one blank column apart. */
const CHART_COLUMN = COLUMNS.length + 1;
// Excel's default row is 15 points, 20 pixels; the header row is 30 points.
const ROW_PX = 20;
const HEADER_ROW_PX = 40;
const CHART_GAP_PX = 36;
// Indented, so a detail does not run into the right-aligned number before it.
const DETAIL_STYLE = { ...STYLES.text, alignment: { indent: 1 } };

export const overviewSheet: SheetBuilder = {
  name: 'Overview',
  async build(ctx) {
    const note =
      `Key figures of this report. ${SCORE_DEFINITIONS} Best and worst: by mean score over all channels, ` +
      `among groups with a score. The charts show the same figures as 'By Channel', 'By Brand' and the state ` +
      `counts. ${versionsNote(ctx.options)} Times are local.`;
    const sheet = startSheet(ctx, {
      name: 'Overview',
      title: 'Creative scoring overview',
      note,
      columns: COLUMNS,
    });
    const lines = overviewLines(ctx);
    for (const line of lines) {
      const row = sheet.addRow([]);
      setCell(row.getCell(1), line.section, STYLES.text);
      setCell(row.getCell(2), line.figure, STYLES.text);
      setCell(row.getCell(3), line.value, STYLES[line.kind]);
      setCell(row.getCell(4), line.detail ?? null, DETAIL_STYLE);
      row.commit();
    }

    const charts = await overviewCharts(ctx);
    // Stacked down the right of the table, starting at the header row.
    let row = HEADER_ROW - 1;
    let offsetPx = 0;
    const placed: PlacedPicture[] = charts.map((chart) => {
      const picture = { ...chart, col: CHART_COLUMN, row };
      offsetPx += chart.height + CHART_GAP_PX;
      row = HEADER_ROW + Math.ceil(Math.max(0, offsetPx - HEADER_ROW_PX) / ROW_PX);
      return picture;
    });
    addPictures(ctx.workbook, sheet, placed);
    sheet.commit();
    ctx.written.push({ name: sheet.name, rows: lines.length, columns: COLUMNS.length });
  },
};
