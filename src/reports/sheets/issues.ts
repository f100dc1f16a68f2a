// Issues: everything that needs a person — rejected manifest rows and warnings, assets the service would
// not or could not score, stalled assets, and inconsistent scores — each with what to do about it.
import { type Column, type SheetBuilder, TableWriter, type Value, versionsNote } from '../layout';
import {
  assetIssueRows,
  flaggedUrlRows,
  issueRowCount,
  manifestErrorRows,
  type ProblemState,
  problemAssetRows,
} from '../rows';
import { STATE_REASONS } from './assets';

export const ISSUE_KINDS = {
  manifestError: 'Manifest row rejected',
  manifestWarning: 'Manifest row warning',
  inconsistency: 'Score inconsistency',
  flaggedUrl: 'URL likely to fail silently',
} as const;

/** The Kind column of an asset in a problem state. */
export const ASSET_KINDS: Record<ProblemState, string> = {
  rejected: 'Asset rejected by the service',
  forbidden: 'Asset in a workspace not ours',
  held: 'Asset held back: workspace not ours',
  unsupported: 'Asset unsupported',
  failed: 'Asset failed',
  stalled: 'Asset stalled',
};

export const WHAT_TO_DO = {
  manifestError: 'Fix this row in the file and save it; the next run reads the changed file again.',
  manifestWarning: 'The row went in. Check the field; if it matters, fix the row and save the file.',
  rejected: 'Read the reason, fix the row in the manifest and give the asset a new version.',
  forbidden:
    'Use a workspace your organization owns (`npx creative-sync doctor` lists them), then give the asset a new version.',
  held: 'Put a workspace your organization owns (`npx creative-sync doctor` lists them) in the manifest, or leave it empty; the next run submits the asset.',
  unsupported:
    'Check that the file is a kind of media the service scores; give a supported file a new version.',
  failed:
    'Check that the URL opens the media itself (no log-in page or redirect), then give the asset a new ' +
    "version. If it fails again, send the trace ID to the service's support.",
  stalled:
    "Nothing yet: it is still polled. If it stays stalled for days, send the trace ID to the service's support.",
  flaggedUrl:
    'Fix the url in the manifest (a direct, public link to the file). If the asset was already submitted, give it a new version too.',
  inconsistency:
    "Treat this score with care. Send the asset ID and trace ID to the service's support; a new version rescores it.",
} as const;

const SEVERITY: Record<ProblemState, 'error' | 'warning'> = {
  rejected: 'error',
  forbidden: 'error',
  held: 'error',
  unsupported: 'error',
  failed: 'error',
  stalled: 'warning',
};

export const issuesSheet: SheetBuilder = {
  name: 'Issues',
  async build(ctx) {
    const columns: Column[] = [
      { header: 'Kind', width: 24, kind: 'text' },
      { header: 'Severity', width: 9, kind: 'text' },
      { header: 'Manifest file', width: 28, kind: 'text' },
      { header: 'Line', width: 7, kind: 'integer' },
      { header: 'Field', width: 12, kind: 'text' },
      { header: 'Value', width: 18, kind: 'text' },
      { header: 'Asset ID', width: 18, kind: 'text' },
      { header: 'Version', width: 9, kind: 'text' },
      { header: 'Source', width: 10, kind: 'text' },
      { header: 'Channel', width: 10, kind: 'text' },
      { header: 'What happened', width: 45, kind: 'text', wrap: true },
      { header: 'Trace ID', width: 20, kind: 'text' },
      { header: 'What to do', width: 60, kind: 'text', wrap: true },
    ];
    const note =
      'One row per problem: manifest rows rejected (error) or loaded with a warning; assets the service ' +
      'rejected, refused or held back (workspace not ours), could not score (unsupported, failed) or has had too long ' +
      '(stalled); urls the pre-flight check expects to fail silently; and scores whose summary disagrees with their detail. Line: the CSV line or JSON item. ' +
      `Trace ID: what the service's support asks for. ${versionsNote(ctx.options)}`;
    const scope = ctx.rollups.scope;
    const table = new TableWriter(
      ctx,
      { name: 'Issues', title: 'Issues to look at', note, columns, frozenColumns: 2 },
      issueRowCount(ctx.db, scope),
    );
    const add = (values: Value[]) => table.add(values);

    for (const e of manifestErrorRows(ctx.db)) {
      const error = e.severity === 'error';
      await add([
        error ? ISSUE_KINDS.manifestError : ISSUE_KINDS.manifestWarning,
        e.severity,
        e.path,
        e.line,
        e.field,
        e.value,
        null,
        null,
        null,
        null,
        e.message,
        null,
        error ? WHAT_TO_DO.manifestError : WHAT_TO_DO.manifestWarning,
      ]);
    }
    for (const a of problemAssetRows(ctx.db, scope)) {
      await add([
        ASSET_KINDS[a.syncState],
        SEVERITY[a.syncState],
        a.manifestPath,
        a.manifestLine,
        null,
        null,
        a.clientId,
        a.version,
        a.source,
        null,
        a.lastError ?? (a.syncState === 'held' ? null : STATE_REASONS[a.syncState]) ?? null,
        a.lastTraceId,
        WHAT_TO_DO[a.syncState],
      ]);
    }
    for (const f of flaggedUrlRows(ctx.db, scope)) {
      await add([
        ISSUE_KINDS.flaggedUrl,
        'warning',
        f.manifestPath,
        f.manifestLine,
        'url',
        f.url,
        f.clientId,
        f.version,
        f.source,
        null,
        f.urlFlag,
        null,
        WHAT_TO_DO.flaggedUrl,
      ]);
    }
    for (const i of assetIssueRows(ctx.db, scope)) {
      await add([
        ISSUE_KINDS.inconsistency,
        'warning',
        null,
        null,
        null,
        null,
        i.clientId,
        i.version,
        i.source,
        i.channel,
        `${i.kind}: ${i.message}`,
        i.lastTraceId,
        WHAT_TO_DO.inconsistency,
      ]);
    }
    table.finish();
  },
};
