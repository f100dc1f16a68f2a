// The client's HTTP policy on the wire: which calls are retried, how long it waits (on an
// injected sleep, so nothing here waits in real time), and when it stops calling altogether.
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/clock';
import { DEMO_API_KEY, type FaultKind, type RunningSimulator, startSimulator } from '../../../src/simulator';
import { ApiClient } from '../../../src/sync/api/client';
import { ApiError } from '../../../src/sync/api/errors';
import { ApiStoppedError } from '../../../src/sync/api/stopped';
import { type CannedReply, type CannedServer, startCannedServer } from './canned-server';

const KEY = 'sk-test-7f3a9c';
const UNIQUE_ID = '0b7f3c1e-5d2a-4c1b-9e8f-1a2b3c4d5e6f';
const status = { status: 'OK', result: { uniqueId: UNIQUE_ID, status: 'PROCESSING' } };

let server: CannedServer | undefined;
let simulator: RunningSimulator | undefined;
afterEach(async () => {
  await server?.close();
  await simulator?.close();
  server = undefined;
  simulator = undefined;
});

/** A client whose sleeps are recorded instead of waited, and whose jitter draws are fixed. */
async function clientFor(
  replies: CannedReply[],
  options: ConstructorParameters<typeof ApiClient>[0] | object = {},
) {
  server = await startCannedServer(replies);
  const slept: number[] = [];
  const api = new ApiClient({
    baseUrl: server.url,
    apiKey: KEY,
    requestsPerSecond: 100,
    sleep: async (ms) => {
      slept.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { api, slept, received: (server as CannedServer).received };
}

async function failure<T extends Error>(
  call: Promise<unknown>,
  type: new (...args: never[]) => T,
): Promise<T> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

describe('retries', () => {
  it('retries a 503 and a 429 on a GET, backing off with jitter, and counts the retries', async () => {
    const { api, slept, received } = await clientFor([
      { status: 503, text: '' },
      { status: 429, text: '' },
      { json: status },
    ]);

    expect(await api.getStatus({ uniqueId: UNIQUE_ID })).toMatchObject({ status: 'PROCESSING' });

    expect(received).toHaveLength(3);
    // Full jitter at a draw of 0.5: half of 1 s, then half of 2 s.
    expect(slept).toEqual([500, 1000]);
    expect(api.callCounts()).toEqual({ 'GET /v1/media/{uniqueId}/status': 3 });
    expect(api.retryCounts()).toEqual({ 'GET /v1/media/{uniqueId}/status': 2 });
    expect(api.totalRetries()).toBe(2);
  });

  it('sends every attempt of one call with the same x-request-id, and a new call with a new one', async () => {
    const { api, received } = await clientFor([
      { status: 502, text: '' },
      { json: status },
      { json: status },
    ]);

    await api.getStatus({ uniqueId: UNIQUE_ID });
    await api.getStatus({ uniqueId: UNIQUE_ID });

    const ids = received.map((r) => r.headers['x-request-id']);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('honours Retry-After in seconds and as a date, and puts a floor under Retry-After: 0', async () => {
    const serviceNow = Date.UTC(2026, 10, 22, 2, 0, 0);
    const { api, slept } = await clientFor([
      { status: 429, headers: { 'retry-after': '7' }, text: '' },
      {
        status: 503,
        headers: {
          date: new Date(serviceNow).toUTCString(),
          'retry-after': new Date(serviceNow + 12_000).toUTCString(),
        },
        text: '',
      },
      { status: 429, headers: { 'retry-after': '0' }, text: '' },
      { json: status },
    ]);

    await api.getStatus({ uniqueId: UNIQUE_ID });

    expect(slept).toEqual([7000, 12_000, 250]);
  });

  it('retries the deduped submission after a 5xx', async () => {
    const { api, received } = await clientFor([
      { status: 500, text: '' },
      { status: 201, json: { status: 'OK', result: { uniqueId: UNIQUE_ID } } },
    ]);

    expect(await api.submitMedia({ id: 'A-1', url: 'https://cdn.example.com/a.mp4' })).toEqual({
      uniqueId: UNIQUE_ID,
      duplicate: false,
    });
    expect(received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/media', 'POST /v1/media']);
  });

  it('never retries a tagging job, which is created anew by every POST that arrives', async () => {
    const { api, received, slept } = await clientFor([
      { status: 503, text: '' },
      { status: 201, json: {} },
    ]);

    const error = await failure(
      api.submitTagJob({ creatives: [{ id: 'A-1', url: 'https://cdn.example.com/a.mp4' }] }),
      ApiError,
    );

    expect(error.kind).toBe('server');
    expect(received).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it('does not retry what the service said about the request: 400, 403, 404', async () => {
    for (const code of [400, 403, 404]) {
      const { api, received } = await clientFor([
        { status: code, json: { status: 'ERROR' } },
        { json: status },
      ]);
      await failure(api.getStatus({ uniqueId: UNIQUE_ID }), ApiError);
      expect(received).toHaveLength(1);
      await server?.close();
      server = undefined;
    }
  });

  it('gives up after the last attempt with the last error, the call bounded by maxAttempts', async () => {
    const { api, received, slept } = await clientFor(
      Array.from({ length: 6 }, () => ({ status: 503, text: '' })),
      { retry: { maxAttempts: 3 } },
    );

    const error = await failure(api.getOrganization(), ApiError);

    expect(error).toMatchObject({ kind: 'server', status: 503 });
    expect(received).toHaveLength(3);
    expect(slept).toHaveLength(2);
  });

  it('retries a 200 whose body is not the envelope (a proxy page, a cut body)', async () => {
    const { api, received } = await clientFor([
      { status: 200, text: '<html>maintenance</html>' },
      { status: 200, text: '{"status":"OK","res' },
      { json: status },
    ]);

    expect(await api.getStatus({ uniqueId: UNIQUE_ID })).toMatchObject({ status: 'PROCESSING' });
    expect(received).toHaveLength(3);
  });

  it('does not retry an answer that is well-formed but of the wrong shape: that will not change', async () => {
    const { api, received } = await clientFor([
      { json: { status: 'OK', result: 'unexpected' } },
      { json: status },
    ]);

    const error = await failure(api.getStatus({ uniqueId: UNIQUE_ID }), ApiError);

    expect(error.kind).toBe('invalid-response');
    expect(received).toHaveLength(1);
  });
});

describe('stopping', () => {
  it('opens the circuit after consecutive failures: no request after that, and it says why', async () => {
    const { api, received } = await clientFor(
      Array.from({ length: 10 }, () => ({ status: 503, text: '' })),
      { breakerThreshold: 3, retry: { maxAttempts: 2 } },
    );

    await failure(api.getOrganization(), ApiError);
    expect(api.stopReason()).toBeUndefined();
    await failure(api.getOrganization(), ApiError);
    expect(received).toHaveLength(3);
    expect(api.stopReason()).toBe(
      'The service failed 3 requests in a row (the last: GET /v1/organization answered 503), so this run stopped calling it; the rest is left for the next run.',
    );

    const stopped = await failure(api.getStatus({ uniqueId: UNIQUE_ID }), ApiStoppedError);
    expect(stopped.reason).toBe('circuit-open');
    expect(received).toHaveLength(3);
  });

  it('resets the count on any answer the service meant, a 404 included', async () => {
    const { api, received } = await clientFor(
      [
        { status: 503, text: '' },
        { status: 503, text: '' },
        { status: 404, json: { status: 'ERROR' } },
        { status: 503, text: '' },
        { status: 503, text: '' },
        { json: status },
      ],
      { breakerThreshold: 3, retry: { maxAttempts: 3 } },
    );

    await failure(api.getStatus({ uniqueId: UNIQUE_ID }), ApiError);
    expect(await api.getStatus({ uniqueId: UNIQUE_ID })).toMatchObject({ status: 'PROCESSING' });
    expect(received).toHaveLength(6);
    expect(api.stopReason()).toBeUndefined();
  });

  it('leaves the work to the next run when the service asks for a very long wait, instead of sleeping', async () => {
    const { api, received, slept } = await clientFor(
      [{ status: 429, headers: { 'retry-after': '3600' }, text: '' }, { json: status }],
      { retry: { maxWaitMs: 120_000 } },
    );

    const error = await failure(api.getStatus({ uniqueId: UNIQUE_ID }), ApiError);

    expect(error).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 3600 });
    expect(slept).toEqual([]);
    expect(api.stopReason()).toMatch(
      /^The service asked to wait 3600 seconds .*the rest is left for the next run\.$/,
    );
    expect((await failure(api.getOrganization(), ApiStoppedError)).reason).toBe('long-wait');
    expect(received).toHaveLength(1);
  });
});

describe('against the simulator’s faults', () => {
  async function faultyClient(kind: FaultKind, options: object = {}) {
    const clock = new SimulatedClock(Date.UTC(2026, 10, 22, 2, 0, 0));
    // undici's timers tick about once a second, so a slow answer must be slower than that.
    simulator = await startSimulator({
      clock,
      faults: { seed: 'one', rate: 1, kinds: [kind], slowMs: 2500 },
    });
    const slept: number[] = [];
    const api = new ApiClient({
      baseUrl: simulator.url,
      apiKey: DEMO_API_KEY,
      requestsPerSecond: 100,
      sleep: async (ms) => {
        slept.push(ms);
      },
      random: () => 0.5,
      retry: { maxAttempts: 3 },
      ...options,
    });
    return { api, sim: simulator, slept };
  }

  it.each([
    ['reset', 'network'],
    ['truncated', 'network'],
    ['malformed-json', 'invalid-response'],
    ['html-page', 'invalid-response'],
    ['502', 'server'],
    ['429', 'rate-limited'],
  ] as const)('retries a %s and finally reports it as %s', async (kind, errorKind) => {
    const { api, sim, slept } = await faultyClient(kind);

    const error = await failure(api.getOrganization(), ApiError);

    expect(error.kind).toBe(errorKind);
    expect(sim.requests()).toHaveLength(3);
    expect(sim.faults().map((f) => f.kind)).toEqual([kind, kind, kind]);
    expect(slept).toEqual([500, 1000]);
  });

  it('times out an answer slower than the client waits, and retries it', async () => {
    const { api, sim } = await faultyClient('slow', { timeoutMs: 100, retry: { maxAttempts: 2 } });

    const error = await failure(api.getOrganization(), ApiError);

    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/timeout/i);
    expect(sim.requests()).toHaveLength(2);
  });

  it('reads JSON labelled with the wrong content type as it is (a tolerant reader)', async () => {
    const { api, sim } = await faultyClient('wrong-content-type');

    expect((await api.getOrganization()).name).toBe('Northwind Brands');
    expect(sim.requests()).toHaveLength(1);
  });

  it('survives a reset after the media was created: the retry is deduped, nothing is created twice', async () => {
    const { api, sim } = await faultyClient('reset-after-processing');
    const media = { id: 'A-1', version: 'v1', source: 'dam', url: 'https://cdn.example.com/a1.mp4' };

    await failure(api.submitMedia(media), ApiError);

    expect(sim.requests().filter((r) => r.method === 'POST')).toHaveLength(3);
    expect(sim.stats()).toMatchObject({ mediaCreated: 1, duplicateSubmits: 2 });
  });
});
