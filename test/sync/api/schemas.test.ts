import { describe, expect, it } from 'vitest';
import {
  envelopeSchema,
  errorBodySchema,
  mediaStatusSchema,
  organizationSchema,
  scoreResultSchema,
  workspaceSchema,
} from '../../../src/sync/api/schemas';

const summary = (score: number | null, adherencePercent: number | null) => ({
  score,
  adherencePercent,
  passCount: 3,
  failCount: 1,
  applicableCount: 5,
  notApplicableCount: 2,
  notAvailableCount: 1,
});

describe('envelopeSchema', () => {
  it('reads the pagination numbers, also when they come as strings', () => {
    const envelope = envelopeSchema.parse({
      status: 'OK',
      result: [],
      pagination: { offset: '20', perPage: 20, nextOffset: null, totalSize: '45' },
    });

    expect(envelope.pagination).toEqual({ offset: 20, perPage: 20, nextOffset: null, totalSize: 45 });
  });

  it('refuses a body that is not an object with a result', () => {
    expect(envelopeSchema.safeParse({ status: 'OK' }).success).toBe(false);
    expect(envelopeSchema.safeParse([{ id: 1 }]).success).toBe(false);
  });
});

describe('organizationSchema', () => {
  it('takes the spec’s orgId as the id', () => {
    expect(organizationSchema.parse({ orgId: 'org-1', name: 'Northwind' })).toEqual({
      id: 'org-1',
      name: 'Northwind',
    });
  });

  it('takes the live service’s id, and a numeric one as text', () => {
    expect(organizationSchema.parse({ id: 'org-1', name: 'Northwind' })).toEqual({
      id: 'org-1',
      name: 'Northwind',
    });
    expect(organizationSchema.parse({ id: 42 })).toEqual({ id: '42', name: '' });
  });

  it('refuses an organization with neither id nor orgId', () => {
    const parsed = organizationSchema.safeParse({ name: 'Northwind' });

    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(['organization has neither id nor orgId']);
  });
});

describe('workspaceSchema', () => {
  it('reads a numeric id given as text and defaults a missing name', () => {
    expect(workspaceSchema.parse({ id: '1201' })).toEqual({ id: 1201, name: '' });
  });

  it('refuses a workspace without an id', () => {
    expect(workspaceSchema.safeParse({ name: 'No id' }).success).toBe(false);
  });
});

describe('mediaStatusSchema', () => {
  it('upper-cases the status and accepts null version and source', () => {
    expect(
      mediaStatusSchema.parse({
        uniqueId: 'u-1',
        id: 'A-1',
        version: null,
        source: null,
        status: 'complete',
      }),
    ).toEqual({ uniqueId: 'u-1', id: 'A-1', version: null, source: null, status: 'COMPLETE' });
  });

  it('refuses a record without a status', () => {
    expect(mediaStatusSchema.safeParse({ uniqueId: 'u-1', status: '' }).success).toBe(false);
  });
});

describe('scoreResultSchema', () => {
  it('renames the legacy FACEBOOK and TWITTER keys to META and X', () => {
    const result = scoreResultSchema.parse({
      summary: { FACEBOOK: summary(0.5, 0.6), TWITTER: summary(0.7, 0.8), TIKTOK: summary(0.9, 1) },
    });

    expect(result.summary).toEqual({
      META: summary(0.5, 0.6),
      X: summary(0.7, 0.8),
      TIKTOK: summary(0.9, 1),
    });
  });

  it('keeps the first of two spellings of one channel', () => {
    const result = scoreResultSchema.parse({
      summary: { META: summary(0.5, 0.5), FACEBOOK: summary(0.1, 0.1) },
    });

    expect(result.summary).toEqual({ META: summary(0.5, 0.5) });
  });

  it('keeps a channel it does not know as it comes', () => {
    const result = scoreResultSchema.parse({ summary: { NEWCHANNEL: summary(0.5, 0.5) } });

    expect(Object.keys(result.summary)).toEqual(['NEWCHANNEL']);
  });

  it('normalises 0–100 scores to 0–1 and leaves 0–1 scores alone', () => {
    const result = scoreResultSchema.parse({
      summary: { META: summary(85, 60), TIKTOK: summary(0.85, 0.6), X: summary(null, 0) },
    });

    expect(result.summary.META).toMatchObject({ score: 0.85, adherencePercent: 0.6 });
    expect(result.summary.TIKTOK).toMatchObject({ score: 0.85, adherencePercent: 0.6 });
    expect(result.summary.X).toMatchObject({ score: null, adherencePercent: 0 });
  });

  it('counts missing notApplicable and notAvailable as zero', () => {
    const result = scoreResultSchema.parse({
      summary: { META: { score: 1, adherencePercent: 1, passCount: 2, failCount: 0, applicableCount: 2 } },
    });

    expect(result.summary.META).toEqual({
      score: 1,
      adherencePercent: 1,
      passCount: 2,
      failCount: 0,
      applicableCount: 2,
      notApplicableCount: 0,
      notAvailableCount: 0,
    });
  });

  it('reads the live detail item with channelIdentifier and rule', () => {
    const result = scoreResultSchema.parse({
      detail: [
        {
          name: 'Motion Early (Video only)',
          rule: 'Motion is detected in the first 3 seconds of video',
          channelIdentifier: 'TWITTER',
          result: 'PASS',
          weight: 1,
        },
      ],
    });

    expect(result.detail).toEqual([
      {
        name: 'Motion Early (Video only)',
        rule: 'Motion is detected in the first 3 seconds of video',
        channel: 'X',
        result: 'PASS',
        weight: 1,
      },
    ]);
  });

  it('reads the spec detail item with channel, upper-casing the result and keeping NO_DATA codes', () => {
    const result = scoreResultSchema.parse({
      detail: [
        { name: 'Logo', channel: 'facebook', result: 'fail', weight: '2' },
        { name: 'Sound', channel: 'META', result: 'NO_DATA_SCORING_BACKLOG', weight: null },
      ],
    });

    expect(result.detail).toEqual([
      { name: 'Logo', rule: null, channel: 'META', result: 'FAIL', weight: 2 },
      { name: 'Sound', rule: null, channel: 'META', result: 'NO_DATA_SCORING_BACKLOG', weight: null },
    ]);
  });

  it('refuses a detail item with neither channel nor channelIdentifier', () => {
    const parsed = scoreResultSchema.safeParse({ detail: [{ name: 'Logo', result: 'PASS' }] });

    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([
      'detail item has neither channel nor channelIdentifier',
    ]);
  });

  it('gives an empty summary and detail when the result has neither', () => {
    expect(scoreResultSchema.parse({ media: { id: 'A-1' } })).toEqual({
      media: { id: 'A-1' },
      summary: {},
      detail: [],
    });
  });
});

describe('errorBodySchema', () => {
  it('reads the application error shape with an array message', () => {
    const body = {
      status: 'ERROR',
      traceId: 't-1',
      error: {
        identifier: 'vidmob.scoring.badrequestexception',
        type: 'BADREQUESTEXCEPTION',
        system: 'scoring',
        message: ['url must be a URL address'],
      },
    };

    expect(errorBodySchema.parse(body)).toEqual(body);
  });

  it('reads the flat gateway shape', () => {
    const body = { statusCode: 401, message: 'Request is Unauthorized', error: 'Unauthorized' };

    expect(errorBodySchema.parse(body)).toEqual(body);
  });
});
