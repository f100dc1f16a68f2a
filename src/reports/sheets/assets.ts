// Assets: one row per asset, with its score on each channel and why it did not score; continued on
// `Assets (2)`… when there are more assets than one Excel sheet holds.
import type { SyncState } from '../../db/schema';
import { excelLocalDate } from '../cells';
import { type Column, SCORE_DEFINITION, type SheetBuilder, TableWriter, versionsNote } from '../layout';
import { countedAssets } from '../rollups';
import { type AssetReportRow, assetRows } from '../rows';

export const STATE_REASONS: Partial<Record<SyncState, string>> = {
  unsupported: 'The service cannot score this kind of media (UNSUPPORTED).',
  failed: 'The service could not process this media (FAILED).',
  rejected: 'The service refused the submission.',
  forbidden: "The API key's organization does not own this workspace.",
  stalled: 'In flight longer than the configured limit; still being polled.',
};

/** Why an asset has no scores yet (or never will); null once scored. */
export function notScoredReason(row: Pick<AssetReportRow, 'syncState' | 'lastError'>): string | null {
  if (row.syncState === 'scored') return null;
  return row.lastError ?? STATE_REASONS[row.syncState] ?? null;
}

export const assetsSheet: SheetBuilder = {
  name: 'Assets',
  async build(ctx) {
    const channels = ctx.rollups.scoredChannels();
    const columns: Column[] = [
      { header: 'ID', width: 18, kind: 'text' },
      { header: 'Version', width: 10, kind: 'text' },
      { header: 'Source', width: 12, kind: 'text' },
      { header: 'Name', width: 30, kind: 'text' },
      { header: 'Brands', width: 18, kind: 'text' },
      { header: 'Markets', width: 14, kind: 'text' },
      { header: 'Channels asked for', width: 18, kind: 'text' },
      { header: 'Workspace ID', width: 11, kind: 'integer' },
      { header: 'Workspace', width: 18, kind: 'text' },
      { header: 'Sync state', width: 12, kind: 'text' },
      { header: 'Remote status', width: 13, kind: 'text' },
      ...channels.map((channel): Column => ({ header: `${channel} score`, width: 10, kind: 'percent' })),
      { header: 'Tags', width: 8, kind: 'integer' },
      { header: 'Submitted at', width: 17, kind: 'date' },
      { header: 'Completed at', width: 17, kind: 'date' },
      { header: 'Manifest file', width: 30, kind: 'text' },
      { header: 'Manifest line', width: 10, kind: 'integer' },
      { header: 'Why not scored', width: 40, kind: 'text' },
      { header: 'Trace ID', width: 20, kind: 'text' },
      { header: 'URL', width: 40, kind: 'text' },
    ];
    const note =
      `One row per asset. ${versionsNote(ctx.options)} ` +
      `${SCORE_DEFINITION} A channel's score is blank when the asset was not scored on it. ` +
      'Tags: rows of the tagging reports for the asset (0 when untagged). ' +
      'Why not scored: the last error, or what the state means; Trace ID is what support asks for. ' +
      'Times are local.';
    const scope = ctx.rollups.scope;
    const table = new TableWriter(
      ctx,
      { name: 'Assets', title: 'Creative assets', note, columns },
      countedAssets(ctx.db, scope),
    );
    for (const r of assetRows(ctx.db, scope)) {
      await table.add([
        r.clientId,
        r.version,
        r.source,
        r.name,
        r.brands,
        r.markets,
        r.channels,
        r.workspaceId,
        r.workspaceName,
        r.syncState,
        r.remoteStatus,
        ...channels.map((channel) => r.scores[channel] ?? null),
        r.tags,
        excelLocalDate(r.submittedAt),
        excelLocalDate(r.completedAt),
        r.manifestPath,
        r.manifestLine,
        notScoredReason(r),
        r.lastTraceId,
        r.url,
      ]);
    }
    table.finish();
  },
};
