import { describe, expect, it } from 'vitest';
import { type GuidelineCandidate, matchGuidelines } from '../../src/sync/guideline-match';

const org = (id: string, name: string, rule: string, channel = 'META'): GuidelineCandidate => ({
  id,
  name,
  rule,
  channel,
  workspaceId: null,
});
const ws = (
  id: string,
  workspaceId: number,
  name: string,
  rule: string,
  channel = 'META',
): GuidelineCandidate => ({
  id,
  name,
  rule,
  channel,
  workspaceId,
});

describe('matchGuidelines', () => {
  const candidates = [
    org('1', 'Logo Early', 'Logo in the first 2 seconds'),
    org('2', 'Sound On', 'Voice-over or music'),
    org('3', 'Logo Early', 'Logo in the first 2 seconds', 'TIKTOK'),
    ws('101', 1201, 'Logo Early', 'Logo in the first 2 seconds (workspace standard)'),
    ws('201', 1202, 'Pack Shot', 'Product at the end'),
  ];

  it('matches by channel and name when the name is unique there', () => {
    const rows = [
      { name: 'Sound On', rule: null, channel: 'META' },
      { name: 'Logo Early', rule: null, channel: 'TIKTOK' },
    ];
    expect(matchGuidelines(rows, candidates, null)).toEqual(['2', '3']);
  });

  it('tells an organization guideline from its workspace twin by the rule text', () => {
    const rows = [
      { name: 'Logo Early', rule: 'Logo in the first 2 seconds (workspace standard)', channel: 'META' },
      { name: 'Logo Early', rule: 'Logo in the first 2 seconds', channel: 'META' },
    ];
    expect(matchGuidelines(rows, candidates, 1201)).toEqual(['101', '1']);
  });

  it('falls back to the order of appearance, organization first, when the rule does not tell', () => {
    const rows = [
      { name: 'Logo Early', rule: null, channel: 'META' },
      { name: 'Logo Early', rule: null, channel: 'META' },
    ];
    expect(matchGuidelines(rows, candidates, 1201)).toEqual(['1', '101']);
  });

  it('ignores the guidelines of other workspaces and leaves what it cannot match unmatched', () => {
    const rows = [
      { name: 'Pack Shot', rule: 'Product at the end', channel: 'META' },
      { name: 'Never Heard Of', rule: null, channel: 'META' },
    ];
    expect(matchGuidelines(rows, candidates, 1201)).toEqual([null, null]);
    expect(matchGuidelines(rows, candidates, 1202)).toEqual(['201', null]);
  });
});
