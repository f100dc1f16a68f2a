// `creative-sync status`: the state of things, for a person or (with --json) a script.
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { describeOwner, isStale, lockPathFor, processIsAlive, readHolder } from '../lock';
import { formatSeconds } from '../progress';
import { readStatus } from '../status';
import type { Flags } from './program';
import { setup } from './setup';

const time = (ms: number | null | undefined) => (ms ? new Date(ms).toLocaleString() : '—');

/** The run holding the lock now, if its process is alive. */
function runInProgress(databasePath: string) {
  const path = lockPathFor(databasePath);
  const holder = existsSync(path) ? readHolder(path) : 'gone';
  if (holder === 'gone' || holder === null || isStale(holder, hostname(), processIsAlive)) return null;
  return holder;
}

export async function statusCommand(flags: Flags, options: { json: boolean }): Promise<void> {
  const { config, db } = setup(flags);
  try {
    const now = Date.now();
    const status = readStatus(db, now);
    const running = runInProgress(config.databasePath);
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ mode: config.mode, database: config.databasePath, runInProgress: running, ...status }, null, 2)}\n`,
      );
      return;
    }
    const lines = [
      `creative-sync status (${config.mode === 'demo' ? 'DEMO database' : config.databasePath})`,
    ];
    if (running) lines.push(`  running now: ${describeOwner(running)}`);
    const states = Object.entries(status.assets.bySyncState);
    lines.push(`  assets: ${states.length ? states.map(([s, n]) => `${n} ${s}`).join(', ') : 'none yet'}`);
    const remote = Object.entries(status.assets.byRemoteStatus);
    if (remote.length) lines.push(`  at the service: ${remote.map(([s, n]) => `${n} ${s}`).join(', ')}`);
    if (status.oldestInFlight) {
      const o = status.oldestInFlight;
      const age =
        o.ageMinutes === null ? 'not yet submitted' : `in flight ${formatSeconds(o.ageMinutes * 60)}`;
      lines.push(
        `  oldest in flight: ${o.clientId}${o.version ? ` ${o.version}` : ''} (${o.syncState}), ${age}`,
      );
    }
    lines.push(`  due now: ${status.dueNow}; next due: ${time(status.nextDueAt)}`);
    const tagging = status.taggingJobsInFlight;
    lines.push(
      `  tagging jobs in flight: ${tagging.jobs}${tagging.jobs ? ` (${tagging.creatives} assets)` : ''}`,
    );
    lines.push('  last runs:');
    for (const run of status.lastRuns) {
      lines.push(
        `    #${run.id} ${time(run.startedAt)} ${run.outcome}${run.durationSeconds === null ? '' : ` in ${formatSeconds(run.durationSeconds)}`}: ${run.submitted} submitted, ${run.polled} polls, ${run.scored} scored, ${run.finalFailures} did not score, ${run.stillInFlight} left in flight, ${run.apiCalls} API calls${run.note ? ` — ${run.note}` : ''}`,
      );
    }
    if (status.lastRuns.length === 0) lines.push('    none yet');
    if (status.lastErrors.length > 0) {
      lines.push('  last errors:');
      for (const e of status.lastErrors) {
        lines.push(
          `    ${time(e.at)} ${e.clientId}${e.version ? ` ${e.version}` : ''} (${e.syncState}): ${e.message}${e.traceId ? ` [traceId ${e.traceId}]` : ''}`,
        );
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    db.$client.close();
  }
}
