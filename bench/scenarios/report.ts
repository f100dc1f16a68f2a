// The report's cost: writeReport on a synthetic database (fixed seed) of 10k and 100k assets × 6 channels ×
// 15 guidelines (1M with --full), next to a baseline measured in the same run — a bare exceljs streaming
// write of the same number of cells. Building the database, the report and the baseline each run in their
// own child process, so each peak RSS is its own. Targets: 100k under 60 s and 600 MB; 1M completes under 1.5 GB.
// (1M assets still fit on one Excel sheet; the split into `Assets (2)`… is tested with a lowered row limit.)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { openDatabase } from '../../src/db/open';
import { seededRandom } from '../../src/random';
import { EXCEL_MAX_ROWS } from '../../src/reports/layout';
import { writeReport } from '../../src/reports/write-report';
import { emit, isFull, measure } from '../measure';

const CHANNELS = ['META', 'TIKTOK', 'YOUTUBE', 'SNAPCHAT', 'PINTEREST', 'X'];
const GUIDELINES = 15;
const BRANDS = 40;
const MARKETS = 12;
const SEED = 20250309;

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function build(path: string, size: number): void {
  const db = openDatabase(path);
  const sqlite = db.$client;
  sqlite.pragma('synchronous = OFF');
  const rnd = seededRandom(SEED);
  const now = Date.UTC(2025, 2, 9, 2);
  const insertAsset = sqlite.prepare(
    `INSERT INTO assets (client_id, version, source, url, name, workspace_id, sync_state, remote_status,
       created_at, updated_at, submitted_at, completed_at, scored_at, last_error, last_trace_id, manifest_line)
     VALUES (?, 'v1', 'dam', ?, ?, 1201, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const brand = sqlite.prepare('INSERT OR IGNORE INTO asset_brands (asset_id, brand) VALUES (?, ?)');
  const market = sqlite.prepare('INSERT OR IGNORE INTO asset_markets (asset_id, market) VALUES (?, ?)');
  const channel = sqlite.prepare('INSERT INTO asset_channels (asset_id, channel) VALUES (?, ?)');
  const score = sqlite.prepare(
    `INSERT INTO channel_scores (asset_id, channel, score, adherence, pass_count, fail_count, applicable_count,
       not_applicable_count, not_available_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const result = sqlite.prepare(
    'INSERT INTO guideline_results (asset_id, channel, name, rule, result, weight) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const RESULTS = ['PASS', 'PASS', 'PASS', 'FAIL', 'NOT_APPLICABLE', 'NO_DATA_SCORING_BACKLOG'];
  const insertBatch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      const r = rnd();
      const state =
        r < 0.9
          ? 'scored'
          : r < 0.94
            ? 'submitted'
            : r < 0.96
              ? 'failed'
              : r < 0.98
                ? 'unsupported'
                : 'stalled';
      const id = Number(
        insertAsset.run(
          `ASSET-${String(i).padStart(7, '0')}`,
          `https://cdn.example.com/a/${i}.mp4`,
          `Creative ${i} — spring campaign`,
          state,
          state === 'scored' ? 'COMPLETE' : state.toUpperCase(),
          now,
          now,
          now - 3_600_000,
          state === 'scored' ? now - 1_800_000 : null,
          state === 'scored' ? now - 1_700_000 : null,
          state === 'failed' ? 'The service could not download the media' : null,
          state === 'failed' ? `trace-${i}` : null,
          (i % 5000) + 2,
        ).lastInsertRowid,
      );
      brand.run(id, `Brand ${Math.floor(rnd() * BRANDS)}`);
      if (rnd() < 0.2) brand.run(id, `Brand ${Math.floor(rnd() * BRANDS)}`);
      market.run(id, `M${Math.floor(rnd() * MARKETS)}`);
      for (const c of CHANNELS) channel.run(id, c);
      if (state !== 'scored') continue;
      for (const c of CHANNELS) {
        let pass = 0;
        let fail = 0;
        let na = 0;
        let nav = 0;
        for (let g = 0; g < GUIDELINES; g += 1) {
          const res = RESULTS[Math.floor(rnd() * RESULTS.length)] as string;
          if (res === 'PASS') pass += 1;
          else if (res === 'FAIL') fail += 1;
          else if (res === 'NOT_APPLICABLE') na += 1;
          else nav += 1;
          result.run(id, c, `Guideline ${g}`, `Rule ${g}`, res, 1);
        }
        const s = pass + fail === 0 ? null : pass / (pass + fail);
        score.run(id, c, s, s, pass, fail, pass + fail, na, nav);
      }
    }
  });
  for (let from = 0; from < size; from += 10_000) insertBatch(from, Math.min(size, from + 10_000));
  sqlite.close();
}

async function report(path: string, out: string): Promise<void> {
  const db = openDatabase(path);
  const now = new Date(Date.UTC(2025, 2, 9, 6));
  const m = await measure(() =>
    writeReport(db, { reportDir: out, runDate: now, demo: false, generatedAt: now }),
  );
  db.$client.close();
  const cells = m.result.sheets.reduce((sum, s) => sum + (s.rows + 3) * s.columns, 0);
  const assetColumns = m.result.sheets.find((s) => s.name === 'Assets')?.columns ?? 1;
  const fileMb = statSync(m.result.path).size / 2 ** 20;
  console.log(
    JSON.stringify({ ...m, result: undefined, cells, assetColumns, fileMb, sheets: m.result.sheets.length }),
  );
}

/** A bare exceljs streaming write: the same number of cells, strings and numbers, no styles or queries. */
async function baseline(cells: number, columns: number, out: string): Promise<void> {
  const m = await measure(async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: join(out, 'baseline.xlsx') });
    const rows = Math.ceil(cells / columns);
    let sheet = workbook.addWorksheet('Sheet 1');
    for (let r = 0; r < rows; r += 1) {
      if (r > 0 && r % (EXCEL_MAX_ROWS - 1) === 0) {
        sheet.commit();
        sheet = workbook.addWorksheet(`Sheet ${r / (EXCEL_MAX_ROWS - 1) + 1}`);
      }
      const values: (string | number)[] = [];
      for (let c = 0; c < columns; c += 1) values.push(c % 2 === 0 ? `text ${r}-${c}` : r * c * 0.001);
      sheet.addRow(values).commit();
      if (r % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    sheet.commit();
    await workbook.commit();
  });
  console.log(JSON.stringify({ ...m, result: undefined }));
}

function child(args: string[]): Record<string, number> {
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 2 ** 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

const mode = arg('--child');
if (mode === 'build') {
  build(arg('--db') as string, Number(arg('--size')));
  console.log('{}');
} else if (mode === 'report') await report(arg('--db') as string, arg('--out') as string);
else if (mode === 'baseline')
  await baseline(Number(arg('--cells')), Number(arg('--columns')), arg('--out') as string);
else {
  const sizes = isFull ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
  const rows: Record<string, string | number>[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const db = join(dir, 'bench.db');
      const started = process.hrtime.bigint();
      child(['--child', 'build', '--db', db, '--size', String(size)]);
      const buildSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const r = child(['--child', 'report', '--db', db, '--out', dir]);
      const b = child([
        '--child',
        'baseline',
        '--cells',
        String(r.cells),
        '--columns',
        String(r.assetColumns),
        '--out',
        dir,
      ]);
      const target = size <= 100_000 ? { s: 60, mb: 600 } : { s: Number.POSITIVE_INFINITY, mb: 1536 };
      rows.push({
        assets: size,
        'db build s': round(buildSeconds),
        cells: r.cells as number,
        sheets: r.sheets as number,
        'report s': round(r.seconds as number),
        'report cpu s': round(r.cpuSeconds as number),
        'report peak MB': Math.round(r.peakRssMb as number),
        'baseline s': round(b.seconds as number),
        'baseline peak MB': Math.round(b.peakRssMb as number),
        'file MB': round(r.fileMb as number),
        'within target':
          (r.seconds as number) < target.s && (r.peakRssMb as number) < target.mb ? 'yes' : 'NO',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  emit({
    title: 'writeReport vs a bare exceljs streaming write of the same cell count',
    rows,
    notes: [
      `synthetic database, seed ${SEED}: ${CHANNELS.length} channels × ${GUIDELINES} guidelines, 90% scored`,
      'targets: 100k assets under 60 s and 600 MB peak RSS; 1M (--full) completes under 1.5 GB',
      'peak RSS is each child process’s own high-water mark, Node and tsx included',
    ],
  });
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
