// What every command starts with: settings, a logger, and the database opened and migrated.
import { type Config, loadConfig } from '../config';
import { type Db, openDatabase } from '../db/open';
import { createLogger, type Logger } from '../log';
import { UserError } from './handle-error';
import type { Flags } from './program';

export interface Setup {
  config: Config;
  log: Logger;
  db: Db;
}

export function setup(flags: Flags): Setup {
  const config = loadConfig({ flags });
  const log = createLogger({ level: config.logLevel, pretty: process.stderr.isTTY });
  let db: Db;
  try {
    db = openDatabase(config.databasePath);
  } catch (error) {
    throw new UserError(
      `The database ${config.databasePath} cannot be opened (${(error as Error).message}). Check DATABASE_PATH and that the folder is writable.`,
    );
  }
  return { config, log, db };
}
