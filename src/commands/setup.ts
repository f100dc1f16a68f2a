// What every command starts with: settings, a logger, and the database opened and migrated.
// Commands that run the sync also log JSON lines to the rotating file under the data folder.
import { dirname } from 'node:path';
import { type Config, loadConfig } from '../config';
import { type Db, openDatabase } from '../db/open';
import { createLogger, type Logger, logDirFor, openLogFile } from '../log';
import { TerminalOutput } from '../progress';
import { UserError } from './handle-error';
import type { Flags } from './program';

export interface Setup {
  config: Config;
  log: Logger;
  db: Db;
}

export interface RunSetup extends Setup {
  /** The terminal's text stream; progress bars attach to it so log lines print above them. */
  terminal: TerminalOutput;
  logDir: string;
}

export function setup(flags: Flags): Setup {
  const config = loadConfig({ flags });
  const log = createLogger({
    level: config.logLevel,
    pretty: true,
    colorize: Boolean(process.stderr.isTTY),
    secrets: [config.apiKey],
  });
  return { config, log, db: open(config) };
}

/** As `setup`, with the rotating log file as well: for `run` and `schedule`. */
export async function runSetup(flags: Flags): Promise<RunSetup> {
  const config = loadConfig({ flags });
  const logDir = logDirFor(dirname(config.databasePath));
  let file: Awaited<ReturnType<typeof openLogFile>>;
  try {
    file = await openLogFile(logDir);
  } catch (error) {
    throw new UserError(
      `The log folder ${logDir} cannot be written (${(error as Error).message}). Check that the folder of DATABASE_PATH is writable.`,
    );
  }
  const terminal = new TerminalOutput(process.stderr);
  const log = createLogger({
    level: config.logLevel,
    pretty: true,
    terminal,
    colorize: Boolean(process.stderr.isTTY),
    destination: file,
    secrets: [config.apiKey],
  });
  return { config, log, db: open(config), terminal, logDir };
}

function open(config: Config): Db {
  try {
    return openDatabase(config.databasePath);
  } catch (error) {
    throw new UserError(
      `The database ${config.databasePath} cannot be opened (${(error as Error).message}). Check DATABASE_PATH and that the folder is writable.`,
    );
  }
}
