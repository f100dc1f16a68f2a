// A run's world with the service misbehaving: the harness's temp folder, SQLite file and
// simulator (here with seeded faults), and a client whose retries sleep on the simulated
// clock and draw their jitter from a seed, so a faulty run takes no real time to wait out.
import { loadConfig } from '../../src/config';
import { seededRandom } from '../../src/random';
import { brandRollup, channelRollup, marketRollup } from '../../src/reports/rollups';
import { DEMO_API_KEY, type FaultOptions } from '../../src/simulator';
import { ApiClient } from '../../src/sync/api/client';
import { type RunResult, runOnce } from '../../src/sync/run';
import { createHarness, type Harness, silentLog } from '../sync/harness';

export interface FaultWorld extends Harness {
  /** One run with a fresh client (as a new process would have); the client is kept for its counts. */
  runWithPolicy(options?: { env?: Record<string, string>; breakerThreshold?: number }): Promise<{
    result: RunResult;
    api: ApiClient;
  }>;
}

export async function faultWorld(
  options: { faults?: FaultOptions; env?: Record<string, string> } = {},
): Promise<FaultWorld> {
  const h = await createHarness({ env: options.env, simulator: { faults: options.faults } });
  let runs = 0;
  return Object.assign(h, {
    async runWithPolicy(runOptions: { env?: Record<string, string>; breakerThreshold?: number } = {}) {
      runs++;
      const api = new ApiClient({
        baseUrl: h.simulator.url,
        apiKey: DEMO_API_KEY,
        requestsPerSecond: 1000,
        concurrency: 8,
        // undici's timers tick about once a second: a 'slow' answer (2.5 s) times out after ~1 s.
        timeoutMs: 100,
        sleep: (ms) => h.clock.sleep(ms),
        random: seededRandom(runs),
        ...(runOptions.breakerThreshold ? { breakerThreshold: runOptions.breakerThreshold } : {}),
      });
      const config = runOptions.env
        ? loadConfig({
            env: {
              SCORING_API_URL: h.simulator.url,
              SCORING_API_KEY: DEMO_API_KEY,
              MANIFEST_DIR: h.config.manifestDir,
              MANIFEST_SETTLE_SECONDS: '0',
              URL_PREFLIGHT: 'false',
              DATABASE_PATH: h.config.databasePath,
              REPORT_DIR: h.config.reportDir,
              ...options.env,
              ...runOptions.env,
            },
            cwd: h.dir,
          })
        : h.config;
      const result = await runOnce(h.db, { config, api, clock: h.clock, log: silentLog });
      return { result, api };
    },
  });
}

/**
 * Everything a run leaves that must not depend on how the service behaved on the way: the
 * assets' outcomes, their scores and guideline results, discovery, and the report's rollups.
 * Times, ids and attempt counters are left out: they rightly differ.
 */
export function outcomeSnapshot(h: Harness) {
  const all = (sql: string) => h.db.$client.prepare(sql).all();
  return {
    assets: all(`SELECT client_id, version, source, url, workspace_id, unique_id, remote_status, sync_state,
                        media_type, last_error_kind, manifest_line
                 FROM assets ORDER BY client_id, version, source`),
    channelScores: all(`SELECT a.client_id, c.channel, c.score, c.adherence, c.pass_count, c.fail_count,
                               c.applicable_count, c.not_applicable_count, c.not_available_count
                        FROM channel_scores c JOIN assets a ON a.id = c.asset_id
                        ORDER BY a.client_id, c.channel`),
    guidelineResults: all(`SELECT a.client_id, g.channel, g.name, g.rule, g.result, g.weight
                           FROM guideline_results g JOIN assets a ON a.id = g.asset_id
                           ORDER BY a.client_id, g.channel, g.name, g.weight, g.result, g.rule`),
    manifestErrors: all('SELECT line, field, message FROM manifest_errors ORDER BY line, field'),
    organizations: all('SELECT id, name FROM organizations ORDER BY id'),
    workspaces: all('SELECT id, name FROM workspaces ORDER BY id'),
    rollups: { brand: brandRollup(h.db), market: marketRollup(h.db), channel: channelRollup(h.db) },
  };
}

/** Per asset (status path), the requests of each logical poll: retries share an x-request-id. */
export function statusPollsByAsset(h: Harness): Map<string, { requestId: string; times: number[] }[]> {
  const byAsset = new Map<string, { requestId: string; times: number[] }[]>();
  for (const r of h.simulator.requests()) {
    const match = /^\/v1\/media\/([^/]+)\/status$/.exec(r.path);
    if (!match?.[1] || r.query !== '') continue;
    const requestId = String(r.headers['x-request-id']);
    const polls = byAsset.get(match[1]) ?? [];
    const last = polls.at(-1);
    if (last?.requestId === requestId) last.times.push(r.at);
    else polls.push({ requestId, times: [r.at] });
    byAsset.set(match[1], polls);
  }
  return byAsset;
}
