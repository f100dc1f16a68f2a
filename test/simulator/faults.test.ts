import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/clock';
import {
  DEMO_API_KEY,
  type FaultKind,
  type FaultOptions,
  type RunningSimulator,
  startSimulator,
} from '../../src/simulator';

const start = Date.UTC(2026, 10, 22, 2, 0, 0);
const auth = { authorization: `Bearer ${DEMO_API_KEY}` };
let sims: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function sim(faults: FaultOptions) {
  const s = await startSimulator({ clock: new SimulatedClock(start), faults });
  sims.push(s);
  return s;
}

/** Status, headers and body text, or 'reset' when the connection dropped. */
async function get(
  s: RunningSimulator,
  path: string,
  init: { method?: 'GET' | 'POST'; body?: unknown } = {},
) {
  try {
    const res = await request(`${s.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...auth, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  } catch {
    return 'reset' as const;
  }
}

async function only(kind: FaultKind) {
  return sim({ seed: 'k', rate: 1, kinds: [kind], retryAfterSeconds: [4, 4] });
}

describe('fault injection', () => {
  it('faults the share of requests it is asked to, the same ones for the same seed', async () => {
    const draws = async (seed: string) => {
      const s = await sim({ seed, rate: 0.2, kinds: ['503'] });
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) {
        const answer = await get(s, `/v1/workspaces?offset=${i}`);
        statuses.push(answer === 'reset' ? 0 : answer.status);
      }
      return statuses;
    };
    const first = await draws('seed-1');
    expect(await draws('seed-1')).toEqual(first);
    expect(await draws('seed-2')).not.toEqual(first);
    const faulty = first.filter((s) => s === 503).length;
    expect(faulty).toBeGreaterThan(20);
    expect(faulty).toBeLessThan(60);
    expect(first.filter((s) => s !== 503).every((s) => s === 200)).toBe(true);
  });

  it('faults only the endpoints it is given, and records what it injected', async () => {
    const s = await sim({ seed: 'e', rate: 1, kinds: ['502'], endpoints: ['GET /v1/workspaces'] });

    expect(await get(s, '/v1/organization')).toMatchObject({ status: 200 });
    expect(await get(s, '/v1/workspaces')).toMatchObject({ status: 502 });
    expect(s.faults()).toEqual([
      { at: start, endpoint: 'GET /v1/workspaces', path: '/v1/workspaces', kind: '502' },
    ]);
  });

  it('answers 429 with and without Retry-After, in seconds or as a date on its own clock', async () => {
    expect(await get(await only('429'), '/v1/organization')).toMatchObject({
      status: 429,
      headers: expect.not.objectContaining({ 'retry-after': expect.anything() }),
    });
    expect(await get(await only('429-retry-after'), '/v1/organization')).toMatchObject({
      status: 429,
      headers: expect.objectContaining({ 'retry-after': '4' }),
    });
    const dated = await get(await only('429-retry-after-date'), '/v1/organization');
    expect(dated).toMatchObject({
      status: 429,
      headers: expect.objectContaining({
        date: new Date(start).toUTCString(),
        'retry-after': new Date(start + 4000).toUTCString(),
      }),
    });
  });

  it('sends gateway pages as HTML, and garbled or mislabelled JSON as such', async () => {
    const page = await get(await only('503'), '/v1/organization');
    expect(page).toMatchObject({
      status: 503,
      headers: expect.objectContaining({ 'content-type': 'text/html' }),
    });
    const html = await get(await only('html-page'), '/v1/organization');
    expect(html).toMatchObject({
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'text/html' }),
    });
    const cut = await get(await only('malformed-json'), '/v1/organization');
    expect(cut !== 'reset' && (() => JSON.parse(cut.text))).toThrow();
    const labelled = await get(await only('wrong-content-type'), '/v1/organization');
    expect(labelled).toMatchObject({
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'text/plain; charset=utf-8' }),
    });
    expect(labelled !== 'reset' && JSON.parse(labelled.text)).toMatchObject({ status: 'OK' });
  });

  it('drops the connection before or after processing, or halfway through the body', async () => {
    for (const kind of ['reset', 'reset-after-processing', 'truncated'] as const) {
      expect(await get(await only(kind), '/v1/organization'), kind).toBe('reset');
    }
  });

  it('keeps its state whole: media created before a dropped answer exists once, and a resubmit is deduped', async () => {
    const s = await only('reset-after-processing');
    const media = { id: 'A-1', version: 'v1', source: 'dam', url: 'https://cdn.example.com/a1.mp4' };

    expect(await get(s, '/v1/media', { method: 'POST', body: media })).toBe('reset');
    expect(await get(s, '/v1/media', { method: 'POST', body: media })).toBe('reset');

    expect(s.stats()).toMatchObject({ mediaCreated: 1, duplicateSubmits: 1 });
    expect(s.media()[0]).toMatchObject({ id: 'A-1', version: 'v1', source: 'dam' });
  });

  it('refuses options that make no sense', async () => {
    await expect(sim({ seed: 'x', rate: 1.5 })).rejects.toThrow(/rate to be between 0 and 1/);
    await expect(sim({ seed: 'x', rate: 0.1, kinds: [] })).rejects.toThrow(/at least one kind/);
  });
});
