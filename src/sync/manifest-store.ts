// Writes what one manifest file said into the database: each validated row as an asset (new
// keys inserted, unsubmitted ones updated, submitted ones guarded), each problem as a
// manifest_errors row. Work is queued and committed in batches, one transaction each; the hot
// path is a handful of prepared statements: a new asset costs one INSERT and no SELECT, and the
// brand, market and channel rows of a whole batch go in with INSERTs of 500 rows each.
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { isKnownChannel, knownChannels } from './channels';
import type { CheckedRow } from './manifest-check';
import type { ManifestRow, RowProblem } from './manifest-row';
import { previewValue, shorten } from './manifest-text';

export type Severity = 'error' | 'warning';

/** Rows per transaction: larger batches rewrite the same index pages less often (measured: 1000 → 5000 saves a third). */
export const batchSize = 5000;
/** (asset, value) pairs per list INSERT: one statement of 500 rows costs a fifth less than 500 statements. */
const listChunk = 500;
/** Unknown channels named one by one in a file's warnings; the rest are counted together. */
const maxNamedChannels = 100;

type Queued =
  | { line: number; row: ManifestRow }
  | { line: number | null; problems: RowProblem[]; severity: Severity };

interface Existing {
  id: number;
  uniqueId: string | null;
  url: string;
  workspaceId: number | null;
  fileId: number | null;
  line: number | null;
}

/** The prepared statements of intake, made once per intake and shared by its files. */
export class IntakeStatements {
  readonly insertAsset: Statement;
  readonly existing: Statement<unknown[], Existing>;
  readonly updateAll: Statement;
  readonly updateMetadata: Statement;
  readonly channelsOf: Statement<unknown[], string>;
  readonly filePath: Statement<unknown[], string>;
  readonly insertError: Statement;
  /** Brands, markets, channels: inserting `listChunk` (asset, value) pairs, or one, and clearing an asset's. */
  readonly lists: { insertMany: Statement; insertOne: Statement; clear: Statement }[];

  constructor(readonly sql: Database.Database) {
    this.insertAsset = sql.prepare(
      `INSERT INTO assets (client_id, version, source, url, workspace_id, name, description, tag_wanted,
         client_tags, manifest_file_id, manifest_line, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (client_id, version, source) DO NOTHING`,
    );
    this.existing = sql.prepare(
      `SELECT id, unique_id AS uniqueId, url, workspace_id AS workspaceId,
         manifest_file_id AS fileId, manifest_line AS line
       FROM assets WHERE client_id = ? AND version = ? AND source = ?`,
    );
    // A changed url is checked again (url-preflight.ts); SET sees the row as it was, so `url = @url` compares the old one.
    this.updateAll = sql.prepare(
      `UPDATE assets SET url_flag = CASE WHEN url = @url THEN url_flag END,
         url_checked_at = CASE WHEN url = @url THEN url_checked_at END,
         url = @url, workspace_id = @workspaceId, name = @name, description = @description,
         tag_wanted = @tagWanted, client_tags = @clientTags, manifest_file_id = @fileId,
         manifest_line = @line, updated_at = @now WHERE id = @id`,
    );
    this.updateMetadata = sql.prepare(
      `UPDATE assets SET name = ?, description = ?, tag_wanted = ?, client_tags = ?,
         manifest_file_id = ?, manifest_line = ?, updated_at = ? WHERE id = ?`,
    );
    this.channelsOf = sql
      .prepare('SELECT channel FROM asset_channels WHERE asset_id = ?')
      .pluck() as Statement<unknown[], string>;
    this.filePath = sql.prepare('SELECT path FROM manifest_files WHERE id = ?').pluck() as Statement<
      unknown[],
      string
    >;
    this.insertError = sql.prepare(
      `INSERT INTO manifest_errors (manifest_file_id, line, field, value, message, severity, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    // Brands, markets, channels: in this order everywhere below.
    this.lists = [
      ['asset_brands', 'brand'],
      ['asset_markets', 'market'],
      ['asset_channels', 'channel'],
    ].map(([table, column]) => ({
      insertMany: sql.prepare(
        `INSERT INTO ${table} (asset_id, ${column}) VALUES ${Array(listChunk).fill('(?, ?)').join(', ')}`,
      ),
      insertOne: sql.prepare(`INSERT INTO ${table} (asset_id, ${column}) VALUES (?, ?)`),
      clear: sql.prepare(`DELETE FROM ${table} WHERE asset_id = ?`),
    }));
  }
}

/** What one file's rows are written through: a ManifestStore here, or one on a worker thread (manifest-store-thread). */
export interface ManifestWriter {
  /** Queues a batch of the file's rows, in file order; may wait while earlier batches are written. */
  rows(items: readonly CheckedRow[]): void | Promise<void>;
  /** Queues problems about the file or one of its lines. */
  problems(line: number | null, problems: RowProblem[], severity?: Severity): void;
  /** Writes the rest, with the file's closing warnings; says what was written. */
  finish(): FileWritten | Promise<FileWritten>;
  /** Gives up on the file (the reading failed): what is not yet written is not written. */
  close(): void | Promise<void>;
}

/** What writing one file's rows did. */
export interface FileWritten {
  assetsNew: number;
  /** Rows of assets already submitted whose url, workspace or channels changed (kept as they were, with a warning). */
  changedAfterSubmission: number;
  /** manifest_errors rows of severity 'warning'. */
  warnings: number;
}

/** One file's writer on this thread. Call `row` (or `rows`) and `problems` in file order, then `finish`. */
export class ManifestStore implements ManifestWriter {
  assetsNew = 0;
  changedAfterSubmission = 0;
  warnings = 0;
  private queue: Queued[] = [];
  /** Assets written from this file in this reading: a second row for one of them is a duplicate. */
  private readonly written = new IdSet();
  /** Channels the service does not document, each with its first line and how many rows carry it (at most 100 named). */
  private readonly strangeChannels = new Map<string, { line: number; rows: number }>();
  /** Rows with further unknown channels, once 100 are named. */
  private strangeBeyond = { line: 0, rows: 0 };
  private readonly otherFiles = new Map<number, string>();
  /** The list values to insert at the end of the batch, by asset: a later row of the same asset replaces them. */
  private pendingLists = new Map<number, { row: ManifestRow; withChannels: boolean }>();

  constructor(
    private readonly statements: IntakeStatements,
    private readonly fileId: number,
    private readonly now: number,
  ) {}

  row(line: number, row: ManifestRow): void {
    this.queue.push({ line, row });
    for (const channel of row.channels) {
      if (isKnownChannel(channel)) continue;
      const seen = this.strangeChannels.get(channel);
      if (seen) seen.rows++;
      else if (this.strangeChannels.size < maxNamedChannels)
        this.strangeChannels.set(channel, { line, rows: 1 });
      else if (this.strangeBeyond.rows++ === 0) this.strangeBeyond.line = line;
    }
    if (this.queue.length >= batchSize) this.flush();
  }

  rows(items: readonly CheckedRow[]): void {
    for (const item of items) {
      if ('row' in item) this.row(item.line, item.row);
      else this.problems(item.line, item.problems);
    }
  }

  problems(line: number | null, problems: RowProblem[], severity: Severity = 'error'): void {
    if (problems.length === 0) return;
    this.queue.push({ line, problems, severity });
    if (this.queue.length >= batchSize) this.flush();
  }

  /** Adds the file's closing warnings and commits whatever is queued. */
  finish(): FileWritten {
    const list = knownChannels.slice(0, 6).join(', ');
    const where = (line: number, rows: number) =>
      rows > 1 ? `on ${rows} rows, first on line ${line}` : `on line ${line}`;
    for (const [channel, { line, rows }] of this.strangeChannels) {
      const message = `channels: "${shorten(channel, 40)}" is not a channel the service documents (${list}, …); it is kept and sent as written, so check its spelling (${where(line, rows)})`;
      this.problems(line, [{ field: 'channels', value: previewValue(channel), message }], 'warning');
    }
    if (this.strangeBeyond.rows > 0) {
      const { line, rows } = this.strangeBeyond;
      const message = `channels: more channels the service does not document are kept as written (${where(line, rows)})`;
      this.problems(line, [{ field: 'channels', value: null, message }], 'warning');
    }
    this.strangeChannels.clear();
    this.strangeBeyond = { line: 0, rows: 0 };
    this.flush();
    return {
      assetsNew: this.assetsNew,
      changedAfterSubmission: this.changedAfterSubmission,
      warnings: this.warnings,
    };
  }

  close(): void {
    this.queue = [];
  }

  /** Commits the queue in one transaction. */
  flush(): void {
    if (this.queue.length === 0) return;
    const queue = this.queue;
    this.queue = [];
    this.statements.sql.transaction(() => {
      for (const item of queue) {
        if ('row' in item) this.upsert(item.line, item.row);
        else this.insertProblems(item.line, item.problems, item.severity);
      }
      this.insertPendingLists();
    })();
  }

  private upsert(line: number, row: ManifestRow): void {
    const s = this.statements;
    const tagWanted = row.tagWanted ? 1 : 0;
    const clientTags = row.clientTags ? JSON.stringify(row.clientTags) : null;
    const workspaceId = row.workspaceId ?? null;
    const name = row.name ?? null;
    const description = row.description ?? null;
    const inserted = s.insertAsset.run(
      row.id,
      row.version,
      row.source,
      row.url,
      workspaceId,
      name,
      description,
      tagWanted,
      clientTags,
      this.fileId,
      line,
      this.now,
      this.now,
    );
    if (inserted.changes > 0) {
      const id = Number(inserted.lastInsertRowid);
      this.written.add(id);
      this.assetsNew++;
      this.pendingLists.set(id, { row, withChannels: true });
      return;
    }

    const existing = s.existing.get(row.id, row.version, row.source) as Existing;
    this.noteDuplicate(line, row, existing);
    this.written.add(existing.id);
    if (existing.uniqueId === null) {
      s.updateAll.run({
        url: row.url,
        workspaceId,
        name,
        description,
        tagWanted,
        clientTags,
        fileId: this.fileId,
        line,
        now: this.now,
        id: existing.id,
      });
      this.clearLists(existing.id, true);
      this.pendingLists.set(existing.id, { row, withChannels: true });
      return;
    }
    // Already at the service: it would answer with the old record, so a changed link,
    // workspace or channel list must become a new version rather than be silently taken.
    this.noteChangeAfterSubmission(line, row, existing);
    s.updateMetadata.run(name, description, tagWanted, clientTags, this.fileId, line, this.now, existing.id);
    this.clearLists(existing.id, false);
    this.pendingLists.set(existing.id, { row, withChannels: false });
  }

  private noteDuplicate(line: number, row: ManifestRow, existing: Existing): void {
    let earlier: string | undefined;
    const at = existing.line === null ? '' : ` line ${existing.line}`;
    if (this.written.has(existing.id)) earlier = `${at.trim() || 'another row'} of this file`;
    else if (existing.fileId !== null && existing.fileId !== this.fileId) {
      earlier = `${this.pathOf(existing.fileId)}${at}`;
    }
    if (earlier === undefined) return;
    this.insertProblems(
      line,
      [
        {
          field: 'id',
          value: previewValue(row.id),
          message: `${describeKey(row)} is also on ${earlier}: it is one asset, and this later row's details are kept`,
        },
      ],
      'warning',
    );
  }

  private noteChangeAfterSubmission(line: number, row: ManifestRow, existing: Existing): void {
    const changed: [string, unknown][] = [];
    if (existing.url !== row.url) changed.push(['url', row.url]);
    if (existing.workspaceId !== (row.workspaceId ?? null))
      changed.push(['workspaceId', row.workspaceId ?? null]);
    const before = this.statements.channelsOf.all(existing.id).sort();
    if (before.join(';') !== [...row.channels].sort().join(';')) changed.push(['channels', row.channels]);
    if (changed.length === 0) return;
    this.changedAfterSubmission++;
    const fields = changed.map(([field]) => field).join(', ');
    const [only] = changed;
    const value =
      changed.length === 1 && only
        ? only[1]
        : changed.map(([field, v]) => `${field}: ${previewValue(v) ?? 'none'}`).join('; ');
    this.insertProblems(
      line,
      [
        {
          field: fields,
          value: previewValue(value),
          message: `${describeKey(row)} was already submitted and its ${fields} changed; the service would keep the old ones, so the asset keeps them too: give it a new version to have it scored again`,
        },
      ],
      'warning',
    );
  }

  private insertProblems(line: number | null, problems: RowProblem[], severity: Severity): void {
    for (const p of problems) {
      this.statements.insertError.run(this.fileId, line, p.field, p.value, p.message, severity, this.now);
      if (severity === 'warning') this.warnings++;
    }
  }

  private insertPendingLists(): void {
    /** Per table, asset ids and values alternating, as the statements take their parameters. */
    const params: (number | string)[][] = [[], [], []];
    const [brands, markets, channels] = params as [
      (number | string)[],
      (number | string)[],
      (number | string)[],
    ];
    for (const [assetId, { row, withChannels }] of this.pendingLists) {
      for (const value of row.brands) brands.push(assetId, value);
      for (const value of row.markets) markets.push(assetId, value);
      if (withChannels) for (const value of row.channels) channels.push(assetId, value);
    }
    this.pendingLists = new Map();
    this.statements.lists.forEach(({ insertMany, insertOne }, i) => {
      const values = params[i] ?? [];
      const whole = values.length - (values.length % (2 * listChunk));
      for (let at = 0; at < whole; at += 2 * listChunk) insertMany.run(values.slice(at, at + 2 * listChunk));
      for (let at = whole; at < values.length; at += 2) insertOne.run(values[at], values[at + 1]);
    });
  }

  private clearLists(assetId: number, withChannels: boolean): void {
    const [brands, markets, channels] = this.statements.lists;
    brands?.clear.run(assetId);
    markets?.clear.run(assetId);
    if (withChannels) channels?.clear.run(assetId);
  }

  private pathOf(fileId: number): string {
    let path = this.otherFiles.get(fileId);
    if (path === undefined) {
      path = this.statements.filePath.get(fileId) ?? `file #${fileId}`;
      this.otherFiles.set(fileId, path);
    }
    return path;
  }
}

/** `asset a1`, with its version and source when it has them. */
function describeKey(row: ManifestRow): string {
  const version = row.version === '' ? '' : ` version ${shorten(row.version, 40)}`;
  const source = row.source === '' ? '' : ` from ${shorten(row.source, 40)}`;
  return `asset ${shorten(row.id, 80)}${version}${source}`;
}

/** A set of positive integer ids as a bitset: a million assets cost 125 KB, not a Map's tens of MB. */
class IdSet {
  private bits = new Uint8Array(1024);

  add(id: number): void {
    const byte = id >>> 3;
    if (byte >= this.bits.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[byte] = (this.bits[byte] ?? 0) | (1 << (id & 7));
  }

  has(id: number): boolean {
    return (((this.bits[id >>> 3] ?? 0) >> (id & 7)) & 1) === 1;
  }
}
