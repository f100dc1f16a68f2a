// Issue 8: the key goes to the API and nowhere else. With the key set to a unique marker and
// the CLI at debug level, the marker is in no log line, no byte of the database, no entry of
// the report, and no request but the API's own Authorization header — not to the host the
// media lives on, not to a proxy named in the environment. The database is the owner's only.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceleratedClock } from '../../src/clock';
import { defaultFixture, type RunningSimulator, startSimulator } from '../../src/simulator';
import { runCli } from './cli';
import { zipEntries } from './unzip';

const MARKER = 'csk-7e1f0b93-secret-marker-4d2a';

const dir = mkdtempSync(join(tmpdir(), 'creative-sync-secrets-'));
const databasePath = join(dir, 'data', 'creative-sync.db');
let simulator: RunningSimulator;
/** Another host: where the media lives, and the proxy the environment names. It must hear nothing. */
const elsewhere: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
const otherHost = createServer((req, res) => {
  elsewhere.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  res.end('nothing here');
});
let output = '';

/** Every log file the runs left in the data folder, wherever the logger puts them. */
function logFiles(): string[] {
  return readdirSync(join(dir, 'data'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.log'))
    .map((f) => join(dir, 'data', f))
    .filter((path) => statSync(path).isFile());
}

beforeAll(async () => {
  const fixture = defaultFixture();
  const org = fixture.organizations[0];
  if (!org) throw new Error('fixture has no organization');
  org.apiKey = MARKER;
  simulator = await startSimulator({ clock: acceleratedClock(3600), dialect: 'live', fixture });
  await new Promise<void>((resolve) => otherHost.listen(0, '127.0.0.1', resolve));
  const other = `http://127.0.0.1:${(otherHost.address() as AddressInfo).port}`;
  mkdirSync(join(dir, 'manifests'));
  writeFileSync(
    join(dir, 'manifests', 'spring.csv'),
    [
      'id,url,channels,brands,markets',
      `S-1,${other}/media/s1.mp4,META;TIKTOK,Acme,US`,
      `S-2,${other}/media/s2.jpg,META,Acme,UK`,
      `S-3,${other}/media/s3.pdf,META,Acme,UK`,
      'S-4,,META,Acme,UK',
    ].join('\n'),
  );
  const env = {
    SCORING_API_URL: simulator.url,
    SCORING_API_KEY: MARKER,
    POLL_INTERVAL_SECONDS: '1',
    API_REQUESTS_PER_SECOND: '100',
    LOG_LEVEL: 'debug',
    HTTP_PROXY: other,
    HTTPS_PROXY: other,
  };
  const { stdout, stderr } = await runCli(['run'], { cwd: dir, env });
  // A refused key too: its error path must not echo what it was given.
  const refused = await runCli(['run'], {
    cwd: dir,
    env: { ...env, SCORING_API_KEY: `${MARKER}-wrong` },
  }).catch((error: { stdout: string; stderr: string }) => error);
  output = [stdout, stderr, refused.stdout, refused.stderr].join('\n');
}, 120_000);

afterAll(async () => {
  await simulator?.close();
  await new Promise<void>((resolve) => otherHost.close(() => resolve()));
});

describe('the API key', () => {
  it('did its job: the run scored the assets', () => {
    expect(output).toMatch(/run #1 completed/);
    expect(output).toMatch(/The API key is not valid/);
    expect(simulator.stats().mediaCreated).toBe(3);
  });

  it('is in no line the CLI printed, at debug level, on success or on refusal', () => {
    expect(output.split('\n').length).toBeGreaterThan(5);
    expect(output).not.toContain(MARKER);
  });

  it('is in no byte of the database, its WAL or its shared memory', () => {
    const files = readdirSync(join(dir, 'data')).filter((f) => f.startsWith('creative-sync.db'));
    expect(files).toContain('creative-sync.db');
    for (const file of files) {
      const bytes = readFileSync(join(dir, 'data', file));
      expect(bytes.includes(MARKER), file).toBe(false);
      expect(bytes.includes(Buffer.from(MARKER, 'utf16le')), file).toBe(false);
    }
  });

  it('is in no log file', () => {
    for (const path of logFiles()) expect(readFileSync(path).includes(MARKER), path).toBe(false);
  });

  it('is in no entry of the report, unzipped', () => {
    const reports = readdirSync(join(dir, 'reports')).filter((f) => f.endsWith('.xlsx'));
    expect(reports).toHaveLength(1);
    const entries = zipEntries(readFileSync(join(dir, 'reports', reports[0] as string)));
    expect(entries.size).toBeGreaterThan(3);
    expect([...entries.keys()].some((name) => name.startsWith('xl/worksheets/'))).toBe(true);
    for (const [name, bytes] of entries) expect(bytes.includes(MARKER), name).toBe(false);
  });

  it('went to the API only, in its Authorization header, and to no other host or proxy', () => {
    const requests = simulator.requests();
    expect(requests.length).toBeGreaterThan(5);
    for (const r of requests) {
      const { authorization, ...headers } = r.headers;
      expect(JSON.stringify({ ...r, headers })).not.toContain(MARKER);
      expect([`Bearer ${MARKER}`, `Bearer ${MARKER}-wrong`]).toContain(authorization);
    }
    expect(elsewhere).toEqual([]);
  });
});

describe('files with the organization’s data', () => {
  it('are readable and writable by their owner only', () => {
    for (const suffix of ['', '-wal', '-shm']) {
      const path = `${databasePath}${suffix}`;
      if (existsSync(path)) expect((statSync(path).mode & 0o777).toString(8), path).toBe('600');
    }
    expect(existsSync(databasePath)).toBe(true);
  });

  it('include the log files, which are readable and writable by their owner only', () => {
    // The log holds asset names, URLs and the service's answers, like the database does.
    for (const path of logFiles()) expect((statSync(path).mode & 0o777).toString(8), path).toBe('600');
  });
});
