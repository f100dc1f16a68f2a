// `creative-sync run`: one full run under the lock, then a short summary on stdout.
import { systemClock } from '../clock';
import type { Run } from '../db/schema';
import { dryRun } from '../sync/dry-run';
import type { ManifestProblem } from '../sync/run';
import { exitCodes } from './handle-error';
import { lockedRun } from './locked-run';
import type { Flags } from './program';
import { type RunSetup, runSetup } from './setup';
import { stopOnSignals } from './stop-signals';

export async function runCommand(
  flags: Flags,
  options: { wait?: boolean; dryRun?: boolean } = {},
): Promise<void> {
  const session = await runSetup(flags);
  const { config, log, db } = session;
  if (options.dryRun) {
    try {
      await dryRunCommand(session);
    } finally {
      db.$client.close();
    }
    return;
  }
  if (config.mode === 'demo') {
    log.info(
      'demo mode: SCORING_API_URL is not set, so this run uses the built-in simulator and simulated data',
    );
  }
  const stop = stopOnSignals(log);
  const realStart = Date.now();
  try {
    const result = await lockedRun(session, {
      command: 'run',
      wait: Boolean(options.wait),
      signal: stop.signal,
    });
    const { run } = result;
    const n = (key: string) => Number(run.details?.[key] ?? 0);
    const seconds = ((Date.now() - realStart) / 1000).toFixed(1);
    const table: [string, string][] = [
      ['organization', result.organization ?? 'unknown'],
      ['manifests', manifestFiles(run)],
      ['new assets', String(n('assetsNew'))],
      ['submitted', String(run.submitted)],
      ['completed', `${n('completed')} (after ${run.polled} status polls)`],
      ['scored', String(run.scored)],
      ['tagged', taggedCell(run)],
      ['did not score', String(run.finalFailures)],
      [
        'still in flight',
        `${run.stillInFlight}${run.stillInFlight > 0 ? ' (the next run picks them up)' : ''}`,
      ],
      [
        'rejected rows',
        `${run.rowsRejected} (of ${run.rowsAccepted + run.rowsRejected} read; ${n('rowWarnings')} warnings)`,
      ],
      ['API calls', String(run.apiCalls)],
      ['duration', `${seconds} s`],
    ];
    if (result.reportPath) table.push(['report', result.reportPath]);
    const width = Math.max(...table.map(([label]) => label.length));
    const lines = [
      `creative-sync run #${run.id} ${run.outcome}${config.mode === 'demo' ? ' (DEMO: simulated data)' : ''}`,
      ...table.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    ];
    if (run.note) lines.push(`  note: ${run.note}`);
    lines.push(...problemLines(result.rejectedRows));
    if (result.reportNote) lines.push(`  note: ${result.reportNote}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (run.outcome === 'interrupted') process.exitCode = exitCodes.interrupted;
  } finally {
    stop.dispose();
    db.$client.close();
  }
}

/** The manifest errors, then the warnings, at most 20 of each. */
function problemLines(problems: ManifestProblem[]): string[] {
  const lines: string[] = [];
  for (const severity of ['error', 'warning'] as const) {
    const rows = problems.filter((r) => r.severity === severity);
    if (rows.length === 0) continue;
    lines.push(
      severity === 'error' ? '  rejected manifest rows:' : '  manifest warnings (the rows went in):',
    );
    for (const row of rows.slice(0, 20)) {
      lines.push(`    ${row.path}${row.line === null ? '' : ` line ${row.line}`}: ${row.message}`);
    }
    if (rows.length > 20) lines.push(`    … and ${rows.length - 20} more (all on the report's Issues sheet)`);
  }
  return lines;
}

/** `run --dry-run`: what a run would read, submit, hold back and reject; nothing written, nothing sent. */
async function dryRunCommand(session: RunSetup): Promise<void> {
  const { config, log, db } = session;
  const result = await dryRun(db, { config, clock: systemClock, log });
  const { intake } = result;
  const files = [`${intake.filesRead} to read`];
  if (intake.filesUnchanged) files.push(`${intake.filesUnchanged} unchanged`);
  if (intake.filesUnreadable.length) files.push(`${intake.filesUnreadable.length} unreadable`);
  if (intake.filesSkipped.length) files.push(`${intake.filesSkipped.length} skipped (not a manifest type)`);
  const table: [string, string][] = [
    ['manifests', files.join(', ')],
    [
      'rows',
      `${intake.rowsAccepted} accepted, ${intake.rowsRejected} rejected, ${intake.rowWarnings} warnings`,
    ],
    ['new assets', String(intake.assetsNew)],
    ['would submit', String(result.wouldSubmit)],
    ['held back', `${result.heldBack}${result.heldBack ? ' (workspace not your organization’s)' : ''}`],
    [
      'changed after submission',
      `${intake.changedAfterSubmission}${intake.changedAfterSubmission ? ' (kept as they were: give them a new version)' : ''}`,
    ],
  ];
  const width = Math.max(...table.map(([label]) => label.length));
  const lines = [
    'creative-sync run --dry-run: nothing was written or moved, and the service was not called',
    ...table.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    ...problemLines(result.problems),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Tagging's part of the summary: creatives tagged, rows, failures, unconfirmed submissions. */
function taggedCell(run: Run): string {
  const n = (key: string) => Number(run.details?.[key] ?? 0);
  if (n('tagJobsSubmitted') + n('tagJobsPolled') + n('tagRows') === 0) return '0';
  const failed = n('creativesTagFailed') ? `, ${n('creativesTagFailed')} could not be tagged` : '';
  const unsure = n('tagJobsAmbiguous')
    ? `, ${n('tagJobsAmbiguous')} job submissions unconfirmed (retried next run)`
    : '';
  return `${n('creativesTagged')} creatives (${n('tagRows')} tag rows, ${n('tagJobsSubmitted')} jobs sent)${failed}${unsure}`;
}

/** Files read, unchanged, unreadable, skipped. */
function manifestFiles(run: Run): string {
  const n = (key: string) => Number(run.details?.[key] ?? 0);
  const files = [`${run.filesRead} read`];
  if (n('filesUnchanged')) files.push(`${n('filesUnchanged')} unchanged`);
  if (n('filesUnreadable')) files.push(`${n('filesUnreadable')} unreadable`);
  if (n('filesSkipped')) files.push(`${n('filesSkipped')} skipped (not a manifest type)`);
  return `${files.join(', ')}; ${run.rowsAccepted} rows accepted`;
}
