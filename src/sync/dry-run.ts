// `run --dry-run`: what a run would do with the drop folder as it is, worked out on a copy of the
// database in memory. Nothing is written to the database, no file is moved, the service is not called.
import Database from 'better-sqlite3';
import { count } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/open';
import * as schema from '../db/schema';
import { type IntakeSummary, intake } from './intake';
import { type ManifestProblem, rejectedRows } from './run';
import { dueForSubmit } from './submit';
import { holdBackUnknownWorkspaces } from './workspace-check';

export interface DryRunResult {
  intake: IntakeSummary;
  /** Pending assets a run would submit now: new ones and those left from earlier runs. */
  wouldSubmit: number;
  /** Pending assets it would hold back, their workspace not the organization's. */
  heldBack: number;
  /** The manifest errors and warnings the reading would record. */
  problems: ManifestProblem[];
}

export async function dryRun(
  db: Db,
  options: {
    config: Pick<Config, 'manifestDir' | 'manifestSettleSeconds'>;
    clock: Clock;
    log: Parameters<typeof intake>[1]['log'];
  },
): Promise<DryRunResult> {
  const image = db.$client.serialize();
  // Bytes 18 and 19 of the header say WAL (2); an in-memory database cannot be one, so it is
  // marked a rollback-journal database (1), which is what it becomes (sqlite.org/fileformat.html).
  image[18] = 1;
  image[19] = 1;
  const copy = new Database(image);
  copy.pragma('foreign_keys = ON');
  const scratch = drizzle(copy, { schema }) as Db;
  try {
    const since = options.clock.now();
    const summary = await intake(scratch, {
      manifestDir: options.config.manifestDir,
      clock: options.clock,
      log: options.log,
      settleMs: options.config.manifestSettleSeconds * 1000,
    });
    const heldBack = holdBackUnknownWorkspaces(scratch, since);
    const { assets } = schema;
    const wouldSubmit = scratch.select({ n: count() }).from(assets).where(dueForSubmit(since)).get()?.n ?? 0;
    return { intake: summary, wouldSubmit, heldBack, problems: rejectedRows(scratch, since) };
  } finally {
    copy.close();
  }
}
