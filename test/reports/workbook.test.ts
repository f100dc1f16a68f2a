import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/open';
import { SHEETS } from '../../src/reports/workbook';
import { writeReport } from '../../src/reports/write-report';
import { type Expected, expectedRollup } from './expected';
import { AT_ERROR, FORMULA_NAME, MANIFEST_PATH, PLUS_NAME, seed, T0 } from './fixture';
import { type ReadSheet, type ReadValue, readSheet, readWorkbook, records } from './read-back';

/** The sheets this builders write; other builders add theirs after them. */
const CORE_SHEETS = [
  'Overview',
  'By Brand',
  'By Market',
  'By Channel',
  'Brand x Channel',
  'Market x Channel',
  'Guidelines',
  'Assets',
  'Issues',
  'Rescore',
];

/** The tagging issue's sheets, straight after the core ones. */
const TAG_SHEETS = ['Tags', 'Tags by Brand', 'Tags by Channel'];

const SCORE_SHEETS = CORE_SHEETS.filter((name) => !['Guidelines', 'Issues', 'Rescore'].includes(name));

const ROLLUP_HEADER = [
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
];

function expectMatches(read: ReadSheet, expected: Map<string, Expected>): void {
  const byLabel = new Map(read.rows.map((row) => [row[0] as string, row.slice(1)]));
  expect([...byLabel.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [label, e] of expected) {
    const actual = byLabel.get(label) as ReadValue[];
    const want = [
      e.assets,
      e.scored,
      e.scoresCounted,
      e.meanScore,
      e.medianScore,
      e.meanAdherence,
      e.pass,
      e.fail,
      e.notApplicable,
      e.notAvailable,
      e.unsupported,
      e.failed,
    ];
    want.forEach((w, i) => {
      const context = `${read.sheet.name} / ${label} / ${ROLLUP_HEADER[i]}`;
      if (w === null) expect(actual[i], context).toBeNull();
      else expect(actual[i] as number, context).toBeCloseTo(w, 10);
    });
  }
}

describe('the workbook', () => {
  let dir: string;
  let db: Db;
  let path: string;
  let workbook: ExcelJS.Workbook;
  const generatedAt = new Date(T0 + 10 * 3_600_000);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'creative-report-'));
    db = openDatabase(':memory:');
    seed(db);
    ({ path } = await writeReport(db, { reportDir: dir, runDate: generatedAt, demo: false, generatedAt }));
    workbook = await readWorkbook(path);
  });

  afterAll(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has the sheets of SHEETS in order, starting with the rollups, Guidelines, Assets, Issues and Rescore', () => {
    const names = workbook.worksheets.map((s) => s.name);
    expect(names).toEqual(SHEETS.map((s) => s.name));
    expect(names.slice(0, CORE_SHEETS.length)).toEqual(CORE_SHEETS);
    expect(names.slice(CORE_SHEETS.length, CORE_SHEETS.length + TAG_SHEETS.length)).toEqual(TAG_SHEETS);
  });

  it.each([
    ['By Brand', 'brand', 'Brand'],
    ['By Market', 'market', 'Market'],
    ['By Channel', 'channel', 'Channel'],
  ] as const)('%s matches an independent computation, figure by figure', (name, by, label) => {
    const read = readSheet(workbook, name);
    expect(read.header).toEqual([label, ...ROLLUP_HEADER]);
    expectMatches(read, expectedRollup(db.$client, by));
  });

  it('By Brand has the hand-computed figures (newest versions only, an asset in two brands counts in both)', () => {
    const rows = new Map(records(readSheet(workbook, 'By Brand')).map((r) => [r.Brand, r]));
    expect(rows.has('Oldbrand')).toBe(false);
    const acme = rows.get('Acme');
    expect(acme?.Assets).toBe(4);
    expect(acme?.Scored).toBe(3);
    expect(acme?.['Mean score']).toBeCloseTo(0.575, 10);
    expect(acme?.['Median score']).toBeCloseTo(0.55, 10);
    expect(acme?.['Mean adherence']).toBeCloseTo(0.6125, 10);
    expect([acme?.Pass, acme?.Fail, acme?.['Not applicable'], acme?.['Not available']]).toEqual([
      10, 6, 1, 3,
    ]);
    expect([acme?.Unsupported, acme?.Failed]).toEqual([0, 1]);
    const beta = rows.get('Beta');
    // hero-3's X score is null: it counts as a score row but not in the mean or median.
    expect([beta?.Assets, beta?.['Scores counted']]).toEqual([2, 5]);
    expect(beta?.['Median score']).toBeCloseTo(0.85, 10);
    expect(rows.get('@Gamma')?.['Mean score']).toBeNull();
    expect(rows.get('(none)')?.Unsupported).toBe(1);
  });

  it('By Channel counts assets that asked for a channel or were scored on it', () => {
    const rows = new Map(records(readSheet(workbook, 'By Channel')).map((r) => [r.Channel, r]));
    expect([rows.get('META')?.Assets, rows.get('META')?.Scored, rows.get('META')?.Unsupported]).toEqual([
      5, 4, 1,
    ]);
    expect(rows.get('META')?.['Median score']).toBeCloseTo(0.7, 10);
    expect([rows.get('TIKTOK')?.Assets, rows.get('TIKTOK')?.Failed]).toEqual([2, 1]);
    expect(rows.get('X')?.['Not applicable']).toBe(3);
    expect(rows.get('(none)')?.Assets).toBe(1);
  });

  it('puts (none) last', () => {
    for (const name of ['By Brand', 'By Market', 'By Channel']) {
      expect(readSheet(workbook, name).rows.at(-1)?.[0]).toBe('(none)');
    }
  });

  it('lists the newest version of every asset on the Assets sheet', () => {
    const read = readSheet(workbook, 'Assets');
    expect(read.header).toEqual([
      'ID',
      'Version',
      'Source',
      'Name',
      'Brands',
      'Markets',
      'Channels asked for',
      'Workspace ID',
      'Workspace',
      'Sync state',
      'Remote status',
      'META score',
      'TIKTOK score',
      'X score',
      'YOUTUBE score',
      'Tags',
      'Submitted at',
      'Completed at',
      'Manifest file',
      'Manifest line',
      'Why not scored',
      'Trace ID',
      'URL',
    ]);
    const rows = records(read);
    // An absent version or source ('' in the database) is an empty cell.
    expect(rows.map((r) => [r.ID, r.Version, r.Source])).toEqual([
      ['hero-1', 'v2', null],
      ['hero-1', null, 'dam'],
      ['hero-2', null, null],
      ['hero-3', null, null],
      ['hero-4', null, null],
      ['hero-5', null, null],
      ['hero-6', null, null],
    ]);
    const [hero1, , hero2, hero3, hero4, hero5, hero6] = rows;
    expect(hero1).toMatchObject({
      Name: 'Hero',
      Brands: 'Acme, Beta',
      Markets: 'DE',
      'Channels asked for': 'META, TIKTOK',
      'Sync state': 'scored',
      'Manifest file': MANIFEST_PATH,
      'Manifest line': 2,
      'Why not scored': null,
      'YOUTUBE score': null,
      URL: 'https://cdn.example.com/hero-1.mp4',
    });
    expect(hero1?.['META score']).toBeCloseTo(0.8, 10);
    expect(hero1?.['TIKTOK score']).toBeCloseTo(0.5, 10);
    expect(hero2).toMatchObject({ 'Workspace ID': 7, Workspace: 'EMEA Social', 'Remote status': 'COMPLETE' });
    expect(hero2?.Markets).toBe('DE, FR');
    expect(hero3).toMatchObject({ 'Workspace ID': 99, Workspace: null, 'X score': null });
    expect(hero4?.['Why not scored']).toBe('The service cannot score this kind of media (UNSUPPORTED).');
    expect(hero5?.['Why not scored']).toBe(AT_ERROR);
    expect(hero6).toMatchObject({ 'Sync state': 'pending', 'Why not scored': null, Brands: '@Gamma' });
  });

  it('writes times as Excel dates showing the local wall-clock time', () => {
    const hero2 = records(readSheet(workbook, 'Assets')).find((r) => r.ID === 'hero-2');
    const local = (ms: number) => {
      const d = new Date(ms);
      return Date.UTC(
        d.getFullYear(),
        d.getMonth(),
        d.getDate(),
        d.getHours(),
        d.getMinutes(),
        d.getSeconds(),
      );
    };
    const submitted = hero2?.['Submitted at'];
    const completed = hero2?.['Completed at'];
    if (!(submitted instanceof Date) || !(completed instanceof Date))
      throw new Error('dates not read as dates');
    expect(Math.abs(submitted.getTime() - local(T0))).toBeLessThan(1000);
    expect(Math.abs(completed.getTime() - local(T0 + 3_600_000))).toBeLessThan(1000);
  });

  it('formats scores as percentages, counts as integers and dates as dates', () => {
    const brand = readSheet(workbook, 'By Brand').sheet;
    expect(brand.getCell('B4').numFmt).toBe('#,##0');
    expect(brand.getCell('E4').numFmt).toBe('0.0%');
    expect(brand.getCell('G4').numFmt).toBe('0.0%');
    const assetsSheet = readSheet(workbook, 'Assets').sheet;
    expect(assetsSheet.getCell('L4').numFmt).toBe('0.0%');
    // P is Tags, after the four channel scores.
    expect(assetsSheet.getCell('P4').numFmt).toBe('#,##0');
    expect(assetsSheet.getCell('Q4').numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(assetsSheet.getCell('D4').numFmt).toBe('@');
  });

  it('freezes the panes below the header and puts an autofilter on it, on every sheet', () => {
    for (const sheet of workbook.worksheets) {
      expect(sheet.views[0], sheet.name).toMatchObject({ state: 'frozen', ySplit: 3 });
      const read = readSheet(workbook, sheet.name);
      const lastColumn = sheet.getRow(3).getCell(read.header.length).address.replace(/\d+$/, '');
      expect(sheet.autoFilter, sheet.name).toBe(`A3:${lastColumn}3`);
      expect(sheet.getColumn(1).width, sheet.name).toBeGreaterThan(10);
    }
  });

  it('writes a title and the metric definitions above the header, without the demo warning', () => {
    for (const name of CORE_SHEETS) {
      const sheet = { name };
      const read = readSheet(workbook, sheet.name);
      expect(read.title).toMatch(/generated \d{4}-\d\d-\d\d \d\d:\d\d$/);
      // Sheets of scores define the score; Guidelines its pass rate; Issues and Rescore have no figures.
      if (SCORE_SHEETS.includes(sheet.name)) expect(read.note, sheet.name).toContain('weighted pass rate');
      if (sheet.name === 'Guidelines') expect(read.note).toContain('Pass rate: PASS / (PASS + FAIL)');
      if (sheet.name !== 'Rescore') {
        expect(read.note, sheet.name).toContain('Only the newest version of each asset counts.');
      }
      expect(read.note).not.toContain('SIMULATED');
    }
    expect(readSheet(workbook, 'By Brand').note).toContain('An asset with two brands counts in both');
  });

  it('reads text that looks like a formula back as the same literal string, never a formula', () => {
    const rows = records(readSheet(workbook, 'Assets'));
    const cellOf = (id: string, column: string) => {
      const read = readSheet(workbook, 'Assets');
      const r = rows.findIndex((row) => row.ID === id);
      return read.sheet.getCell(4 + r, read.header.indexOf(column) + 1);
    };
    for (const [id, column, text] of [
      ['hero-2', 'Name', FORMULA_NAME],
      ['hero-3', 'Name', PLUS_NAME],
      ['hero-4', 'Name', '-minus'],
      ['hero-5', 'Why not scored', AT_ERROR],
      ['hero-6', 'Brands', '@Gamma'],
    ] as const) {
      const cell = cellOf(id, column);
      expect(cell.type, text).toBe(ExcelJS.ValueType.String);
      expect(cell.value, text).toBe(text);
      expect(cell.formula, text).toBeUndefined();
      expect(cell.numFmt, text).toBe('@');
    }
    // readSheet throws on any formula cell; reading every sheet proves there are none.
    for (const sheet of workbook.worksheets) expect(() => readSheet(workbook, sheet.name)).not.toThrow();
  });
});

describe('the workbook in demo mode', () => {
  it('says on every sheet, under the title, that the data is simulated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'creative-report-'));
    const db = openDatabase(':memory:');
    try {
      seed(db);
      const now = new Date(T0);
      const { path } = await writeReport(db, { reportDir: dir, runDate: now, demo: true, generatedAt: now });
      const workbook = await readWorkbook(path);
      expect(workbook.worksheets).toHaveLength(SHEETS.length);
      for (const sheet of workbook.worksheets) {
        const note = readSheet(workbook, sheet.name).note;
        expect(note, sheet.name).toMatch(/^SIMULATED DATA — demo mode, not from the real service\. \S/);
        if (SCORE_SHEETS.includes(sheet.name)) expect(note, sheet.name).toContain('weighted pass rate');
      }
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes an empty database as headers only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'creative-report-'));
    const db = openDatabase(':memory:');
    try {
      const now = new Date(T0);
      const { path } = await writeReport(db, { reportDir: dir, runDate: now, demo: false, generatedAt: now });
      const workbook = await readWorkbook(path);
      for (const sheet of workbook.worksheets) {
        // The Overview always has its figures (all zero or blank); every other sheet has only its header.
        if (sheet.name !== 'Overview') expect(readSheet(workbook, sheet.name).rows, sheet.name).toEqual([]);
      }
      expect(readSheet(workbook, 'Assets').header).not.toContain('META score');
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
