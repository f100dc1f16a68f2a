// After intake a manifest leaves the drop folder, so the folder shows what is still to be read:
// to processed/ when any row of it went in, to failed/ with a short .errors.txt beside it when
// nothing did. Names are kept, made unique with " (2)", " (3)"…; nothing is ever deleted.
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Db } from '../db/open';

export type ManifestOutcome = 'processed' | 'failed';

/** Rejected rows listed in a .errors.txt; the rest are counted, and all are in the report. */
const listedErrors = 50;

/** Moves `path` into `processed/` or `failed/` beside it and returns where it went. */
export async function moveManifest(path: string, outcome: ManifestOutcome): Promise<string> {
  const folder = join(dirname(path), outcome);
  await mkdir(folder, { recursive: true });
  const target = await freeName(folder, basename(path));
  await rename(path, target);
  return target;
}

/** `name.ext` in `folder`, or `name (2).ext`, `name (3).ext`… for the first that does not exist yet. */
async function freeName(folder: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = join(folder, n === 1 ? name : `${stem} (${n})${ext}`);
    const taken = await stat(candidate).then(
      () => true,
      () => false,
    );
    if (!taken) return candidate;
  }
}

/** Writes `<file>.errors.txt` beside a failed manifest: why nothing in it could be used, and what to do. */
export async function writeErrorsFile(db: Db, originalPath: string, movedTo: string): Promise<string> {
  const errors = db.$client
    .prepare<[string], { line: number | null; field: string | null; message: string }>(
      `SELECT e.line, e.field, e.message FROM manifest_errors e JOIN manifest_files f ON f.id = e.manifest_file_id
       WHERE f.path = ? AND e.severity = 'error' ORDER BY e.line IS NOT NULL, e.line, e.id`,
    )
    .all(originalPath);
  const lines = errors.slice(0, listedErrors).map((e) => {
    const where = [e.line === null ? null : `line ${e.line}`, e.field].filter(Boolean).join(', ');
    return where ? `${where}: ${e.message}` : e.message;
  });
  if (errors.length > listedErrors)
    lines.push(`… and ${errors.length - listedErrors} more (all on the report's Issues sheet)`);
  const text = [
    `Nothing in ${basename(originalPath)} could be used, so no asset came from it.`,
    '',
    ...(lines.length > 0 ? lines : ['(no rows)']),
    '',
    `Fix the file and drop it into ${dirname(originalPath)} again; the next run reads it.`,
    '',
  ].join('\n');
  const path = `${movedTo}.errors.txt`;
  await writeFile(path, text);
  return path;
}
