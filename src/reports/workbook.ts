// The Excel layout: one builder per sheet, each a title, a note with the metric definitions, a frozen and
// filterable header and the rows, streamed with exceljs so a large Assets sheet never sits in memory.
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Db } from '../db/open';
import type { SyncState } from '../db/schema';
import { cellText, cleanSheetName, excelLocalDate, localDateTimeStamp, TEXT_FORMAT } from './cells';
import {
  type AssetReportRow,
  assetRows,
  brandRollup,
  channelRollup,
  type GroupRollupRow,
  marketRollup,
  scoredChannels,
} from './rollups';

export interface WorkbookOptions {
  /** Every sheet says, under its title, that the data is simulated. */
  demo: boolean;
  generatedAt: Date;
}

export const SHEET_NAMES = {
  brand: 'By Brand',
  market: 'By Market',
  channel: 'By Channel',
  assets: 'Assets',
} as const;

export const DEMO_NOTICE = 'SIMULATED DATA — demo mode, not from the real service.';
/** The label of the row for assets without a brand, market or channel. */
export const NONE_LABEL = '(none)';
export const TITLE_ROW = 1;
export const NOTE_ROW = 2;
export const HEADER_ROW = 3;

const SCORE_DEFINITION =
  'Score: weighted pass rate of evaluated guidelines (PASS/(PASS+FAIL) by weight), 0–100%.';
const SCORE_DEFINITIONS = `${SCORE_DEFINITION} Adherence: unweighted pass rate (PASS/(PASS+FAIL)).`;
const NEWEST_ONLY = 'Only the newest version of each asset counts.';

type Kind = 'text' | 'integer' | 'percent' | 'date';
type Value = string | number | Date | null;

interface Column {
  header: string;
  width: number;
  kind: Kind;
}

// Shared style objects: exceljs deduplicates them into one entry each in styles.xml. Never mutated.
const STYLES: Record<Kind, Partial<ExcelJS.Style>> = {
  // Text format so that text from outside stays text even when a user edits the cell (see cells.ts).
  text: { numFmt: TEXT_FORMAT },
  integer: { numFmt: '0' },
  percent: { numFmt: '0.0%' },
  date: { numFmt: 'yyyy-mm-dd hh:mm' },
};
const TITLE_STYLE: Partial<ExcelJS.Style> = { font: { bold: true, size: 14 } };
const NOTE_STYLE: Partial<ExcelJS.Style> = { font: { italic: true, size: 10, color: { argb: 'FF595959' } } };
const DEMO_NOTE_STYLE: Partial<ExcelJS.Style> = {
  font: { bold: true, size: 10, color: { argb: 'FFC00000' } },
};
const HEADER_STYLE: Partial<ExcelJS.Style> = {
  numFmt: TEXT_FORMAT,
  font: { bold: true },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E1F2' } },
  border: { bottom: { style: 'thin' } },
  alignment: { vertical: 'middle', wrapText: true },
};

export interface SheetContext extends WorkbookOptions {
  workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  /** Names given so far, so a new sheet's cleaned name is unique. */
  sheetNames: string[];
}

/** Writes the whole workbook to `stream` and resolves once exceljs has finished writing to it. */
export async function writeWorkbook(db: Db, stream: Writable, options: WorkbookOptions): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'creative-sync';
  workbook.created = options.generatedAt;
  const ctx: SheetContext = { ...options, workbook, sheetNames: [] };

  addBrandSheet(ctx, brandRollup(db));
  addMarketSheet(ctx, marketRollup(db));
  addChannelSheet(ctx, channelRollup(db));
  await addAssetsSheet(ctx, scoredChannels(db), assetRows(db));

  await workbook.commit();
}

export function addBrandSheet(ctx: SheetContext, rows: GroupRollupRow[]): void {
  addRollupSheet(ctx, SHEET_NAMES.brand, 'Brand', 'Creative scores by brand', rows, [
    SCORE_DEFINITIONS,
    "Means and medians are over every (asset, channel) score of the brand's assets;",
    'Pass…Not available are guideline results summed over those scores.',
    `${NEWEST_ONLY} An asset with two brands counts in both; ${NONE_LABEL} is the assets with no brand.`,
  ]);
}

export function addMarketSheet(ctx: SheetContext, rows: GroupRollupRow[]): void {
  addRollupSheet(ctx, SHEET_NAMES.market, 'Market', 'Creative scores by market', rows, [
    SCORE_DEFINITIONS,
    "Means and medians are over every (asset, channel) score of the market's assets;",
    'Pass…Not available are guideline results summed over those scores.',
    `${NEWEST_ONLY} An asset in two markets counts in both; ${NONE_LABEL} is the assets with no market.`,
  ]);
}

export function addChannelSheet(ctx: SheetContext, rows: GroupRollupRow[]): void {
  addRollupSheet(ctx, SHEET_NAMES.channel, 'Channel', 'Creative scores by channel', rows, [
    SCORE_DEFINITIONS,
    "Means, medians and Pass…Not available are over the channel's scores only.",
    'Assets: those that asked for the channel or were scored on it.',
    `${NEWEST_ONLY} ${NONE_LABEL} is the assets with neither.`,
  ]);
}

const ROLLUP_COUNT_DEFINITIONS =
  'Scores counted: the (asset, channel) scores behind the means. Scored: assets whose scoring finished. ' +
  "Unsupported / Failed: assets the service said it can't / couldn't score.";

function addRollupSheet(
  ctx: SheetContext,
  name: string,
  groupHeader: string,
  title: string,
  rows: GroupRollupRow[],
  noteParts: string[],
): void {
  const columns: Column[] = [
    { header: groupHeader, width: 28, kind: 'text' },
    { header: 'Assets', width: 10, kind: 'integer' },
    { header: 'Scored', width: 10, kind: 'integer' },
    { header: 'Scores counted', width: 10, kind: 'integer' },
    { header: 'Mean score', width: 10, kind: 'percent' },
    { header: 'Median score', width: 10, kind: 'percent' },
    { header: 'Mean adherence', width: 11, kind: 'percent' },
    { header: 'Pass', width: 10, kind: 'integer' },
    { header: 'Fail', width: 10, kind: 'integer' },
    { header: 'Not applicable', width: 11, kind: 'integer' },
    { header: 'Not available', width: 11, kind: 'integer' },
    { header: 'Unsupported', width: 12, kind: 'integer' },
    { header: 'Failed', width: 10, kind: 'integer' },
  ];
  const sheet = startSheet(ctx, name, title, [...noteParts, ROLLUP_COUNT_DEFINITIONS].join(' '), columns);
  for (const r of rows) {
    writeRow(sheet, columns, [
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
    ]);
  }
  sheet.commit();
}

// The yield lets the zip and file streams drain between batches, so memory stays flat on big databases.
const ASSET_ROWS_PER_YIELD = 1000;

export async function addAssetsSheet(
  ctx: SheetContext,
  channels: string[],
  rows: Iterable<AssetReportRow>,
): Promise<void> {
  const columns: Column[] = [
    { header: 'ID', width: 18, kind: 'text' },
    { header: 'Version', width: 10, kind: 'text' },
    { header: 'Source', width: 12, kind: 'text' },
    { header: 'Name', width: 30, kind: 'text' },
    { header: 'Brands', width: 18, kind: 'text' },
    { header: 'Markets', width: 14, kind: 'text' },
    { header: 'Channels asked for', width: 18, kind: 'text' },
    { header: 'Workspace ID', width: 11, kind: 'integer' },
    { header: 'Workspace', width: 18, kind: 'text' },
    { header: 'Sync state', width: 12, kind: 'text' },
    { header: 'Remote status', width: 13, kind: 'text' },
    ...channels.map((channel): Column => ({ header: `${channel} score`, width: 10, kind: 'percent' })),
    { header: 'Submitted at', width: 17, kind: 'date' },
    { header: 'Completed at', width: 17, kind: 'date' },
    { header: 'Manifest file', width: 30, kind: 'text' },
    { header: 'Manifest line', width: 10, kind: 'integer' },
    { header: 'Why not scored', width: 40, kind: 'text' },
    { header: 'URL', width: 40, kind: 'text' },
  ];
  const note =
    'One row per asset, newest version only. ' +
    `${SCORE_DEFINITION} A channel's score is blank when the asset was not scored on it. ` +
    'Why not scored: the last error, or what the state means. Times are local.';
  const sheet = startSheet(ctx, SHEET_NAMES.assets, 'Creative assets', note, columns);

  let written = 0;
  for (const r of rows) {
    writeRow(sheet, columns, [
      r.clientId,
      r.version,
      r.source,
      r.name,
      r.brands,
      r.markets,
      r.channels,
      r.workspaceId,
      r.workspaceName,
      r.syncState,
      r.remoteStatus,
      ...channels.map((channel) => r.scores[channel] ?? null),
      excelLocalDate(r.submittedAt),
      excelLocalDate(r.completedAt),
      r.manifestPath,
      r.manifestLine,
      notScoredReason(r),
      r.url,
    ]);
    written += 1;
    if (written % ASSET_ROWS_PER_YIELD === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
}

const STATE_REASONS: Partial<Record<SyncState, string>> = {
  unsupported: 'The service cannot score this kind of media (UNSUPPORTED).',
  failed: 'The service could not process this media (FAILED).',
  rejected: 'The service refused the submission.',
  forbidden: "The API key's organization does not own this workspace.",
  stalled: 'In flight longer than the configured limit; still being polled.',
};

/** Why an asset has no scores yet (or never will); null once scored. */
export function notScoredReason(row: Pick<AssetReportRow, 'syncState' | 'lastError'>): string | null {
  if (row.syncState === 'scored') return null;
  return row.lastError ?? STATE_REASONS[row.syncState] ?? null;
}

/** Adds the sheet with its title, note and header rows, frozen below the header and filterable on it. */
function startSheet(
  ctx: SheetContext,
  name: string,
  title: string,
  note: string,
  columns: Column[],
): ExcelJS.Worksheet {
  const sheetName = cleanSheetName(name, ctx.sheetNames);
  ctx.sheetNames.push(sheetName);
  const sheet = ctx.workbook.addWorksheet(sheetName, {
    views: [{ state: 'frozen', xSplit: 1, ySplit: HEADER_ROW }],
    // Printed (or exported to PDF) one page wide, so no column is cut off.
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  sheet.columns = columns.map((c) => ({ width: c.width }));
  sheet.autoFilter = {
    from: { row: HEADER_ROW, column: 1 },
    to: { row: HEADER_ROW, column: columns.length },
  };

  const titleRow = sheet.getRow(TITLE_ROW);
  setCell(titleRow.getCell(1), `${title} — generated ${localDateTimeStamp(ctx.generatedAt)}`, TITLE_STYLE);
  titleRow.commit();

  const noteRow = sheet.getRow(NOTE_ROW);
  const noteText = ctx.demo ? `${DEMO_NOTICE} ${note}` : note;
  const noteStyle = ctx.demo ? DEMO_NOTE_STYLE : NOTE_STYLE;
  setCell(noteRow.getCell(1), noteText, { ...noteStyle, alignment: { wrapText: true, vertical: 'top' } });
  // The definitions wrap across the table's width instead of running off to the right.
  sheet.mergeCells(NOTE_ROW, 1, NOTE_ROW, columns.length);
  const tableWidth = columns.reduce((sum, c) => sum + c.width, 0);
  noteRow.height = 13 * Math.max(1, Math.ceil((noteText.length * 1.15) / tableWidth));
  noteRow.commit();

  const headerRow = sheet.getRow(HEADER_ROW);
  columns.forEach((c, i) => {
    setCell(headerRow.getCell(i + 1), c.header, HEADER_STYLE);
  });
  // Room for two-word headers to wrap onto a second line.
  headerRow.height = 30;
  headerRow.commit();
  return sheet;
}

function writeRow(sheet: ExcelJS.Worksheet, columns: Column[], values: Value[]): void {
  const row = sheet.addRow([]);
  columns.forEach((column, i) => {
    const value = values[i] ?? null;
    setCell(row.getCell(i + 1), value, STYLES[column.kind]);
  });
  row.commit();
}

/** Every string goes through cellText, so no text reaches a cell unescaped or over Excel's limits. */
function setCell(cell: ExcelJS.Cell, value: Value, style: Partial<ExcelJS.Style>): void {
  cell.value = typeof value === 'string' ? cellText(value) : value;
  cell.style = style;
}
