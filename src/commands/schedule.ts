// `creative-sync schedule`: stays in the foreground and runs on the cron schedule; node-cron
// skips a firing while the previous run is still going, so two runs never overlap.
import cron from 'node-cron';
import { connect } from '../connect';
import { runOnce } from '../sync/run';
import { UserError } from './handle-error';
import type { Flags } from './program';
import { setup } from './setup';

export async function scheduleCommand(flags: Flags): Promise<void> {
  const { config, log, db } = setup(flags);
  if (!cron.validate(config.schedule)) {
    throw new UserError(`SYNC_SCHEDULE: '${config.schedule}' is not a cron expression such as '0 2 * * *'.`);
  }
  const task = cron.schedule(
    config.schedule,
    async () => {
      const connection = await connect(config);
      try {
        const { run } = await runOnce(db, { config, api: connection.api, clock: connection.clock, log });
        log.info({ runId: run.id, outcome: run.outcome }, `run #${run.id} ${run.outcome}`);
      } catch (error) {
        log.error({ err: error }, `scheduled run failed: ${(error as Error).message}`);
      } finally {
        await connection.close();
      }
    },
    { timezone: config.timezone, noOverlap: true, name: 'creative-sync' },
  );
  const next = task.getNextRuns(3).map((d) => d.toLocaleString('en-GB', { timeZone: config.timezone }));
  process.stdout.write(
    `scheduled '${config.schedule}' (${config.timezone}); next runs: ${next.join(', ')}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await task.stop();
  db.$client.close();
}
