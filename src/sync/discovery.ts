// Discovery: who the key belongs to, which workspaces it sees and every guideline that can
// score an asset, kept in the database so reports can name them and explain each result.
// The organization is asked every run (one call, and it proves the key works); workspaces
// and guidelines change rarely, so they are refreshed at most once a day unless asked.
import { max } from 'drizzle-orm';
import { guidelines, organizations, workspaces } from '../db/schema';
import type { Organization } from './api/schemas';
import type { StageContext } from './context';

const refreshEveryMs = 24 * 3_600_000;

export interface DiscoveryResult {
  organization: Organization;
  /** Undefined when workspaces and guidelines were still fresh and not asked for again. */
  refreshed?: { workspaceCount: number; guidelineCount: number };
}

/** Whether discovery should call the service now: never done, a day old, or asked for. */
export function discoveryDue(lastFetchedAt: number | null, now: number, force = false): boolean {
  return force || lastFetchedAt === null || now - lastFetchedAt >= refreshEveryMs;
}

export async function discover(
  ctx: Pick<StageContext, 'db' | 'api' | 'clock'>,
  options: { force?: boolean } = {},
): Promise<DiscoveryResult> {
  const organization = await ctx.api.getOrganization();
  ctx.db
    .insert(organizations)
    .values({ id: organization.id, name: organization.name, fetchedAt: ctx.clock.now() })
    .onConflictDoUpdate({
      target: organizations.id,
      set: { name: organization.name, fetchedAt: ctx.clock.now() },
    })
    .run();
  const last =
    ctx.db
      .select({ at: max(workspaces.fetchedAt) })
      .from(workspaces)
      .get()?.at ?? null;
  if (!discoveryDue(last, ctx.clock.now(), options.force)) return { organization };

  const list = await ctx.api.listWorkspaces();
  const criteria = await ctx.api.listGuidelines(list.map((w) => w.id));
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    for (const ws of list) {
      tx.insert(workspaces)
        .values({ id: ws.id, organizationId: organization.id, name: ws.name, fetchedAt: now })
        .onConflictDoUpdate({
          target: workspaces.id,
          set: { organizationId: organization.id, name: ws.name, fetchedAt: now },
        })
        .run();
    }
    // The service's list is the truth: a guideline it no longer lists is gone.
    tx.delete(guidelines).run();
    for (const criterion of criteria) {
      tx.insert(guidelines)
        .values({ ...criterion, fetchedAt: now })
        .onConflictDoUpdate({ target: guidelines.id, set: { ...criterion, fetchedAt: now } })
        .run();
    }
  });
  return { organization, refreshed: { workspaceCount: list.length, guidelineCount: criteria.length } };
}
