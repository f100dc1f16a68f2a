// Puts the workbook on disk as REPORT_DIR/creative-report-YYYY-MM-DD.xlsx, atomically: it is written to a
// temporary file in the same folder, flushed, then renamed over the old one, so a reader never sees half a
// file. When the old one is locked (open in Excel on Windows), the new one goes beside it, and the result says so.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Db } from '../db/open';
import { localDateStamp } from './cells';
import type { SheetSummary } from './layout';
import { writeWorkbook } from './workbook';

export interface ReportOptions {
  /** Created if missing. */
  reportDir: string;
  /** The run's start; the file name uses its local date YYYY-MM-DD. */
  runDate: Date;
  /** True → every sheet says plainly that the data is simulated (a line under the title). */
  demo: boolean;
  generatedAt: Date;
  /** Count every version of an asset, not only the newest of each (client id, source). Default false. */
  allVersions?: boolean;
  /** Rows per sheet before a table continues on a new sheet; Excel's 1,048,576 unless a test lowers it. */
  maxRowsPerSheet?: number;
  /** How the finished file is moved into place; tests pass one that fails as a locked file does. */
  rename?: (from: string, to: string) => Promise<void>;
}

export interface ReportResult {
  /** Where the report is. */
  path: string;
  /** Set when the report could not go where it usually goes: what happened and what to do. */
  note?: string;
  /** The sheets written, with their row and column counts. */
  sheets: SheetSummary[];
}

/** A report that could not be written, with what to do about it in the message. */
export class ReportWriteError extends Error {
  override readonly name = 'ReportWriteError';
  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TEMP_PREFIX = '.creative-report-';
const TEMP_SUFFIX = '.tmp';
// A temporary file this old was left by a run that was killed; a live write never takes this long.
const STALE_TEMP_MS = 6 * 60 * 60 * 1000;

export function reportFileName(runDate: Date): string {
  return `creative-report-${localDateStamp(runDate)}.xlsx`;
}

// The error codes of a target another program holds open: Windows gives EBUSY or EPERM for a file open in
// Excel, and EACCES when it is read-only.
const LOCKED_CODES = new Set(['EBUSY', 'EPERM', 'EACCES']);
/** How many `name (n).xlsx` files beside a locked report are tried before giving up. */
const MAX_BESIDE = 20;

export async function writeReport(db: Db, options: ReportOptions): Promise<ReportResult> {
  const moveIntoPlace = options.rename ?? rename;
  const dir = resolve(options.reportDir);
  const name = reportFileName(options.runDate);
  const target = join(dir, name);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new ReportWriteError(
      `Could not create the report folder ${dir} (${errorCode(error)}). Check REPORT_DIR and the folder's permissions.`,
      target,
      { cause: error },
    );
  }
  await removeStaleTempFiles(dir);

  // Same folder as the target, so the rename never crosses file systems and stays atomic.
  const temp = join(
    dir,
    `${TEMP_PREFIX}${name}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`,
  );
  let sheets: SheetSummary[] = [];
  let path = target;
  let note: string | undefined;
  try {
    const stream = createWriteStream(temp, { flags: 'wx' });
    const closed = once(stream, 'close');
    // exceljs only listens for errors once it finishes; an early one (the file cannot be opened, the disk
    // is full) would otherwise leave it waiting forever.
    const streamFailed = new Promise<never>((_, reject) => stream.once('error', reject));
    streamFailed.catch(() => undefined);
    try {
      sheets = await Promise.race([
        writeWorkbook(db, stream, {
          demo: options.demo,
          generatedAt: options.generatedAt,
          runDate: options.runDate,
          allVersions: options.allVersions ?? false,
          ...(options.maxRowsPerSheet === undefined ? {} : { maxRowsPerSheet: options.maxRowsPerSheet }),
        }),
        streamFailed,
      ]);
    } catch (error) {
      stream.destroy();
      throw error;
    } finally {
      await closed.catch(() => undefined);
    }
    // Flushed to disk before the rename, or a power cut could leave a renamed but empty file.
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await moveIntoPlace(temp, target);
    } catch (error) {
      const code = errorCode(error);
      if (!LOCKED_CODES.has(code)) throw error;
      path = await moveBeside(temp, target, moveIntoPlace, error);
      note =
        `${basename(target)} could not be replaced (${code}): it is probably open in Excel or another ` +
        `program. This report was written beside it as ${basename(path)}. Close the old file; the next ` +
        'report goes to the usual name again.';
    }
  } catch (error) {
    await rm(temp, { force: true });
    const code = errorCode(error);
    if (code === 'EBUSY' || code === 'EPERM' || code === 'EACCES') {
      throw new ReportWriteError(
        `Could not write the report ${target} (${code}). If it is open in Excel, close it and run ` +
          '`creative-sync report` again; otherwise check the permissions of the report folder.',
        target,
        { cause: error },
      );
    }
    throw error;
  }
  return note === undefined ? { path, sheets } : { path, note, sheets };
}

/** Moves the finished file to `name (2).xlsx`, `name (3).xlsx`… beside a locked target: the first that works. */
async function moveBeside(
  temp: string,
  target: string,
  moveIntoPlace: (from: string, to: string) => Promise<void>,
  firstError: unknown,
): Promise<string> {
  let lastError = firstError;
  for (let n = 2; n <= MAX_BESIDE; n += 1) {
    const candidate = target.replace(/\.xlsx$/, ` (${n}).xlsx`);
    try {
      await moveIntoPlace(temp, candidate);
      return candidate;
    } catch (error) {
      if (!LOCKED_CODES.has(errorCode(error))) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

async function removeStaleTempFiles(dir: string): Promise<void> {
  // Real time, not the run's clock: it is compared with the file system's own modification times.
  const now = Date.now();
  for (const entry of await readdir(dir)) {
    if (!entry.startsWith(TEMP_PREFIX) || !entry.endsWith(TEMP_SUFFIX)) continue;
    const path = join(dir, entry);
    try {
      if (now - (await stat(path)).mtimeMs > STALE_TEMP_MS) await rm(path, { force: true });
    } catch {
      // Another run may have just renamed or removed it: nothing to clean.
    }
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
}
