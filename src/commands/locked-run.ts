// One run under the lock, as `run` and each firing of `schedule` do it: take the lock (or say
// who has it), connect, run with progress on screen, and always give the lock back.
import { connect } from '../connect';
import {
  acquireWaiting,
  currentOwner,
  describeOwner,
  type HeldLock,
  type LockOwner,
  lockPathFor,
  tryAcquire,
} from '../lock';
import { createProgress } from '../progress';
import { type RunResult, runOnce } from '../sync/run';
import { exitCodes, UserError } from './handle-error';
import type { RunSetup } from './setup';

export interface LockedRunOptions {
  command: string;
  /** Wait for another run to finish instead of giving up at once. */
  wait: boolean;
  signal: AbortSignal;
}

export function busyMessage(holder: LockOwner | null, lockPath: string): string {
  return (
    `Another creative-sync run is in progress (${describeOwner(holder)}), so this one does not start. ` +
    `The work is picked up by the running one or the next. To wait for it instead, use \`npx creative-sync run --wait\`; ` +
    `if no run is going, delete ${lockPath}.`
  );
}

/** Takes the lock of the database, or throws a UserError with the busy exit code. */
export async function takeLock(session: RunSetup, options: LockedRunOptions): Promise<HeldLock> {
  const path = lockPathFor(session.config.databasePath);
  const owner = currentOwner(options.command);
  const onTakeOver = (stale: LockOwner | null) =>
    session.log.warn(
      { lock: path, stale },
      `The lock ${path} was left by ${describeOwner(stale)}, which is no longer running; taking it over.`,
    );
  if (!options.wait) {
    const result = tryAcquire(path, owner, { onTakeOver });
    if (!result.ok) throw new UserError(busyMessage(result.holder, path), exitCodes.busy);
    return result.lock;
  }
  try {
    const { lock } = await acquireWaiting(path, owner, {
      signal: options.signal,
      onTakeOver,
      onBusy: (holder) =>
        session.log.info(`Another run is in progress (${describeOwner(holder)}); waiting for it to finish.`),
    });
    return lock;
  } catch (error) {
    if (!options.signal.aborted) throw error;
    throw new UserError(
      'Stopped while waiting for the other run; this one did nothing.',
      exitCodes.interrupted,
    );
  }
}

/** Runs once with the lock held; the lock is released however the run ends. */
export async function lockedRun(session: RunSetup, options: LockedRunOptions): Promise<RunResult> {
  const lock = await takeLock(session, options);
  // Also on a hard exit (a second signal): a lock left behind would only cost a warning, but why leave it.
  const release = () => lock.release();
  process.once('exit', release);
  const { config, log, db, terminal } = session;
  const progress = createProgress({
    tty: Boolean(process.stderr.isTTY),
    terminal,
    write: (line) => log.info(line),
  });
  try {
    const connection = await connect(config);
    try {
      return await runOnce(db, {
        config,
        api: connection.api,
        clock: connection.clock,
        log,
        signal: options.signal,
        progress,
      });
    } finally {
      await connection.close();
    }
  } finally {
    progress.stop();
    lock.release();
    process.off('exit', release);
  }
}
