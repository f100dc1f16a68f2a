// Expected failures (bad settings, a refused key, an unusable database, another run holding
// the lock) print one clear sentence; anything else is a bug and prints its stack.
import { ConfigError } from '../config';
import { FatalRunError } from '../sync/failures';

/**
 * The exit codes, as the README lists them. `busy` is EX_TEMPFAIL: another run holds the
 * lock, try again later. `interrupted` is the shell's code for a stop by signal.
 */
export const exitCodes = { ok: 0, fatal: 1, usage: 2, busy: 75, interrupted: 130 } as const;
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = exitCodes.fatal,
  ) {
    super(message);
  }
}

export function handleError(error: unknown): void {
  if (error instanceof ConfigError || error instanceof FatalRunError || error instanceof UserError) {
    process.stderr.write(`creative-sync: ${error.message}\n`);
  } else {
    process.stderr.write(`creative-sync: unexpected error — please report it with this output.\n`);
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exitCode = error instanceof UserError ? error.exitCode : exitCodes.fatal;
}
