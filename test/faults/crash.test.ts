// Issue 8: the CLI killed with SIGKILL at 20 moments of its runs (chosen by a fixed seed) and
// run again each time. In the end: no media created twice at the service, every manifest row
// accounted for, an intact database, and the same rollups as a run nobody interrupted.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acceleratedClock } from '../../src/clock';
import { openDatabase } from '../../src/db/open';
import { seededRandom } from '../../src/random';
import { brandRollup, channelRollup, marketRollup } from '../../src/reports/rollups';
import { DEMO_API_KEY, type RunningSimulator, startSimulator } from '../../src/simulator';
import { runAndKill, runCli } from './cli';
import { faultManifestParts } from './manifest';

const kills = 20;
/** Manifests dropped one at a time between kills, so later runs still have work to be killed in. */
const parts = faultManifestParts(40, 4);
const dropEvery = kills / parts.length;
const simulators: RunningSimulator[] = [];
afterAll(async () => {
  await Promise.all(simulators.map((s) => s.close()));
});

/** A folder with the manifest, and a simulator whose time runs `speed` times faster than ours. */
async function world(name: string, slowSubmits: boolean) {
  const dir = mkdtempSync(join(tmpdir(), `creative-sync-${name}-`));
  mkdirSync(join(dir, 'manifests'));
  // The uninterrupted world gets every file at once; the crashed one the first, then one more every few kills.
  const upfront = slowSubmits ? parts.slice(0, 1) : parts;
  for (const [i, content] of upfront.entries())
    writeFileSync(join(dir, 'manifests', `part-${i + 1}.csv`), content);
  // Scoring takes 8–45 simulated minutes: 0.8–4.5 s here, so kills land mid-flight.
  // The crashed world's service is slow to answer some submissions it has already made, so
  // kills land between a POST's effect and its commit, the moment a resubmit must be deduped.
  const simulator = await startSimulator({
    clock: acceleratedClock(600),
    dialect: 'live',
    ...(slowSubmits
      ? {
          faults: {
            seed: 'crash',
            rate: 0.5,
            kinds: ['slow-after-processing'],
            endpoints: ['POST /v1/media'],
            slowMs: 1500,
          },
        }
      : {}),
  });
  simulators.push(simulator);
  const env = {
    SCORING_API_URL: simulator.url,
    SCORING_API_KEY: DEMO_API_KEY,
    POLL_INTERVAL_SECONDS: '1',
    API_REQUESTS_PER_SECOND: '100',
    LOG_LEVEL: 'warn',
  };
  return { dir, simulator, env, databasePath: join(dir, 'data', 'creative-sync.db') };
}

function outcome(databasePath: string) {
  const db = openDatabase(databasePath);
  try {
    const all = (sql: string) => db.$client.prepare(sql).all();
    return {
      integrity: db.$client.pragma('integrity_check', { simple: true }),
      assets: all('SELECT client_id, unique_id, sync_state, last_error_kind FROM assets ORDER BY client_id'),
      rowsRejected: all('SELECT line, field FROM manifest_errors ORDER BY line'),
      channelScores: all(`SELECT a.client_id, c.channel, c.score, c.adherence, c.pass_count, c.fail_count
                          FROM channel_scores c JOIN assets a ON a.id = c.asset_id ORDER BY 1, 2`),
      guidelineResults: all(`SELECT a.client_id, COUNT(*) AS n FROM guideline_results g
                             JOIN assets a ON a.id = g.asset_id GROUP BY a.client_id ORDER BY 1`),
      rollups: { brand: brandRollup(db), market: marketRollup(db), channel: channelRollup(db) },
    };
  } finally {
    db.$client.close();
  }
}

describe('a run killed with SIGKILL 20 times and run again each time', () => {
  it('ends like an uninterrupted run: nothing created twice, nothing lost, an intact database', async () => {
    const reference = await world('reference', false);
    const crashed = await world('crashed', true);
    const [first] = await Promise.all([
      runCli(['run'], { cwd: reference.dir, env: reference.env }),
      (async () => {
        const random = seededRandom(8);
        const moments: { ms: number; killed: boolean }[] = [];
        for (let i = 0; i < kills; i++) {
          const part = i / dropEvery;
          if (i > 0 && Number.isInteger(part) && part < parts.length) {
            writeFileSync(join(crashed.dir, 'manifests', `part-${part + 1}.csv`), parts[part] as string);
          }
          // From the run's first request to well into polling.
          const ms = Math.floor(random() * 2500);
          const before = crashed.simulator.requests().length;
          const { killed } = await runAndKill(ms, {
            cwd: crashed.dir,
            env: crashed.env,
            started: () => crashed.simulator.requests().length > before,
          });
          moments.push({ ms, killed });
        }
        return moments;
      })().then(async (moments) => {
        const killed = moments.filter((m) => m.killed).length;
        console.info(
          `crash: ${killed} of ${kills} runs killed mid-way (${moments.map((m) => m.ms).join(', ')} ms after their first request)`,
        );
        // How many land mid-run depends on the machine's speed; a third is a safe floor (10–14 is usual).
        expect(killed).toBeGreaterThanOrEqual(kills / 3);
        // The last run is left to finish.
        return runCli(['run'], { cwd: crashed.dir, env: crashed.env });
      }),
    ]);
    expect(first.stdout).toMatch(/completed/);

    const truth = outcome(reference.databasePath);
    const after = outcome(crashed.databasePath);
    expect(after.integrity).toBe('ok');

    // No media created twice: one per (id, version, source), as many as the reference made.
    const media = crashed.simulator.media();
    expect(new Set(media.map((m) => `${m.id}\u0000${m.version}\u0000${m.source}`)).size).toBe(media.length);
    expect(media.length).toBe(reference.simulator.media().length);

    // Every manifest row accounted for: an asset in a final state, or a recorded rejection.
    const dataRows = parts.reduce((n, content) => n + content.split('\n').length - 1, 0);
    expect(after.assets.length + after.rowsRejected.length).toBe(dataRows);
    // Final, or held back for a workspace that is not ours (and never sent).
    expect(
      (after.assets as { sync_state: string; last_error_kind: string | null }[]).every(
        (a) =>
          ['scored', 'unsupported', 'failed', 'forbidden'].includes(a.sync_state) ||
          (a.sync_state === 'pending' && a.last_error_kind === 'unknown-workspace'),
      ),
    ).toBe(true);

    expect(after.assets).toEqual(truth.assets);
    expect(after.rowsRejected).toEqual(truth.rowsRejected);
    expect(after.channelScores).toEqual(truth.channelScores);
    expect(after.guidelineResults).toEqual(truth.guidelineResults);
    expect(after.rollups).toEqual(truth.rollups);
    // Some kill did land after a submission took effect: the next run's resubmit was deduped.
    expect(crashed.simulator.stats().duplicateSubmits).toBeGreaterThan(0);
    const stats = crashed.simulator.stats();
    console.info(
      `crash: ${kills} runs started and killed at seeded moments; media created ${stats.mediaCreated}, ` +
        `resubmits deduped by the service ${stats.duplicateSubmits}, requests ${stats.requests} ` +
        `(uninterrupted: ${reference.simulator.stats().requests})`,
    );
  }, 180_000);
});
