import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireWaiting, currentOwner, isStale, type LockOwner, readHolder, tryAcquire } from '../src/lock';

const lockIn = () => join(mkdtempSync(join(tmpdir(), 'creative-sync-lock-')), 'creative-sync.db.lock');
const owner = (pid: number, host = hostname()): LockOwner => ({
  pid,
  host,
  startedAt: 1_000,
  command: 'run',
});

/** The pid of a process that has exited: it was real a moment ago and is gone now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

describe('the run lock', () => {
  it('is taken by the first and refused to the second, naming who holds it', () => {
    const path = lockIn();
    const first = tryAcquire(path, currentOwner('run', 5));
    expect(first.ok).toBe(true);
    const second = tryAcquire(path, { ...currentOwner('schedule', 6) });
    expect(second).toEqual({
      ok: false,
      holder: { pid: process.pid, host: hostname(), startedAt: 5, command: 'run' },
    });
  });

  it('is free again once released, and release leaves another owner’s lock alone', () => {
    const path = lockIn();
    const first = tryAcquire(path, currentOwner('run', 5));
    if (!first.ok) throw new Error('expected the lock');
    first.lock.release();
    expect(existsSync(path)).toBe(false);
    const second = tryAcquire(path, currentOwner('run', 6));
    expect(second.ok).toBe(true);
    first.lock.release();
    expect(readHolder(path)).toMatchObject({ startedAt: 6 });
  });

  it('takes over a lock whose owner process is gone, and says so', () => {
    const path = lockIn();
    const dead = owner(deadPid());
    writeFileSync(path, JSON.stringify(dead));
    const warned: (LockOwner | null)[] = [];
    const result = tryAcquire(path, currentOwner('run', 7), { onTakeOver: (stale) => warned.push(stale) });
    expect(result).toMatchObject({ ok: true, tookOverFrom: dead });
    expect(warned).toEqual([dead]);
    expect(readHolder(path)).toMatchObject({ pid: process.pid, startedAt: 7 });
    // Nothing left lying about beside the lock.
    expect(readdirSync(join(path, '..'))).toEqual(['creative-sync.db.lock']);
  });

  it('takes over an unreadable lock file, which no run of ours writes', () => {
    const path = lockIn();
    writeFileSync(path, '');
    expect(tryAcquire(path, currentOwner('run', 8))).toMatchObject({ ok: true, tookOverFrom: null });
  });

  it('never takes over a lock of another host, where the pid says nothing', () => {
    expect(isStale(owner(123, 'elsewhere'), 'here', () => false)).toBe(false);
    expect(isStale(owner(123, 'here'), 'here', () => false)).toBe(true);
    expect(isStale(owner(123, 'here'), 'here', () => true)).toBe(false);
  });

  it('waits for the holder to let go', async () => {
    const path = lockIn();
    const first = tryAcquire(path, currentOwner('run', 5));
    if (!first.ok) throw new Error('expected the lock');
    let busyTold = 0;
    const waiting = acquireWaiting(path, currentOwner('run', 9), { intervalMs: 5, onBusy: () => busyTold++ });
    setTimeout(() => first.lock.release(), 20);
    const { lock } = await waiting;
    expect(lock.owner.startedAt).toBe(9);
    expect(busyTold).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const path = lockIn();
    tryAcquire(path, currentOwner('run', 5));
    const controller = new AbortController();
    const waiting = acquireWaiting(path, currentOwner('run', 9), {
      intervalMs: 5,
      signal: controller.signal,
    });
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});
