// `status --json`, `doctor` and `schedule` as a user runs them, checked field by field.
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceleratedClock } from '../../src/clock';
import { DEMO_API_KEY, type RunningSimulator, startSimulator } from '../../src/simulator';
import { creativeSync, startCreativeSync, workingFolder } from './cli-helpers';

let simulator: RunningSimulator;
let env: Record<string, string>;
beforeAll(async () => {
  simulator = await startSimulator({ clock: acceleratedClock(600), processingMinutes: [20, 30] });
  env = {
    SCORING_API_URL: simulator.url,
    SCORING_API_KEY: DEMO_API_KEY,
    POLL_INTERVAL_SECONDS: '1',
    API_REQUESTS_PER_SECOND: '100',
    SYNC_TIMEZONE: 'Europe/Berlin',
  };
});
afterAll(() => simulator.close());

describe('creative-sync status --json', () => {
  it('tells a script where everything stands after an interrupted run', async () => {
    const dir = workingFolder('status', 4);
    const started = startCreativeSync(['run'], dir, env);
    await started.seen(/round 1: 4 submitted/);
    started.child.kill('SIGTERM');
    expect((await started.exited).code).toBe(130);

    const { code, stdout } = await creativeSync(['status', '--json'], dir, env);
    expect(code).toBe(0);
    const status = JSON.parse(stdout);
    expect(Object.keys(status).sort()).toEqual(
      [
        'mode',
        'database',
        'runInProgress',
        'assets',
        'oldestInFlight',
        'dueNow',
        'nextDueAt',
        'taggingJobsInFlight',
        'lastCompletedRunAt',
        'lastRuns',
        'lastErrors',
      ].sort(),
    );
    expect(status.mode).toBe('live');
    expect(status.database).toBe('./data/creative-sync.db');
    expect(status.runInProgress).toBeNull();
    expect(status.assets.bySyncState).toEqual({ submitted: 4 });
    // Submissions run concurrently, so which of the four went first is read from the database.
    const database = new Database(join(dir, 'data', 'creative-sync.db'), { readonly: true });
    const first = database
      .prepare('SELECT client_id AS clientId FROM assets ORDER BY submitted_at, id LIMIT 1')
      .get() as { clientId: string };
    database.close();
    expect(status.oldestInFlight).toMatchObject({
      clientId: first.clientId,
      version: 'v1',
      source: '',
      syncState: 'submitted',
    });
    expect(status.oldestInFlight.ageMinutes).toEqual(expect.any(Number));
    expect(status.dueNow).toEqual(expect.any(Number));
    expect(status.nextDueAt).toEqual(expect.any(Number));
    expect(status.taggingJobsInFlight).toMatchObject({
      jobs: expect.any(Number),
      creatives: expect.any(Number),
    });
    expect(status.lastCompletedRunAt).toBeNull();
    expect(status.lastRuns).toHaveLength(1);
    expect(status.lastRuns[0]).toMatchObject({
      id: 1,
      mode: 'live',
      outcome: 'interrupted',
      submitted: 4,
      stillInFlight: 4,
      scored: 0,
      rowsAccepted: 4,
      note: 'Interrupted; the next run carries on where this one stopped.',
      reportPath: null,
    });
    expect(status.lastRuns[0].apiCalls).toBeGreaterThanOrEqual(4);
    expect(status.lastRuns[0].durationSeconds).toEqual(expect.any(Number));
    expect(status.lastErrors).toEqual([]);

    const text = await creativeSync(['status'], dir, env);
    expect(text.stdout).toMatch(/^ {2}assets: 4 submitted$/m);
    expect(text.stdout).toMatch(/^ {4}#1 .* interrupted in \d+s: 4 submitted, \d+ polls, 0 scored/m);
  });
});

describe('creative-sync doctor', () => {
  it('passes every check against a working service, naming the organization and its workspaces', async () => {
    const dir = workingFolder('doctor', 1);
    const { code, stdout } = await creativeSync(['doctor', '--json'], dir, env);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      ok: boolean;
      checks: { name: string; ok: boolean; detail: string }[];
    };
    expect(report.ok).toBe(true);
    const detail = Object.fromEntries(report.checks.map((c) => [c.name, c.detail]));
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['settings', true],
      ['manifest folder', true],
      ['report folder', true],
      ['data folder', true],
      ['database', true],
      ['schedule', true],
      ['lock', true],
      ['API key', true],
      ['workspaces', true],
    ]);
    expect(detail.settings).toBe(`live mode against ${simulator.url}`);
    expect(detail.database).toBe(
      './data/creative-sync.db opens; migrations current (4 of 4, 4 applied just now)',
    );
    expect(detail.schedule).toMatch(
      /^'0 2 \* \* \*'; next runs: \w{3}, \d+ \w{3} \d{4}, 02:00 \(Europe\/Berlin\); .*02:00 .*; .*02:00 \(Europe\/Berlin\)$/,
    );
    expect(detail.lock).toBe('no run in progress');
    expect(detail['API key']).toMatch(
      /^accepted by http:\/\/127\.0\.0\.1:\d+ for organization Northwind Brands \(/,
    );
    expect(detail.workspaces).toMatch(/^\d+ visible: 1201 /);

    const again = await creativeSync(['doctor'], dir, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^ok {4}database: \.\/data\/creative-sync\.db opens; migrations current \(4 of 4\)$/m,
    );
    expect(again.stdout).toMatch(/^All checks passed\.$/m);
  });

  it('fails, exiting 1, on a refused key and on a schedule that does not parse, saying what to do', async () => {
    const dir = workingFolder('doctor-bad', 1);
    const { code, stdout } = await creativeSync(['doctor'], dir, {
      ...env,
      SCORING_API_KEY: 'not-the-key-1234',
      SYNC_SCHEDULE: '61 2 * * *',
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAIL {2}schedule: SYNC_SCHEDULE: '61 2 \* \* \*' is not a cron expression .* Fix SYNC_SCHEDULE\.$/m,
    );
    expect(stdout).toMatch(/^FAIL {2}API key: .*Check SCORING_API_URL and SCORING_API_KEY in \.env\.$/m);
    expect(stdout).toMatch(/^ok {4}database: /m);
    expect(stdout).toMatch(/^Some checks failed/m);
    expect(stdout).not.toContain('not-the-key-1234');
  });

  it('says whose run holds the lock', async () => {
    const dir = workingFolder('doctor-lock', 1);
    await creativeSync(['status'], dir, env); // creates the data folder
    // This test's own process stands in for a run in progress: alive, on this host.
    const lock = join(dir, 'data', 'creative-sync.db.lock');
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now(), command: 'run' }),
    );
    const { code, stdout } = await creativeSync(['doctor'], dir, env);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(
        `^ok {4}lock: a run is in progress \\(pid ${process.pid} on ${hostname()}, \`run\` started`,
        'm',
      ),
    );
    const status = JSON.parse((await creativeSync(['status', '--json'], dir, env)).stdout);
    expect(status.runInProgress).toMatchObject({ pid: process.pid, host: hostname(), command: 'run' });
  });
});

describe('creative-sync schedule', () => {
  it('prints the next three run times, catches up at start when no run has completed, and stops on SIGTERM', async () => {
    const dir = workingFolder('schedule', 3);
    const started = startCreativeSync(['schedule'], dir, env);
    await started.seen(/run #1 completed/);
    started.child.kill('SIGTERM');
    const outcome = await started.exited;
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^creative-sync schedule: '0 2 \* \* \*' in Europe\/Berlin$/m);
    expect(outcome.stdout).toMatch(/^ {2}next runs: (.*02:00 \(Europe\/Berlin\)(; )?){3}$/m);
    expect(outcome.stderr).toMatch(/INFO: catch-up \(no run has completed yet\) run starting/);
    expect(outcome.stderr).toMatch(/INFO: next run: .*02:00 \(Europe\/Berlin\)/);
  });
});
