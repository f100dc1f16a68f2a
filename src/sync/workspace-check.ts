// Holds back pending assets whose workspace is not one of the organization's (as discovery last saw
// them): the service would refuse each with a 403, so they wait, with the reason, until the manifest
// names a workspace of ours or the workspace appears. Nothing is held while no workspace is known.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { assets, organizations, workspaces } from '../db/schema';

export const unknownWorkspaceKind = 'unknown-workspace';

/** The workspaces of the organization discovery saw last (the key may have changed since others were seen). */
const ours = sql`(SELECT ${workspaces.id} FROM ${workspaces} WHERE ${workspaces.organizationId} =
  (SELECT ${organizations.id} FROM ${organizations} ORDER BY ${organizations.fetchedAt} DESC LIMIT 1))`;

/** The condition on `assets` that an asset's workspace, if it names one, is ours (or none is known). */
export const workspaceKnown = sql`(${assets.workspaceId} IS NULL
  OR NOT EXISTS ${ours}
  OR ${assets.workspaceId} IN ${ours})`;

/** Marks the pending assets held back and clears the mark of those no longer held; returns how many are held. */
export function holdBackUnknownWorkspaces(db: Db, now: number): number {
  const known = db
    .all<{ id: number }>(
      sql`SELECT ${workspaces.id} AS id FROM ${workspaces} WHERE ${workspaces.id} IN ${ours} ORDER BY 1`,
    )
    .map((w) => w.id);
  const list = known.length > 12 ? `${known.slice(0, 12).join(', ')}, …` : known.join(', ');
  return db.$client.transaction(() => {
    db.run(sql`UPDATE ${assets} SET last_error = NULL, last_error_kind = NULL, updated_at = ${now}
      WHERE ${assets.lastErrorKind} = ${unknownWorkspaceKind} AND (${assets.syncState} <> 'pending' OR ${workspaceKnown})`);
    if (known.length === 0) return 0;
    const held = db.run(sql`UPDATE ${assets}
      SET last_error = 'workspace ' || ${assets.workspaceId} || ${` is not one of your organization's workspaces (${list}), so it is held back rather than refused by the service: put a workspace id that \`creative-sync doctor\` lists in the manifest's workspaceId, or leave it empty for your organization's own guidelines; the next run submits it`},
        last_error_kind = ${unknownWorkspaceKind}, last_trace_id = NULL, updated_at = ${now}
      WHERE ${assets.syncState} = 'pending' AND NOT ${workspaceKnown}`);
    return held.changes;
  })();
}
