// The settings every connection to the database gets, from the main thread or a worker: WAL so
// that readers never wait on the writer, and foreign keys, which SQLite leaves off by default.
import type Database from 'better-sqlite3';

export function configureConnection(sqlite: Database.Database): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
}
