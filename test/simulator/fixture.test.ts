import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY, defaultFixture } from '../../src/simulator/index';

const fixture = defaultFixture();
const [northwind, globex] = fixture.organizations;

describe('defaultFixture', () => {
  it('gives Northwind Brands the demo key and twelve workspaces 1201–1212, Globex its own key and 9901', () => {
    expect(northwind?.name).toBe('Northwind Brands');
    expect(northwind?.apiKey).toBe(DEMO_API_KEY);
    expect(northwind?.workspaces.map((w) => w.id)).toEqual(Array.from({ length: 12 }, (_, i) => 1201 + i));
    expect(globex?.name).toBe('Globex Retail');
    expect(globex?.apiKey).not.toBe(DEMO_API_KEY);
    expect(globex?.workspaces.map((w) => w.id)).toEqual([9901]);
  });

  it('has 8–15 organization guidelines per channel on the eight main channels, some images can be scored on', () => {
    for (const channel of ['META', 'TIKTOK', 'ADWORDS', 'DV360', 'SNAPCHAT', 'LINKEDIN', 'PINTEREST', 'X']) {
      const guidelines = northwind?.guidelines.filter((g) => g.channel === channel) ?? [];
      expect(guidelines.length).toBeGreaterThanOrEqual(8);
      expect(guidelines.length).toBeLessThanOrEqual(15);
      expect(guidelines.some((g) => g.creativeTypes.includes('IMAGE'))).toBe(true);
      expect(guidelines.some((g) => g.creativeTypes.length === 1 && g.creativeTypes[0] === 'VIDEO')).toBe(
        true,
      );
      for (const g of guidelines) {
        expect([1, 2, 3]).toContain(g.weight);
        expect(['MANDATORY', 'OPTIONAL']).toContain(g.consideration);
      }
    }
  });

  it('uses each guideline id once across all organizations and workspaces', () => {
    const ids = fixture.organizations.flatMap((o) => [
      ...o.guidelines.map((g) => g.id),
      ...o.workspaces.flatMap((w) => w.guidelines.map((g) => g.id)),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is the same on every call and not shared between calls', () => {
    const again = defaultFixture();
    expect(again).toEqual(fixture);
    again.organizations[0]?.guidelines.pop();
    expect(defaultFixture()).toEqual(fixture);
  });
});
