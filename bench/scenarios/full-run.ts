// A full run (issue 9, scenario 2): runOnce on N generated assets (bench/generate.ts, fixed seed)
// against the in-process simulator, sharing a SimulatedClock with the run, so scoring completes on
// simulated time (processing 8–45 minutes, polls every 10) while the wall clock measures only work.
// TAGGING=false: this scenario measures scoring; tagging's calls and CPU are not in it.
//
// Reported: wall time, API calls per asset by endpoint against the minimum the polling rules allow
// (per asset: 1 submit + max(1, ceil(processing / poll interval)) status polls + 1 score fetch when
// it completes, processing taken from the simulator's own planProcessing), and CPU per asset per
// stage — ours apart from the simulator's. The simulator runs in the run's process, so its share is
// measured by a replay: a process holding only a simulator (on its own SimulatedClock) answers the
// same requests, in the same order and at the same simulated times, sent by a bare undici client in
// a third process; that process's CPU per stage is the simulator's share, subtracted from the run's.
//
// Modes (each in its own process, so each peak RSS is its own):
//   (none)                             the scenario: sizes, children, the table
//   --child run --size N --dir D       the run; writes D/requests.ndjson for the replay
//   --child sim --file F               a bare simulator; forks the replayer and meters itself per stage
//   --child replay --file F --url U    sends F's requests to U with undici, 16 at a time
// Sizes: 10k, and 100k with --full (100k takes about 9 minutes: the client's 1000 requests/s cap
// sets the pace); BENCH_FULL_RUN_SIZES=2000,5000 overrides them for a quick look.
import { execFileSync, fork } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Agent, request } from 'undici';
import { SimulatedClock } from '../../src/clock';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/open';
import type { StageName } from '../../src/progress';
import { DEMO_API_KEY, startSimulator } from '../../src/simulator';
import { planProcessing } from '../../src/simulator/outcome';
import { ApiClient } from '../../src/sync/api/client';
import { runOnce } from '../../src/sync/run';
import { WORKSPACES, writeManifestCsv } from '../generate';
import { emit, isFull, measure } from '../measure';

const START = Date.UTC(2026, 10, 22, 2, 0, 0);
const PROCESSING_MINUTES: [number, number] = [8, 45];
const POLL_INTERVAL_SECONDS = 600;
const CONCURRENCY = 16;
const REQUESTS_PER_SECOND = 1000;

/** The run's stages as metered here: progress's stages, with discovery told apart from intake. */
const STAGES = ['intake', 'discovery', 'submit', 'polling', 'scores', 'report'] as const;
type Stage = (typeof STAGES)[number];

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** The stage whose work an endpoint is. */
function stageOf(method: string, path: string): Stage {
  if (method === 'POST' && path === '/v1/media') return 'submit';
  if (path.endsWith('/status')) return 'polling';
  if (path.endsWith('/scores')) return 'scores';
  return 'discovery';
}

/** Accumulates CPU and wall seconds into whichever stage is current. */
class StageMeter {
  cpu: Record<string, number> = {};
  wall: Record<string, number> = {};
  #stage: string | undefined;
  #cpu = process.cpuUsage();
  #wall = process.hrtime.bigint();

  switchTo(stage: string | undefined): void {
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    if (this.#stage !== undefined) {
      const used = (cpu.user - this.#cpu.user + cpu.system - this.#cpu.system) / 1e6;
      this.cpu[this.#stage] = (this.cpu[this.#stage] ?? 0) + used;
      this.wall[this.#stage] = (this.wall[this.#stage] ?? 0) + Number(wall - this.#wall) / 1e9;
    }
    this.#stage = stage;
    this.#cpu = cpu;
    this.#wall = wall;
  }
}

interface RunFigures {
  assets: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  stageCpu: Record<string, number>;
  stageWall: Record<string, number>;
  calls: Record<string, number>;
  minimum: { submit: number; polls: number; scores: number };
  states: Record<string, number>;
  rounds: number;
  outcome: string;
}

async function runChild(size: number, dir: string): Promise<RunFigures> {
  mkdirSync(join(dir, 'manifests'));
  await writeManifestCsv(join(dir, 'manifests', 'bench.csv'), size);
  const clock = new SimulatedClock(START);
  const simulator = await startSimulator({ clock, processingMinutes: PROCESSING_MINUTES });
  const config = loadConfig({
    env: {
      SCORING_API_URL: simulator.url,
      SCORING_API_KEY: DEMO_API_KEY,
      MANIFEST_DIR: join(dir, 'manifests'),
      DATABASE_PATH: join(dir, 'data', 'bench.db'),
      REPORT_DIR: join(dir, 'reports'),
      POLL_INTERVAL_SECONDS: String(POLL_INTERVAL_SECONDS),
      TAGGING: 'false',
      LOG_LEVEL: 'silent',
      // The generated manifest is complete when written, and its urls are made up: checking them
      // would measure DNS lookups of hosts outside this machine, not our code.
      MANIFEST_SETTLE_SECONDS: '0',
      URL_PREFLIGHT: 'false',
    },
    cwd: dir,
  });
  const db = openDatabase(config.databasePath);
  const api = new ApiClient({
    baseUrl: simulator.url,
    apiKey: DEMO_API_KEY,
    requestsPerSecond: REQUESTS_PER_SECOND,
    concurrency: CONCURRENCY,
  });
  const meter = new StageMeter();
  let current: StageName | undefined;
  let rounds = 0;
  const progress = {
    stage(name: StageName) {
      if (name === 'submit') rounds++;
      current = name;
      meter.switchTo(name);
    },
    // Intake reports its files once it is done; what follows, before submit, is discovery.
    found() {
      if (current === 'intake') meter.switchTo('discovery');
    },
    handled() {},
    note() {},
    stop() {},
  };
  (globalThis as { gc?: () => void }).gc?.();
  meter.switchTo('intake');
  const m = await measure(() =>
    runOnce(db, { config, api, clock, log: pino({ level: 'silent' }), progress }),
  );
  meter.switchTo(undefined);

  // The floor the polling rules allow, from the simulator's own plan for each accepted asset.
  const intervalMs = POLL_INTERVAL_SECONDS * 1000;
  const minimum = { submit: 0, polls: 0, scores: 0 };
  const media = simulator.media();
  for (const item of media) {
    const plan = planProcessing(item, PROCESSING_MINUTES);
    minimum.polls += Math.max(1, Math.ceil(plan.processingMs / intervalMs));
    if (plan.outcome === 'COMPLETE' || plan.outcome === 'ERROR_THEN_COMPLETE') minimum.scores++;
  }
  const states: Record<string, number> = {};
  for (const row of db.$client
    .prepare('SELECT sync_state AS state, count(*) AS n FROM assets GROUP BY sync_state')
    .all() as { state: string; n: number }[])
    states[row.state] = row.n;
  // Every asset intake accepted is submitted once, whatever the service then says.
  minimum.submit = Object.values(states).reduce((a, b) => a + b, 0);

  // The requests the simulator answered, with their bodies rebuilt from what it stored, for the replay.
  const out = createWriteStream(join(dir, 'requests.ndjson'));
  let next = 0;
  for (const r of simulator.requests()) {
    let body: unknown;
    if (r.method === 'POST' && r.path === '/v1/media') {
      const { orgId: _org, uniqueId: _id, submittedAt: _at, ...submission } = media[next++] ?? {};
      body = submission;
    } else if (r.method === 'POST') body = { workspaces: [...WORKSPACES] };
    const line = JSON.stringify({
      method: r.method,
      url: `${r.path}${r.query ? `?${r.query}` : ''}`,
      at: r.at,
      stage: stageOf(r.method, r.path),
      body,
    });
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  db.$client.close();
  await simulator.close();
  return {
    assets: size,
    seconds: m.seconds,
    cpuSeconds: m.cpuSeconds,
    peakRssMb: m.peakRssMb,
    stageCpu: meter.cpu,
    stageWall: meter.wall,
    calls: m.result.run.apiCallsByEndpoint ?? {},
    minimum,
    states,
    rounds,
    outcome: m.result.run.outcome,
  };
}

/** A simulator alone; the replayer (a child of this process) says when each stage's requests start. */
interface SimFigures {
  stageCpu: Record<string, number>;
  peakRssMb: number;
  /** The replay's answers by HTTP status, to show it asked what the run asked (and was answered alike). */
  statuses: Record<string, number>;
}

async function simChild(file: string): Promise<SimFigures> {
  const clock = new SimulatedClock(START);
  const simulator = await startSimulator({ clock, processingMinutes: PROCESSING_MINUTES });
  const meter = new StageMeter();
  let statuses: Record<string, number> = {};
  const replayer = fork(import.meta.filename, ['--child', 'replay', '--file', file, '--url', simulator.url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    replayer.on(
      'message',
      (message: { stage?: string; at?: number; done?: boolean; statuses?: typeof statuses }) => {
        meter.switchTo(message.done ? undefined : message.stage);
        if (message.statuses) statuses = message.statuses;
        if (message.at !== undefined) clock.advance(message.at - clock.now());
        replayer.send('go');
      },
    );
    replayer.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`replayer exited ${code}`))));
  });
  await simulator.close();
  return { stageCpu: meter.cpu, peakRssMb: process.resourceUsage().maxRSS / 1024, statuses };
}

/** Sends the recorded requests, segment by segment (a segment: one stage at one simulated time). */
async function replayChild(file: string, url: string): Promise<void> {
  const requests = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          method: 'GET' | 'POST';
          url: string;
          at: number;
          stage: string;
          body?: unknown;
        },
    );
  const dispatcher = new Agent({ connections: CONCURRENCY });
  const send = process.send?.bind(process);
  if (!send) throw new Error('the replayer runs as a forked child');
  const told = (message: object) =>
    new Promise<void>((resolve) => {
      process.once('message', () => resolve());
      send(message);
    });
  const headers = { authorization: `Bearer ${DEMO_API_KEY}`, accept: 'application/json' };
  const statuses: Record<string, number> = {};
  let from = 0;
  while (from < requests.length) {
    const first = requests[from] as (typeof requests)[number];
    let to = from;
    while (to < requests.length && requests[to]?.at === first.at && requests[to]?.stage === first.stage) to++;
    await told({ stage: first.stage, at: first.at });
    let next = from;
    const worker = async () => {
      while (next < to) {
        const r = requests[next++] as (typeof requests)[number];
        const res = await request(`${url}${r.url}`, {
          method: r.method,
          dispatcher,
          headers: r.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        await res.body.text();
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    from = to;
  }
  await told({ done: true, statuses });
  await dispatcher.close();
  process.disconnect();
}

function child<T>(args: string[]): T {
  const stdout = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', import.meta.filename, ...args],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as T;
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

const mode = arg('--child');
if (mode === 'run') {
  console.log(JSON.stringify(await runChild(Number(arg('--size')), arg('--dir') as string)));
} else if (mode === 'sim') {
  console.log(JSON.stringify(await simChild(arg('--file') as string)));
} else if (mode === 'replay') {
  await replayChild(arg('--file') as string, arg('--url') as string);
} else {
  const sizes = (process.env.BENCH_FULL_RUN_SIZES ?? (isFull ? '10000,100000' : '10000'))
    .split(',')
    .map(Number);
  const rows: Record<string, string | number>[] = [];
  const notes: string[] = [];
  let previous: { assets: number; seconds: number; cpu: number } | undefined;
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'creative-sync-bench-run-'));
    try {
      const run = child<RunFigures>(['--child', 'run', '--size', String(size), '--dir', dir]);
      const sim = child<SimFigures>(['--child', 'sim', '--file', join(dir, 'requests.ndjson')]);
      const calls = (prefix: string) =>
        Object.entries(run.calls)
          .filter(([k]) => k.startsWith(prefix))
          .reduce((sum, [, n]) => sum + n, 0);
      const actual = {
        submit: calls('POST /v1/media'),
        polls: calls('GET /v1/media/'),
        scores: calls('GET /v1/scoring/media/'),
      };
      const total = Object.values(run.calls).reduce((a, b) => a + b, 0);
      const minTotal = run.minimum.submit + run.minimum.polls + run.minimum.scores;
      const perAsset = actual.submit + actual.polls + actual.scores;
      const scored = run.states.scored ?? 0;
      const ours = (stage: Stage) => (run.stageCpu[stage] ?? 0) - (sim.stageCpu[stage] ?? 0);
      const oursPerAssetMs = Object.fromEntries(STAGES.map((s) => [s, (1000 * ours(s)) / size]));
      const worst = Math.max(...Object.values(oursPerAssetMs));
      rows.push({
        assets: size,
        'wall s': round(run.seconds, 1),
        'run cpu s': round(run.cpuSeconds, 1),
        'sim cpu s': round(
          Object.values(sim.stageCpu).reduce((a, b) => a + b, 0),
          1,
        ),
        'submit/asset': round(actual.submit / size, 3),
        'polls/asset': round(actual.polls / size, 3),
        'scores/asset': round(actual.scores / size, 3),
        'other calls': total - perAsset,
        'min calls/asset': round(minTotal / size, 3),
        'calls/min': round(perAsset / minTotal, 3),
        'calls/scored asset': round(perAsset / scored, 2),
        'min/scored asset': round(minTotal / scored, 2),
        ...Object.fromEntries(STAGES.map((s) => [`ours ${s} ms/asset`, round(oursPerAssetMs[s] ?? 0, 3)])),
        'peak RSS MB': Math.round(run.peakRssMb),
        'sim alone peak MB': Math.round(sim.peakRssMb),
        'wall ×': previous ? round(run.seconds / previous.seconds, 1) : '-',
        'cpu ×': previous ? round(run.cpuSeconds / previous.cpu, 1) : '-',
        'size ×': previous ? round(size / previous.assets, 1) : '-',
        'within target': perAsset / minTotal <= 1.1 && worst < 1 ? 'yes' : 'NO',
      });
      notes.push(
        `${size} assets: ${run.rounds} rounds, outcome ${run.outcome}, states ${JSON.stringify(run.states)}; ` +
          `run CPU s by stage ${JSON.stringify(mapValues(run.stageCpu, (v) => round(v)))}, ` +
          `simulator CPU s by stage (replay) ${JSON.stringify(mapValues(sim.stageCpu, (v) => round(v)))}, ` +
          `replay answers by HTTP status ${JSON.stringify(sim.statuses)}, ` +
          `wall s by stage ${JSON.stringify(mapValues(run.stageWall, (v) => round(v)))}; ` +
          `calls ${JSON.stringify(run.calls)}; minimum ${JSON.stringify(run.minimum)}`,
      );
      previous = { assets: size, seconds: run.seconds, cpu: run.cpuSeconds };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  emit({
    title:
      'A full run against the in-process simulator (TAGGING=false): calls against the polling floor, CPU per asset per stage',
    rows,
    notes: [
      `generated manifest (bench/generate.ts, fixed seed); simulator processing ${PROCESSING_MINUTES.join('–')} simulated minutes; POLL_INTERVAL_SECONDS=${POLL_INTERVAL_SECONDS}; client ${REQUESTS_PER_SECOND} requests/s, ${CONCURRENCY} in flight; TAGGING=false, so tagging is not measured`,
      'minimum per asset: 1 submit + max(1, ceil(processing / poll interval)) status polls + 1 score fetch if it completes, from the simulator’s own planProcessing; target: calls/min ≤ 1.10',
      '“ours … ms/asset” = (CPU of the run in that stage − CPU of a bare simulator answering the same requests in a replay) / assets; target < 1 ms per asset per stage. The replay’s simulator runs in a process of its own (fed by a bare undici client in a third process) so its CPU is its alone; undici’s client-side cost therefore stays in “ours”',
      'discovery is what runs between intake and the first submit; scores includes tagging’s (disabled) check and the wait for the next poll; report is writeReport',
      'peak RSS is the run process’s: Node, tsx, the run and the in-process simulator (which keeps every request in its log); “sim alone” is the replay’s simulator process',
      ...notes,
    ],
  });
}

function mapValues<T, U>(record: Record<string, T>, f: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
