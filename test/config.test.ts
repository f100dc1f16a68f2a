import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  environmentNames,
  examplesDir,
  type LoadConfigOptions,
  loadConfig,
} from '../src/config';

const KEY = 'sk-live-5e1d2c';
const URL = 'https://scoring.example.com';
const machineTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh working folder, with a `.env` file when given its text. */
function workingFolder(dotEnv?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'creative-sync-config-'));
  folders.push(dir);
  if (dotEnv !== undefined) writeFileSync(join(dir, '.env'), dotEnv);
  return dir;
}

/** The ConfigError loading fails with (fails the test if loading succeeds). */
function configError(options: LoadConfigOptions): ConfigError {
  try {
    loadConfig(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig', () => {
  it('runs in demo mode with the defaults when nothing is set', () => {
    const config = loadConfig({ env: {}, cwd: workingFolder() });
    // Every setting has a value (later issues add settings; the README test pins the full list).
    expect(config.apiUrl).toBeUndefined();
    expect(config.apiKey).toBeUndefined();
    const unset = ['apiUrl', 'apiKey'];
    for (const key of Object.keys(environmentNames).filter((k) => !unset.includes(k))) {
      expect(config[key as keyof typeof config], key).toBeDefined();
    }
    expect(config).toMatchObject({
      mode: 'demo',
      manifestDir: examplesDir,
      databasePath: join('data', 'demo.db'),
      reportDir: join('reports', 'demo'),
      simulatorStatePath: join('data', 'demo-simulator.json'),
      pollIntervalSeconds: 600,
      maxRunMinutes: 120,
      stalledAfterHours: 48,
      schedule: '0 2 * * *',
      timezone: machineTimeZone,
      logLevel: 'info',
      requestsPerSecond: 5,
      concurrency: 4,
    });
  });

  it('reads every setting from the environment, trimmed, and runs live with a URL and key', () => {
    const config = loadConfig({
      cwd: workingFolder(),
      env: {
        SCORING_API_URL: ` ${URL} `,
        SCORING_API_KEY: KEY,
        MANIFEST_DIR: '/srv/manifests',
        DATABASE_PATH: '/srv/data/sync.db',
        REPORT_DIR: '/srv/reports',
        POLL_INTERVAL_SECONDS: '900',
        MAX_RUN_MINUTES: '30',
        STALLED_AFTER_HOURS: '72',
        SYNC_SCHEDULE: '30 3 * * *',
        SYNC_TIMEZONE: 'Europe/Berlin',
        LOG_LEVEL: 'debug',
        API_REQUESTS_PER_SECOND: '2',
        API_CONCURRENCY: '8',
      },
    });

    expect(config).toMatchObject({
      mode: 'live',
      apiUrl: URL,
      apiKey: KEY,
      manifestDir: '/srv/manifests',
      databasePath: '/srv/data/sync.db',
      reportDir: '/srv/reports',
      simulatorStatePath: '/srv/data/demo-simulator.json',
      pollIntervalSeconds: 900,
      maxRunMinutes: 30,
      stalledAfterHours: 72,
      schedule: '30 3 * * *',
      timezone: 'Europe/Berlin',
      logLevel: 'debug',
      requestsPerSecond: 2,
      concurrency: 8,
    });
  });

  it('reads a .env file in the working folder', () => {
    const cwd = workingFolder(
      `SCORING_API_URL=${URL}\nSCORING_API_KEY="${KEY}"\n# nightly\nPOLL_INTERVAL_SECONDS=720\n`,
    );

    expect(loadConfig({ env: {}, cwd })).toMatchObject({
      mode: 'live',
      apiUrl: URL,
      apiKey: KEY,
      pollIntervalSeconds: 720,
    });
  });

  it('lets the environment win over the .env file', () => {
    const cwd = workingFolder('POLL_INTERVAL_SECONDS=720\nLOG_LEVEL=warn\n');

    expect(loadConfig({ env: { POLL_INTERVAL_SECONDS: '900' }, cwd })).toMatchObject({
      pollIntervalSeconds: 900,
      logLevel: 'warn',
    });
  });

  it('lets flags win over the environment and the .env file', () => {
    const cwd = workingFolder('MAX_RUN_MINUTES=45\n');

    const config = loadConfig({
      env: {
        POLL_INTERVAL_SECONDS: '900',
        REPORT_DIR: '/env/reports',
        SCORING_API_URL: URL,
        SCORING_API_KEY: KEY,
      },
      flags: { pollIntervalSeconds: 60, reportDir: '/flag/reports', maxRunMinutes: '5', logLevel: undefined },
      cwd,
    });

    expect(config).toMatchObject({
      pollIntervalSeconds: 60,
      reportDir: '/flag/reports',
      maxRunMinutes: 5,
      logLevel: 'info',
    });
  });

  it('ignores settings that are set but empty', () => {
    expect(
      loadConfig({ env: { POLL_INTERVAL_SECONDS: '  ', SCORING_API_URL: '' }, cwd: workingFolder() }),
    ).toMatchObject({ mode: 'demo', pollIntervalSeconds: 600 });
  });

  describe('demo mode', () => {
    it('keeps its database beside DATABASE_PATH and its reports under REPORT_DIR/demo', () => {
      const config = loadConfig({
        env: { DATABASE_PATH: '/srv/state/sync.db', REPORT_DIR: '/srv/out' },
        cwd: workingFolder(),
      });

      expect(config).toMatchObject({
        mode: 'demo',
        databasePath: '/srv/state/demo.db',
        reportDir: '/srv/out/demo',
        simulatorStatePath: '/srv/state/demo-simulator.json',
        manifestDir: examplesDir,
      });
    });

    it('reads manifests from MANIFEST_DIR when it is set, in the environment or in .env', () => {
      expect(loadConfig({ env: { MANIFEST_DIR: '/srv/drop' }, cwd: workingFolder() }).manifestDir).toBe(
        '/srv/drop',
      );
      expect(loadConfig({ env: {}, cwd: workingFolder('MANIFEST_DIR=/srv/dotenv-drop\n') }).manifestDir).toBe(
        '/srv/dotenv-drop',
      );
    });

    it('runs in demo mode with a key but no URL, ignoring the key', () => {
      expect(loadConfig({ env: { SCORING_API_KEY: KEY }, cwd: workingFolder() }).mode).toBe('demo');
    });
  });

  describe('errors', () => {
    it('refuses a URL without a key, naming SCORING_API_KEY', () => {
      const error = configError({ env: { SCORING_API_URL: URL }, cwd: workingFolder() });

      expect(error.problems).toEqual([
        'SCORING_API_KEY is not set. Put the key in the environment or in a .env file beside where you run creative-sync.',
      ]);
      expect(error.message).toBe(`The configuration is not valid:\n  - ${error.problems[0]}`);
    });

    it.each(['often', '0', '1.5', '86401'])(
      'refuses POLL_INTERVAL_SECONDS=%s, naming it and the value',
      (value) => {
        const error = configError({ env: { POLL_INTERVAL_SECONDS: value }, cwd: workingFolder() });

        expect(error.problems).toHaveLength(1);
        expect(error.problems[0]).toMatch(/^POLL_INTERVAL_SECONDS: .+ \(got ".+"\)\.$/);
        expect(error.problems[0]).toContain(`(got "${value}")`);
      },
    );

    it('names the environment variable when the bad value came from a flag', () => {
      const error = configError({ env: {}, flags: { concurrency: 64 }, cwd: workingFolder() });

      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^API_CONCURRENCY: .+ \(got 64\)\.$/);
    });

    it('lists every bad setting at once', () => {
      const error = configError({
        env: { MAX_RUN_MINUTES: 'forever', LOG_LEVEL: 'loud', SCORING_API_URL: 'ftp://files.example.com' },
        cwd: workingFolder(),
      });

      expect(error.problems.map((p) => p.split(':')[0]).sort()).toEqual([
        'LOG_LEVEL',
        'MAX_RUN_MINUTES',
        'SCORING_API_URL',
      ]);
    });

    it('refuses a time zone that does not exist', () => {
      const error = configError({ env: { SYNC_TIMEZONE: 'Mars/Olympus_Mons' }, cwd: workingFolder() });

      expect(error.problems).toEqual([
        "SYNC_TIMEZONE: 'Mars/Olympus_Mons' is not a time zone name such as Europe/Berlin.",
      ]);
    });

    it('never shows the API key, even when it was put into the URL setting by mistake', () => {
      const error = configError({
        env: { SCORING_API_KEY: KEY, SCORING_API_URL: KEY },
        cwd: workingFolder(),
      });

      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^SCORING_API_URL: .+ \(got "\(hidden\)"\)\.$/);
      expect(error.message).not.toContain(KEY);
    });

    it('never shows the API key in a time zone error either', () => {
      const error = configError({ env: { SCORING_API_KEY: KEY, SYNC_TIMEZONE: KEY }, cwd: workingFolder() });

      expect(error.problems).toEqual([
        "SYNC_TIMEZONE: '(hidden)' is not a time zone name such as Europe/Berlin.",
      ]);
    });
  });
});
