import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/open';
import { reportFileName, writeReport } from '../../src/reports/write-report';
import { seed, T0 } from './fixture';
import { readSheet, readWorkbook } from './read-back';

describe('writeReport', () => {
  let root: string;
  let db: Db;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'creative-report-'));
    db = openDatabase(':memory:');
  });
  afterEach(() => {
    db.$client.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('names the file after the local date of the run start', () => {
    // Built from local fields, so this is the local date whatever the machine's zone.
    expect(reportFileName(new Date(2025, 2, 9, 23, 59))).toBe('creative-report-2025-03-09.xlsx');
    expect(reportFileName(new Date(2025, 11, 31, 0, 0))).toBe('creative-report-2025-12-31.xlsx');
  });

  it('creates the folder and leaves only the report in it', async () => {
    seed(db);
    const reportDir = join(root, 'reports', 'nested');
    const runDate = new Date(2025, 2, 9, 2, 0);
    const { path } = await writeReport(db, { reportDir, runDate, demo: false, generatedAt: runDate });
    expect(path).toBe(join(reportDir, 'creative-report-2025-03-09.xlsx'));
    expect(readdirSync(reportDir)).toEqual(['creative-report-2025-03-09.xlsx']);
    expect(readSheet(await readWorkbook(path), 'Assets').rows).toHaveLength(7);
  });

  it('replaces the same day’s report on a second write, leaving no temporary file', async () => {
    seed(db);
    const runDate = new Date(2025, 2, 9, 2, 0);
    const first = await writeReport(db, { reportDir: root, runDate, demo: false, generatedAt: runDate });
    seed(db, [{ asset: { clientId: 'late-arrival', syncState: 'pending' } }]);
    const later = new Date(2025, 2, 9, 14, 0);
    const second = await writeReport(db, {
      reportDir: root,
      runDate: later,
      demo: false,
      generatedAt: later,
    });

    expect(second.path).toBe(first.path);
    expect(readdirSync(root)).toEqual(['creative-report-2025-03-09.xlsx']);
    const assets = readSheet(await readWorkbook(second.path), 'Assets');
    expect(assets.title).toMatch(/generated 2025-03-09 14:00$/);
    expect(assets.rows.map((r) => r[0])).toContain('late-arrival');
    expect(assets.rows).toHaveLength(8);
  });

  it('removes its temporary file when the rename fails, and keeps going on the next write', async () => {
    const runDate = new Date(T0);
    // A folder where the report should go makes the rename fail.
    const blocker = join(root, reportFileName(runDate));
    mkdirSync(join(blocker, 'inside'), { recursive: true });
    await expect(
      writeReport(db, { reportDir: root, runDate, demo: false, generatedAt: runDate }),
    ).rejects.toThrow();
    expect(readdirSync(root)).toEqual([reportFileName(runDate)]);

    rmSync(blocker, { recursive: true });
    await writeReport(db, { reportDir: root, runDate, demo: false, generatedAt: runDate });
    expect(readdirSync(root)).toEqual([reportFileName(runDate)]);
  });

  it('cleans up temporary files left by a killed run, but not one that may still be being written', async () => {
    const stale = join(root, '.creative-report-2025-03-01.xlsx.123-abcd.tmp');
    const fresh = join(root, '.creative-report-2025-03-09.xlsx.456-ef01.tmp');
    const unrelated = join(root, 'notes.tmp');
    for (const f of [stale, fresh, unrelated]) writeFileSync(f, 'partial');
    const dayAgo = (Date.now() - 24 * 3_600_000) / 1000;
    utimesSync(stale, dayAgo, dayAgo);
    utimesSync(unrelated, dayAgo, dayAgo);

    const runDate = new Date(2025, 2, 9);
    await writeReport(db, { reportDir: root, runDate, demo: false, generatedAt: runDate });
    expect(readdirSync(root).sort()).toEqual(
      [
        '.creative-report-2025-03-09.xlsx.456-ef01.tmp',
        'creative-report-2025-03-09.xlsx',
        'notes.tmp',
      ].sort(),
    );
  });

  it('says what to do when the report folder cannot be created', async () => {
    const file = join(root, 'not-a-folder');
    writeFileSync(file, '');
    const runDate = new Date(T0);
    await expect(
      writeReport(db, { reportDir: join(file, 'reports'), runDate, demo: false, generatedAt: runDate }),
    ).rejects.toThrow(/Could not create the report folder .*not-a-folder.*Check REPORT_DIR/);
  });

  it('writes beside a report that is open elsewhere (EBUSY on rename), and says so', async () => {
    seed(db);
    const runDate = new Date(2025, 2, 9, 2, 0);
    const first = await writeReport(db, { reportDir: root, runDate, demo: false, generatedAt: runDate });
    // As Windows does while Excel holds the file open: the rename over it fails with EBUSY.
    const locked = async (from: string, to: string) => {
      if (to === first.path) throw Object.assign(new Error('resource busy or locked'), { code: 'EBUSY' });
      await rename(from, to);
    };
    const second = await writeReport(db, {
      reportDir: root,
      runDate,
      demo: false,
      generatedAt: runDate,
      rename: locked,
    });
    expect(second.path).toBe(join(root, 'creative-report-2025-03-09 (2).xlsx'));
    expect(second.note).toMatch(
      /creative-report-2025-03-09\.xlsx could not be replaced \(EBUSY\).*written beside it as creative-report-2025-03-09 \(2\)\.xlsx\. Close the old file/,
    );
    expect(readdirSync(root).sort()).toEqual([
      'creative-report-2025-03-09 (2).xlsx',
      'creative-report-2025-03-09.xlsx',
    ]);
    expect(readSheet(await readWorkbook(second.path), 'Assets').rows).toHaveLength(7);
    expect(first.note).toBeUndefined();
  });

  it('gives up with what to do when no name beside the locked report can be written either', async () => {
    const runDate = new Date(T0);
    const denied = async () => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    };
    await expect(
      writeReport(db, { reportDir: root, runDate, demo: false, generatedAt: runDate, rename: denied }),
    ).rejects.toThrow(/\(EPERM\)\. If it is open in Excel, close it/);
    expect(readdirSync(root)).toEqual([]);
    expect(existsSync(join(root, reportFileName(runDate)))).toBe(false);
  });
});
