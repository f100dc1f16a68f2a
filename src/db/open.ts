// Opens the SQLite file, sets the pragmas a long-lived batch job wants, and applies the
// committed drizzle-kit migrations, so a fresh machine needs no separate set-up step.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { configureConnection } from './pragmas';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Opens (creating if needed) the database at `path` — or `:memory:` — and brings its schema up to date. */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    ownerOnly(path);
  }
  const sqlite = new Database(path);
  configureConnection(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return db;
}

/**
 * The database holds what the organization submitted: readable by its owner only. SQLite
 * creates the -wal and -shm files with the database file's mode, so setting it here covers them.
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
  for (const extra of [`${path}-wal`, `${path}-shm`]) if (existsSync(extra)) chmodSync(extra, 0o600);
}
