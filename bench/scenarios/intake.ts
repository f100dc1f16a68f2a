// Intake's cost: our intake of a generated manifest (fixed seed) of 100k rows as CSV and as JSON
// Lines (1M with --full), next to a baseline measured in the same run on the same CSV: csv-parse
// alone plus a bare prepared-statement INSERT of the same rows into one table of a fresh SQLite
// file, committed in transactions of the same size as intake's. Each case runs in its own child
// process (`process.execPath --import tsx intake.ts case <name> <folder> <rows>`, which prints its
// figures as JSON), so each peak RSS is its own, not the runner's nor another case's.
// A third case, "writes alone", stores the same rows through intake's own writer with no file,
// no parsing and no validation, on one thread: what the storage (an asset row with four indexes
// and about four brand/market/channel rows) costs. Intake overlaps that with reading the next
// rows, writing from a worker thread, so it can beat the sum of the two.
// Targets: at least 50% of the baseline's rows/s; peak RSS under 300 MB at 1M rows.
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { pino } from 'pino';
import { SimulatedClock } from '../../src/clock';
import { openDatabase } from '../../src/db/open';
import { seededRandom } from '../../src/random';
import { canonicalChannel } from '../../src/sync/channels';
import { intake } from '../../src/sync/intake';
import { IntakeStatements, ManifestStore } from '../../src/sync/manifest-store';
import { MANIFEST_COLUMNS } from '../generate';
import { emit, isFull, measure } from '../measure';

const SEED = 20261122;
const BATCH = 1000;
const CHANNELS = ['META', 'facebook', 'TIKTOK', 'ADWORDS', 'DV360', 'SNAPCHAT', 'X', 'PINTEREST'];
const COLUMNS = [...MANIFEST_COLUMNS, 'tag:campaign'];
const script = fileURLToPath(import.meta.url);

/** One row in the shape a DAM exports: about 1 in 200 has a broken url, so the error path is measured too. */
function* rows(count: number): Generator<string[]> {
  const rnd = seededRandom(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)] as T;
  for (let i = 0; i < count; i++) {
    const id = `NW-${String(i).padStart(7, '0')}`;
    const url = rnd() < 0.005 ? `htp://cdn.example.com/${id}.mp4` : `https://cdn.example.com/media/${id}.mp4`;
    const channels = [...new Set([pick(CHANNELS), pick(CHANNELS)])].join(';');
    const brands = `Brand ${Math.floor(rnd() * 40)}`;
    const markets = [
      ...new Set([pick(['US', 'UK', 'DE', 'FR', 'JP', 'BR']), pick(['US', 'UK', 'DE', 'ES'])]),
    ].join(';');
    const workspace = String(1200 + Math.floor(rnd() * 5));
    yield [
      id,
      'v1',
      'bynder',
      url,
      workspace,
      channels,
      brands,
      markets,
      `Spring spot ${i}, "cut" ${i % 7}`,
      `spring-${i % 12}`,
    ];
  }
}

const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Writes the manifests without holding them in memory; returns their sizes in MB. */
async function generate(dir: string, count: number): Promise<{ csvMb: number; jsonlMb: number }> {
  mkdirSync(join(dir, 'csv'));
  mkdirSync(join(dir, 'jsonl'));
  const csvPath = join(dir, 'csv', 'manifest.csv');
  const jsonlPath = join(dir, 'jsonl', 'manifest.jsonl');
  const csv = createWriteStream(csvPath);
  const jsonl = createWriteStream(jsonlPath);
  const write = (stream: NodeJS.WritableStream, text: string) =>
    stream.write(text) ? undefined : new Promise((resolve) => stream.once('drain', resolve));
  await write(csv, `${COLUMNS.join(',')}\r\n`);
  for (const row of rows(count)) {
    await write(csv, `${row.map(quote).join(',')}\r\n`);
    await write(jsonl, `${JSON.stringify(Object.fromEntries(COLUMNS.map((c, i) => [c, row[i]])))}\n`);
  }
  await Promise.all([csv, jsonl].map((s) => new Promise((resolve) => s.end(resolve))));
  return { csvMb: statSync(csvPath).size / 2 ** 20, jsonlMb: statSync(jsonlPath).size / 2 ** 20 };
}

/** Ours: the real intake, on a fresh database with the real migrations. */
async function ours(dir: string, format: 'csv' | 'jsonl') {
  const db = openDatabase(join(dir, `${format}.db`));
  const summary = await intake(db, {
    manifestDir: join(dir, format),
    clock: new SimulatedClock(Date.UTC(2026, 10, 22, 2)),
    log: pino({ level: 'silent' }),
  });
  db.$client.close();
  return { rows: summary.rowsRead, accepted: summary.rowsAccepted };
}

/** The floor: the same rows, already valid, through intake's writer (a manifest_files row stands in for the file). */
function writesAlone(dir: string, count: number) {
  const db = openDatabase(join(dir, 'writes.db'));
  const fileId = Number(
    db.$client
      .prepare(
        "INSERT INTO manifest_files (path, sha256, size_bytes, status, first_seen_at, last_read_at) VALUES ('bench', '', 0, 'read', 0, 0)",
      )
      .run().lastInsertRowid,
  );
  const store = new ManifestStore(new IntakeStatements(db.$client), fileId, 0);
  let line = 1;
  for (const [id, version, source, url, workspace, channels, brands, markets, name, campaign] of rows(
    count,
  )) {
    line++;
    store.row(line, {
      id: id as string,
      version: version as string,
      source: source as string,
      url: url as string,
      workspaceId: Number(workspace),
      channels: [...new Set((channels as string).split(';').map(canonicalChannel))],
      brands: [brands as string],
      markets: (markets as string).split(';'),
      name,
      description: undefined,
      tagWanted: true,
      clientTags: { campaign: campaign as string },
    });
  }
  store.finish();
  db.$client.close();
  return { rows: count, accepted: count };
}

/** The baseline: csv-parse alone and a bare prepared INSERT of every row, in transactions of BATCH rows. */
async function baseline(dir: string) {
  const sqlite = new Database(join(dir, 'baseline.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec(`CREATE TABLE manifest_rows (${COLUMNS.map((_, i) => `c${i} TEXT`).join(', ')})`);
  const insert = sqlite.prepare(`INSERT INTO manifest_rows VALUES (${COLUMNS.map(() => '?').join(', ')})`);
  const commit = sqlite.transaction((batch: string[][]) => {
    for (const row of batch) insert.run(row);
  });
  let batch: string[][] = [];
  let count = 0;
  const parser = createReadStream(join(dir, 'csv', 'manifest.csv')).pipe(parse({ from_line: 2 }));
  for await (const record of parser as AsyncIterable<string[]>) {
    batch.push(record);
    count++;
    if (batch.length >= BATCH) {
      commit(batch);
      batch = [];
    }
  }
  commit(batch);
  sqlite.close();
  return { rows: count, accepted: count };
}

const cases = {
  'intake csv': (dir: string, _count: number) => ours(dir, 'csv'),
  'intake jsonl': (dir: string) => ours(dir, 'jsonl'),
  'writes alone (no file, no parsing)': (dir: string, count: number) => writesAlone(dir, count),
  'baseline: csv-parse + INSERT': (dir: string, _count: number) => baseline(dir),
} as const;
type CaseName = keyof typeof cases;

interface CaseResult {
  rows: number;
  accepted: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

if (process.argv[2] === 'case') {
  // A child: one case, its figures as the last line of stdout.
  const [, , , name, dir, count] = process.argv as [string, string, string, CaseName, string, string];
  const { result, seconds, cpuSeconds, peakRssMb } = await measure(() => cases[name](dir, Number(count)));
  process.stdout.write(`${JSON.stringify({ ...result, seconds, cpuSeconds, peakRssMb })}\n`);
} else {
  // Quick: 100k rows. Full: 100k and 1M, so the growth between them shows.
  const counts = isFull ? [100_000, 1_000_000] : [100_000];
  const rows: Record<string, string | number>[] = [];
  const notes: string[] = [
    'Each case ran in its own child process; peak RSS is that process’s own high-water mark (Node, tsx and the database included).',
    'Intake validates every row, stores assets with their brand, market and channel rows and the 0.5% bad rows as errors, after fingerprinting the file; the baseline only parses and inserts. Files from 4 MB on are written from a worker thread while the main thread reads on.',
  ];
  const bySize = new Map<number, Map<CaseName, CaseResult>>();
  for (const count of counts) {
    const dir = mkdtempSync(join(tmpdir(), 'creative-sync-bench-intake-'));
    try {
      const sizes = await generate(dir, count);
      const results = new Map<CaseName, CaseResult>();
      for (const name of Object.keys(cases) as CaseName[]) {
        const stdout = execFileSync(
          process.execPath,
          ['--import', 'tsx', script, 'case', name, dir, String(count)],
          { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
        );
        results.set(name, JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as CaseResult);
      }
      bySize.set(count, results);
      const base = results.get('baseline: csv-parse + INSERT');
      const baseRate = base ? base.rows / base.seconds : Number.NaN;
      const smaller = bySize.get(counts[counts.indexOf(count) - 1] ?? -1);
      for (const [name, r] of results) {
        const before = smaller?.get(name);
        rows.push({
          case: name,
          rows: r.rows,
          accepted: r.accepted,
          seconds: Number(r.seconds.toFixed(2)),
          'rows/s': Math.round(r.rows / r.seconds),
          'of baseline': `${Math.round((100 * r.rows) / r.seconds / baseRate)}%`,
          'cpu s': Number(r.cpuSeconds.toFixed(2)),
          'peak RSS MB': Math.round(r.peakRssMb),
          'seconds × vs smaller': before ? Number((r.seconds / before.seconds).toFixed(1)) : '-',
        });
      }
      const verdict = (name: CaseName) => {
        const r = results.get(name);
        if (!r) return `${name}: not measured`;
        const share = r.rows / r.seconds / baseRate;
        const rss =
          count >= 1_000_000
            ? `, peak RSS ${Math.round(r.peakRssMb)} MB (target < 300 MB at 1M rows: ${r.peakRssMb < 300 ? 'met' : 'NOT met'})`
            : '';
        return `${count.toLocaleString('en')} rows (CSV ${sizes.csvMb.toFixed(0)} MB, JSON Lines ${sizes.jsonlMb.toFixed(0)} MB), ${name}: ${Math.round(share * 100)}% of the baseline's rate (target ≥ 50%: ${share >= 0.5 ? 'met' : 'NOT met'})${rss}`;
      };
      notes.push(verdict('intake csv'), verdict('intake jsonl'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  notes.push(
    "writes alone: the storage's own cost on one thread (an asset row with four indexes and about four list rows), which intake overlaps with reading",
  );
  emit({
    title: `Intake of ${counts.map((c) => c.toLocaleString('en')).join(' and ')} manifest rows`,
    rows,
    notes,
  });
}
