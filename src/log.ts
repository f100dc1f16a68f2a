// Logging: structured JSON lines to a rotating file under the data folder, readable lines on
// the terminal. The API key is censored from every line, whatever field or message it is in.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type DestinationStream, type Logger, pino } from 'pino';
import pretty from 'pino-pretty';

/** pino-roll ships no types; this is the part of its interface used here. */
type PinoRoll = (options: {
  file: string;
  extension: string;
  frequency: 'daily';
  size: string;
  mkdir: boolean;
  symlink: boolean;
  limit: { count: number };
  sync: boolean;
  mode: number;
}) => Promise<DestinationStream & { end(): void }>;
const pinoRoll = createRequire(import.meta.url)('pino-roll') as PinoRoll;

export type { Logger };

/** Fields that hold secrets by name, wherever they sit in a logged object. */
export const redactedPaths = [
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
];

const censor = '[redacted]';

export interface LoggerOptions {
  level: string;
  /** Readable lines on the terminal (instead of none). */
  pretty?: boolean;
  /** Where readable lines go; default stderr. Progress bars pass a stream that keeps them tidy. */
  terminal?: NodeJS.WritableStream;
  /** Colour the readable lines (a terminal that shows colour). */
  colorize?: boolean;
  /** Where JSON lines go: the rotating log file, or a test's stream. */
  destination?: DestinationStream;
  /** Values censored from the text of every line, such as the API key. */
  secrets?: (string | undefined)[];
}

export function createLogger(options: LoggerOptions): Logger {
  const hide = censorText(options.secrets ?? []);
  const base = {
    level: options.level,
    base: undefined,
    redact: { paths: redactedPaths, censor },
    // Paths catch `headers.authorization`; this catches a key quoted in a message or a stack.
    hooks: { streamWrite: hide },
  };
  const streams: pino.StreamEntry[] = [];
  if (options.destination) streams.push({ level: options.level as pino.Level, stream: options.destination });
  if (options.pretty) {
    streams.push({
      level: options.level as pino.Level,
      stream: pretty({
        destination: options.terminal ?? process.stderr,
        sync: true,
        colorize: options.colorize ?? false,
        hideObject: true,
        translateTime: 'SYS:HH:MM:ss',
      }),
    });
  }
  if (streams.length === 0) return pino({ ...base, level: 'silent' });
  return pino(base, pino.multistream(streams));
}

/** Replaces each secret (and its JSON-escaped form) in a serialized line. */
export function censorText(secrets: (string | undefined)[]): (text: string) => string {
  const needles = [
    ...new Set(
      secrets
        .filter((s): s is string => typeof s === 'string' && s.length >= 4)
        .flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]),
    ),
  ];
  return (text) => needles.reduce((out, needle) => out.split(needle).join(censor), text);
}

/** Where the log files live: `logs/` in the data folder. */
export const logDirFor = (dataDir: string) => join(dataDir, 'logs');

/**
 * A log file that starts anew each day or at 10 MB, keeping two weeks of old files, with
 * `current.log` pointing at the one in use. Written synchronously: a batch job logs little,
 * and a line must not be lost when the process is stopped.
 */
export async function openLogFile(logDir: string): Promise<DestinationStream & { end(): void }> {
  return pinoRoll({
    file: join(logDir, 'creative-sync'),
    extension: '.log',
    frequency: 'daily',
    size: '10m',
    mkdir: true,
    // A symlink needs special rights on Windows.
    symlink: process.platform !== 'win32',
    limit: { count: 14 },
    sync: true,
    // Owner-only, like the database: logs name assets, workspaces and errors. (Passed on to SonicBoom.)
    mode: 0o600,
  });
}
