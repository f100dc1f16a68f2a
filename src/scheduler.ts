// The schedule's decisions, as pure functions of a time: when it fires next, which slots fall
// between two times, and whether a run is owed at start because a slot was missed. The
// node-cron shell that acts on them is `commands/schedule.ts`.
import cron from 'node-cron';

export interface Schedule {
  expression: string;
  timezone: string;
}

interface Matcher {
  getNextMatch(date: Date): Date;
}

/**
 * The fire times strictly after `from`. node-cron's own `getNextRuns` always counts from the
 * real now; the matcher behind it takes any date, which is what an injected clock needs.
 */
export function nextFireTimes(schedule: Schedule, from: number, count: number): number[] {
  const task = cron.createTask(schedule.expression, () => {}, { timezone: schedule.timezone });
  try {
    const matcher = (task as unknown as { timeMatcher: Matcher }).timeMatcher;
    const times: number[] = [];
    let at = new Date(from);
    for (let i = 0; i < count; i++) {
      at = matcher.getNextMatch(at);
      times.push(at.getTime());
    }
    return times;
  } finally {
    void task.destroy();
  }
}

/** The slots in (from, to]: what a clock moving from `from` to `to` fires. */
export function firesBetween(schedule: Schedule, from: number, to: number, limit = 1000): number[] {
  const fires: number[] = [];
  let at = from;
  while (fires.length < limit) {
    const [next] = nextFireTimes(schedule, at, 1);
    if (next === undefined || next > to) break;
    fires.push(next);
    at = next;
  }
  return fires;
}

export type CatchUp = { due: true; missedSlot: number | null } | { due: false; nextSlot: number };

/**
 * A run is owed at start when a slot came and went since the last completed run, e.g. the
 * machine slept through 02:00; or when no run has ever completed. One catch-up covers any
 * number of missed slots: a run does all the work that is due.
 */
export function catchUpAtStart(schedule: Schedule, lastCompletedAt: number | null, now: number): CatchUp {
  if (lastCompletedAt === null) return { due: true, missedSlot: null };
  const [slot] = nextFireTimes(schedule, lastCompletedAt, 1);
  if (slot !== undefined && slot <= now) return { due: true, missedSlot: slot };
  return { due: false, nextSlot: slot ?? Number.POSITIVE_INFINITY };
}

/** Why an expression does not parse, in words to act on; null when it does. */
export function scheduleProblem(schedule: Schedule): string | null {
  const validation = cron.validateDetailed(schedule.expression);
  if (!validation.valid) {
    const detail = validation.errors.map((e) => e.message).join('; ');
    return `SYNC_SCHEDULE: '${schedule.expression}' is not a cron expression such as '0 2 * * *' (${detail}).`;
  }
  return null;
}

/** A fire time as the schedule's zone shows it: "Sun 23 Nov 2026, 02:00 (Europe/Berlin)". */
export function formatFireTime(at: number, timezone: string): string {
  const text = new Date(at).toLocaleString('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `${text} (${timezone})`;
}
