// A manifest row naming a workspace the organization does not have: held back with the reason
// instead of earning a 403 from the service, and submitted once the manifest names one of ours.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assets } from '../../src/db/schema';
import { readSheet, readWorkbook, records } from '../reports/read-back';
import { harnessPerTest } from './harness';

const world = harnessPerTest();
const manifest = (workspace: number) =>
  `id,url,workspaceId\nW-1,https://cdn.example.com/w1.mp4,1201\nW-2,https://cdn.example.com/w2.mp4,${workspace}\n`;

describe('the workspace check', () => {
  it('holds back an asset whose workspace is not ours, says why in the Issues sheet, and submits it once fixed', async () => {
    const h = await world();
    h.manifest('night.csv', manifest(9901));
    const first = await h.run();

    const w2 = () => h.db.select().from(assets).where(eq(assets.clientId, 'W-2')).get();
    expect(w2()).toMatchObject({ syncState: 'pending', lastErrorKind: 'unknown-workspace', uniqueId: null });
    expect(w2()?.lastError).toMatch(
      /^workspace 9901 is not one of your organization's workspaces \(1201, \d+.*\), so it is held back rather than refused by the service: /,
    );
    const submits = () => h.simulator.requests().filter((r) => r.method === 'POST' && r.path === '/v1/media');
    expect(submits()).toHaveLength(1); // W-1 only
    expect(h.simulator.media().map((m) => m.id)).toEqual(['W-1']);

    const issues = records(readSheet(await readWorkbook(first.reportPath as string), 'Issues'));
    expect(issues.filter((r) => r['Asset ID'] === 'W-2')).toEqual([
      expect.objectContaining({
        Kind: 'Asset held back: workspace not ours',
        Severity: 'error',
        'What happened': w2()?.lastError,
        'What to do': expect.stringMatching(/^Put a workspace your organization owns/),
      }),
    ]);

    h.manifest('night.csv', manifest(1202));
    await h.run();
    expect(w2()).toMatchObject({ workspaceId: 1202, lastErrorKind: null, lastError: null });
    expect(w2()?.syncState).not.toBe('pending');
    expect(h.simulator.media().map((m) => m.id)).toEqual(['W-1', 'W-2']);
  });
});
