// The figures of one workbook, each computed at most once: the Overview's charts and best/worst lists and
// the By… sheets' tables then read the very same rows, so they can never disagree.
import type { Db } from '../db/open';
import {
  brandRollup,
  channelRollup,
  type Freshness,
  freshness,
  type GroupRollupRow,
  type InFlight,
  inFlight,
  type MatrixCell,
  marketRollup,
  overallRollup,
  type RollupScope,
  scoredChannels,
  scoreMatrix,
  stateCounts,
} from './rollups';

export interface Rollups {
  scope: RollupScope;
  brand(): GroupRollupRow[];
  market(): GroupRollupRow[];
  channel(): GroupRollupRow[];
  overall(): GroupRollupRow;
  brandMatrix(): MatrixCell[];
  marketMatrix(): MatrixCell[];
  scoredChannels(): string[];
  states(): ReturnType<typeof stateCounts>;
  inFlight(): InFlight;
  freshness(): Freshness;
}

export function rollupCache(db: Db, scope: RollupScope): Rollups {
  return {
    scope,
    brand: once(() => brandRollup(db, scope)),
    market: once(() => marketRollup(db, scope)),
    channel: once(() => channelRollup(db, scope)),
    overall: once(() => overallRollup(db, scope)),
    brandMatrix: once(() => scoreMatrix(db, 'brand', scope)),
    marketMatrix: once(() => scoreMatrix(db, 'market', scope)),
    scoredChannels: once(() => scoredChannels(db, scope)),
    states: once(() => stateCounts(db, scope)),
    inFlight: once(() => inFlight(db, scope)),
    freshness: once(() => freshness(db)),
  };
}

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
