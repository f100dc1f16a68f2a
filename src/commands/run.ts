// `creative-sync run`: one full run, then a short summary on stdout.
import { connect } from '../connect';
import { runOnce } from '../sync/run';
import type { Flags } from './program';
import { setup } from './setup';

export async function runCommand(flags: Flags): Promise<void> {
  const { config, log, db } = setup(flags);
  if (config.mode === 'demo') {
    log.info(
      'demo mode: SCORING_API_URL is not set, so this run uses the built-in simulator and simulated data',
    );
  }
  const connection = await connect(config);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const realStart = Date.now();
  try {
    const result = await runOnce(db, {
      config,
      api: connection.api,
      clock: connection.clock,
      log,
      signal: controller.signal,
    });
    const { run } = result;
    const lines = [
      `creative-sync run #${run.id} ${run.outcome}${config.mode === 'demo' ? ' (DEMO: simulated data)' : ''} in ${((Date.now() - realStart) / 1000).toFixed(1)}s`,
      `  organization: ${result.organization ?? 'unknown'}`,
      `  manifests: ${run.filesRead} read; rows ${run.rowsAccepted} accepted, ${run.rowsRejected} rejected`,
      `  this run: ${run.submitted} submitted, ${run.polled} status polls, ${run.scored} scored, ${run.finalFailures} did not score`,
      `  still in flight: ${run.stillInFlight}${run.stillInFlight > 0 ? ' (the next run picks them up)' : ''}`,
      `  API calls: ${run.apiCalls}`,
    ];
    if (run.note) lines.push(`  note: ${run.note}`);
    if (result.rejectedRows.length > 0) {
      lines.push('  rejected manifest rows:');
      for (const row of result.rejectedRows.slice(0, 20)) {
        lines.push(`    ${row.path}${row.line === null ? '' : ` line ${row.line}`}: ${row.message}`);
      }
      if (result.rejectedRows.length > 20) lines.push(`    … and ${result.rejectedRows.length - 20} more`);
    }
    if (result.reportPath) lines.push(`  report: ${result.reportPath}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await connection.close();
    db.$client.close();
  }
}
