import { eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assetIssues, assets, guidelineResults, guidelines } from '../../src/db/schema';
import { harnessPerTest } from './harness';

/** A fresh harness for one test, closed after it. */
const harness = harnessPerTest();

async function world(options?: Parameters<typeof harness>[0]) {
  const h = await harness(options);
  h.manifest(
    'm.csv',
    [
      'id,url,workspaceId,channels,brands',
      'V-1,https://cdn.example.com/v1.mp4,1201,META;TIKTOK,Brand A',
      'V-2,https://cdn.example.com/v2.jpg,,META,Brand A',
      'V-3,https://cdn.example.com/v3.mp4,1205,,Brand B',
    ].join('\n'),
  );
  return h;
}

describe('collecting scores', () => {
  it('links every detail row to its discovered guideline, twins of the same name included', async () => {
    const h = await world();
    await h.run();
    const rows = h.db.select().from(guidelineResults).all();
    expect(rows.length).toBeGreaterThan(20);
    expect(h.db.select().from(guidelineResults).where(isNull(guidelineResults.guidelineId)).all()).toEqual(
      [],
    );
    // Each linked guideline has the row's channel and name; a workspace's twin is linked to the workspace's own.
    const byId = new Map(
      h.db
        .select()
        .from(guidelines)
        .all()
        .map((g) => [g.id, g]),
    );
    for (const row of rows) {
      const g = byId.get(row.guidelineId as string);
      expect([g?.channel, g?.name]).toEqual([row.channel, row.name]);
    }
    const v1 = h.db.select().from(assets).where(eq(assets.clientId, 'V-1')).get();
    const linkedToWorkspace = h.db
      .select({ workspaceId: guidelines.workspaceId })
      .from(guidelineResults)
      .innerJoin(guidelines, eq(guidelines.id, guidelineResults.guidelineId))
      .where(eq(guidelineResults.assetId, v1?.id as number))
      .all()
      .filter((r) => r.workspaceId !== null);
    expect(linkedToWorkspace.length).toBeGreaterThan(0);
    expect(linkedToWorkspace.every((r) => r.workspaceId === 1201)).toBe(true);
  });

  it('records a score whose summary disagrees with its detail against the asset, and scores it anyway', async () => {
    const h = await world({ simulator: { inconsistentScores: ['V-2'] } });
    const { run } = await h.run();
    expect(run.outcome).toBe('completed');
    const v2 = h.db.select().from(assets).where(eq(assets.clientId, 'V-2')).get();
    expect(v2?.syncState).toBe('scored');
    // One PASS too many: the counts no longer add up, and they disagree with the detail.
    const issues = h.db.select().from(assetIssues).all();
    expect(issues.map((i) => [i.assetId, i.kind, i.channel])).toEqual([
      [v2?.id, 'inconsistent-score', 'META'],
      [v2?.id, 'inconsistent-score', 'META'],
    ]);
    expect(issues[0]?.message).toMatch(/^applicable count \d+ ≠ pass \d+ \+ fail/);
    expect(issues[1]?.message).toMatch(
      /^summary and detail disagree: pass (\d+) in the summary, \d+ in the detail$/,
    );
  });
});
