// A run's world for tests: a temp folder with manifests, a real SQLite file, the simulator
// on loopback sharing a simulated clock with the run, and a client pointed at it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach } from 'vitest';
import { SimulatedClock } from '../../src/clock';
import { type Config, loadConfig } from '../../src/config';
import { type Db, openDatabase } from '../../src/db/open';
import { workspaces } from '../../src/db/schema';
import {
  DEMO_API_KEY,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator';
import { ApiClient } from '../../src/sync/api/client';
import { discover } from '../../src/sync/discovery';
import { type RunResult, runOnce } from '../../src/sync/run';

export interface Harness {
  dir: string;
  clock: SimulatedClock;
  simulator: RunningSimulator;
  db: Db;
  config: Config;
  /** Writes a manifest into the drop folder. */
  manifest(name: string, content: string): string;
  /** One run with a fresh client (as a new process would have), optionally with another key. */
  run(options?: { apiKey?: string; signal?: AbortSignal; env?: Record<string, string> }): Promise<RunResult>;
  close(): Promise<void>;
}

export const silentLog = pino({ level: 'silent' });

export async function createHarness(
  options: { env?: Record<string, string>; simulator?: Partial<SimulatorOptions> } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'creative-sync-run-'));
  const clock = new SimulatedClock(Date.UTC(2026, 10, 22, 2, 0, 0));
  const simulator = await startSimulator({ clock, ...options.simulator });
  const env = (extra: Record<string, string> = {}) => ({
    SCORING_API_URL: simulator.url,
    SCORING_API_KEY: DEMO_API_KEY,
    MANIFEST_DIR: join(dir, 'manifests'),
    // The tests' manifests are complete when written, and their urls made up (url-preflight.test.ts checks urls).
    MANIFEST_SETTLE_SECONDS: '0',
    URL_PREFLIGHT: 'false',
    DATABASE_PATH: join(dir, 'data', 'creative-sync.db'),
    REPORT_DIR: join(dir, 'reports'),
    ...options.env,
    ...extra,
  });
  const config = loadConfig({ env: env(), cwd: dir });
  mkdirSync(config.manifestDir, { recursive: true });
  const db = openDatabase(config.databasePath);
  return {
    dir,
    clock,
    simulator,
    db,
    config,
    manifest(name, content) {
      const path = join(config.manifestDir, name);
      writeFileSync(path, content);
      return path;
    },
    run(runOptions = {}) {
      const runConfig = runOptions.env ? loadConfig({ env: env(runOptions.env), cwd: dir }) : config;
      const api = new ApiClient({
        baseUrl: simulator.url,
        apiKey: runOptions.apiKey ?? DEMO_API_KEY,
        requestsPerSecond: 1000,
        concurrency: 8,
      });
      return runOnce(db, { config: runConfig, api, clock, log: silentLog, signal: runOptions.signal });
    },
    async close() {
      db.$client.close();
      await simulator.close();
    },
  };
}

/** For a test file: `world()` makes a fresh harness, closed after the test that made it. */
export function harnessPerTest(): (options?: Parameters<typeof createHarness>[0]) => Promise<Harness> {
  const opened: Harness[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((h) => h.close()));
  });
  return async (options) => {
    const h = await createHarness(options);
    opened.push(h);
    return h;
  };
}

/**
 * Discovery as a run does it, then workspace `id` added to the organization's list: a list gone
 * stale, for tests of what the service answers (403, 400) for a workspace we believed ours.
 */
export async function withStaleWorkspace(h: Harness, id: number): Promise<void> {
  const api = new ApiClient({ baseUrl: h.simulator.url, apiKey: DEMO_API_KEY, requestsPerSecond: 1000 });
  const { organization } = await discover({ db: h.db, api, clock: h.clock });
  h.db
    .insert(workspaces)
    .values({ id, organizationId: organization.id, name: 'Gone stale', fetchedAt: h.clock.now() })
    .run();
}
