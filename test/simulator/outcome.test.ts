import { describe, expect, it } from 'vitest';
import {
  type AssetIdentity,
  type GuidelineResult,
  mediaTypeFromUrl,
  planProcessing,
  statusAt,
  summarise,
} from '../../src/simulator/outcome';

const asset = (id: string, url = `https://cdn.example.com/${id}.mp4`): AssetIdentity => ({
  orgId: 'org',
  id,
  version: '',
  source: '',
  url,
});

describe('mediaTypeFromUrl', () => {
  it.each([
    ['https://x.example/a.mp4', 'VIDEO'],
    ['https://x.example/a.MOV', 'VIDEO'],
    ['https://x.example/a.webm?X-Amz-Signature=abc', 'VIDEO'],
    ['https://x.example/a.m4v', 'VIDEO'],
    ['https://x.example/a.jpg', 'IMAGE'],
    ['https://x.example/a.jpeg', 'IMAGE'],
    ['https://x.example/a.png', 'IMAGE'],
    ['https://x.example/a.webp', 'IMAGE'],
    ['https://x.example/a.gif', 'ANIMATED_IMAGE'],
    ['https://x.example/a.pdf', 'UNSUPPORTED'],
    ['https://x.example/folder.mp4/file', 'UNSUPPORTED'],
    ['https://x.example/download?id=a.mp4', 'UNSUPPORTED'],
  ])('%s is %s', (url, type) => {
    expect(mediaTypeFromUrl(url)).toBe(type);
  });
});

describe('planProcessing', () => {
  it('is the same for the same asset and keeps durations inside the range', () => {
    for (let i = 0; i < 200; i++) {
      const plan = planProcessing(asset(`a${i}`), [8, 45]);
      expect(planProcessing(asset(`a${i}`), [8, 45])).toEqual(plan);
      expect(plan.processingMs).toBeGreaterThanOrEqual(8 * 60_000);
      expect(plan.processingMs).toBeLessThanOrEqual(45 * 60_000);
    }
  });

  it('fails about 3% and shows a passing ERROR for about 8%', () => {
    const counts: Record<string, number> = {};
    for (let i = 0; i < 4000; i++) {
      const { outcome } = planProcessing(asset(`share-${i}`), [8, 45]);
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    expect(counts.FAILED).toBeGreaterThan(4000 * 0.015);
    expect(counts.FAILED).toBeLessThan(4000 * 0.045);
    expect(counts.ERROR_THEN_COMPLETE).toBeGreaterThan(4000 * 0.06);
    expect(counts.ERROR_THEN_COMPLETE).toBeLessThan(4000 * 0.1);
    expect(counts.UNSUPPORTED).toBeUndefined();
  });

  it("fails any URL with 'corrupt' in its path and leaves other types UNSUPPORTED", () => {
    expect(planProcessing(asset('c', 'https://x.example/media/Corrupt-file.mp4'), [8, 45]).outcome).toBe(
      'FAILED',
    );
    expect(planProcessing(asset('d', 'https://x.example/doc.docx'), [8, 45]).outcome).toBe('UNSUPPORTED');
  });
});

describe('statusAt', () => {
  it('walks PROCESSING, ERROR, COMPLETE for an error that clears', () => {
    const plan = {
      mediaType: 'VIDEO' as const,
      outcome: 'ERROR_THEN_COMPLETE' as const,
      processingMs: 1000,
      errorFromMs: 400,
      errorUntilMs: 1000,
    };
    expect([0, 399, 400, 999, 1000, 5000].map((t) => statusAt(plan, 10_000, 10_000 + t))).toEqual([
      'PROCESSING',
      'PROCESSING',
      'ERROR',
      'ERROR',
      'COMPLETE',
      'COMPLETE',
    ]);
  });

  it('stays PROCESSING for a clock before the submission', () => {
    expect(statusAt({ mediaType: 'IMAGE', outcome: 'FAILED', processingMs: 10 }, 100, 50)).toBe('PROCESSING');
  });
});

describe('summarise', () => {
  const r = (result: string, weight: number, channel = 'META'): GuidelineResult => ({
    guidelineId: 1,
    name: 'n',
    rule: 'r',
    channel,
    consideration: 'MANDATORY',
    result,
    weight,
  });

  it('counts results and computes weighted score and unweighted adherence, rounded to 4 decimals', () => {
    const summary = summarise([
      r('PASS', 3),
      r('FAIL', 1),
      r('FAIL', 2),
      r('NO_DATA', 3),
      r('NO_DATA_SCORING_BACKLOG', 1),
      r('NOT_APPLICABLE', 2),
      r('PASS', 1, 'X'),
    ]);
    expect(summary).toEqual({
      META: {
        score: 0.5,
        adherencePercent: 0.3333,
        passCount: 1,
        failCount: 2,
        applicableCount: 5,
        notApplicableCount: 1,
        notAvailableCount: 2,
      },
      X: {
        score: 1,
        adherencePercent: 1,
        passCount: 1,
        failCount: 0,
        applicableCount: 1,
        notApplicableCount: 0,
        notAvailableCount: 0,
      },
    });
  });

  it('scores 0 rather than NaN when nothing was evaluated', () => {
    expect(summarise([r('NOT_APPLICABLE', 1)]).META).toMatchObject({ score: 0, adherencePercent: 0 });
  });
});
