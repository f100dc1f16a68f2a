import { isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { guidelines, organizations, workspaces } from '../../src/db/schema';
import { DEMO_API_KEY } from '../../src/simulator';
import { ApiClient } from '../../src/sync/api/client';
import { discover, discoveryDue } from '../../src/sync/discovery';
import { type Harness, harnessPerTest } from './harness';

/** A fresh harness for one test, closed after it. */
const harness = harnessPerTest();

async function world() {
  const h = await harness();
  const api = new ApiClient({ baseUrl: h.simulator.url, apiKey: DEMO_API_KEY, requestsPerSecond: 1000 });
  return { h, ctx: { db: h.db, api, clock: h.clock } };
}

const criteriaCalls = (h: Harness) =>
  h.simulator.requests().filter((r) => r.path === '/v1/scoring/criteria/metadata');

describe('discovery', () => {
  it('stores the organization, every workspace and every guideline, following all pages', async () => {
    const { h, ctx } = await world();
    const found = await discover(ctx);

    expect(found.organization.name).toBe('Northwind Brands');
    expect(h.db.select().from(organizations).all()).toHaveLength(1);
    expect(h.db.select().from(workspaces).all()).toHaveLength(12);
    const stored = h.db.select().from(guidelines).all();
    expect(found.refreshed).toEqual({ workspaceCount: 12, guidelineCount: stored.length });
    // At most 20 per page: several pages were needed, and each page asked for the next offset.
    const calls = criteriaCalls(h);
    expect(calls.length).toBe(Math.ceil(stored.length / 20) + (stored.length % 20 === 0 ? 1 : 0));
    expect(calls.map((c) => new URLSearchParams(c.query).get('offset'))).toEqual(
      calls.map((_, i) => String(i * 20)),
    );
    expect(stored.filter((g) => g.organizationLevel).length).toBeGreaterThan(0);
    expect(
      h.db.select().from(guidelines).where(isNotNull(guidelines.workspaceId)).all().length,
    ).toBeGreaterThan(0);
  });

  it('keeps the author (personal data) out of the database', async () => {
    const { h, ctx } = await world();
    await discover(ctx);
    const bytes = JSON.stringify(h.db.select().from(guidelines).all());
    expect(bytes).not.toMatch(/@northwind\.example|Ana Lima|Tom Becker|Mei Chen/);
    expect(bytes).toContain('Brand Logo Present');
  });

  it('refreshes workspaces and guidelines at most once a day, but checks the organization every run', async () => {
    const { h, ctx } = await world();
    await discover(ctx);
    h.clock.advance(23 * 3_600_000);
    const again = await discover(ctx);
    expect(again.refreshed).toBeUndefined();
    const callsBefore = criteriaCalls(h).length;
    expect((await discover(ctx, { force: true })).refreshed).toBeDefined();
    h.clock.advance(25 * 3_600_000);
    expect((await discover(ctx)).refreshed).toBeDefined();
    expect(criteriaCalls(h).length).toBe(callsBefore * 3);
    expect(h.simulator.requests().filter((r) => r.path === '/v1/organization')).toHaveLength(4);
  });

  it('decides freshness as a pure function', () => {
    const day = 24 * 3_600_000;
    expect(discoveryDue(null, 0)).toBe(true);
    expect(discoveryDue(0, day - 1)).toBe(false);
    expect(discoveryDue(0, day)).toBe(true);
    expect(discoveryDue(0, 1, true)).toBe(true);
  });
});
