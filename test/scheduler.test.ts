import { describe, expect, it } from 'vitest';
import {
  catchUpAtStart,
  firesBetween,
  formatFireTime,
  nextFireTimes,
  scheduleProblem,
} from '../src/scheduler';

const nightly = { expression: '0 2 * * *', timezone: 'Europe/Berlin' };
const at = (iso: string) => Date.parse(iso);
const iso = (times: number[]) => times.map((t) => new Date(t).toISOString());

describe('the schedule', () => {
  it('gives the next fire times in its own time zone, from any clock', () => {
    // 02:00 in Berlin is 01:00 UTC in winter and 00:00 UTC in summer.
    expect(iso(nextFireTimes(nightly, at('2026-11-22T12:00:00Z'), 3))).toEqual([
      '2026-11-23T01:00:00.000Z',
      '2026-11-24T01:00:00.000Z',
      '2026-11-25T01:00:00.000Z',
    ]);
    expect(iso(nextFireTimes(nightly, at('2026-07-01T12:00:00Z'), 1))).toEqual(['2026-07-02T00:00:00.000Z']);
  });

  it('fires once per slot as the injected clock moves, and not at all between slots', () => {
    const start = at('2026-11-22T12:00:00Z');
    expect(firesBetween(nightly, start, start + 10 * 3_600_000)).toEqual([]);
    expect(iso(firesBetween(nightly, start, at('2026-11-25T01:00:00Z')))).toEqual([
      '2026-11-23T01:00:00.000Z',
      '2026-11-24T01:00:00.000Z',
      '2026-11-25T01:00:00.000Z',
    ]);
    const everyQuarter = { expression: '*/15 * * * *', timezone: 'UTC' };
    expect(firesBetween(everyQuarter, at('2026-11-22T12:00:00Z'), at('2026-11-22T13:00:00Z'))).toHaveLength(
      4,
    );
  });

  it('catches up at start when the machine slept through a slot', () => {
    const lastCompleted = at('2026-11-22T01:40:00Z'); // the 02:00 run of the 22nd, finished at 02:40 Berlin
    const wokeUp = at('2026-11-23T08:00:00Z'); // slept through 02:00 on the 23rd
    expect(catchUpAtStart(nightly, lastCompleted, wokeUp)).toEqual({
      due: true,
      missedSlot: at('2026-11-23T01:00:00Z'),
    });
  });

  it('does not catch up when no slot passed since the last completed run', () => {
    const lastCompleted = at('2026-11-22T01:40:00Z');
    expect(catchUpAtStart(nightly, lastCompleted, at('2026-11-22T20:00:00Z'))).toEqual({
      due: false,
      nextSlot: at('2026-11-23T01:00:00Z'),
    });
  });

  it('runs at start when no run ever completed', () => {
    expect(catchUpAtStart(nightly, null, at('2026-11-22T20:00:00Z'))).toEqual({
      due: true,
      missedSlot: null,
    });
  });

  it('explains an expression that does not parse, and accepts one that does', () => {
    expect(scheduleProblem({ expression: '61 2 * * *', timezone: 'UTC' })).toMatch(
      /^SYNC_SCHEDULE: '61 2 \* \* \*' is not a cron expression such as '0 2 \* \* \*'/,
    );
    expect(scheduleProblem(nightly)).toBeNull();
  });

  it('shows a fire time in the schedule’s zone, naming the zone', () => {
    expect(formatFireTime(at('2026-11-23T01:00:00Z'), 'Europe/Berlin')).toBe(
      'Mon, 23 Nov 2026, 02:00 (Europe/Berlin)',
    );
  });
});
