// One run at a time across processes: a lock file beside the database names its owner
// (pid, host, start time). A lock whose owner process is gone is taken over, with a warning.
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';

const lockOwnerSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.number(),
  command: z.string(),
});
export type LockOwner = z.infer<typeof lockOwnerSchema>;

/** The lock of a database: `creative-sync.db` → `creative-sync.db.lock`. */
export const lockPathFor = (databasePath: string) => `${databasePath}.lock`;

export function currentOwner(command: string, now: number = Date.now()): LockOwner {
  return { pid: process.pid, host: hostname(), startedAt: now, command };
}

/** Whether the process `pid` exists on this machine. EPERM means it exists but is another user's. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a lock may be taken over. Only a lock of this host can be judged: a pid on another
 * machine (a shared drive) says nothing here, so such a lock is left to a person.
 * `null` is a lock file that is not ours to read (garbage): never a live lock, since ours are
 * written whole before they appear.
 */
export function isStale(holder: LockOwner | null, host: string, isAlive: (pid: number) => boolean): boolean {
  if (holder === null) return true;
  return holder.host === host && !isAlive(holder.pid);
}

export interface HeldLock {
  path: string;
  owner: LockOwner;
  /** Removes the lock file if it is still ours. Synchronous, so it can run in an exit handler. */
  release(): void;
}

export type AcquireResult =
  | { ok: true; lock: HeldLock; tookOverFrom: LockOwner | null }
  | { ok: false; holder: LockOwner | null };

export interface AcquireOptions {
  isAlive?: (pid: number) => boolean;
  /** Told when a stale lock is taken over. */
  onTakeOver?: (stale: LockOwner | null) => void;
}

export function tryAcquire(path: string, owner: LockOwner, options: AcquireOptions = {}): AcquireResult {
  const isAlive = options.isAlive ?? processIsAlive;
  if (create(path, owner)) return { ok: true, lock: held(path, owner), tookOverFrom: null };
  const holder = readHolder(path);
  if (holder === 'gone') return tryAcquire(path, owner, options);
  if (!isStale(holder, owner.host, isAlive)) return { ok: false, holder };
  // Move the stale file aside rather than deleting it: a rename is atomic, and afterwards we can
  // check that what we moved is the stale lock we judged, not one another process just wrote.
  const aside = `${path}.stale-${owner.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return tryAcquire(path, owner, options);
  }
  const moved = readHolder(aside);
  if (JSON.stringify(moved) !== JSON.stringify(holder)) {
    // Someone else took it over between our read and our rename: give it back.
    try {
      linkSync(aside, path);
    } catch {}
    unlinkQuietly(aside);
    const now = readHolder(path);
    return { ok: false, holder: now === 'gone' ? null : now };
  }
  unlinkQuietly(aside);
  options.onTakeOver?.(holder);
  if (create(path, owner)) return { ok: true, lock: held(path, owner), tookOverFrom: holder };
  const winner = readHolder(path);
  return { ok: false, holder: winner === 'gone' ? null : winner };
}

export interface WaitOptions extends AcquireOptions {
  signal?: AbortSignal;
  /** Real milliseconds between two tries. */
  intervalMs?: number;
  /** Told once, when the first try finds the lock held. */
  onBusy?: (holder: LockOwner | null) => void;
}

/** Tries until the lock is ours; rejects with the signal's reason if aborted while waiting. */
export async function acquireWaiting(
  path: string,
  owner: LockOwner,
  options: WaitOptions = {},
): Promise<{ lock: HeldLock; tookOverFrom: LockOwner | null }> {
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    const result = tryAcquire(path, owner, options);
    if (result.ok) return result;
    if (attempt === 0) options.onBusy?.(result.holder);
    await delay(options.intervalMs ?? 1000, undefined, { signal: options.signal }).catch((error) => {
      throw options.signal?.aborted ? options.signal.reason : error;
    });
  }
}

/** Writes the whole lock to a private file, then links it into place: `link` fails if the lock exists. */
function create(path: string, owner: LockOwner): boolean {
  const temporary = `${path}.${owner.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(owner)}\n`);
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(temporary);
  }
}

/** The lock's owner; `null` for a file that is not a lock of ours; `gone` if it vanished meanwhile. */
export function readHolder(path: string): LockOwner | null | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const parsed = lockOwnerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function held(path: string, owner: LockOwner): HeldLock {
  let released = false;
  return {
    path,
    owner,
    release() {
      if (released) return;
      released = true;
      const holder = readHolder(path);
      if (holder !== 'gone' && holder?.pid === owner.pid && holder.startedAt === owner.startedAt) {
        unlinkQuietly(path);
      }
    },
  };
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/** "pid 4242 on build-01, started 02:00:03": for messages. */
export function describeOwner(owner: LockOwner | null): string {
  if (owner === null) return 'an unreadable lock';
  return `pid ${owner.pid} on ${owner.host}, \`${owner.command}\` started ${new Date(owner.startedAt).toLocaleString()}`;
}
