// Time is injected everywhere it matters, so polling, backoff and the simulator can be
// tested (and demoed) without waiting for real minutes to pass.
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason if aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, { signal }),
};

/**
 * A clock that only moves when told to, or when someone sleeps on it: sleeping jumps
 * straight to the wake-up time. Shared by the run and the in-process simulator, it turns
 * an hour of polling into milliseconds.
 */
export class SimulatedClock implements Clock {
  #now: number;

  constructor(start: number = Date.now()) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += Math.max(0, ms);
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.advance(ms);
    // Yield to the event loop so a sleeping loop never starves I/O.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Real time running `speed` times faster from `start`: lets a separate simulator process age jobs quickly. */
export function acceleratedClock(speed: number, start: number = Date.now()): Clock {
  const realStart = Date.now();
  return {
    now: () => start + (Date.now() - realStart) * speed,
    sleep: (ms, signal) => delay(Math.max(0, ms / speed), undefined, { signal }),
  };
}
