import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock } from '../../../src/clock';
import { DEMO_API_KEY, defaultFixture, startSimulator } from '../../../src/simulator/index';
import { ApiClient, type MediaSubmission } from '../../../src/sync/api/client';
import { ApiError } from '../../../src/sync/api/errors';
import { type CannedReply, type CannedServer, refusedUrl, startCannedServer } from './canned-server';

const KEY = 'sk-test-7f3a9c';
const UNIQUE_ID = '0b7f3c1e-5d2a-4c1b-9e8f-1a2b3c4d5e6f';

let server: CannedServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/**
 * A client on a canned server that gives `replies` in order. One attempt per call, so each
 * canned reply is what a call ends with; retries have their own tests (retry-policy.test.ts).
 */
async function clientFor(replies: CannedReply[], baseSuffix = ''): Promise<ApiClient> {
  server = await startCannedServer(replies);
  return new ApiClient({
    baseUrl: `${server.url}${baseSuffix}`,
    apiKey: KEY,
    requestsPerSecond: 100,
    retry: { maxAttempts: 1 },
  });
}

function received() {
  if (!server) throw new Error('no server started');
  return server.received;
}

/** The ApiError a call fails with (fails the test if it succeeds or throws anything else). */
async function failure(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const ok = (result: unknown, pagination?: unknown): CannedReply => ({
  json: pagination === undefined ? { status: 'OK', result } : { status: 'OK', result, pagination },
});

const appError = (
  status: number,
  type: string,
  message: string | string[],
  traceId = 't-1',
): CannedReply => ({
  status,
  json: {
    status: 'ERROR',
    traceId,
    error: { identifier: `vidmob.scoring.${type.toLowerCase()}`, type, system: 'scoring', message },
  },
});

const workspaces = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: from + i, name: `Workspace ${from + i}` }));

describe('requests', () => {
  it('sends the API key as a Bearer token and asks for JSON', async () => {
    const api = await clientFor([ok({ id: 'org-1', name: 'Northwind' })]);

    await api.getOrganization();

    expect(received()).toHaveLength(1);
    expect(received()[0]).toMatchObject({ method: 'GET', path: '/v1/organization', query: '' });
    expect(received()[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(received()[0]?.headers.accept).toBe('application/json');
  });

  it('keeps a path prefix of the base URL, with or without a trailing slash', async () => {
    const api = await clientFor([ok({ id: 'org-1' }), ok({ id: 'org-1' })], '/gateway');
    await api.getOrganization();
    const slashed = new ApiClient({ baseUrl: `${server?.url}/gateway/`, apiKey: KEY });
    await slashed.getOrganization();

    expect(received().map((r) => r.path)).toEqual(['/gateway/v1/organization', '/gateway/v1/organization']);
  });

  it('posts a submission with only the fields that are set', async () => {
    const api = await clientFor([{ status: 201, json: { status: 'OK', result: { uniqueId: UNIQUE_ID } } }]);

    await api.submitMedia({ id: 'A-1', url: 'https://cdn.example.com/a1.mp4' });

    expect(received()[0]).toMatchObject({ method: 'POST', path: '/v1/media' });
    expect(received()[0]?.headers['content-type']).toBe('application/json');
    expect(received()[0]?.body).toEqual({ id: 'A-1', url: 'https://cdn.example.com/a1.mp4' });
  });

  it('posts every documented field of a full submission', async () => {
    const api = await clientFor([{ status: 201, json: { status: 'OK', result: { uniqueId: UNIQUE_ID } } }]);
    const full: MediaSubmission = {
      id: 'A-1',
      url: 'https://cdn.example.com/a1.mp4',
      version: 'v2',
      source: 'dam',
      workspaceId: 1201,
      channels: ['META', 'TIKTOK'],
      name: 'Spot one',
      description: 'Spring campaign',
      brands: ['Brand A'],
      markets: ['US', 'CA'],
    };

    await api.submitMedia(full);

    expect(received()[0]?.body).toEqual(full);
  });

  it('does not post fields outside the interface, even when the caller’s object carries them', async () => {
    const api = await clientFor([{ status: 201, json: { status: 'OK', result: { uniqueId: UNIQUE_ID } } }]);
    const row = { id: 'A-1', url: 'https://cdn.example.com/a1.mp4', version: undefined, rowNumber: 14 };

    await api.submitMedia(row);

    expect(received()[0]?.body).toEqual({ id: 'A-1', url: 'https://cdn.example.com/a1.mp4' });
  });

  it('asks for scores with summary and detail', async () => {
    const api = await clientFor([ok({ summary: {}, detail: [] })]);

    await api.getScores(UNIQUE_ID);

    expect(received()[0]?.path).toBe(`/v1/scoring/media/${UNIQUE_ID}/scores`);
    expect(Object.fromEntries(new URLSearchParams(received()[0]?.query))).toEqual({
      format: 'summary,detail',
    });
  });

  it('looks a status up by uniqueId without a query, and by client id with source and version', async () => {
    const record = { uniqueId: UNIQUE_ID, id: 'A 1/x', version: 'v2', source: 'dam', status: 'processing' };
    const api = await clientFor([ok(record), ok(record)]);

    const byUniqueId = await api.getStatus({ uniqueId: UNIQUE_ID });
    await api.getStatus({ id: 'A 1/x', version: 'v2', source: 'dam' });

    expect(byUniqueId).toEqual({ ...record, status: 'PROCESSING' });
    expect(received().map((r) => [r.path, r.query])).toEqual([
      [`/v1/media/${UNIQUE_ID}/status`, ''],
      ['/v1/media/A%201%2Fx/status', 'source=dam&version=v2'],
    ]);
  });

  it('counts calls by endpoint, failed ones included', async () => {
    const record = { uniqueId: UNIQUE_ID, status: 'PROCESSING' };
    const api = await clientFor([ok(record), { status: 503, text: '' }, ok({ id: 'org-1' })]);

    await api.getStatus({ uniqueId: UNIQUE_ID });
    await failure(api.getStatus({ uniqueId: 'other' }));
    await api.getOrganization();

    expect(api.callCounts()).toEqual({ 'GET /v1/media/{uniqueId}/status': 2, 'GET /v1/organization': 1 });
    expect(api.totalCalls()).toBe(3);
  });
});

describe('organization and workspaces', () => {
  it('reads the organization in the spec shape (orgId) and the live shape (id) alike', async () => {
    const api = await clientFor([
      ok({ orgId: 'org-1', name: 'Northwind' }),
      ok({ id: 'org-1', name: 'Northwind' }),
    ]);

    expect(await api.getOrganization()).toEqual({ id: 'org-1', name: 'Northwind' });
    expect(await api.getOrganization()).toEqual({ id: 'org-1', name: 'Northwind' });
  });

  it('follows nextOffset until totalSize is reached', async () => {
    const api = await clientFor([
      ok(workspaces(1, 20), { offset: 0, perPage: 20, nextOffset: 20, totalSize: 45 }),
      ok(workspaces(21, 20), { offset: 20, perPage: 20, nextOffset: 40, totalSize: 45 }),
      ok(workspaces(41, 5), { offset: 40, perPage: 20, nextOffset: 60, totalSize: 45 }),
    ]);

    const all = await api.listWorkspaces();

    expect(all.map((w) => w.id)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(received().map((r) => r.query)).toEqual([
      'offset=0&perPage=20',
      'offset=20&perPage=20',
      'offset=40&perPage=20',
    ]);
  });

  it('stops when totalSize says the last page was full', async () => {
    const api = await clientFor([
      ok(workspaces(1, 20), { offset: 0, perPage: 20, nextOffset: 20, totalSize: 20 }),
    ]);

    expect(await api.listWorkspaces()).toHaveLength(20);
    expect(received()).toHaveLength(1);
  });

  it('stops on an empty page when the service gives no totalSize', async () => {
    const api = await clientFor([
      ok(workspaces(1, 20), { offset: 0, perPage: 20, nextOffset: 20 }),
      ok([], { offset: 20, perPage: 20, nextOffset: 40 }),
    ]);

    expect(await api.listWorkspaces()).toHaveLength(20);
    expect(received().map((r) => r.query)).toEqual(['offset=0&perPage=20', 'offset=20&perPage=20']);
  });

  it('stops on a short page when the service gives no pagination at all', async () => {
    const api = await clientFor([ok(workspaces(1, 20)), ok(workspaces(21, 3))]);

    expect(await api.listWorkspaces()).toHaveLength(23);
    expect(received().map((r) => r.query)).toEqual(['offset=0&perPage=20', 'offset=20&perPage=20']);
  });

  it('takes a first page shorter than asked for as the only page, with no pagination object', async () => {
    const api = await clientFor([ok(workspaces(1, 12))]);

    expect(await api.listWorkspaces()).toHaveLength(12);
    expect(received()).toHaveLength(1);
  });

  it('follows the service’s nextOffset when it caps perPage below what was asked', async () => {
    const api = await clientFor([
      ok(workspaces(1, 10), { offset: 0, perPage: 10, nextOffset: 10, totalSize: 15 }),
      ok(workspaces(11, 5), { offset: 10, perPage: 10, nextOffset: 20, totalSize: 15 }),
    ]);

    expect(await api.listWorkspaces()).toHaveLength(15);
    expect(received().map((r) => r.query)).toEqual(['offset=0&perPage=20', 'offset=10&perPage=20']);
  });
});

describe('submission', () => {
  const media = { id: 'A-1', url: 'https://cdn.example.com/a1.mp4', version: 'v2', source: 'dam' };

  it('returns the uniqueId of a new asset as not a duplicate', async () => {
    const api = await clientFor([{ status: 201, json: { status: 'OK', result: { uniqueId: UNIQUE_ID } } }]);

    expect(await api.submitMedia(media)).toEqual({ uniqueId: UNIQUE_ID, duplicate: false });
  });

  it('takes a 409 as a duplicate and finds the uniqueId by id, source and version', async () => {
    const api = await clientFor([
      appError(409, 'CONFLICTEXCEPTION', "A media entry with id 'A-1' and version 'v2' already exists"),
      ok({ uniqueId: UNIQUE_ID, id: 'A-1', version: 'v2', source: 'dam', status: 'COMPLETE' }),
    ]);

    expect(await api.submitMedia(media)).toEqual({ uniqueId: UNIQUE_ID, duplicate: true });
    expect(received().map((r) => [r.method, r.path, r.query])).toEqual([
      ['POST', '/v1/media', ''],
      ['GET', '/v1/media/A-1/status', 'source=dam&version=v2'],
    ]);
  });

  it('looks a 409 up with empty source and version when the submission had none', async () => {
    const api = await clientFor([
      appError(409, 'CONFLICTEXCEPTION', "A media entry with id 'B-1' and version '' already exists"),
      ok({ uniqueId: UNIQUE_ID, id: 'B-1', version: '', source: '', status: 'PROCESSING' }),
    ]);

    expect(await api.submitMedia({ id: 'B-1', url: 'https://cdn.example.com/b1.mp4' })).toEqual({
      uniqueId: UNIQUE_ID,
      duplicate: true,
    });
    expect(received()[1]?.query).toBe('source=&version=');
  });

  it('uses the uniqueId a 409 carries without a lookup', async () => {
    const api = await clientFor([
      { status: 409, json: { status: 'ERROR', traceId: 't-1', result: { uniqueId: UNIQUE_ID }, error: {} } },
    ]);

    expect(await api.submitMedia(media)).toEqual({ uniqueId: UNIQUE_ID, duplicate: true });
    expect(received()).toHaveLength(1);
  });

  it('takes a second 201 (the spec’s answer to a resubmit) as the same asset, not an error', async () => {
    const created: CannedReply = { status: 201, json: { status: 'OK', result: { uniqueId: UNIQUE_ID } } };
    const api = await clientFor([created, created]);

    expect(await api.submitMedia(media)).toEqual({ uniqueId: UNIQUE_ID, duplicate: false });
    expect(await api.submitMedia(media)).toEqual({ uniqueId: UNIQUE_ID, duplicate: false });
  });

  it('fails as invalid-response when the lookup after a 409 has no uniqueId', async () => {
    const api = await clientFor([
      appError(409, 'CONFLICTEXCEPTION', 'already exists'),
      ok({ id: 'A-1', status: 'COMPLETE' }),
    ]);

    const error = await failure(api.submitMedia(media));

    expect(error.kind).toBe('invalid-response');
    expect(error.endpoint).toBe('GET /v1/media/{id}/status');
  });

  it('passes a refused submission on as bad-request with every validation message', async () => {
    const api = await clientFor([
      appError(400, 'BADREQUESTEXCEPTION', ['url must be a URL address', 'workspaceId must be an integer']),
    ]);

    const error = await failure(api.submitMedia(media));

    expect(error).toMatchObject({
      kind: 'bad-request',
      status: 400,
      traceId: 't-1',
      serviceType: 'BADREQUESTEXCEPTION',
      message: 'POST /v1/media answered 400: url must be a URL address; workspaceId must be an integer',
    });
  });
});

describe('errors', () => {
  it.each([
    [401, 'unauthorized', 'UNAUTHORIZEDEXCEPTION'],
    [403, 'forbidden', 'FORBIDDENEXCEPTION'],
    [404, 'not-found', 'NOTFOUNDEXCEPTION'],
    [409, 'conflict', 'CONFLICTEXCEPTION'],
    [429, 'rate-limited', 'TOOMANYREQUESTSEXCEPTION'],
    [400, 'bad-request', 'BADREQUESTEXCEPTION'],
    [422, 'bad-request', 'UNPROCESSABLEENTITYEXCEPTION'],
    [500, 'server', 'INTERNALSERVERERROREXCEPTION'],
    [503, 'server', 'SERVICEUNAVAILABLEEXCEPTION'],
  ] as const)(
    'maps HTTP %i to the %s kind, keeping traceId and the service’s type',
    async (status, kind, type) => {
      const api = await clientFor([appError(status, type, 'Something went wrong', 'trace-42')]);

      const error = await failure(api.getStatus({ uniqueId: UNIQUE_ID }));

      expect(error).toMatchObject({
        name: 'ApiError',
        kind,
        status,
        traceId: 'trace-42',
        serviceType: type,
        endpoint: 'GET /v1/media/{uniqueId}/status',
        message: `GET /v1/media/{uniqueId}/status answered ${status}: Something went wrong`,
        body: undefined,
      });
    },
  );

  it('reads the flat gateway 401 of the live service', async () => {
    const api = await clientFor([
      { status: 401, json: { statusCode: 401, message: 'Request is Unauthorized', error: 'Unauthorized' } },
    ]);

    const error = await failure(api.listWorkspaces());

    expect(error).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      traceId: undefined,
      serviceType: 'Unauthorized',
      message: 'GET /v1/workspaces answered 401: Request is Unauthorized',
    });
  });

  it('takes traceId from the x-trace-id header when the body has none', async () => {
    const api = await clientFor([
      { status: 502, headers: { 'x-trace-id': 'hdr-7' }, text: '<html><body>Bad gateway</body></html>' },
    ]);

    const error = await failure(api.getOrganization());

    expect(error).toMatchObject({
      kind: 'server',
      status: 502,
      traceId: 'hdr-7',
      message: 'GET /v1/organization answered 502',
      body: '<html><body>Bad gateway</body></html>',
    });
  });

  it('prefers the traceId of the body over the header', async () => {
    const api = await clientFor([
      { ...appError(404, 'NOTFOUNDEXCEPTION', 'No media', 'body-1'), headers: { 'x-trace-id': 'hdr-1' } },
    ]);

    expect((await failure(api.getOrganization())).traceId).toBe('body-1');
  });

  it('reads Retry-After given in seconds', async () => {
    const api = await clientFor([{ status: 429, headers: { 'retry-after': '120' }, text: '' }]);

    expect(await failure(api.getOrganization())).toMatchObject({
      kind: 'rate-limited',
      status: 429,
      retryAfterSeconds: 120,
    });
  });

  it('reads Retry-After given as an HTTP date, counted from the answer’s own Date', async () => {
    // The service's clock, not ours: a skewed local clock must not stretch or shrink the wait.
    const serviceNow = Date.UTC(2026, 10, 22, 2, 0, 0);
    const api = await clientFor([
      {
        status: 503,
        headers: {
          date: new Date(serviceNow).toUTCString(),
          'retry-after': new Date(serviceNow + 90_000).toUTCString(),
        },
        text: '',
      },
    ]);

    expect(await failure(api.getOrganization())).toMatchObject({ kind: 'server', retryAfterSeconds: 90 });
  });

  it('reads a Retry-After date in the past as zero and an unreadable one as not given', async () => {
    const api = await clientFor([
      { status: 429, headers: { 'retry-after': 'Mon, 01 Jan 2001 00:00:00 GMT' }, text: '' },
      { status: 429, headers: { 'retry-after': 'soon' }, text: '' },
      { status: 429, text: '' },
    ]);

    expect((await failure(api.getOrganization())).retryAfterSeconds).toBe(0);
    expect((await failure(api.getOrganization())).retryAfterSeconds).toBeUndefined();
    expect((await failure(api.getOrganization())).retryAfterSeconds).toBeUndefined();
  });

  it('reports a refused connection as a network error', async () => {
    const api = new ApiClient({ baseUrl: await refusedUrl(), apiKey: KEY, retry: { maxAttempts: 1 } });

    const error = await failure(api.getOrganization());

    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(error.endpoint).toBe('GET /v1/organization');
    expect(error.message).toMatch(/^GET \/v1\/organization failed: .*ECONNREFUSED/);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('reports HTML with a 200 as invalid-response, keeping the body shortened to 500 characters', async () => {
    const html = `<!doctype html><html><body>${'Sign in to continue. '.repeat(100)}</body></html>`;
    const api = await clientFor([{ status: 200, text: html }]);

    const error = await failure(api.listWorkspaces());

    expect(error).toMatchObject({
      kind: 'invalid-response',
      status: 200,
      message: 'GET /v1/workspaces answered 200 with a body that is not the JSON envelope.',
      body: `${html.slice(0, 500)}…`,
    });
  });

  it('reports malformed JSON as invalid-response with the body as it came', async () => {
    const api = await clientFor([{ status: 200, text: '{"status":"OK","result":{"id":' }]);

    expect(await failure(api.getOrganization())).toMatchObject({
      kind: 'invalid-response',
      body: '{"status":"OK","result":{"id":',
    });
  });

  it('reports a result of the wrong shape as invalid-response, naming the field', async () => {
    const api = await clientFor([ok([{ name: 'No id' }], { offset: 0, perPage: 20, totalSize: 1 })]);

    const error = await failure(api.listWorkspaces());

    expect(error).toMatchObject({
      kind: 'invalid-response',
      endpoint: 'GET /v1/workspaces',
      body: '[{"name":"No id"}]',
    });
    expect(error.message).toMatch(/^GET \/v1\/workspaces answered in an unexpected shape \(0\.id: /);
  });

  it('reports an envelope without a result as invalid-response', async () => {
    const api = await clientFor([{ json: { status: 'OK' } }]);

    const error = await failure(api.getOrganization());

    expect(error).toMatchObject({
      kind: 'invalid-response',
      message: 'GET /v1/organization answered 200 with a body that is not the JSON envelope.',
      body: '{"status":"OK"}',
    });
  });

  it('never puts the API key in an error message, even when the service echoes it', async () => {
    const api = await clientFor([
      { status: 401, json: { statusCode: 401, message: `Key ${KEY} is not valid`, error: 'Unauthorized' } },
      { status: 200, text: `<html>Unknown key ${KEY}</html>` },
      appError(403, 'FORBIDDENEXCEPTION', `Bearer ${KEY} has no access to workspace 9901`),
    ]);

    const errors = [
      await failure(api.getOrganization()),
      await failure(api.getOrganization()),
      await failure(api.getOrganization()),
    ];

    expect(errors.map((e) => e.kind)).toEqual(['unauthorized', 'invalid-response', 'forbidden']);
    for (const error of errors) {
      expect(error.message).not.toContain(KEY);
      expect(error.body ?? '').not.toContain(KEY);
    }
    expect(errors[0]?.message).toBe('GET /v1/organization answered 401: Key *** is not valid');
  });
});

describe('scores', () => {
  it('reads live scores with legacy channel keys, 0–100 scores and channelIdentifier', async () => {
    const summary = { score: 85, adherencePercent: 60, passCount: 3, failCount: 2, applicableCount: 5 };
    const api = await clientFor([
      ok({
        media: { id: 'A-1', uniqueId: UNIQUE_ID, type: 'VIDEO', dateUploaded: '2026-11-22T02:00:00.000Z' },
        summary: { FACEBOOK: summary, TWITTER: summary },
        detail: [
          {
            name: 'Motion Early',
            rule: 'Motion in 3 s',
            channelIdentifier: 'TWITTER',
            result: 'pass',
            weight: 1,
          },
        ],
      }),
    ]);

    const scores = await api.getScores(UNIQUE_ID);

    const canonical = {
      ...summary,
      score: 0.85,
      adherencePercent: 0.6,
      notApplicableCount: 0,
      notAvailableCount: 0,
    };
    expect(scores).toEqual({
      media: { id: 'A-1', uniqueId: UNIQUE_ID, type: 'VIDEO' },
      summary: { META: canonical, X: canonical },
      detail: [{ name: 'Motion Early', rule: 'Motion in 3 s', channel: 'X', result: 'PASS', weight: 1 }],
    });
  });
});

describe('against the simulator', () => {
  /** The default fixture with 13 more workspaces, so 25 in all: two pages of at most 20. */
  function fixtureWithManyWorkspaces() {
    const fixture = defaultFixture();
    const org = fixture.organizations[0];
    if (!org) throw new Error('fixture has no organization');
    for (let id = 1301; id <= 1313; id++) {
      org.workspaces.push({ id, name: `Extra ${id}`, scorecardChannels: ['META'], guidelines: [] });
    }
    return fixture;
  }

  it.each(['spec', 'live'] as const)(
    'reads the organization, pages workspaces, dedupes a resubmit and fetches canonical scores (%s dialect)',
    async (dialect) => {
      const clock = new SimulatedClock(Date.UTC(2026, 10, 22, 2, 0, 0));
      const fixture = fixtureWithManyWorkspaces();
      const sim = await startSimulator({ clock, dialect, fixture, processingMinutes: [8, 45] });
      try {
        const api = new ApiClient({ baseUrl: sim.url, apiKey: DEMO_API_KEY, requestsPerSecond: 100 });
        const org = fixture.organizations[0];

        expect(await api.getOrganization()).toEqual({ id: org?.id, name: 'Northwind Brands' });

        const listed = await api.listWorkspaces();
        expect(listed).toEqual(org?.workspaces.map((w) => ({ id: w.id, name: w.name })));
        expect(sim.requests().filter((r) => r.path === '/v1/workspaces')).toHaveLength(2);

        const media = {
          id: 'A-1',
          version: 'v1',
          source: 'dam',
          url: 'https://cdn.example.com/a1.mp4',
          channels: ['FACEBOOK', 'TIKTOK', 'TWITTER'],
        };
        const first = await api.submitMedia(media);
        const second = await api.submitMedia(media);
        expect(first.duplicate).toBe(false);
        // The spec dialect answers a resubmit 201 with the same uniqueId, the live one 409.
        expect(second).toEqual({ uniqueId: first.uniqueId, duplicate: dialect === 'live' });
        expect(sim.stats()).toMatchObject({ mediaCreated: 1, duplicateSubmits: 1 });

        clock.advance(60 * 60_000);
        expect(await api.getStatus({ uniqueId: first.uniqueId })).toMatchObject({ status: 'COMPLETE' });

        const scores = await api.getScores(first.uniqueId);
        const expected = sim.scoreResult(first.uniqueId);
        expect(Object.keys(scores.summary).sort()).toEqual(['META', 'TIKTOK', 'X']);
        expect(scores.summary).toEqual(expected?.summary);
        expect(scores.detail.map((d) => d.channel)).toEqual(expected?.detail.map((d) => d.channel));
      } finally {
        await sim.close();
      }
    },
  );
});
