import { describe, expect, it } from 'vitest';
import { organizationResult, scoreResultBody } from '../../src/simulator/dialect';
import { defaultFixture } from '../../src/simulator/index';
import type { CanonicalScoreResult } from '../../src/simulator/scores';

const summary = {
  score: 1,
  adherencePercent: 1,
  passCount: 1,
  failCount: 0,
  applicableCount: 1,
  notApplicableCount: 0,
  notAvailableCount: 0,
};
const result: CanonicalScoreResult = {
  media: { id: 'a', uniqueId: 'u', version: '', name: '', type: 'VIDEO' },
  summary: { META: summary, X: summary, TIKTOK: summary },
  detail: [
    { name: 'n', rule: 'r', channel: 'META', result: 'PASS', weight: 2 },
    { name: 'n', rule: 'r', channel: 'X', result: 'PASS', weight: 1 },
  ],
};
const dateUploaded = '2025-03-03T02:00:00.000Z';

describe('scoreResultBody', () => {
  it('passes the canonical result through in the spec dialect, dropping detail unless asked', () => {
    expect(scoreResultBody('spec', result, { withDetail: true, dateUploaded })).toEqual(result);
    expect(scoreResultBody('spec', result, { withDetail: false, dateUploaded })).toEqual({
      media: result.media,
      summary: result.summary,
    });
  });

  it('uses legacy channel keys, channelIdentifier and dateUploaded in the live dialect', () => {
    expect(scoreResultBody('live', result, { withDetail: true, dateUploaded })).toEqual({
      media: { ...result.media, dateUploaded },
      summary: { FACEBOOK: summary, TWITTER: summary, TIKTOK: summary },
      detail: [
        { name: 'n', rule: 'r', channelIdentifier: 'FACEBOOK', result: 'PASS', weight: 2 },
        { name: 'n', rule: 'r', channelIdentifier: 'TWITTER', result: 'PASS', weight: 1 },
      ],
    });
  });
});

describe('organizationResult', () => {
  const org = defaultFixture().organizations[0];
  it('names the id orgId in the spec dialect and id in the live one', () => {
    if (!org) throw new Error('fixture has no organization');
    expect(organizationResult('spec', org)).toEqual({ orgId: org.id, name: 'Northwind Brands' });
    expect(organizationResult('live', org)).toEqual({ id: org.id, name: 'Northwind Brands' });
  });
});
