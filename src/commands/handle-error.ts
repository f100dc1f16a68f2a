// Expected failures (bad settings, a refused key, an unusable database) print one clear
// sentence; anything else is a bug and prints its stack.
import { ConfigError } from '../config';
import { FatalRunError } from '../sync/failures';

export class UserError extends Error {
  override readonly name = 'UserError';
}

export const exitCodes = { ok: 0, fatal: 1, usage: 2 } as const;

export function handleError(error: unknown): void {
  if (error instanceof ConfigError || error instanceof FatalRunError || error instanceof UserError) {
    process.stderr.write(`creative-sync: ${error.message}\n`);
  } else {
    process.stderr.write(`creative-sync: unexpected error — please report it with this output.\n`);
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exitCode = exitCodes.fatal;
}
