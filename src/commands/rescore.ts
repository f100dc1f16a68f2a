// `creative-sync rescore`: new versions of chosen assets, submitted by the next run.
import { createRescoreVersions, selectForRescore } from '../sync/rescore';
import { UserError } from './handle-error';
import type { Flags } from './program';
import { setup } from './setup';

export interface RescoreOptions {
  id?: string[];
  brand?: string[];
  rescoreLater?: boolean;
  dryRun?: boolean;
}

export async function rescoreCommand(flags: Flags, options: RescoreOptions): Promise<void> {
  if (!options.id?.length && !options.brand?.length && !options.rescoreLater) {
    throw new UserError('Say which assets to re-score: --id <id…>, --brand <brand…> or --rescore-later.');
  }
  const { db } = setup(flags);
  try {
    const picks = selectForRescore(db, {
      ids: options.id,
      brands: options.brand,
      rescoreLater: options.rescoreLater,
    });
    if (picks.length === 0) {
      process.stdout.write('Nothing matches: no asset to re-score.\n');
      return;
    }
    const now = new Date();
    const date = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    if (options.dryRun) {
      process.stdout.write(
        `Would create a new version of ${picks.length} assets (dry run, nothing changed):\n`,
      );
      for (const p of picks)
        process.stdout.write(`  ${p.clientId} ${p.version || '(no version)'}: ${p.reason}\n`);
      return;
    }
    const created = createRescoreVersions(db, picks, { now: now.getTime(), date });
    process.stdout.write(`Created ${created.length} new versions; the next run submits them:\n`);
    for (const c of created) process.stdout.write(`  ${c.clientId} → version ${c.version}\n`);
  } finally {
    db.$client.close();
  }
}
