import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/clock';
import { type ChannelSummary, defaultFixture } from '../../src/simulator/index';
import { findAsset, type Harness, MINUTE, START, startHarness } from './helpers';

let h: Harness;
afterEach(async () => {
  await h?.sim.close();
});

interface Detail {
  name: string;
  rule: string;
  channel: string;
  result: string;
  weight: number;
}

const complete = (prefix: string, ext = 'mp4') =>
  findAsset((p) => p.outcome === 'COMPLETE', { prefix, url: (id) => `https://cdn.example.com/${id}.${ext}` });

async function submitCompleted(body: Record<string, unknown>): Promise<string> {
  const answer = await h.call('POST', '/v1/media', { body });
  expect(answer.status).toBe(201);
  h.clock.advance(45 * MINUTE);
  return answer.body.result.uniqueId;
}

const fixture = defaultFixture();
const northwind = fixture.organizations[0];
const orgGuidelineCount = (channel: string) =>
  northwind?.guidelines.filter((g) => g.channel === channel).length ?? 0;

describe('GET /v1/scoring/media/{uniqueId}/scores', () => {
  it('answers 400 with a clear message while the asset is not COMPLETE', async () => {
    h = await startHarness();
    const { uniqueId } = (
      await h.call('POST', '/v1/media', { body: { id: 'a', url: 'https://cdn.example.com/a.mp4' } })
    ).body.result;
    const answer = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(
      `Media ${uniqueId} has no scores: its status is PROCESSING, scores exist once it is COMPLETE`,
    );
  });

  it('keeps every channel summary consistent with its detail: counts add up, score is the weighted pass rate', async () => {
    h = await startHarness();
    const seen = new Set<string>();
    for (let n = 0; n < 12; n++) {
      const asset = complete(`consistency-${n}`, ['mp4', 'png', 'gif'][n % 3]);
      const uniqueId = await submitCompleted({
        id: asset.id,
        url: asset.url,
        channels: ['META', 'TIKTOK', 'ADWORDS', 'X'],
      });
      const answer = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?format=summary,detail`);
      expect(answer.status).toBe(200);
      const { summary, detail } = answer.body.result as {
        summary: Record<string, ChannelSummary>;
        detail: Detail[];
      };
      expect(Object.keys(summary)).toEqual(['META', 'TIKTOK', 'ADWORDS', 'X']);
      for (const [channel, s] of Object.entries(summary)) {
        const items = detail.filter((d) => d.channel === channel);
        for (const d of items) seen.add(d.result);
        const pass = items.filter((d) => d.result === 'PASS');
        const fail = items.filter((d) => d.result === 'FAIL');
        const noData = items.filter((d) => d.result.startsWith('NO_DATA'));
        const notApplicable = items.filter((d) => d.result === 'NOT_APPLICABLE');
        expect(pass.length + fail.length + noData.length + notApplicable.length).toBe(items.length);
        expect(s.passCount).toBe(pass.length);
        expect(s.failCount).toBe(fail.length);
        expect(s.notAvailableCount).toBe(noData.length);
        expect(s.notApplicableCount).toBe(notApplicable.length);
        expect(s.applicableCount).toBe(s.passCount + s.failCount + s.notAvailableCount);
        expect(s.passCount + s.failCount).toBeGreaterThan(0);
        const weight = (xs: Detail[]) => xs.reduce((sum, d) => sum + d.weight, 0);
        expect(s.score).toBeCloseTo(weight(pass) / (weight(pass) + weight(fail)), 4);
        expect(s.adherencePercent).toBeCloseTo(pass.length / (pass.length + fail.length), 4);
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(1);
      }
    }
    // Over a dozen assets every kind of result shows up, so the checks above exercised them all.
    expect(seen).toContain('PASS');
    expect(seen).toContain('FAIL');
    expect(seen).toContain('NOT_APPLICABLE');
    expect([...seen].some((r) => r.startsWith('NO_DATA'))).toBe(true);
  });

  it('answers the summary only by default and with format=summary', async () => {
    h = await startHarness();
    const asset = complete('summary-only');
    const uniqueId = await submitCompleted({ id: asset.id, url: asset.url });
    for (const query of ['', '?format=summary']) {
      const answer = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores${query}`);
      expect(Object.keys(answer.body.result).sort()).toEqual(['media', 'summary']);
    }
    const detail = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?format=detail`);
    expect(Object.keys(detail.body.result).sort()).toEqual(['detail', 'media', 'summary']);
  });

  it('describes the media: id, uniqueId, version, name and type', async () => {
    h = await startHarness();
    const asset = findAsset((p) => p.outcome === 'COMPLETE', {
      prefix: 'gif',
      version: 'v3',
      url: (id) => `https://cdn.example.com/${id}.gif`,
    });
    const uniqueId = await submitCompleted({ id: asset.id, url: asset.url, version: 'v3', name: 'Loop' });
    const answer = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores`);
    expect(answer.body.result.media).toEqual({
      id: asset.id,
      uniqueId,
      version: 'v3',
      name: 'Loop',
      type: 'ANIMATED_IMAGE',
    });
  });

  it('filters channels, case-insensitively and with aliases', async () => {
    h = await startHarness();
    const asset = complete('filter');
    const uniqueId = await submitCompleted({
      id: asset.id,
      url: asset.url,
      channels: ['META', 'TIKTOK', 'DV360'],
    });
    const answer = await h.call(
      'GET',
      `/v1/scoring/media/${uniqueId}/scores?format=detail&channel=facebook,TikTok`,
    );
    expect(Object.keys(answer.body.result.summary)).toEqual(['META', 'TIKTOK']);
    expect(new Set(answer.body.result.detail.map((d: Detail) => d.channel))).toEqual(
      new Set(['META', 'TIKTOK']),
    );
  });

  it('splits the guidelines by consideration: MANDATORY plus OPTIONAL counts make the whole', async () => {
    h = await startHarness();
    const asset = complete('consideration');
    const uniqueId = await submitCompleted({ id: asset.id, url: asset.url, channels: ['ADWORDS'] });
    const get = async (q: string) =>
      (await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?format=detail${q}`)).body.result;
    const all = await get('');
    const mandatory = await get('&consideration=MANDATORY');
    const optional = await get('&consideration=OPTIONAL');
    expect(mandatory.detail.length).toBeGreaterThan(0);
    expect(optional.detail.length).toBeGreaterThan(0);
    expect(mandatory.detail.length + optional.detail.length).toBe(all.detail.length);
    expect(mandatory.summary.ADWORDS.passCount + optional.summary.ADWORDS.passCount).toBe(
      all.summary.ADWORDS.passCount,
    );
    expect((await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?consideration=SOMETIMES`)).status).toBe(
      400,
    );
  });

  it('marks video-only guidelines NOT_APPLICABLE for an image', async () => {
    h = await startHarness();
    const asset = complete('still', 'jpg');
    const uniqueId = await submitCompleted({ id: asset.id, url: asset.url, channels: ['META'] });
    const { detail } = (await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?format=detail`)).body
      .result;
    const videoOnly = new Set(
      northwind?.guidelines
        .filter((g) => g.channel === 'META' && !g.creativeTypes.includes('IMAGE'))
        .map((g) => g.name),
    );
    expect(videoOnly.size).toBeGreaterThan(0);
    for (const d of detail as Detail[]) {
      expect(d.result === 'NOT_APPLICABLE').toBe(videoOnly.has(d.name));
    }
  });

  it("scores the workspace's scorecard channels and applies its guidelines on top of the organization's", async () => {
    h = await startHarness();
    const workspace = northwind?.workspaces.find((w) => w.id === 1201);
    const asset = complete('workspace');
    const inWorkspace = await submitCompleted({ id: asset.id, url: asset.url, workspaceId: 1201 });
    const scored = (await h.call('GET', `/v1/scoring/media/${inWorkspace}/scores?format=detail`)).body.result;
    expect(Object.keys(scored.summary)).toEqual(workspace?.scorecardChannels);
    const ownMeta = workspace?.guidelines.filter((g) => g.channel === 'META') ?? [];
    expect(ownMeta.length).toBeGreaterThan(0);
    const metaItems = (scored.detail as Detail[]).filter((d) => d.channel === 'META');
    expect(metaItems).toHaveLength(orgGuidelineCount('META') + ownMeta.length);
    for (const g of ownMeta)
      expect(metaItems.some((d) => d.rule === g.rule && d.weight === g.weight)).toBe(true);
    // The workspace twin of an organization guideline: same name, another weight, both present.
    const twin = ownMeta[0];
    const twinWeights = metaItems.filter((d) => d.name === twin?.name).map((d) => d.weight);
    expect(twinWeights).toHaveLength(2);
    expect(new Set(twinWeights).size).toBe(2);
  });

  it("uses the organization's default channels and only its guidelines without a workspace", async () => {
    h = await startHarness();
    const asset = complete('no-workspace');
    const uniqueId = await submitCompleted({ id: asset.id, url: asset.url });
    const scored = (await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?format=detail`)).body.result;
    expect(Object.keys(scored.summary)).toEqual(northwind?.defaultChannels);
    expect((scored.detail as Detail[]).filter((d) => d.channel === 'META')).toHaveLength(
      orgGuidelineCount('META'),
    );
  });

  it('finds scores by client id with source and version too', async () => {
    h = await startHarness();
    const asset = findAsset((p) => p.outcome === 'COMPLETE', { prefix: 'by-id' });
    const uniqueId = await submitCompleted({ id: asset.id, url: asset.url });
    const byUniqueId = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores`);
    const byId = await h.call('GET', `/v1/scoring/media/${asset.id}/scores?source=&version=`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(byUniqueId.body);
  });

  it('answers with exactly what scoreResult() reports, in the spec dialect', async () => {
    h = await startHarness();
    const asset = complete('canonical');
    const uniqueId = await submitCompleted({ id: asset.id, url: asset.url, channels: ['X', 'SNAPCHAT'] });
    const answer = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?format=summary,detail`);
    expect(answer.body.result).toEqual(h.sim.scoreResult(uniqueId));
  });
});

describe('live dialect', () => {
  it('keys META as FACEBOOK and X as TWITTER, names the detail channel channelIdentifier, adds dateUploaded', async () => {
    h = await startHarness({ dialect: 'live' });
    const asset = complete('live');
    const uniqueId = await submitCompleted({
      id: asset.id,
      url: asset.url,
      channels: ['META', 'X', 'TIKTOK'],
    });
    const answer = await h.call('GET', `/v1/scoring/media/${uniqueId}/scores?format=summary,detail`);
    const { summary, detail, media } = answer.body.result;
    expect(Object.keys(summary)).toEqual(['FACEBOOK', 'TWITTER', 'TIKTOK']);
    expect(new Set(detail.map((d: Record<string, unknown>) => d.channelIdentifier))).toEqual(
      new Set(['FACEBOOK', 'TWITTER', 'TIKTOK']),
    );
    expect(detail.every((d: Record<string, unknown>) => !('channel' in d))).toBe(true);
    expect(media.dateUploaded).toBe(new Date(START).toISOString());
    // The canonical record keeps the canonical ids, and the numbers agree with the live answer.
    const canonical = h.sim.scoreResult(uniqueId);
    expect(canonical?.summary.META).toEqual(summary.FACEBOOK);
    expect(canonical?.summary.X).toEqual(summary.TWITTER);
  });
});

describe('determinism', () => {
  it('gives the same asset the same timeline and results in separate simulators', async () => {
    const asset = findAsset((p) => p.outcome === 'ERROR_THEN_COMPLETE', {
      prefix: 'same',
      version: '2',
      source: 'dam',
    });
    const outcomes = [];
    for (let run = 0; run < 2; run++) {
      h = await startHarness({ clock: new SimulatedClock(START + run * 86_400_000) });
      const body = { id: asset.id, version: '2', source: 'dam', url: asset.url };
      const { uniqueId } = (await h.call('POST', '/v1/media', { body })).body.result;
      const timeline: string[] = [];
      for (let m = 0; m <= 50; m += 2) {
        timeline.push(h.sim.status(uniqueId) ?? '');
        h.clock.advance(2 * MINUTE);
      }
      outcomes.push({ uniqueId, timeline, result: h.sim.scoreResult(uniqueId) });
      await h.sim.close();
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[0]?.timeline).toContain('ERROR');
    expect(outcomes[0]?.timeline.at(-1)).toBe('COMPLETE');
    expect(outcomes[0]?.result?.detail.length).toBeGreaterThan(0);
  });
});
