// Logging: structured pino lines, readable on a terminal; the API key and Authorization
// headers are redacted by path wherever they might appear.
import { type DestinationStream, type Logger, pino } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

export const redactedPaths = [
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
];

export interface LoggerOptions {
  level: string;
  /** Human-readable lines (a terminal) instead of JSON. */
  pretty?: boolean;
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const base = {
    level: options.level,
    base: undefined,
    redact: { paths: redactedPaths, censor: '[redacted]' },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) {
    return pino(
      base,
      pretty({ destination: 2, sync: true, hideObject: true, translateTime: 'SYS:HH:MM:ss' }),
    );
  }
  return pino(base, pino.destination({ dest: 2, sync: true }));
}
