// Intake: every manifest in the drop folder → validated assets in the database, and every
// rejected row → manifest_errors with file, line and field. Good rows never wait on bad ones,
// a file that cannot be read is recorded with the reason, and nothing here throws for a bad
// file: only the database failing stops intake.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import { manifestErrors, manifestFiles } from '../db/schema';
import { type CheckedFile, type CheckedRow, checkManifest } from './manifest-check';
import { type ManifestOutcome, moveManifest, writeErrorsFile } from './manifest-move';
import { type ManifestFormat, manifestExtensions, manifestFormat } from './manifest-read';
import { waitUntilSettled } from './manifest-settle';
import { IntakeStatements, ManifestStore, type ManifestWriter } from './manifest-store';
import { OffThreadStore } from './manifest-store-thread';
import { previewValue } from './manifest-text';

/** What intake did with one file it read. */
export interface FileIntake {
  path: string;
  format: ManifestFormat;
  /** `unreadable` when nothing in it could be read (empty, not text, not parseable, no header). */
  status: 'read' | 'unreadable';
  /** Rows (CSV/xlsx data rows, JSON items, JSON Lines lines) found; each is accepted or rejected. */
  rowsRead: number;
  rowsAccepted: number;
  rowsRejected: number;
  /** manifest_errors rows of severity 'warning' written for the file (duplicates, changes, channels, columns). */
  warnings: number;
  assetsNew: number;
  /** Rows of already submitted assets whose url, workspace or channels changed: kept as they were, with a warning. */
  changedAfterSubmission: number;
  /** Why the file, or its rest from some line on, could not be read. */
  problem?: string;
  /** Columns not used, or fields given by two columns: said once per file. */
  columns?: string;
  /** Where the file went after intake (processed/ or failed/), unless it stays in place. */
  movedTo?: string;
}

export interface IntakeSummary {
  filesRead: number;
  filesUnchanged: number;
  /** Files of other types, left alone. */
  filesSkipped: string[];
  /** Files read that held nothing usable (also in `files`, with the reason). */
  filesUnreadable: string[];
  rowsRead: number;
  rowsAccepted: number;
  rowsRejected: number;
  /** Warning rows written to manifest_errors in this intake. */
  rowWarnings: number;
  /** Assets seen for the first time in this intake. */
  assetsNew: number;
  /** Rows of already submitted assets whose url, workspace or channels changed (FileIntake). */
  changedAfterSubmission: number;
  /** File-level messages for the run's summary: columns not used, files that could not be read. */
  warnings: string[];
  /** Each file read, in the order read. */
  files: FileIntake[];
}

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Files from this size on have their rows written by a worker thread while this one reads and
 * checks the next: about 30,000 CSV rows, where the two threads save a third of the time.
 */
export const offThreadBytes = 4 * 1024 * 1024;

/** README files, dotfiles and Excel's `~$` lock files are never manifests. */
const ignoredFiles = /^(\.|readme|~\$)/i;

export async function intake(
  db: Db,
  options: {
    manifestDir: string;
    clock: Clock;
    log: Logger;
    /** Files from this size on are written from a worker thread; `offThreadBytes` unless a test says otherwise. */
    offThreadBytes?: number;
    /** Move each file read to processed/ or failed/ (manifest-move.ts); default: leave it in place. */
    move?: boolean;
    /** Read a file only once unchanged this long (manifest-settle.ts); default 0. */
    settleMs?: number;
  },
): Promise<IntakeSummary> {
  const { log } = options;
  const summary: IntakeSummary = {
    filesRead: 0,
    filesUnchanged: 0,
    filesSkipped: [],
    filesUnreadable: [],
    rowsRead: 0,
    rowsAccepted: 0,
    rowsRejected: 0,
    rowWarnings: 0,
    assetsNew: 0,
    changedAfterSubmission: 0,
    warnings: [],
    files: [],
  };
  let names: string[];
  try {
    names = (await readdir(options.manifestDir)).sort();
  } catch (error) {
    const message = `The manifest folder ${options.manifestDir} cannot be read (${(error as Error).message}). Create it or set MANIFEST_DIR.`;
    summary.warnings.push(message);
    log.warn({ dir: options.manifestDir }, message);
    return summary;
  }

  const statements = new IntakeStatements(db.$client);
  for (const name of names) {
    if (ignoredFiles.test(name)) continue;
    const path = join(options.manifestDir, name);
    const isFile = await stat(path).then(
      (s) => s.isFile(),
      () => false, // gone since the listing: nothing to read
    );
    if (!isFile) continue;
    const format = manifestFormat(path);
    if (!format) {
      summary.filesSkipped.push(path);
      log.warn({ file: path }, `${path}: not a manifest format (${manifestExtensions.join(', ')}), skipped`);
      continue;
    }
    const settled = await waitUntilSettled(path, options.settleMs ?? 0);
    if (settled !== 'settled') {
      if (settled === 'changing') {
        const message = `${path}: still being written, so it is left for the next run`;
        summary.warnings.push(message);
        log.warn({ file: path }, message);
      }
      continue;
    }
    const file = await intakeFile(db, statements, path, format, {
      now: options.clock.now(),
      offThreadBytes: options.offThreadBytes ?? offThreadBytes,
    });
    if (file === 'unchanged') {
      summary.filesUnchanged++;
      // The same content dropped again: nothing to read, but it need not stay in the folder either.
      if (options.move) await moveAfterIntake(db, path, 'processed', log, summary);
      continue;
    }
    if (options.move) {
      const movedTo = await moveAfterIntake(
        db,
        path,
        file.rowsAccepted > 0 ? 'processed' : 'failed',
        log,
        summary,
      );
      if (movedTo) file.movedTo = movedTo;
    }
    summary.files.push(file);
    summary.filesRead++;
    summary.rowsRead += file.rowsRead;
    summary.rowsAccepted += file.rowsAccepted;
    summary.rowsRejected += file.rowsRejected;
    summary.rowWarnings += file.warnings;
    summary.assetsNew += file.assetsNew;
    summary.changedAfterSubmission += file.changedAfterSubmission;
    if (file.status === 'unreadable') summary.filesUnreadable.push(path);
    for (const message of [file.problem, file.columns]) {
      if (message === undefined) continue;
      summary.warnings.push(`${path}: ${message}`);
      log.warn({ file: path }, `${path}: ${message}`);
    }
    log.info(
      {
        file: path,
        read: file.rowsRead,
        accepted: file.rowsAccepted,
        rejected: file.rowsRejected,
        warnings: file.warnings,
      },
      `${path}: ${file.rowsAccepted} rows accepted, ${file.rowsRejected} rejected, ${file.warnings} warnings`,
    );
  }
  return summary;
}

async function intakeFile(
  db: Db,
  statements: IntakeStatements,
  path: string,
  format: ManifestFormat,
  { now, offThreadBytes }: { now: number; offThreadBytes: number },
): Promise<FileIntake | 'unchanged'> {
  let print: { sha256: string; size: number } | { error: string };
  try {
    print = await fingerprint(path);
  } catch (error) {
    print = { error: `the file cannot be opened (${(error as Error).message})` };
  }
  const known = db.select().from(manifestFiles).where(eq(manifestFiles.path, path)).get();
  if (known && 'sha256' in print && known.sha256 === print.sha256) return 'unchanged';

  // The fingerprint is stored only once the whole file has been read (at the end): a run
  // killed half-way through a file must find it "changed", not "unchanged", next time.
  const size = 'size' in print ? print.size : 0;
  const fileId =
    known?.id ??
    db
      .insert(manifestFiles)
      .values({ path, sha256: '', sizeBytes: size, status: 'read', firstSeenAt: now, lastReadAt: now })
      .returning({ id: manifestFiles.id })
      .get().id;
  // A changed file is read again whole; its old errors describe a version that no longer exists.
  db.delete(manifestErrors).where(eq(manifestErrors.manifestFileId, fileId)).run();

  // An in-memory database is this connection's alone: a worker could not open it.
  const store: ManifestWriter =
    'size' in print && print.size >= offThreadBytes && !db.$client.memory
      ? new OffThreadStore({ databasePath: db.$client.name, fileId, now })
      : new ManifestStore(statements, fileId, now);
  const file: FileIntake = {
    path,
    format,
    status: 'read',
    rowsRead: 0,
    rowsAccepted: 0,
    rowsRejected: 0,
    warnings: 0,
    assetsNew: 0,
    changedAfterSubmission: 0,
  };
  try {
    let broken: { message: string; line: number | null } | undefined;
    if ('error' in print) broken = { message: print.error, line: null };
    else {
      const checked = checkManifest(path, format);
      let end: CheckedFile | undefined;
      try {
        while (end === undefined) {
          const next = await checked.next();
          if (next.done) end = next.value;
          else {
            count(file, next.value);
            await store.rows(next.value);
          }
        }
      } finally {
        // The database failed mid-file: close the file before the error goes on.
        if (end === undefined) await checked.return(undefined as never);
      }
      broken = end.broken;
      if (end.columns) {
        file.columns = end.columns;
        store.problems(
          end.headerLine,
          [{ field: null, value: previewValue(end.unknownColumns.join(', ') || null), message: end.columns }],
          'warning',
        );
      }
      if (!broken && file.rowsRead === 0) {
        store.problems(
          null,
          [{ field: null, value: null, message: 'the file holds no rows: nothing was read from it' }],
          'warning',
        );
      }
    }
    if (broken) {
      file.problem = broken.message;
      store.problems(broken.line, [{ field: null, value: null, message: broken.message }]);
      if (file.rowsRead === 0) file.status = 'unreadable';
    }
    const written = await store.finish();
    file.warnings = written.warnings;
    file.assetsNew = written.assetsNew;
    file.changedAfterSubmission = written.changedAfterSubmission;
  } catch (error) {
    // The database failed: stop the writer (and its thread) before the error goes on.
    await store.close();
    throw error;
  }

  db.update(manifestFiles)
    .set({
      // A file that could not be fingerprinted stays "changed", so the next run tries again.
      sha256: 'sha256' in print ? print.sha256 : '',
      sizeBytes: size,
      status: file.status,
      rowsRead: file.rowsRead,
      rowsAccepted: file.rowsAccepted,
      rowsRejected: file.rowsRejected,
      lastReadAt: now,
    })
    .where(eq(manifestFiles.id, fileId))
    .run();
  return file;
}

/** Moves a file out of the drop folder; a failure to move is a warning, never the end of intake. */
async function moveAfterIntake(
  db: Db,
  path: string,
  outcome: ManifestOutcome,
  log: Logger,
  summary: IntakeSummary,
): Promise<string | undefined> {
  try {
    const movedTo = await moveManifest(path, outcome);
    if (outcome === 'failed') await writeErrorsFile(db, path, movedTo);
    log.info({ file: path, movedTo }, `${path}: moved to ${movedTo}`);
    return movedTo;
  } catch (error) {
    const message = `${path}: could not be moved to ${outcome}/ (${(error as Error).message}); check the folder's permissions, or set KEEP_MANIFESTS=true`;
    summary.warnings.push(message);
    log.warn({ file: path }, message);
    return undefined;
  }
}

/** Adds a batch of the file's rows to its counts. */
function count(file: FileIntake, items: readonly CheckedRow[]): void {
  for (const item of items) {
    if ('row' in item) file.rowsAccepted++;
    else file.rowsRejected++;
  }
  file.rowsRead += items.length;
}

async function fingerprint(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
