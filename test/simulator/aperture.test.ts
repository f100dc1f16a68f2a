// The simulated Aperture endpoints and the storage server behind their report links.
import { afterEach, describe, expect, it } from 'vitest';
import { tagRowsFor } from '../../src/simulator/aperture-report';
import { GLOBEX_API_KEY } from '../../src/simulator/index';
import { type Harness, MINUTE, startHarness, UUID } from './helpers';

const opened: Harness[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((h) => h.sim.close()));
});

async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(options);
  opened.push(h);
  return h;
}

const creatives = [
  { id: 'NW-1', url: 'https://cdn.example.com/nw1.mp4' },
  { id: 'NW-2', url: 'https://cdn.example.com/nw2.jpg' },
  { id: 'NW-3', url: 'https://cdn.example.com/corrupt/nw3.mp4' },
];

/** Advances the clock until the job reports `status`, returning the answers seen on the way. */
async function pollUntil(h: Harness, jobId: string, status: string) {
  const seen = [];
  for (let i = 0; i < 200; i++) {
    const answer = await h.call('GET', `/v1/media/aperture/${jobId}`);
    seen.push(answer.body.result);
    if (answer.body.result.status === status) return seen;
    h.clock.advance(MINUTE);
  }
  throw new Error(`job never reached ${status}`);
}

describe('POST /v1/media/aperture and GET /v1/media/aperture/{jobId}', () => {
  it('makes a QUEUED job that becomes PROCESSING with progress, then COMPLETED with a report link (spec)', async () => {
    const h = await harness();
    const posted = await h.call('POST', '/v1/media/aperture', {
      body: { creatives, clientTags: { brand: 'NW' } },
    });
    expect(posted.status).toBe(201);
    expect(posted.body).toEqual({
      status: 'OK',
      result: { jobId: expect.stringMatching(UUID), status: 'QUEUED' },
    });
    const seen = await pollUntil(h, posted.body.result.jobId, 'COMPLETED');
    const statuses = [...new Set(seen.map((r) => r.status))];
    expect(statuses).toEqual(['QUEUED', 'PROCESSING', 'COMPLETED']);
    expect(seen.find((r) => r.status === 'PROCESSING')?.message).toMatch(/^Processed \d+ out of 3 media\.$/);
    const done = seen.at(-1);
    expect(done.errors).toEqual({ 'NW-3': 'Media could not be downloaded from the url' });
    expect(new URL(done.downloadUrlCsv).origin).toBe(h.sim.aperture.storageUrl);
    expect(new URL(done.downloadUrlCsv).origin).not.toBe(h.sim.url);
  });

  it('answers in the live style: job_id, date_*, download_url_csv, creativeIdentifiers and clientTags', async () => {
    const h = await harness({ dialect: 'live' });
    const posted = await h.call('POST', '/v1/media/aperture', {
      body: { creatives, clientTags: { brand: 'NW' } },
    });
    const job = posted.body.result;
    expect(job).toMatchObject({
      job_id: expect.stringMatching(UUID),
      status: 'QUEUED',
      creativeIdentifiers: ['NW-1', 'NW-2', 'NW-3'],
      clientTags: { brand: 'NW' },
      date_created: new Date(h.clock.now()).toISOString(),
    });
    expect(job.jobId).toBeUndefined();
    const done = (await pollUntil(h, job.job_id, 'COMPLETED')).at(-1);
    expect(done.download_url_csv).toMatch(/^http:\/\/.+\/reports\/.+\.csv\?expires=\d+&signature=[0-9a-f]+$/);
    expect(done.downloadUrlCsv).toBeUndefined();
  });

  it('refuses more than 200 creatives with the live message', async () => {
    const h = await harness();
    const many = Array.from({ length: 201 }, (_, i) => ({
      id: `c-${i}`,
      url: `https://cdn.example.com/${i}.mp4`,
    }));
    const answer = await h.call('POST', '/v1/media/aperture', { body: { creatives: many } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toEqual(['creatives must contain no more than 200 elements']);
    expect(h.sim.aperture.jobs()).toHaveLength(0);
  });

  it('fails a job whose every creative fails, with an errors object', async () => {
    const h = await harness();
    const posted = await h.call('POST', '/v1/media/aperture', { body: { creatives: [creatives[2]] } });
    const done = (await pollUntil(h, posted.body.result.jobId, 'FAILED')).at(-1);
    expect(done.errors).toEqual({ 'NW-3': 'Media could not be downloaded from the url' });
    expect(done.downloadUrlCsv).toBeUndefined();
  });

  it("does not show a job to another organization's key", async () => {
    const h = await harness();
    const posted = await h.call('POST', '/v1/media/aperture', { body: { creatives } });
    const answer = await h.call('GET', `/v1/media/aperture/${posted.body.result.jobId}`, {
      key: GLOBEX_API_KEY,
    });
    expect(answer.status).toBe(404);
  });
});

describe('the storage server', () => {
  it('serves the report of the tagged creatives, without a key, until the link expires', async () => {
    const h = await harness({ tagReportLinkMinutes: 5 });
    const posted = await h.call('POST', '/v1/media/aperture', { body: { creatives } });
    const jobId = posted.body.result.jobId;
    const link = (await pollUntil(h, jobId, 'COMPLETED')).at(-1).downloadUrlCsv;

    const res = await fetch(link);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe(
      'Creative ID,Tag Type,Tag Name,Tag Value,Confidence,Start Time,End Time',
    );
    const expected =
      tagRowsFor(creatives[0] as (typeof creatives)[0]).length +
      tagRowsFor(creatives[1] as (typeof creatives)[0]).length;
    expect(h.sim.aperture.reportRowCount(jobId)).toBe(expected);
    expect(expected).toBeGreaterThan(200);
    expect(text).not.toContain('NW-3');
    expect(h.sim.aperture.storageRequests()[0]?.headers.authorization).toBeUndefined();

    h.clock.advance(5 * MINUTE + 1);
    const expired = await fetch(link);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
    const forged = await fetch(link.replace(/signature=[0-9a-f]+/, 'signature=00'));
    expect(forged.status).toBe(403);
  });

  it('hands out an already expired link when the fault asks for one', async () => {
    const h = await harness();
    const posted = await h.call('POST', '/v1/media/aperture', { body: { creatives } });
    await pollUntil(h, posted.body.result.jobId, 'COMPLETED');
    h.sim.aperture.faults.expiredLinks = 1;
    const stale = (await h.call('GET', `/v1/media/aperture/${posted.body.result.jobId}`)).body.result
      .downloadUrlCsv;
    const fresh = (await h.call('GET', `/v1/media/aperture/${posted.body.result.jobId}`)).body.result
      .downloadUrlCsv;
    expect((await fetch(stale)).status).toBe(403);
    expect((await fetch(fresh)).status).toBe(200);
  });
});

describe('tag report rows', () => {
  it('are hundreds per creative, of several types, the same every time', () => {
    const rows = tagRowsFor({ id: 'X', url: 'https://cdn.example.com/x.mp4' });
    expect(rows.length).toBeGreaterThanOrEqual(120);
    expect(new Set(rows.map((r) => r.tagType)).size).toBeGreaterThanOrEqual(5);
    expect(tagRowsFor({ id: 'X', url: 'https://cdn.example.com/x.mp4' })).toEqual(rows);
    expect(
      tagRowsFor({ id: 'X', url: 'https://cdn.example.com/x.jpg' }).every((r) => r.startTime === null),
    ).toBe(true);
  });
});
