import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, MINUTE, START, startHarness, UUID } from './helpers';

let h: Harness;
afterEach(async () => {
  await h?.sim.close();
});

describe('authentication', () => {
  for (const key of [null, 'not-a-key']) {
    it(`answers 401 in the application error shape in the spec dialect (key: ${key})`, async () => {
      h = await startHarness();
      const answer = await h.call('GET', '/v1/workspaces', { key });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        status: 'ERROR',
        traceId: expect.stringMatching(UUID),
        error: {
          identifier: 'vidmob.scoring.unauthorizedexception',
          type: 'UNAUTHORIZEDEXCEPTION',
          system: 'scoring',
          message: 'Request is Unauthorized',
        },
      });
    });

    it(`answers 401 in the flat gateway shape in the live dialect (key: ${key})`, async () => {
      h = await startHarness({ dialect: 'live' });
      const answer = await h.call('GET', '/v1/workspaces', { key });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        statusCode: 401,
        message: 'Request is Unauthorized',
        error: 'Unauthorized',
      });
    });
  }

  it('accepts the key of the second organization and answers with that organization', async () => {
    h = await startHarness();
    const answer = await h.call('GET', '/v1/organization', { key: 'demo-key-globex' });
    expect(answer.status).toBe(200);
    expect(answer.body.result.name).toBe('Globex Retail');
  });
});

describe('routing', () => {
  it('answers an unknown path with 404 NOTFOUNDEXCEPTION', async () => {
    h = await startHarness();
    const answer = await h.call('GET', '/v1/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.body.error.type).toBe('NOTFOUNDEXCEPTION');
    expect(answer.body.error.identifier).toBe('vidmob.scoring.notfoundexception');
  });

  it('answers a known path with the wrong method with 405 and an Allow header', async () => {
    h = await startHarness();
    const answer = await h.call('DELETE', '/v1/media');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.error.type).toBe('METHODNOTALLOWEDEXCEPTION');
  });

  it('answers a body that is not JSON with 400', async () => {
    h = await startHarness();
    const answer = await h.call('POST', '/v1/media', { rawBody: '{"id": "a",' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.type).toBe('BADREQUESTEXCEPTION');
    expect(answer.body.error.message).toMatch(/not valid JSON/);
  });

  it('treats a trailing slash as the same resource', async () => {
    h = await startHarness();
    expect((await h.call('GET', '/v1/organization/')).status).toBe(200);
  });
});

describe('trace ids and request records', () => {
  it('gives every response, success or error, a fresh traceId', async () => {
    h = await startHarness();
    const a = await h.call('GET', '/v1/organization');
    const b = await h.call('GET', '/v1/organization');
    const c = await h.call('GET', '/v1/nope');
    const ids = [a, b, c].map((x) => x.headers.get('x-trace-id'));
    expect(ids.every((id) => UUID.test(id ?? ''))).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(c.body.traceId).toBe(ids[2]);
  });

  it('records method, path, query, clock time and headers of every request, including refused ones', async () => {
    h = await startHarness();
    await h.call('GET', '/v1/workspaces?offset=10&perPage=5');
    h.clock.advance(5 * MINUTE);
    await h.call('GET', '/v1/organization', { key: null });
    await h.call('POST', '/v1/media', { body: { id: 'a', url: 'https://cdn.example.com/a.mp4' } });
    const [first, second, third] = h.sim.requests();
    expect(first).toMatchObject({
      method: 'GET',
      path: '/v1/workspaces',
      query: 'offset=10&perPage=5',
      at: START,
    });
    expect(first?.headers.authorization).toBe('Bearer demo-key-northwind');
    expect(second).toMatchObject({
      method: 'GET',
      path: '/v1/organization',
      query: '',
      at: START + 5 * MINUTE,
    });
    expect(second?.headers.authorization).toBeUndefined();
    expect(third?.method).toBe('POST');
    expect(h.sim.stats()).toEqual({
      mediaCreated: 1,
      duplicateSubmits: 0,
      requests: 3,
      requestsByEndpoint: { 'GET /v1/workspaces': 1, 'GET /v1/organization': 1, 'POST /v1/media': 1 },
    });
  });

  it('counts status polls under one endpoint whatever the uniqueId', async () => {
    h = await startHarness();
    await h.call('GET', '/v1/media/one/status');
    await h.call('GET', '/v1/media/two/status');
    expect(h.sim.stats().requestsByEndpoint).toEqual({ 'GET /v1/media/:key/status': 2 });
  });
});
