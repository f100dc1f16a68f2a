// The report's figures computed a second way, without src/reports: plain SELECTs, "newest" as "no later row
// with the same client id and source", and the arithmetic in JavaScript. Fine for test-sized databases.
import type Database from 'better-sqlite3';

/** The ids and states of the newest version of each (client id, source). */
export function newestAssets(sqlite: Database.Database): Map<number, string> {
  const rows = sqlite
    .prepare<[], { id: number; sync_state: string }>(
      `SELECT id, sync_state FROM assets a WHERE NOT EXISTS
         (SELECT 1 FROM assets b WHERE b.client_id = a.client_id AND b.source = a.source AND b.id > a.id)`,
    )
    .all();
  return new Map(rows.map((a) => [a.id, a.sync_state]));
}

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export const mean = (xs: number[]) => (xs.length === 0 ? null : sum(xs) / xs.length);
export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export interface Expected {
  assets: number;
  scored: number;
  scoresCounted: number;
  meanScore: number | null;
  medianScore: number | null;
  meanAdherence: number | null;
  pass: number;
  fail: number;
  notApplicable: number;
  notAvailable: number;
  unsupported: number;
  failed: number;
}

export interface ScoreRow {
  asset_id: number;
  channel: string;
  score: number | null;
  adherence: number | null;
  pass_count: number;
  fail_count: number;
  not_applicable_count: number;
  not_available_count: number;
}

/**
 * The rollups computed a second way, without rollups.ts: plain SELECTs, "newest" as "no later row with the
 * same client id and source", and the arithmetic in JavaScript.
 */
export function expectedRollup(
  sqlite: Database.Database,
  by: 'brand' | 'market' | 'channel',
): Map<string, Expected> {
  const state = newestAssets(sqlite);
  const scores = sqlite.prepare<[], ScoreRow>('SELECT * FROM channel_scores').all();

  const membership =
    by === 'channel'
      ? sqlite
          .prepare<[], { asset_id: number; key: string }>(
            'SELECT asset_id, channel AS key FROM asset_channels UNION ALL SELECT asset_id, channel FROM channel_scores',
          )
          .all()
      : sqlite
          .prepare<[], { asset_id: number; key: string }>(`SELECT asset_id, ${by} AS key FROM asset_${by}s`)
          .all();
  const members = new Map<string, Set<number>>();
  for (const m of membership) {
    if (!state.has(m.asset_id)) continue;
    const set = members.get(m.key) ?? new Set<number>();
    set.add(m.asset_id);
    members.set(m.key, set);
  }
  const grouped = new Set([...members.values()].flatMap((s) => [...s]));
  const none = new Set([...state.keys()].filter((id) => !grouped.has(id)));
  if (none.size > 0) members.set('(none)', none);

  const result = new Map<string, Expected>();
  for (const [key, ids] of members) {
    const rows = scores.filter((s) =>
      by === 'channel' ? s.channel === key && state.has(s.asset_id) : ids.has(s.asset_id),
    );
    const values = rows.map((r) => r.score).filter((v): v is number => v !== null);
    const adherence = rows.map((r) => r.adherence).filter((v): v is number => v !== null);
    const countState = (s: string) => [...ids].filter((id) => state.get(id) === s).length;
    result.set(key, {
      assets: ids.size,
      scored: countState('scored'),
      scoresCounted: rows.length,
      meanScore: mean(values),
      medianScore: median(values),
      meanAdherence: mean(adherence),
      pass: sum(rows.map((r) => r.pass_count)),
      fail: sum(rows.map((r) => r.fail_count)),
      notApplicable: sum(rows.map((r) => r.not_applicable_count)),
      notAvailable: sum(rows.map((r) => r.not_available_count)),
      unsupported: countState('unsupported'),
      failed: countState('failed'),
    });
  }
  return result;
}
