// `creative-sync status`: the state of things, for a person or (with --json) a script.
import { readStatus } from '../status';
import type { Flags } from './program';
import { setup } from './setup';

const time = (ms: number | null | undefined) => (ms ? new Date(ms).toLocaleString() : '—');

export async function statusCommand(flags: Flags, options: { json: boolean }): Promise<void> {
  const { config, db } = setup(flags);
  try {
    const status = readStatus(db, Date.now());
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ mode: config.mode, database: config.databasePath, ...status }, null, 2)}\n`,
      );
      return;
    }
    const lines = [
      `creative-sync status (${config.mode === 'demo' ? 'DEMO database' : config.databasePath})`,
    ];
    const states = Object.entries(status.assets.bySyncState);
    lines.push(`  assets: ${states.length ? states.map(([s, n]) => `${n} ${s}`).join(', ') : 'none yet'}`);
    const remote = Object.entries(status.assets.byRemoteStatus);
    if (remote.length) lines.push(`  at the service: ${remote.map(([s, n]) => `${n} ${s}`).join(', ')}`);
    if (status.oldestInFlight) {
      const o = status.oldestInFlight;
      lines.push(
        `  oldest in flight: ${o.clientId}${o.version ? ` v${o.version}` : ''}, ${o.ageMinutes ?? '?'} minutes`,
      );
    }
    lines.push(`  due now: ${status.dueNow}; next due: ${time(status.nextDueAt)}`);
    lines.push('  last runs:');
    for (const run of status.lastRuns) {
      const seconds = run.finishedAt ? Math.round((run.finishedAt - run.startedAt) / 1000) : null;
      lines.push(
        `    #${run.id} ${time(run.startedAt)} ${run.outcome}${seconds === null ? '' : ` (${seconds}s)`}: ${run.submitted} submitted, ${run.scored} scored, ${run.apiCalls} API calls${run.note ? ` — ${run.note}` : ''}`,
      );
    }
    if (status.lastRuns.length === 0) lines.push('    none yet');
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    db.$client.close();
  }
}
