// The database work of picking the due assets (issue 9, scenario 2): reconcile's own query,
// pickDueForPolling, on a database of F finished assets (10k and 100k; 1M with --full) and 5k in
// flight whose next_poll_at is spread an hour either side of now. Its plan must use an index (the
// scenario fails if SQLite would scan the assets table) and the time per pick must not grow with F.
// Each size runs in its own process, so each peak RSS is its own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/open';
import { seededRandom } from '../../src/random';
import { dueForPollingQuery, pickDueForPolling } from '../../src/sync/reconcile';
import { generateAssets } from '../generate';
import { emit, isFull, measure } from '../measure';

const IN_FLIGHT = 5_000;
/** reconcile's chunk (src/sync/due-work.ts). */
const LIMIT = 200;
const PICKS = 2_000;
const NOW = Date.UTC(2026, 10, 22, 2, 0, 0);
const FINISHED_STATES = ['scored', 'scored', 'scored', 'scored', 'scored', 'scored', 'failed', 'unsupported'];

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

interface PickFigures {
  finished: number;
  buildSeconds: number;
  plan: string[];
  medianMs: number;
  p95Ms: number;
  picked: number;
  peakRssMb: number;
}

async function pickChild(path: string, finished: number): Promise<PickFigures> {
  const db = openDatabase(path);
  const sqlite = db.$client;
  const rnd = seededRandom(7);
  // Finished assets first, then the ones in flight: one prepared statement, one transaction.
  const insert = sqlite.prepare(
    `INSERT INTO assets (client_id, version, source, url, workspace_id, unique_id, remote_status, sync_state,
       poll_count, next_poll_at, created_at, updated_at, submitted_at, completed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const build = await measure(() =>
    sqlite.transaction(() => {
      let i = 0;
      for (const a of generateAssets(finished + IN_FLIGHT)) {
        const inFlight = i >= finished;
        const state = inFlight
          ? rnd() < 0.95
            ? 'submitted'
            : 'stalled'
          : (FINISHED_STATES[i % FINISHED_STATES.length] as string);
        const submittedAt = NOW - 86_400_000 + Math.floor(rnd() * 86_400_000);
        insert.run(
          a.id,
          a.version,
          a.source,
          a.url,
          a.workspaceId,
          `uid-${i}`,
          inFlight ? 'PROCESSING' : state === 'scored' ? 'COMPLETE' : state.toUpperCase(),
          state,
          inFlight ? 1 : 3,
          // In flight: due an hour either side of now, so about half are due at any pick.
          inFlight ? NOW - 3_600_000 + Math.floor(rnd() * 7_200_000) : null,
          submittedAt,
          submittedAt,
          submittedAt,
          inFlight ? null : submittedAt + 1_800_000,
        );
        i++;
      }
    })(),
  );
  sqlite.exec('ANALYZE');

  // The SQL drizzle sends for pickDueForPolling, with its parameters, straight to EXPLAIN.
  const query = dueForPollingQuery(db, NOW, LIMIT).toSQL();
  const plan = (
    sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.params as unknown[])) as {
      detail: string;
    }[]
  ).map((row) => row.detail);
  if (
    plan.some((detail) => /^SCAN assets\b/.test(detail)) ||
    !plan.some((d) => /USING (COVERING )?INDEX/.test(d))
  ) {
    throw new Error(`pickDueForPolling does not use an index on assets: ${plan.join(' | ')}`);
  }

  // Warm up, then time many picks, each with the due window moving a little so no two are alike.
  let picked = 0;
  for (let i = 0; i < 100; i++) picked = pickDueForPolling(db, NOW, LIMIT).length;
  const times: number[] = [];
  for (let i = 0; i < PICKS; i++) {
    const now = NOW - 1_800_000 + Math.floor((i / PICKS) * 3_600_000);
    const start = process.hrtime.bigint();
    pickDueForPolling(db, now, LIMIT);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  sqlite.close();
  return {
    finished,
    buildSeconds: build.seconds,
    plan,
    medianMs: times[Math.floor(times.length / 2)] as number,
    p95Ms: times[Math.floor(times.length * 0.95)] as number,
    picked,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

const mode = arg('--child');
if (mode === 'pick') {
  console.log(JSON.stringify(await pickChild(arg('--db') as string, Number(arg('--finished')))));
} else {
  const sizes = isFull ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
  const rows: Record<string, string | number>[] = [];
  const notes: string[] = [];
  let first: PickFigures | undefined;
  let previous: PickFigures | undefined;
  for (const finished of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'creative-sync-bench-due-'));
    try {
      const stdout = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          import.meta.filename,
          '--child',
          'pick',
          '--db',
          join(dir, 'bench.db'),
          '--finished',
          String(finished),
        ],
        { encoding: 'utf8', maxBuffer: 16 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const r = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as PickFigures;
      first ??= r;
      rows.push({
        'finished assets': r.finished,
        'in flight': IN_FLIGHT,
        'insert s': round(r.buildSeconds, 2),
        'inserts/s': Math.round((r.finished + IN_FLIGHT) / r.buildSeconds),
        'median pick ms': round(r.medianMs, 3),
        'p95 pick ms': round(r.p95Ms, 3),
        'rows per pick': r.picked,
        'pick × (vs previous)': previous ? round(r.medianMs / previous.medianMs, 2) : '-',
        'size ×': previous ? round(r.finished / previous.finished, 1) : '-',
        'pick × (vs 10k)': round(r.medianMs / first.medianMs, 2),
        'peak RSS MB': Math.round(r.peakRssMb),
        'within target': r.medianMs / first.medianMs < 1.5 ? 'yes' : 'NO',
      });
      notes.push(`plan at ${r.finished} finished: ${r.plan.join(' | ')}`);
      previous = r;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  emit({
    title: `pickDueForPolling (reconcile's due pick, LIMIT ${LIMIT}) as finished assets grow, ${IN_FLIGHT} in flight`,
    rows,
    notes: [
      `median and p95 of ${PICKS} picks after 100 warm-up picks; each pick's "now" moves across the hour around the in-flight assets' due times, so about half of them are due`,
      'the plan is checked in the scenario: it fails if EXPLAIN QUERY PLAN says SCAN assets or names no index',
      'target: the time per pick does not grow with the finished assets (pick × vs 10k under 1.5)',
      ...notes,
    ],
  });
}

function round(n: number, digits: number): number {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}
