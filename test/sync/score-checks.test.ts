import { describe, expect, it } from 'vitest';
import type { ScoreResult } from '../../src/sync/api/schemas';
import { checkScore } from '../../src/sync/score-checks';

const summary = (
  pass: number,
  fail: number,
  na: number,
  noData: number,
  applicable = pass + fail + noData,
) => ({
  score: 0.5,
  adherencePercent: 0.5,
  passCount: pass,
  failCount: fail,
  applicableCount: applicable,
  notApplicableCount: na,
  notAvailableCount: noData,
});
const item = (result: string, channel = 'META') => ({ name: 'g', rule: null, channel, result, weight: 1 });

function result(parts: Partial<ScoreResult>): ScoreResult {
  return { media: {}, summary: {}, detail: [], ...parts };
}

describe('checkScore', () => {
  it('finds nothing wrong when the counts add up and agree with the detail', () => {
    const consistent = result({
      summary: { META: summary(2, 1, 1, 1) },
      detail: [
        item('PASS'),
        item('PASS'),
        item('FAIL'),
        item('NOT_APPLICABLE'),
        item('NO_DATA_SCORING_BACKLOG'),
      ],
    });
    expect(checkScore(consistent)).toEqual([]);
  });

  it('catches an applicable count that is not pass + fail + not available', () => {
    expect(checkScore(result({ summary: { META: summary(2, 1, 0, 0, 4) } }))).toEqual([
      { channel: 'META', message: 'applicable count 4 ≠ pass 2 + fail 1 + not available 0 (= 3)' },
    ]);
  });

  it('catches a summary that disagrees with its detail, naming each count', () => {
    const issues = checkScore(
      result({ summary: { META: summary(3, 1, 0, 0) }, detail: [item('PASS'), item('PASS'), item('FAIL')] }),
    );
    expect(issues).toEqual([
      { channel: 'META', message: 'summary and detail disagree: pass 3 in the summary, 2 in the detail' },
    ]);
  });

  it('catches detail for a channel the summary does not have', () => {
    const issues = checkScore(
      result({ summary: { META: summary(1, 0, 0, 0) }, detail: [item('PASS'), item('PASS', 'X')] }),
    );
    expect(issues.map((i) => i.channel)).toEqual(['X']);
  });
});
