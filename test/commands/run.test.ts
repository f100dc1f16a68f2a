// `run` as a child process against a simulator this test starts, whose clock runs 600× fast:
// one run at a time across processes, a stale lock taken over, a clean stop on SIGTERM, and
// no API key in any log.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { acceleratedClock } from '../../src/clock';
import { DEMO_API_KEY, defaultFixture, type RunningSimulator, startSimulator } from '../../src/simulator';
import { creativeSync, startCreativeSync, workingFolder } from './cli-helpers';

const KEY = 'marker-key-c0ffee-7e51';
const assetCount = 6;

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

/** A service whose scoring takes 20–30 simulated minutes by default (2–3 real seconds). It knows the key KEY. */
async function service(
  processingMinutes: [number, number] = [20, 30],
): Promise<{ simulator: RunningSimulator; env: Record<string, string> }> {
  const fixture = defaultFixture();
  fixture.organizations = fixture.organizations.map((o) =>
    o.apiKey === DEMO_API_KEY ? { ...o, apiKey: KEY } : o,
  );
  const simulator = await startSimulator({
    clock: acceleratedClock(600),
    fixture,
    processingMinutes,
  });
  simulators.push(simulator);
  const env = {
    SCORING_API_URL: simulator.url,
    SCORING_API_KEY: KEY,
    POLL_INTERVAL_SECONDS: '1',
    API_REQUESTS_PER_SECOND: '100',
    LOG_LEVEL: 'info',
  };
  return { simulator, env };
}

function runsOf(dir: string) {
  const db = new Database(join(dir, 'data', 'creative-sync.db'), { readonly: true });
  try {
    return db.prepare('SELECT * FROM runs ORDER BY id').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

const lockFile = (dir: string) => join(dir, 'data', 'creative-sync.db.lock');

describe('creative-sync run, one at a time', () => {
  it('two runs started together: exactly one runs; the other exits at once with the message and code 75', async () => {
    // 4–6 real seconds of scoring: the two processes start well within that of each other.
    const { simulator, env } = await service([40, 60]);
    const dir = workingFolder('two-runs', assetCount);
    const [a, b] = await Promise.all([
      startCreativeSync(['run'], dir, env).exited,
      startCreativeSync(['run'], dir, env).exited,
    ]);
    const outcomes = [a, b].sort((x, y) => x.code - y.code);
    expect(outcomes.map((o) => o.code)).toEqual([0, 75]);
    const [ran, refused] = outcomes as [(typeof outcomes)[0], (typeof outcomes)[0]];
    expect(ran.stdout).toMatch(/run #1 completed$/m);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^creative-sync: Another creative-sync run is in progress \\(pid \\d+ on ${hostname()}, \`run\` started .+\\), so this one does not start\\.`,
        'm',
      ),
    );
    expect(refused.stderr).toContain('npx creative-sync run --wait');
    expect(refused.stdout).toBe('');
    expect(runsOf(dir)).toHaveLength(1);
    expect(simulator.stats().mediaCreated).toBe(assetCount);
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('with --wait, a run waits while another process holds the lock, then runs', async () => {
    const { env } = await service();
    const dir = workingFolder('wait', assetCount);
    await creativeSync(['status'], dir, env); // creates the data folder
    // This test's own process holds the lock: alive, on this host, for as long as the test wants.
    writeFileSync(
      lockFile(dir),
      JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now(), command: 'schedule' }),
    );
    const waiting = startCreativeSync(['run', '--wait'], dir, env);
    await waiting.seen(
      /Another run is in progress \(pid \d+ on .*`schedule` started .*\); waiting for it to finish/,
    );
    expect(runsOf(dir)).toHaveLength(0);
    unlinkSync(lockFile(dir));
    const outcome = await waiting.exited;
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/run #1 completed$/m);
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('takes over a lock left by a process that is gone, with a warning', async () => {
    const { env } = await service();
    const dir = workingFolder('stale', assetCount);
    const gone = spawnSync(process.execPath, ['-e', '']).pid as number;
    await creativeSync(['status'], dir, env); // creates the data folder
    writeFileSync(
      lockFile(dir),
      JSON.stringify({ pid: gone, host: hostname(), startedAt: 1, command: 'run' }),
    );

    const outcome = await creativeSync(['run'], dir, env);

    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toMatch(
      new RegExp(
        `WARN: The lock .*creative-sync\\.db\\.lock was left by pid ${gone} on ${hostname()}, .* which is no longer running; taking it over\\.`,
      ),
    );
    expect(outcome.stdout).toMatch(/run #1 completed$/m);
    expect(existsSync(lockFile(dir))).toBe(false);
  });
});

describe('creative-sync run, stopped by SIGTERM', () => {
  it('records the run as interrupted with its counts; the next run completes the work', async () => {
    const { simulator, env } = await service();
    const dir = workingFolder('sigterm', assetCount);
    const started = startCreativeSync(['run'], dir, env);
    await started.seen(/round 1: 6 submitted/);
    started.child.kill('SIGTERM');
    const stopped = await started.exited;

    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/SIGTERM: finishing the calls in hand, then stopping/);
    expect(stopped.stdout).toMatch(/run #1 interrupted$/m);
    expect(stopped.stdout).toMatch(/still in flight +6 \(the next run picks them up\)/);
    const [interrupted] = runsOf(dir);
    expect(interrupted).toMatchObject({
      outcome: 'interrupted',
      submitted: assetCount,
      still_in_flight: assetCount,
      note: 'Interrupted; the next run carries on where this one stopped.',
    });
    expect(interrupted?.finished_at).toEqual(expect.any(Number));
    expect(interrupted?.api_calls).toEqual(expect.any(Number));
    expect(existsSync(lockFile(dir))).toBe(false);

    const next = await creativeSync(['run'], dir, env);
    expect(next.code).toBe(0);
    expect(next.stdout).toMatch(/^ +submitted +0$/m);
    expect(next.stdout).toMatch(/^ +scored +6$/m);
    expect(runsOf(dir)[1]).toMatchObject({ outcome: 'completed', still_in_flight: 0, submitted: 0 });
    expect(simulator.stats().mediaCreated).toBe(assetCount);
    expect(simulator.stats().duplicateSubmits).toBe(0);
  });
});

describe('the logs of a run', () => {
  it('are JSON lines in data/logs, readable lines on the terminal, and carry no API key', async () => {
    const { env } = await service();
    const dir = workingFolder('logs', assetCount);
    const good = await creativeSync(['run'], dir, { ...env, LOG_LEVEL: 'debug' });
    const refused = await creativeSync(['run'], dir, { ...env, SCORING_API_KEY: `${KEY}-wrong` });
    expect(good.code).toBe(0);
    expect(refused.code).toBe(1);

    const logDir = join(dir, 'data', 'logs');
    const files = readdirSync(logDir).filter((name) => name.endsWith('.log'));
    expect(files).toContain('current.log');
    const text = files.map((name) => readFileSync(join(logDir, name), 'utf8')).join('');
    const lines = text.trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ level: expect.any(Number), msg: expect.any(String) });
    expect(text).toMatch(/round 1: 6 submitted/);
    expect(good.stderr).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: round 1: 6 submitted/m);
    for (const output of [text, good.stdout, good.stderr, refused.stdout, refused.stderr]) {
      expect(output).not.toContain(KEY);
    }
  });
});
