// Clean shutdown: the first SIGINT/SIGTERM aborts the run, which finishes the calls and the
// transaction in hand and records itself as interrupted; a second one exits at once.
import type { Logger } from '../log';
import { exitCodes } from './handle-error';

export interface StopSignals {
  signal: AbortSignal;
  dispose(): void;
}

export function stopOnSignals(log: Logger): StopSignals {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (!controller.signal.aborted) {
      log.warn(`${name}: finishing the calls in hand, then stopping. Send it again to stop at once.`);
      controller.abort(new Error(`stopped by ${name}`));
      return;
    }
    log.warn(`${name} again: stopping at once; the next run carries on.`);
    // The one place that exits mid-work: the person asked twice. Exit handlers still run,
    // so the lock file goes; whatever the database had committed stays.
    process.exit(exitCodes.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
