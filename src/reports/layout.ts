// What every sheet shares: the context a sheet builder gets, the styles, and a table writer that gives a
// sheet its title, one-line definitions, a frozen and filterable header, and splits a table that outgrows
// Excel's row limit into continuation sheets.
import type ExcelJS from 'exceljs';
import type { Db } from '../db/open';
import { cellText, cleanSheetName, localDateTimeStamp, TEXT_FORMAT } from './cells';
import type { Rollups } from './rollup-cache';

/** Excel's limit on the rows of one sheet. */
export const EXCEL_MAX_ROWS = 1_048_576;

export interface WorkbookOptions {
  /** Every sheet says, under its title, that the data is simulated. */
  demo: boolean;
  generatedAt: Date;
  /** The start of the run the report belongs to (the Overview shows it). Defaults to `generatedAt`. */
  runDate?: Date;
  /** Count every version of an asset, not only the newest of each (client id, source). */
  allVersions?: boolean;
  /** Rows per sheet, title and header included, before a table continues on a new sheet. Tests lower it. */
  maxRowsPerSheet?: number;
}

/** What a sheet builder gets: the database, the options, the figures computed so far and the workbook. */
export interface SheetContext {
  db: Db;
  options: WorkbookOptions;
  /** The rollups, each computed once per workbook, so a chart and a table always show the same figures. */
  rollups: Rollups;
  workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  /** Names given so far, so a new sheet's cleaned name is unique. */
  sheetNames: string[];
  /** One entry per sheet written, for the benchmark and the tests. */
  written: SheetSummary[];
}

export interface SheetSummary {
  name: string;
  /** Data rows, not counting the title, note and header. */
  rows: number;
  columns: number;
}

export const DEMO_NOTICE = 'SIMULATED DATA — demo mode, not from the real service.';
/** The label of the row for assets without a brand, market or channel. */
export const NONE_LABEL = '(none)';
export const TITLE_ROW = 1;
export const NOTE_ROW = 2;
export const HEADER_ROW = 3;

export const SCORE_DEFINITION =
  'Score: weighted pass rate of evaluated guidelines (PASS/(PASS+FAIL) by weight), 0–100%.';
export const SCORE_DEFINITIONS = `${SCORE_DEFINITION} Adherence: unweighted pass rate (PASS/(PASS+FAIL)).`;

/** The sentence every note carries about which versions count. */
export function versionsNote(options: WorkbookOptions): string {
  return options.allVersions
    ? 'Every version of each asset counts (all-versions setting).'
    : 'Only the newest version of each asset counts.';
}

export type Kind = 'text' | 'integer' | 'percent' | 'date';
export type Value = string | number | Date | null;

export interface Column {
  header: string;
  width: number;
  kind: Kind;
  /** Long text (messages, advice) wraps within the column instead of running across the next ones. */
  wrap?: boolean;
}

// Shared style objects: exceljs deduplicates them into one entry each in styles.xml. Never mutated.
export const STYLES: Record<Kind, Partial<ExcelJS.Style>> = {
  // Text format so that text from outside stays text even when a user edits the cell (see cells.ts).
  text: { numFmt: TEXT_FORMAT },
  integer: { numFmt: '#,##0' },
  percent: { numFmt: '0.0%' },
  date: { numFmt: 'yyyy-mm-dd hh:mm' },
};
const WRAPPED_TEXT: Partial<ExcelJS.Style> = {
  numFmt: TEXT_FORMAT,
  alignment: { wrapText: true, vertical: 'top' },
};
const TITLE_STYLE: Partial<ExcelJS.Style> = { font: { bold: true, size: 14 } };
const NOTE_STYLE: Partial<ExcelJS.Style> = {
  font: { italic: true, size: 10, color: { argb: 'FF595959' } },
  alignment: { wrapText: true, vertical: 'top' },
};
const DEMO_NOTE_STYLE: Partial<ExcelJS.Style> = {
  font: { bold: true, size: 10, color: { argb: 'FFC00000' } },
  alignment: { wrapText: true, vertical: 'top' },
};
const HEADER_STYLE: Partial<ExcelJS.Style> = {
  numFmt: TEXT_FORMAT,
  font: { bold: true },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E1F2' } },
  border: { bottom: { style: 'thin' } },
  alignment: { vertical: 'middle', wrapText: true },
};

export interface SheetSpec {
  name: string;
  title: string;
  /** The one-line definitions under the title. */
  note: string;
  columns: Column[];
  /** Columns kept in view when scrolling right (default 1: the row's label). */
  frozenColumns?: number;
}

/** Adds the sheet with its title, note and header rows, frozen below the header and filterable on it. */
export function startSheet(ctx: SheetContext, spec: SheetSpec): ExcelJS.Worksheet {
  const sheetName = cleanSheetName(spec.name, ctx.sheetNames);
  ctx.sheetNames.push(sheetName);
  const { columns } = spec;
  const sheet = ctx.workbook.addWorksheet(sheetName, {
    views: [{ state: 'frozen', xSplit: spec.frozenColumns ?? 1, ySplit: HEADER_ROW }],
    // Printed (or exported to PDF) one page wide, so no column is cut off.
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  sheet.columns = columns.map((c) => ({ width: c.width }));
  sheet.autoFilter = {
    from: { row: HEADER_ROW, column: 1 },
    to: { row: HEADER_ROW, column: columns.length },
  };

  const titleRow = sheet.getRow(TITLE_ROW);
  setCell(
    titleRow.getCell(1),
    `${spec.title} — generated ${localDateTimeStamp(ctx.options.generatedAt)}`,
    TITLE_STYLE,
  );
  titleRow.commit();

  const noteRow = sheet.getRow(NOTE_ROW);
  const noteText = ctx.options.demo ? `${DEMO_NOTICE} ${spec.note}` : spec.note;
  setCell(noteRow.getCell(1), noteText, ctx.options.demo ? DEMO_NOTE_STYLE : NOTE_STYLE);
  // The definitions wrap across the table's width instead of running off to the right.
  if (columns.length > 1) sheet.mergeCells(NOTE_ROW, 1, NOTE_ROW, columns.length);
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

export function writeRow(sheet: ExcelJS.Worksheet, columns: Column[], values: Value[]): ExcelJS.Row {
  const row = sheet.addRow([]);
  columns.forEach((column, i) => {
    setCell(row.getCell(i + 1), values[i] ?? null, column.wrap ? WRAPPED_TEXT : STYLES[column.kind]);
  });
  row.commit();
  return row;
}

/** Every string goes through cellText, so no text reaches a cell unescaped or over Excel's limits. */
export function setCell(cell: ExcelJS.Cell, value: Value, style: Partial<ExcelJS.Style>): void {
  cell.value = typeof value === 'string' ? cellText(value) : value;
  cell.style = style;
}

/** Rows written between two waits for the zip to catch up (see zipCaughtUp). */
const ROWS_PER_YIELD = 1000;

/**
 * Waits until the zip has taken this sheet's XML written so far. exceljs hands a sheet's XML to
 * the zip without heeding backpressure, so rows written faster than they are deflated pile up
 * in memory: 2.2 GB at 1M assets (bench/scenarios/report.ts) before this wait. Reaches into
 * exceljs 4.4's WorksheetWriter (`stream.pipes`, readable-stream 2 PassThroughs), as
 * pictures.ts does; where those are missing it only yields.
 */
async function zipCaughtUp(sheet: ExcelJS.Worksheet): Promise<void> {
  const pipes = (sheet as unknown as { stream?: { pipes?: Drainable[] } }).stream?.pipes ?? [];
  for (const pipe of pipes) {
    if (pipe.writableNeedDrain ?? pipe._writableState?.needDrain) {
      // A failing zip never drains: its error reaches writeReport through the file stream.
      await new Promise<void>((resolve) => {
        const done = () => {
          for (const event of events) pipe.off(event, done);
          resolve();
        };
        for (const event of events) pipe.once(event, done);
      });
    }
  }
  await new Promise((resolve) => setImmediate(resolve));
}

const events = ['drain', 'error', 'close'] as const;

interface Drainable {
  writableNeedDrain?: boolean;
  _writableState?: { needDrain?: boolean };
  once(event: (typeof events)[number], listener: () => void): unknown;
  off(event: (typeof events)[number], listener: () => void): unknown;
}

/**
 * A table of any length: rows go to the first sheet until it holds `maxRowsPerSheet` rows (title, note and
 * header included), then to `Name (2)`, `Name (3)`… Each part repeats the title and header, and its note
 * says which rows it holds and where the rest are. `plannedRows` (counted beforehand) lets the first
 * sheet's note announce the continuation sheets; rows beyond the plan still go on a further sheet.
 */
export class TableWriter {
  private readonly capacity: number;
  private readonly parts: number;
  private readonly names: string[];
  private sheet: ExcelJS.Worksheet | null = null;
  private part = 0;
  private rowsInPart = 0;
  private total = 0;

  constructor(
    private readonly ctx: SheetContext,
    private readonly spec: SheetSpec,
    private readonly plannedRows: number,
  ) {
    const maxRows = ctx.options.maxRowsPerSheet ?? EXCEL_MAX_ROWS;
    this.capacity = Math.max(1, maxRows - HEADER_ROW);
    this.parts = Math.max(1, Math.ceil(plannedRows / this.capacity));
    // The names are chosen now, so the first part's note can name the others.
    this.names = [];
    const taken = [...ctx.sheetNames];
    for (let i = 1; i <= this.parts; i += 1) {
      const name = cleanSheetName(i === 1 ? spec.name : `${spec.name} (${i})`, taken);
      taken.push(name);
      this.names.push(name);
    }
    this.openPart();
  }

  async add(values: Value[]): Promise<void> {
    if (this.rowsInPart === this.capacity) {
      this.closePart();
      this.openPart();
    }
    writeRow(this.sheet as ExcelJS.Worksheet, this.spec.columns, values);
    this.rowsInPart += 1;
    this.total += 1;
    if (this.total % ROWS_PER_YIELD === 0) await zipCaughtUp(this.sheet as ExcelJS.Worksheet);
  }

  /** Commits the last part. */
  finish(): void {
    this.closePart();
  }

  private openPart(): void {
    this.part += 1;
    const name = this.names[this.part - 1] ?? `${this.spec.name} (${this.part})`;
    const first = (this.part - 1) * this.capacity + 1;
    let note = this.spec.note;
    if (this.parts > 1 || this.part > 1) {
      const last = Math.min(this.part * this.capacity, Math.max(this.plannedRows, first));
      const others = this.names.filter((n) => n !== name).map((n) => `'${n}'`);
      note =
        `Part ${this.part} of ${Math.max(this.parts, this.part)}: rows ${first.toLocaleString('en-US')}–` +
        `${last.toLocaleString('en-US')} of ${this.plannedRows.toLocaleString('en-US')}; one Excel sheet ` +
        `holds at most ${this.capacity.toLocaleString('en-US')} rows, the others are on ${others.join(', ')}. ${note}`;
    }
    this.sheet = startSheet(this.ctx, { ...this.spec, name, note });
    this.rowsInPart = 0;
  }

  private closePart(): void {
    if (!this.sheet) return;
    this.sheet.commit();
    this.ctx.written.push({
      name: this.sheet.name,
      rows: this.rowsInPart,
      columns: this.spec.columns.length,
    });
    this.sheet = null;
  }
}

/** Writes a short table whose rows are all at hand. */
export async function writeTable(ctx: SheetContext, spec: SheetSpec, rows: Value[][]): Promise<void> {
  const table = new TableWriter(ctx, spec, rows.length);
  for (const row of rows) await table.add(row);
  table.finish();
}

/** One sheet of the workbook (or one table and its continuation sheets). See the list in workbook.ts. */
export interface SheetBuilder {
  /** The sheet's name before cleaning; tests and the list in workbook.ts refer to it. */
  name: string;
  build(ctx: SheetContext): Promise<void> | void;
}
