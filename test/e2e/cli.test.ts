// The CLI as a user runs it: a child process in a fresh folder, against the simulator on a
// loopback port, from manifest files to the .xlsx, which is opened and checked.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceleratedClock, SimulatedClock } from '../../src/clock';
import { DEMO_API_KEY, type RunningSimulator, startSimulator } from '../../src/simulator';
import { readSheet, readWorkbook, records } from '../reports/read-back';

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, '../../bin/creative-sync.js');

function creativeSync(args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: options.cwd,
    // The tests' manifests are complete when written, and their urls made up.
    MANIFEST_SETTLE_SECONDS: '0',
    URL_PREFLIGHT: 'false',
    ...options.env,
  };
  return run(process.execPath, [cli, ...args], { cwd: options.cwd, env, timeout: 120_000 });
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Mean channel score per channel, computed from the simulator's own record of what it scored. */
function simulatorMeans(simulator: RunningSimulator): Map<string, number> {
  const byChannel = new Map<string, number[]>();
  for (const media of simulator.media()) {
    const result = simulator.scoreResult(media.uniqueId);
    for (const [channel, summary] of Object.entries(result?.summary ?? {})) {
      byChannel.set(channel, [...(byChannel.get(channel) ?? []), summary.score]);
    }
  }
  return new Map([...byChannel].map(([c, scores]) => [c, scores.reduce((a, b) => a + b, 0) / scores.length]));
}

async function byChannelMeans(reportPath: string): Promise<Map<string, number>> {
  const sheet = readSheet(await readWorkbook(reportPath), 'By Channel');
  return new Map(
    records(sheet)
      .filter((r) => r.Channel !== '(none)' && typeof r['Mean score'] === 'number')
      .map((r) => [String(r.Channel), r['Mean score'] as number]),
  );
}

function expectSameMeans(report: Map<string, number>, truth: Map<string, number>) {
  expect([...report.keys()].sort()).toEqual([...truth.keys()].sort());
  for (const [channel, mean] of truth) expect(report.get(channel)).toBeCloseTo(mean, 9);
}

describe('creative-sync --help', () => {
  it('lists the commands of the contract', async () => {
    const { stdout } = await creativeSync(['--help'], { cwd: tmpdir() });
    for (const command of ['run', 'schedule', 'report', 'status', 'doctor', 'simulator']) {
      expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });
});

describe('demo mode (no SCORING_API_URL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'creative-sync-demo-'));
  const env = { DATABASE_PATH: join(dir, 'data', 'creative-sync.db'), REPORT_DIR: join(dir, 'reports') };
  const reportPath = join(dir, 'reports', 'demo', `creative-report-${today()}.xlsx`);

  it('runs the sample manifests against the built-in simulator and writes a demo report', async () => {
    const { stdout } = await creativeSync(['run'], { cwd: dir, env });
    expect(stdout).toMatch(/run #1 completed \(DEMO: simulated data\)/);
    expect(stdout).toMatch(/32 rows accepted/);
    expect(stdout).toMatch(/rejected rows +1 \(of 33 read/);
    expect(stdout).toMatch(/summer-launch\.json line 13: url is missing/);
    expect(existsSync(reportPath)).toBe(true);
    expect(existsSync(join(dir, 'data', 'creative-sync.db'))).toBe(false);
    const sheet = readSheet(await readWorkbook(reportPath), 'By Channel');
    expect(sheet.note).toMatch(/^SIMULATED DATA/);

    // The figures equal what the simulator scored: open its persisted state after the run.
    const simulator = await startSimulator({
      clock: new SimulatedClock(Date.now() + 7 * 24 * 3_600_000),
      statePath: join(dir, 'data', 'demo-simulator.json'),
    });
    try {
      expect(simulator.media()).toHaveLength(32);
      expectSameMeans(await byChannelMeans(reportPath), simulatorMeans(simulator));
    } finally {
      await simulator.close();
    }
  });

  it('submits nothing new the second time and rewrites the report with the same figures', async () => {
    const before = await byChannelMeans(reportPath);
    const { stdout } = await creativeSync(['run'], { cwd: dir, env });
    expect(stdout).toMatch(/^ +submitted +0$/m);
    expectSameMeans(await byChannelMeans(reportPath), before);
    const simulator = await startSimulator({
      clock: new SimulatedClock(),
      statePath: join(dir, 'data', 'demo-simulator.json'),
    });
    try {
      expect(simulator.stats().mediaCreated).toBe(32);
    } finally {
      await simulator.close();
    }
  });
});

describe('against a service at SCORING_API_URL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'creative-sync-live-'));
  let simulator: RunningSimulator;
  let env: Record<string, string>;

  beforeAll(async () => {
    // An hour of service time passes in a second, so a real-clock CLI polling every second finishes fast.
    simulator = await startSimulator({ clock: acceleratedClock(3600), dialect: 'live' });
    env = {
      SCORING_API_URL: simulator.url,
      SCORING_API_KEY: DEMO_API_KEY,
      POLL_INTERVAL_SECONDS: '1',
      API_REQUESTS_PER_SECOND: '100',
      LOG_LEVEL: 'warn',
    };
    mkdirSync(join(dir, 'manifests'));
    writeFileSync(
      join(dir, 'manifests', 'autumn.csv'),
      [
        'Media ID;URL;Workspace;Channels;Brand;Market',
        'AU-1;https://cdn.example.com/au1.mp4;1201;facebook|tiktok;Acme;US',
        'AU-2;https://cdn.example.com/au2.jpg;;META;Acme;UK',
        ';https://cdn.example.com/au3.mp4;;META;Acme;UK',
        'AU-4;;;META;Acme;UK',
        'AU-5;https://cdn.example.com/au5.mov;1202;;Bravo;DE',
      ].join('\r\n'),
    );
  });
  afterAll(() => simulator.close());

  it('submits, polls, scores and reports; the By Channel sheet equals what the service scored', async () => {
    const { stdout } = await creativeSync(['run'], { cwd: dir, env });
    expect(stdout).toMatch(/run #1 completed$/m);
    expect(stdout).toMatch(/3 rows accepted/);
    expect(stdout).toMatch(/rejected rows +2 \(of 5 read/);
    expect(simulator.stats().mediaCreated).toBe(3);
    expectSameMeans(
      await byChannelMeans(join(dir, 'reports', `creative-report-${today()}.xlsx`)),
      simulatorMeans(simulator),
    );

    const db = new Database(join(dir, 'data', 'creative-sync.db'), { readonly: true });
    try {
      const errors = db.prepare('SELECT line, field FROM manifest_errors ORDER BY line').all();
      expect(errors).toEqual([
        { line: 4, field: 'id' },
        { line: 5, field: 'url' },
      ]);
      expect(db.prepare("SELECT COUNT(*) AS n FROM assets WHERE sync_state = 'scored'").get()).toEqual({
        n: 3,
      });
    } finally {
      db.close();
    }
  });

  it('creates no media at the service on a second run', async () => {
    const { stdout } = await creativeSync(['run'], { cwd: dir, env });
    expect(stdout).toMatch(/^ +submitted +0$/m);
    expect(simulator.stats().mediaCreated).toBe(3);
    expect(simulator.stats().duplicateSubmits).toBe(0);
  });

  it('exits non-zero with one clear sentence when the key is refused', async () => {
    const failure = await creativeSync(['run'], {
      cwd: dir,
      env: { ...env, SCORING_API_KEY: 'marker-key-7f3a91' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(/^creative-sync: The API key is not valid/m);
    expect((failure as { stderr: string }).stderr).not.toContain('marker-key-7f3a91');
  });
});
