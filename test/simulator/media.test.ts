import { afterEach, describe, expect, it } from 'vitest';
import { findAsset, type Harness, MINUTE, NORTHWIND_ORG_ID, START, startHarness, UUID } from './helpers';

let h: Harness;
afterEach(async () => {
  await h?.sim.close();
});

const video = {
  id: 'spring-hero',
  version: 'v1',
  source: 'dam',
  url: 'https://cdn.example.com/spring-hero.mp4',
};

describe('POST /v1/media', () => {
  it('answers 201 with only a uniqueId and records the asset with canonical channels', async () => {
    h = await startHarness();
    const answer = await h.call('POST', '/v1/media', {
      body: {
        ...video,
        channels: ['facebook', 'TikTok', 'instagram'],
        brands: ['nw'],
        markets: ['US'],
        name: 'Hero',
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ status: 'OK', result: { uniqueId: expect.stringMatching(UUID) } });
    expect(h.sim.media()).toEqual([
      {
        orgId: NORTHWIND_ORG_ID,
        uniqueId: answer.body.result.uniqueId,
        ...video,
        channels: ['META', 'TIKTOK'],
        brands: ['nw'],
        markets: ['US'],
        name: 'Hero',
        submittedAt: START,
      },
    ]);
  });

  it('defaults version and source to the empty string', async () => {
    h = await startHarness();
    await h.call('POST', '/v1/media', { body: { id: 'x', url: 'https://cdn.example.com/x.png' } });
    expect(h.sim.media()[0]).toMatchObject({ version: '', source: '' });
  });

  it('lists every validation problem at once', async () => {
    h = await startHarness();
    const answer = await h.call('POST', '/v1/media', {
      body: { url: 'ftp://cdn.example.com/x.mp4', workspaceId: 2 ** 31, colour: 'red' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      identifier: 'vidmob.scoring.badrequestexception',
      type: 'BADREQUESTEXCEPTION',
      system: 'scoring',
      message: [
        'property colour should not exist',
        'id must be a string',
        'url must be an absolute http(s) URL address',
        'workspaceId must be a 32-bit integer',
      ],
    });
    expect(h.sim.stats().mediaCreated).toBe(0);
  });

  it("answers 403 FORBIDDENEXCEPTION for another organization's workspace and 400 for an unknown one", async () => {
    h = await startHarness();
    const foreign = await h.call('POST', '/v1/media', { body: { ...video, workspaceId: 9901 } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.type).toBe('FORBIDDENEXCEPTION');
    const unknown = await h.call('POST', '/v1/media', { body: { ...video, workspaceId: 4242 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toEqual(['workspaceId 4242 does not exist']);
    expect(h.sim.stats().mediaCreated).toBe(0);
  });

  it('answers a resubmission with 201 and the same uniqueId in the spec dialect, creating nothing', async () => {
    h = await startHarness();
    const first = await h.call('POST', '/v1/media', { body: video });
    const again = await h.call('POST', '/v1/media', {
      body: { ...video, url: 'https://cdn.example.com/other.mp4' },
    });
    expect(again.status).toBe(201);
    expect(again.body.result.uniqueId).toBe(first.body.result.uniqueId);
    expect(h.sim.stats()).toMatchObject({ mediaCreated: 1, duplicateSubmits: 1 });
    expect(h.sim.media()[0]?.url).toBe(video.url);
  });

  it('answers a resubmission with 409 CONFLICTEXCEPTION and no uniqueId in the live dialect', async () => {
    h = await startHarness({ dialect: 'live' });
    await h.call('POST', '/v1/media', { body: video });
    const again = await h.call('POST', '/v1/media', { body: video });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      status: 'ERROR',
      traceId: expect.stringMatching(UUID),
      error: {
        identifier: 'vidmob.scoring.conflictexception',
        type: 'CONFLICTEXCEPTION',
        system: 'scoring',
        message: "A media entry with id 'spring-hero' and version 'v1' already exists",
      },
    });
    expect(h.sim.stats()).toMatchObject({ mediaCreated: 1, duplicateSubmits: 1 });
  });

  it('treats another version or source as a new asset with another uniqueId', async () => {
    h = await startHarness();
    const a = await h.call('POST', '/v1/media', { body: video });
    const b = await h.call('POST', '/v1/media', { body: { ...video, version: 'v2' } });
    const c = await h.call('POST', '/v1/media', { body: { ...video, source: 'drive' } });
    expect(new Set([a, b, c].map((x) => x.body.result.uniqueId)).size).toBe(3);
    expect(h.sim.stats()).toMatchObject({ mediaCreated: 3, duplicateSubmits: 0 });
  });
});

describe('GET /v1/media/{…}/status', () => {
  it('answers both lookup forms with the same record', async () => {
    h = await startHarness();
    const { uniqueId } = (await h.call('POST', '/v1/media', { body: video })).body.result;
    const byUniqueId = await h.call('GET', `/v1/media/${uniqueId}/status`);
    const byClientId = await h.call('GET', '/v1/media/spring-hero/status?source=dam&version=v1');
    expect(byUniqueId.status).toBe(200);
    expect(byUniqueId.body).toEqual({
      status: 'OK',
      result: { uniqueId, id: 'spring-hero', version: 'v1', source: 'dam', status: 'PROCESSING' },
    });
    expect(byClientId.body).toEqual(byUniqueId.body);
  });

  it('finds an asset submitted without version and source by its client id alone', async () => {
    h = await startHarness();
    await h.call('POST', '/v1/media', { body: { id: 'plain id', url: 'https://cdn.example.com/p.mp4' } });
    const answer = await h.call('GET', '/v1/media/plain%20id/status');
    expect(answer.status).toBe(200);
    expect(answer.body.result.id).toBe('plain id');
  });

  it('refuses a uniqueId together with source/version with 400', async () => {
    h = await startHarness();
    const { uniqueId } = (await h.call('POST', '/v1/media', { body: video })).body.result;
    const answer = await h.call('GET', `/v1/media/${uniqueId}/status?source=dam&version=v1`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/exactly one lookup form/);
  });

  it("answers 404 NOTFOUNDEXCEPTION for an unknown asset and for another organization's", async () => {
    h = await startHarness();
    const { uniqueId } = (await h.call('POST', '/v1/media', { body: video })).body.result;
    const unknown = await h.call('GET', '/v1/media/spring-hero/status?source=dam&version=v9');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('NOTFOUNDEXCEPTION');
    const foreign = await h.call('GET', `/v1/media/${uniqueId}/status`, { key: 'demo-key-globex' });
    expect(foreign.status).toBe(404);
  });
});

describe('processing timeline', () => {
  async function statusAfter(uniqueId: string, ms: number): Promise<string> {
    h.clock.advance(ms);
    const answer = await h.call('GET', `/v1/media/${uniqueId}/status`);
    return answer.body.result.status;
  }

  it('moves from PROCESSING to COMPLETE as the clock passes the processing time', async () => {
    const asset = findAsset((p) => p.outcome === 'COMPLETE');
    h = await startHarness();
    const { uniqueId } = (await h.call('POST', '/v1/media', { body: { id: asset.id, url: asset.url } })).body
      .result;
    expect(asset.plan.processingMs).toBeGreaterThanOrEqual(8 * MINUTE);
    expect(asset.plan.processingMs).toBeLessThanOrEqual(45 * MINUTE);
    expect(await statusAfter(uniqueId, 0)).toBe('PROCESSING');
    expect(await statusAfter(uniqueId, asset.plan.processingMs - 1)).toBe('PROCESSING');
    expect(await statusAfter(uniqueId, 1)).toBe('COMPLETE');
    expect(h.sim.status(uniqueId)).toBe('COMPLETE');
  });

  it('ends an unsupported file type (.pdf) in UNSUPPORTED', async () => {
    h = await startHarness();
    const body = { id: 'brochure', url: 'https://cdn.example.com/brochure.pdf' };
    const { uniqueId } = (await h.call('POST', '/v1/media', { body })).body.result;
    expect(await statusAfter(uniqueId, 0)).toBe('PROCESSING');
    expect(await statusAfter(uniqueId, 45 * MINUTE)).toBe('UNSUPPORTED');
  });

  it("ends a URL with 'corrupt' in its path in FAILED", async () => {
    h = await startHarness();
    const body = { id: 'broken', url: 'https://cdn.example.com/corrupt/broken.mp4' };
    const { uniqueId } = (await h.call('POST', '/v1/media', { body })).body.result;
    expect(await statusAfter(uniqueId, 45 * MINUTE)).toBe('FAILED');
  });

  it('shows ERROR for part of the window and COMPLETE on a later poll', async () => {
    const asset = findAsset((p) => p.outcome === 'ERROR_THEN_COMPLETE');
    const { errorFromMs = 0, processingMs } = asset.plan;
    h = await startHarness();
    const { uniqueId } = (await h.call('POST', '/v1/media', { body: { id: asset.id, url: asset.url } })).body
      .result;
    expect(await statusAfter(uniqueId, errorFromMs - 1)).toBe('PROCESSING');
    expect(await statusAfter(uniqueId, 1)).toBe('ERROR');
    expect(await statusAfter(uniqueId, processingMs - errorFromMs - 1)).toBe('ERROR');
    expect(await statusAfter(uniqueId, 1)).toBe('COMPLETE');
  });

  it('respects the processingMinutes option', async () => {
    const asset = findAsset((p) => p.outcome === 'COMPLETE', { minutes: [1, 2] });
    h = await startHarness({ processingMinutes: [1, 2] });
    const { uniqueId } = (await h.call('POST', '/v1/media', { body: { id: asset.id, url: asset.url } })).body
      .result;
    expect(await statusAfter(uniqueId, 59_000)).toBe('PROCESSING');
    expect(await statusAfter(uniqueId, MINUTE + 1000)).toBe('COMPLETE');
  });
});
