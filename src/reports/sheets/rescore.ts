// Rescore: the assets worth scoring again, because some of their results carry a NO_DATA code
// that means "not yet" rather than "never", with what to run to do it.
import { eq } from 'drizzle-orm';
import { assets } from '../../db/schema';
import { noDataMeaning } from '../../sync/no-data';
import { rescoreLaterCandidates } from '../../sync/rescore';
import { type Column, type SheetBuilder, TableWriter } from '../layout';

export const rescoreSheet: SheetBuilder = {
  name: 'Rescore',
  async build(ctx) {
    const picks = rescoreLaterCandidates(ctx.db);
    const columns: Column[] = [
      { header: 'ID', width: 18, kind: 'text' },
      { header: 'Version', width: 12, kind: 'text' },
      { header: 'Source', width: 12, kind: 'text' },
      { header: 'Name', width: 30, kind: 'text' },
      { header: 'Why', width: 50, kind: 'text', wrap: true },
      { header: 'What to do', width: 60, kind: 'text', wrap: true },
    ];
    const note =
      'Assets (newest version) with results the service could not evaluate yet. Re-scoring needs a new version: ' +
      '`npx creative-sync rescore --rescore-later` creates one for each asset listed here, and the next run submits them.';
    const table = new TableWriter(
      ctx,
      { name: 'Rescore', title: 'Worth re-scoring', note, columns, frozenColumns: 1 },
      picks.length,
    );
    for (const pick of picks) {
      const name = ctx.db
        .select({ name: assets.name })
        .from(assets)
        .where(eq(assets.id, pick.assetId))
        .get()?.name;
      const firstCode = pick.reason.split(' on ')[0] ?? '';
      await table.add([
        pick.clientId,
        pick.version,
        pick.source,
        name ?? null,
        pick.reason,
        `${noDataMeaning(firstCode).advice} Or: npx creative-sync rescore --id ${pick.clientId}`,
      ]);
    }
    table.finish();
  },
};
