import { afterEach, describe, expect, it } from 'vitest';
import { GLOBEX_API_KEY } from '../../src/simulator/index';
import { type Harness, startHarness } from './helpers';

let h: Harness;
afterEach(async () => {
  await h?.sim.close();
});

describe('GET /v1/organization', () => {
  it('answers {orgId, name} in the spec dialect', async () => {
    h = await startHarness();
    const answer = await h.call('GET', '/v1/organization');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'OK',
      result: { orgId: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Northwind Brands' },
    });
  });

  it('answers {id, name} in the live dialect', async () => {
    h = await startHarness({ dialect: 'live' });
    const answer = await h.call('GET', '/v1/organization');
    expect(Object.keys(answer.body.result).sort()).toEqual(['id', 'name']);
  });
});

describe('GET /v1/workspaces', () => {
  it('pages the twelve workspaces over two pages at the default perPage of 10', async () => {
    h = await startHarness();
    const first = await h.call('GET', '/v1/workspaces');
    expect(first.status).toBe(200);
    expect(first.body.result).toHaveLength(10);
    expect(first.body.pagination).toEqual({ offset: 0, perPage: 10, nextOffset: 10, totalSize: 12 });
    // One live endpoint spells it offSet: both are accepted.
    const second = await h.call('GET', `/v1/workspaces?offSet=${first.body.pagination.nextOffset}`);
    expect(second.body.result).toHaveLength(2);
    expect(second.body.pagination).toEqual({ offset: 10, perPage: 10, nextOffset: 20, totalSize: 12 });
    const ids = [...first.body.result, ...second.body.result].map((w: { id: number }) => w.id);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => 1201 + i));
    expect(first.body.result[0]).toEqual({ id: 1201, name: 'Northwind Coffee US' });
  });

  it('caps perPage at 20', async () => {
    h = await startHarness();
    const answer = await h.call('GET', '/v1/workspaces?perPage=50');
    expect(answer.body.pagination.perPage).toBe(20);
    expect(answer.body.result).toHaveLength(12);
  });

  it('refuses a negative offset with a validation message array', async () => {
    h = await startHarness();
    const answer = await h.call('GET', '/v1/workspaces?offset=-1');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toEqual(['offset must be an integer not less than 0']);
  });

  it("lists only the key's own organization's workspaces", async () => {
    h = await startHarness();
    const answer = await h.call('GET', '/v1/workspaces', { key: GLOBEX_API_KEY });
    expect(answer.body.result).toEqual([{ id: 9901, name: 'Globex Retail Global' }]);
  });
});

describe('POST /v1/scoring/criteria/metadata', () => {
  async function allPages(body: unknown): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += 20) {
      const answer = await h.call('POST', `/v1/scoring/criteria/metadata?offset=${offset}&perPage=20`, {
        body,
      });
      expect(answer.status).toBe(201);
      items.push(...answer.body.result);
      if (offset + 20 >= answer.body.pagination.totalSize) return items;
    }
  }

  it('answers 201 with the organization-global guidelines only for globalOnly', async () => {
    h = await startHarness();
    const items = await allPages({ globalOnly: true });
    expect(items.length).toBeGreaterThan(8 * 8);
    expect(items.every((i) => i.organizationCriteria === true && i.workspace === null)).toBe(true);
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(
      [
        'id',
        'name',
        'rule',
        'bestPractice',
        'category',
        'channel',
        'consideration',
        'criteriaGroups',
        'creativeTypes',
        'dateCreated',
        'organizationCriteria',
        'workspace',
        'person',
      ].sort(),
    );
  });

  it("adds the workspace's own guidelines for a workspace, marked with the workspace", async () => {
    h = await startHarness();
    const global = await allPages({ globalOnly: true });
    const withWorkspace = await allPages({ workspaces: [1201] });
    const own = withWorkspace.filter((i) => i.organizationCriteria === false);
    expect(own.length).toBeGreaterThan(0);
    expect(withWorkspace).toHaveLength(global.length + own.length);
    expect(
      own.every(
        (i) => JSON.stringify(i.workspace) === JSON.stringify({ id: 1201, name: 'Northwind Coffee US' }),
      ),
    ).toBe(true);
  });

  it('filters by channel, with aliases', async () => {
    h = await startHarness();
    const items = await allPages({ globalOnly: true, channels: ['facebook'] });
    expect(items.length).toBeGreaterThanOrEqual(8);
    expect(new Set(items.map((i) => i.channel))).toEqual(new Set(['META']));
  });

  it("answers 403 FORBIDDENEXCEPTION for another organization's workspace", async () => {
    h = await startHarness();
    const answer = await h.call('POST', '/v1/scoring/criteria/metadata', { body: { workspaces: [9901] } });
    expect(answer.status).toBe(403);
    expect(answer.body.error.type).toBe('FORBIDDENEXCEPTION');
  });

  it('answers 400 for an unknown workspace and for a body with neither workspaces nor globalOnly', async () => {
    h = await startHarness();
    const unknown = await h.call('POST', '/v1/scoring/criteria/metadata', { body: { workspaces: [4242] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toEqual(['workspaceId 4242 does not exist']);
    const empty = await h.call('POST', '/v1/scoring/criteria/metadata', { body: {} });
    expect(empty.status).toBe(400);
    expect(Array.isArray(empty.body.error.message)).toBe(true);
  });
});
