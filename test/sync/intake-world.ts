// A drop folder for intake tests: a fresh temp folder to write manifests into, a real SQLite
// file with the real migrations, a simulated clock, and readers for what intake stored.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { SimulatedClock } from '../../src/clock';
import { type Db, openDatabase } from '../../src/db/open';
import { type Asset, assets, manifestErrors, manifestFiles } from '../../src/db/schema';
import { type IntakeSummary, intake } from '../../src/sync/intake';
import { type ManifestFormat, readManifest } from '../../src/sync/manifest-read';
import { ManifestParseError, type ManifestRecord } from '../../src/sync/manifest-record';

export const silentLog = pino({ level: 'silent' });

/** A fresh temp folder; `write` puts a file in it and returns its path. */
export function tempFolder(prefix = 'creative-sync-intake-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name: string, content: string | Buffer): string {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    remove(name: string): void {
      unlinkSync(join(dir, name));
    },
    dispose(): void {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads a manifest whole: its records, its unknown columns, and the error that stopped it, if any. */
export async function readAll(path: string, format: ManifestFormat) {
  const reading = readManifest(path, format);
  const records: ManifestRecord[] = [];
  let error: ManifestParseError | undefined;
  try {
    for await (const record of reading.records) records.push(record);
  } catch (thrown) {
    if (!(thrown instanceof ManifestParseError)) throw thrown;
    error = thrown;
  }
  return { records, unknownColumns: reading.notes.unknownColumns, headerLine: reading.headerLine, error };
}

/** Writes a workbook whose sheets hold the given rows (the first sheet first) and returns its path. */
export async function writeWorkbook(path: string, sheets: [name: string, rows: unknown[][]][]) {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of sheets) {
    const sheet = workbook.addWorksheet(name);
    rows.forEach((row, i) => {
      sheet.getRow(i + 1).values = row as ExcelJS.CellValue[];
    });
  }
  await workbook.xlsx.writeFile(path);
  return path;
}

export interface IntakeWorld extends ReturnType<typeof tempFolder> {
  manifestDir: string;
  db: Db;
  clock: SimulatedClock;
  intake(): Promise<IntakeSummary>;
  /** Every manifest error, oldest first, with the file's name (not its path). */
  errors(): {
    file: string;
    line: number | null;
    field: string | null;
    value: string | null;
    message: string;
    severity: 'error' | 'warning';
  }[];
  asset(clientId: string, version?: string, source?: string): Asset | undefined;
  allAssets(): Asset[];
  /** The list values stored for an asset, sorted. */
  lists(assetId: number): { brands: string[]; markets: string[]; channels: string[] };
  file(name: string): typeof manifestFiles.$inferSelect | undefined;
  close(): void;
}

/** Options of intake itself, e.g. `offThreadBytes: 0` to write every file from a worker thread. */
export function intakeWorld(
  options: Pick<Parameters<typeof intake>[1], 'offThreadBytes' | 'move' | 'settleMs'> = {},
): IntakeWorld {
  const folder = tempFolder();
  const manifestDir = join(folder.dir, 'manifests');
  const db = openDatabase(join(folder.dir, 'data', 'creative-sync.db'));
  const clock = new SimulatedClock(Date.UTC(2026, 10, 22, 2, 0, 0));
  mkdirSync(manifestDir);
  const nameOf = (path: string) => path.slice(manifestDir.length + 1);
  const values = (
    table: 'asset_brands' | 'asset_markets' | 'asset_channels',
    column: string,
    assetId: number,
  ) =>
    (
      db.$client.prepare(`SELECT ${column} AS value FROM ${table} WHERE asset_id = ?`).all(assetId) as {
        value: string;
      }[]
    )
      .map((r) => r.value)
      .sort();
  return {
    ...folder,
    manifestDir,
    db,
    clock,
    write: (name, content) => folder.write(join('manifests', name), content),
    remove: (name) => folder.remove(join('manifests', name)),
    intake: () => intake(db, { manifestDir, clock, log: silentLog, ...options }),
    errors: () =>
      db
        .select({
          path: manifestFiles.path,
          line: manifestErrors.line,
          field: manifestErrors.field,
          value: manifestErrors.value,
          message: manifestErrors.message,
          severity: manifestErrors.severity,
        })
        .from(manifestErrors)
        .innerJoin(manifestFiles, eq(manifestFiles.id, manifestErrors.manifestFileId))
        .orderBy(asc(manifestErrors.id))
        .all()
        .map(({ path, ...rest }) => ({ file: nameOf(path), ...rest })),
    asset: (clientId, version = '', source = '') =>
      db
        .select()
        .from(assets)
        .all()
        .find((a) => a.clientId === clientId && a.version === version && a.source === source),
    allAssets: () => db.select().from(assets).orderBy(asc(assets.id)).all(),
    lists: (assetId) => ({
      brands: values('asset_brands', 'brand', assetId),
      markets: values('asset_markets', 'market', assetId),
      channels: values('asset_channels', 'channel', assetId),
    }),
    file: (name) =>
      db
        .select()
        .from(manifestFiles)
        .where(eq(manifestFiles.path, join(manifestDir, name)))
        .get(),
    close() {
      db.$client.close();
      folder.dispose();
    },
  };
}
