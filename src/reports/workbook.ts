// The workbook: which sheets it has, in which order, and the streaming writer that puts them in one file.
//
// SHEETS below is the list of sheet builders, in the order the sheets appear. To add a sheet, write one
// builder in src/reports/sheets/<sheet>.ts — export a `SheetBuilder` ({ name, build(ctx) }), use
// `TableWriter` or `startSheet` from ./layout for the title, definition note, frozen header and autofilter
// — and add ONE line to SHEETS. A builder reads the database through `ctx.db` and the shared rollups
// through `ctx.rollups`, writes its rows, commits its sheet(s) and records them in `ctx.written`.
// Sheet names are cleaned to Excel's rules and made unique for you.
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Db } from '../db/open';
import type { SheetBuilder, SheetContext, SheetSummary, WorkbookOptions } from './layout';
import { rollupCache } from './rollup-cache';
import { assetsSheet } from './sheets/assets';
import { brandChannelSheet } from './sheets/brand-channel';
import { byBrandSheet } from './sheets/by-brand';
import { byChannelSheet } from './sheets/by-channel';
import { byMarketSheet } from './sheets/by-market';
import { guidelinesSheet } from './sheets/guidelines';
import { issuesSheet } from './sheets/issues';
import { marketChannelSheet } from './sheets/market-channel';
import { overviewSheet } from './sheets/overview';
import { rescoreSheet } from './sheets/rescore';
import { tagsSheet } from './sheets/tags';
import { tagsByBrandSheet } from './sheets/tags-by-brand';
import { tagsByChannelSheet } from './sheets/tags-by-channel';

/** The sheets of the report, in order. One line per sheet builder (see the note at the top). */
export const SHEETS: readonly SheetBuilder[] = [
  overviewSheet,
  byBrandSheet,
  byMarketSheet,
  byChannelSheet,
  brandChannelSheet,
  marketChannelSheet,
  guidelinesSheet,
  assetsSheet,
  issuesSheet,
  rescoreSheet,
  tagsSheet,
  tagsByBrandSheet,
  tagsByChannelSheet,
];

/**
 * Writes the whole workbook to `stream` and resolves once exceljs has finished writing to it. `sheets` is
 * for tests; the report always uses SHEETS.
 */
export async function writeWorkbook(
  db: Db,
  stream: Writable,
  options: WorkbookOptions,
  sheets: readonly SheetBuilder[] = SHEETS,
): Promise<SheetSummary[]> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    // Shared strings would keep every distinct text of the Assets sheet in memory until the end.
    useSharedStrings: false,
  });
  workbook.creator = 'creative-sync';
  workbook.created = options.generatedAt;
  const ctx: SheetContext = {
    db,
    options,
    rollups: rollupCache(db, { allVersions: options.allVersions ?? false }),
    workbook,
    sheetNames: [],
    written: [],
  };
  for (const sheet of sheets) await sheet.build(ctx);
  await workbook.commit();
  return ctx.written;
}
