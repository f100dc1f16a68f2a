import { describe, expect, it } from 'vitest';
import { canonicalChannel, canonicalChannels, parseChannelFilter } from '../../src/simulator/channels';

describe('channels', () => {
  it.each([
    ['facebook', 'META'],
    ['Instagram', 'META'],
    ['twitter', 'X'],
    ['google', 'ADWORDS'],
    ['YouTube', 'DV360'],
    ['amazon', 'AMAZONADVERTISING'],
    [' tiktok ', 'TIKTOK'],
    ['yahoodsp', 'YAHOODSP'],
    ['SomethingNew', 'SOMETHINGNEW'],
  ])('canonicalises %s to %s', (input, canonical) => {
    expect(canonicalChannel(input)).toBe(canonical);
  });

  it('deduplicates after canonicalising, keeping the first position', () => {
    expect(canonicalChannels(['instagram', 'x', 'FACEBOOK', 'twitter', ''])).toEqual(['META', 'X']);
  });

  it('reads the comma-separated filter, treating an empty one as no filter', () => {
    expect(parseChannelFilter('facebook, tiktok')).toEqual(new Set(['META', 'TIKTOK']));
    expect(parseChannelFilter('')).toBeUndefined();
    expect(parseChannelFilter(null)).toBeUndefined();
  });
});
