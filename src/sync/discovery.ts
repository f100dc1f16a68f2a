// Discovery: who the key belongs to and which workspaces it sees, kept in the database so
// reports can name workspaces and `doctor` can say what the key reaches.
import { organizations, workspaces } from '../db/schema';
import type { Organization } from './api/schemas';
import type { StageContext } from './context';

export interface DiscoveryResult {
  organization: Organization;
  workspaceCount: number;
}

export async function discover(ctx: Pick<StageContext, 'db' | 'api' | 'clock'>): Promise<DiscoveryResult> {
  const organization = await ctx.api.getOrganization();
  const list = await ctx.api.listWorkspaces();
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    tx.insert(organizations)
      .values({ id: organization.id, name: organization.name, fetchedAt: now })
      .onConflictDoUpdate({ target: organizations.id, set: { name: organization.name, fetchedAt: now } })
      .run();
    for (const ws of list) {
      tx.insert(workspaces)
        .values({ id: ws.id, organizationId: organization.id, name: ws.name, fetchedAt: now })
        .onConflictDoUpdate({
          target: workspaces.id,
          set: { organizationId: organization.id, name: ws.name, fetchedAt: now },
        })
        .run();
    }
  });
  return { organization, workspaceCount: list.length };
}
