// Intake: every manifest in the drop folder → validated assets in the database, and every
// rejected row → manifest_errors with file, line and field. Good rows never wait on bad ones.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import {
  assetBrands,
  assetChannels,
  assetMarkets,
  assets,
  manifestErrors,
  manifestFiles,
} from '../db/schema';
import { isKnownChannel } from './channels';
import { ManifestParseError, manifestFormat, readManifest } from './manifest-read';
import { type ManifestRow, type RowProblem, validateRow } from './manifest-row';

export interface IntakeSummary {
  filesRead: number;
  filesUnchanged: number;
  filesSkipped: string[];
  rowsAccepted: number;
  rowsRejected: number;
  /** Assets seen for the first time in this intake. */
  assetsNew: number;
  warnings: string[];
}

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const batchSize = 500;
const ignoredFiles = /^(\.|readme)/i;

export async function intake(
  db: Db,
  options: { manifestDir: string; clock: Clock; log: Logger },
): Promise<IntakeSummary> {
  const summary: IntakeSummary = {
    filesRead: 0,
    filesUnchanged: 0,
    filesSkipped: [],
    rowsAccepted: 0,
    rowsRejected: 0,
    assetsNew: 0,
    warnings: [],
  };
  let names: string[];
  try {
    names = (await readdir(options.manifestDir)).sort();
  } catch (error) {
    const message = `The manifest folder ${options.manifestDir} cannot be read (${(error as Error).message}). Create it or set MANIFEST_DIR.`;
    summary.warnings.push(message);
    options.log.warn({ dir: options.manifestDir }, message);
    return summary;
  }

  for (const name of names) {
    if (ignoredFiles.test(name)) continue;
    const path = join(options.manifestDir, name);
    if (!(await stat(path)).isFile()) continue;
    const format = manifestFormat(path);
    if (!format) {
      summary.filesSkipped.push(path);
      options.log.warn({ file: path }, `${path}: not a manifest format (.csv or .json), skipped`);
      continue;
    }
    const outcome = await intakeFile(db, path, format, options.clock);
    if (outcome === 'unchanged') {
      summary.filesUnchanged++;
      continue;
    }
    summary.filesRead++;
    summary.rowsAccepted += outcome.accepted;
    summary.rowsRejected += outcome.rejected;
    summary.assetsNew += outcome.assetsNew;
    if (outcome.unknownColumns.length > 0) {
      const message = `${path}: columns not used: ${outcome.unknownColumns.join(', ')}`;
      summary.warnings.push(message);
      options.log.warn({ file: path, columns: outcome.unknownColumns }, message);
    }
    if (outcome.fileError) summary.warnings.push(`${path}: ${outcome.fileError}`);
    options.log.info(
      { file: path, accepted: outcome.accepted, rejected: outcome.rejected },
      `${path}: ${outcome.accepted} rows accepted, ${outcome.rejected} rejected`,
    );
  }
  return summary;
}

interface FileOutcome {
  accepted: number;
  rejected: number;
  assetsNew: number;
  unknownColumns: string[];
  fileError?: string;
}

async function intakeFile(
  db: Db,
  path: string,
  format: 'csv' | 'json',
  clock: Clock,
): Promise<FileOutcome | 'unchanged'> {
  const { sha256, size } = await fingerprint(path);
  const known = db.select().from(manifestFiles).where(eq(manifestFiles.path, path)).get();
  if (known && known.sha256 === sha256) return 'unchanged';

  const now = clock.now();
  // The fingerprint is stored only once the whole file has been read (the update below): a
  // run killed half-way through a new file must find it "changed", not "unchanged", next time.
  const fileId =
    known?.id ??
    db
      .insert(manifestFiles)
      .values({ path, sha256: '', sizeBytes: size, status: 'read', firstSeenAt: now, lastReadAt: now })
      .returning({ id: manifestFiles.id })
      .get().id;
  // A changed file is read again whole; its old errors describe a version that no longer exists.
  db.delete(manifestErrors).where(eq(manifestErrors.manifestFileId, fileId)).run();

  const writer = new AssetWriter(db, fileId, now);
  const outcome: FileOutcome = { accepted: 0, rejected: 0, assetsNew: 0, unknownColumns: [] };
  const reading = readManifest(path, format);
  let batch: { line: number; row: ManifestRow }[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    db.transaction(() => {
      for (const { line, row } of rows) {
        if (writer.upsert(row, line) === 'new') outcome.assetsNew++;
      }
    });
  };

  try {
    for await (const record of reading.records) {
      if ('problem' in record) {
        writer.recordProblems(record.line, [{ field: null, value: null, message: record.problem }]);
        outcome.rejected++;
        continue;
      }
      const result = validateRow(record.fields);
      if (!result.ok) {
        writer.recordProblems(record.line, result.problems);
        outcome.rejected++;
        continue;
      }
      outcome.accepted++;
      batch.push({ line: record.line, row: result.row });
      if (batch.length >= batchSize) flush();
    }
    flush();
  } catch (error) {
    flush();
    if (!(error instanceof ManifestParseError)) throw error;
    writer.recordProblems(error.line, [
      { field: null, value: null, message: `${error.message}. Fix the file.` },
    ]);
    outcome.fileError = error.message;
  }

  outcome.unknownColumns = [...reading.unknownColumns];
  const unreadable = outcome.fileError !== undefined && outcome.accepted + outcome.rejected === 0;
  db.update(manifestFiles)
    .set({
      sha256,
      sizeBytes: size,
      status: unreadable ? 'unreadable' : 'read',
      rowsRead: outcome.accepted + outcome.rejected,
      rowsAccepted: outcome.accepted,
      rowsRejected: outcome.rejected,
      lastReadAt: now,
    })
    .where(eq(manifestFiles.id, fileId))
    .run();
  return outcome;
}

/** Writes validated rows as assets: new keys are inserted, unsubmitted ones updated, submitted ones guarded. */
class AssetWriter {
  constructor(
    private readonly db: Db,
    private readonly fileId: number,
    private readonly now: number,
  ) {}

  upsert(row: ManifestRow, line: number): 'new' | 'updated' | 'kept' {
    const { db } = this;
    const key = and(
      eq(assets.clientId, row.id),
      eq(assets.version, row.version),
      eq(assets.source, row.source),
    );
    const existing = db
      .select({ id: assets.id, uniqueId: assets.uniqueId, url: assets.url, workspaceId: assets.workspaceId })
      .from(assets)
      .where(key)
      .get();
    const metadata = {
      name: row.name ?? null,
      description: row.description ?? null,
      manifestFileId: this.fileId,
      manifestLine: line,
      updatedAt: this.now,
    };

    if (!existing) {
      const { id } = db
        .insert(assets)
        .values({
          clientId: row.id,
          version: row.version,
          source: row.source,
          url: row.url,
          workspaceId: row.workspaceId ?? null,
          ...metadata,
          createdAt: this.now,
        })
        .returning({ id: assets.id })
        .get();
      this.replaceLists(id, row, true);
      return 'new';
    }

    if (existing.uniqueId === null) {
      db.update(assets)
        .set({ url: row.url, workspaceId: row.workspaceId ?? null, ...metadata })
        .where(eq(assets.id, existing.id))
        .run();
      this.replaceLists(existing.id, row, true);
      return 'updated';
    }

    // Already at the service: it would answer with the old record, so a changed link,
    // workspace or channel list must become a new version rather than be silently ignored.
    const channelsBefore = db
      .select({ value: assetChannels.value })
      .from(assetChannels)
      .where(eq(assetChannels.assetId, existing.id))
      .all()
      .map((c) => c.value)
      .sort();
    const changed: string[] = [];
    if (existing.url !== row.url) changed.push('url');
    if ((existing.workspaceId ?? undefined) !== row.workspaceId) changed.push('workspaceId');
    if (channelsBefore.join(';') !== [...row.channels].sort().join(';')) changed.push('channels');
    if (changed.length > 0) {
      this.recordProblems(line, [
        {
          field: changed.join(', '),
          value: null,
          message: `asset ${row.id} was already submitted and its ${changed.join(', ')} changed: give it a new version to have it scored again`,
        },
      ]);
    }
    db.update(assets).set(metadata).where(eq(assets.id, existing.id)).run();
    this.replaceLists(existing.id, row, false);
    return 'kept';
  }

  recordProblems(line: number | null, problems: RowProblem[]): void {
    const rows = problems.map((p) => ({
      manifestFileId: this.fileId,
      line,
      field: p.field,
      value: p.value,
      message: p.message,
      createdAt: this.now,
    }));
    if (rows.length > 0) this.db.insert(manifestErrors).values(rows).run();
  }

  private replaceLists(assetId: number, row: ManifestRow, includeChannels: boolean): void {
    const { db } = this;
    const tables = [
      [assetBrands, row.brands],
      [assetMarkets, row.markets],
      ...(includeChannels ? ([[assetChannels, row.channels]] as const) : []),
    ] as const;
    for (const [table, values] of tables) {
      db.delete(table).where(eq(table.assetId, assetId)).run();
      if (values.length > 0)
        db.insert(table)
          .values(values.map((value) => ({ assetId, value })))
          .run();
    }
  }
}

/** Channels in a row that the service does not document; kept, but worth a warning. */
export function unknownChannels(row: ManifestRow): string[] {
  return row.channels.filter((c) => !isKnownChannel(c));
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
