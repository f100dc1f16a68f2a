import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchForTagging, clientTagsOf, type TagCandidate } from '../../src/sync/tagging-batches';

const candidate = (
  assetId: number,
  creativeId: string,
  clientTags: Record<string, string>,
): TagCandidate => ({
  assetId,
  creativeId,
  url: `https://cdn.example.com/${creativeId}.mp4`,
  clientTags,
});

describe('clientTagsOf', () => {
  it('joins brands, markets and channels in a stable order and adds the extra tag columns', () => {
    expect(
      clientTagsOf(
        { brands: ['B', 'A'], markets: ['US'], channels: ['TIKTOK', 'META'] },
        { campaign: 'Spring', empty: ' ' },
      ),
    ).toEqual({ brand: 'A;B', market: 'US', channels: 'META;TIKTOK', campaign: 'Spring' });
    expect(clientTagsOf({ brands: [], markets: [], channels: [] }, null)).toEqual({});
  });
});

describe('batchForTagging', () => {
  it('groups creatives by identical client tags, whatever their key order', () => {
    const batches = batchForTagging(
      [
        candidate(1, 'a', { brand: 'X', market: 'US' }),
        candidate(2, 'b', { brand: 'Y' }),
        candidate(3, 'c', { market: 'US', brand: 'X' }),
      ],
      200,
    );
    expect(batches.map((b) => b.creatives.map((c) => c.assetId))).toEqual([[1, 3], [2]]);
  });

  it('never puts two assets with the same creative id into one job', () => {
    const batches = batchForTagging(
      [candidate(1, 'a', {}), candidate(2, 'a', {}), candidate(3, 'b', {})],
      200,
    );
    expect(batches.map((b) => b.creatives.map((c) => c.assetId))).toEqual([[1, 3], [2]]);
  });

  it('keeps every job within the batch size and the service’s 200, and loses no creative', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.integer({ min: 0, max: 400 }), tag: fc.constantFrom('x', 'y', 'z') }), {
          maxLength: 700,
        }),
        fc.integer({ min: 1, max: 500 }),
        (items, size) => {
          const candidates = items.map((item, i) => candidate(i, String(item.id), { brand: item.tag }));
          const batches = batchForTagging(candidates, size);
          for (const batch of batches) {
            expect(batch.creatives.length).toBeLessThanOrEqual(Math.min(size, 200));
            expect(new Set(batch.creatives.map((c) => c.creativeId)).size).toBe(batch.creatives.length);
            expect(new Set(batch.creatives.map((c) => c.clientTags.brand)).size).toBe(1);
          }
          expect(batches.flatMap((b) => b.creatives.map((c) => c.assetId)).sort((a, b) => a - b)).toEqual(
            candidates.map((c) => c.assetId),
          );
        },
      ),
      { numRuns: 50 },
    );
  });
});
