// `creative-sync schedule`: stays in the foreground and runs on the cron schedule. node-cron
// fires; the decisions (next times, catch-up) are in ../scheduler.ts; the lock keeps a
// manual run and a scheduled one from overlapping.
import { eq, max } from 'drizzle-orm';
import cron from 'node-cron';
import type { Db } from '../db/open';
import { runs } from '../db/schema';
import { catchUpAtStart, formatFireTime, nextFireTimes, type Schedule, scheduleProblem } from '../scheduler';
import { UserError } from './handle-error';
import { lockedRun } from './locked-run';
import type { Flags } from './program';
import { runSetup } from './setup';
import { stopOnSignals } from './stop-signals';

function lastCompletedAt(db: Db): number | null {
  return (
    db
      .select({ at: max(runs.finishedAt) })
      .from(runs)
      .where(eq(runs.outcome, 'completed'))
      .get()?.at ?? null
  );
}

export async function scheduleCommand(flags: Flags): Promise<void> {
  const session = await runSetup(flags);
  const { config, log, db } = session;
  const schedule: Schedule = { expression: config.schedule, timezone: config.timezone };
  const problem = scheduleProblem(schedule);
  if (problem) {
    db.$client.close();
    throw new UserError(problem);
  }
  const next = nextFireTimes(schedule, Date.now(), 3).map((at) => formatFireTime(at, config.timezone));
  process.stdout.write(
    `creative-sync schedule: '${config.schedule}' in ${config.timezone}${config.mode === 'demo' ? ' (DEMO mode)' : ''}\n` +
      `  next runs: ${next.join('; ')}\n  stop with Ctrl-C\n`,
  );

  const stop = stopOnSignals(log);
  let inHand: Promise<void> | null = null;
  const fire = (reason: string) => {
    // node-cron's noOverlap covers its own firings; this also covers the catch-up run.
    if (inHand) {
      log.warn(`${reason} run skipped: the previous run is still going`);
      return inHand;
    }
    inHand = (async () => {
      try {
        log.info(`${reason} run starting`);
        const { run } = await lockedRun(session, { command: 'schedule', wait: false, signal: stop.signal });
        log.info(
          { runId: run.id, outcome: run.outcome, scored: run.scored, stillInFlight: run.stillInFlight },
          `run #${run.id} ${run.outcome}: ${run.submitted} submitted, ${run.scored} scored, ${run.stillInFlight} still in flight${run.note ? ` — ${run.note}` : ''}`,
        );
      } catch (error) {
        // A busy lock or a passing failure must not end the schedule: the next slot tries again.
        log.error({ err: error }, `${reason} run did not complete: ${(error as Error).message}`);
      } finally {
        inHand = null;
        const [upcoming] = nextFireTimes(schedule, Date.now(), 1);
        if (upcoming !== undefined && !stop.signal.aborted)
          log.info(`next run: ${formatFireTime(upcoming, config.timezone)}`);
      }
    })();
    return inHand;
  };

  const task = cron.schedule(config.schedule, () => fire('scheduled'), {
    timezone: config.timezone,
    noOverlap: true,
    name: 'creative-sync',
  });
  const catchUp = catchUpAtStart(schedule, lastCompletedAt(db), Date.now());
  if (catchUp.due) {
    void fire(
      catchUp.missedSlot === null
        ? 'catch-up (no run has completed yet)'
        : `catch-up (the run of ${formatFireTime(catchUp.missedSlot, config.timezone)} was missed)`,
    );
  }

  await new Promise<void>((resolve) => {
    if (stop.signal.aborted) resolve();
    else stop.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await task.stop();
  await task.destroy();
  // The run in hand saw the same signal: let it record itself as interrupted.
  if (inHand) await inHand;
  stop.dispose();
  db.$client.close();
}
