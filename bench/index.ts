// `npm run bench [-- --full] [-- --only name]`: runs every scenario in bench/scenarios, each in
// its own process so that its peak memory is its own, prints a table per scenario and
// writes the figures to bench/results/<scenario>.json. Never part of `npm test`.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ScenarioReport } from './measure';

const run = promisify(execFile);
const here = import.meta.dirname;
const args = process.argv.slice(2);
const full = args.includes('--full');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

const scenarios = readdirSync(join(here, 'scenarios'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => basename(f, '.ts'))
  .filter((name) => !only || name === only)
  .sort();

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`creative-sync benchmarks (${full ? 'full' : 'quick'} sizes) on ${machine}\n`);
mkdirSync(join(here, 'results'), { recursive: true });

for (const name of scenarios) {
  const script = resolve(here, 'scenarios', `${name}.ts`);
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', script, ...(full ? ['--full'] : [])],
    {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60 * 60_000,
    },
  );
  const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ScenarioReport;
  console.log(`## ${report.title}`);
  console.table(report.rows);
  for (const note of report.notes ?? []) console.log(`- ${note}`);
  console.log('');
  writeFileSync(
    join(here, 'results', `${name}.json`),
    `${JSON.stringify({ machine, date: new Date().toISOString(), full, ...report }, null, 2)}\n`,
  );
}
