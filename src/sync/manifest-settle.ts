// A manifest is read only once it has stopped changing: a file still being copied into the drop
// folder would otherwise be read half-way, and its missing rows never looked for again.
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** How many settle periods a file may keep changing before this run leaves it for the next. */
const patience = 6;

/**
 * Resolves `settled` once neither the size nor the modification time of `path` has changed for
 * `settleMs` (a file already that old is settled at once); `changing` when it is still being
 * written after `patience` periods, `gone` when it was removed meanwhile. Compares the file with
 * itself, not with this machine's clock, so a share whose clock is off does not hold files back.
 */
export async function waitUntilSettled(
  path: string,
  settleMs: number,
): Promise<'settled' | 'changing' | 'gone'> {
  if (settleMs <= 0) return 'settled';
  let last = await stat(path).catch(() => undefined);
  if (!last) return 'gone';
  const age = Date.now() - last.mtimeMs;
  if (age >= settleMs) return 'settled';
  for (let period = 0; period < patience; period++) {
    await sleep(settleMs);
    const now = await stat(path).catch(() => undefined);
    if (!now) return 'gone';
    if (now.size === last.size && now.mtimeMs === last.mtimeMs) return 'settled';
    last = now;
  }
  return 'changing';
}
