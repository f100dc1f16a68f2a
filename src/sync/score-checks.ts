// Consistency checks on a fetched score: the summary's counts must add up, and must agree
// with the per-guideline detail. A disagreement is recorded against the asset and shown in
// the report; it never stops the run.
import type { ScoreResult } from './api/schemas';
import { isNoData } from './no-data';

export interface ScoreIssue {
  channel: string;
  message: string;
}

export function checkScore(result: ScoreResult): ScoreIssue[] {
  const issues: ScoreIssue[] = [];
  const detailByChannel = new Map<string, { pass: number; fail: number; na: number; noData: number }>();
  for (const d of result.detail) {
    const counts = detailByChannel.get(d.channel) ?? { pass: 0, fail: 0, na: 0, noData: 0 };
    if (d.result === 'PASS') counts.pass++;
    else if (d.result === 'FAIL') counts.fail++;
    else if (d.result === 'NOT_APPLICABLE') counts.na++;
    else if (isNoData(d.result)) counts.noData++;
    detailByChannel.set(d.channel, counts);
  }

  for (const [channel, s] of Object.entries(result.summary)) {
    const sum = s.passCount + s.failCount + s.notAvailableCount;
    if (s.applicableCount !== sum) {
      issues.push({
        channel,
        message: `applicable count ${s.applicableCount} ≠ pass ${s.passCount} + fail ${s.failCount} + not available ${s.notAvailableCount} (= ${sum})`,
      });
    }
    if (result.detail.length === 0) continue;
    const d = detailByChannel.get(channel) ?? { pass: 0, fail: 0, na: 0, noData: 0 };
    const pairs: [string, number, number][] = [
      ['pass', s.passCount, d.pass],
      ['fail', s.failCount, d.fail],
      ['not applicable', s.notApplicableCount, d.na],
      ['not available', s.notAvailableCount, d.noData],
    ];
    const differ = pairs.filter(([, summary, detail]) => summary !== detail);
    if (differ.length > 0) {
      issues.push({
        channel,
        message: `summary and detail disagree: ${differ.map(([what, a, b]) => `${what} ${a} in the summary, ${b} in the detail`).join('; ')}`,
      });
    }
  }
  for (const channel of detailByChannel.keys()) {
    if (!(channel in result.summary)) {
      issues.push({ channel, message: 'the detail has results for this channel but the summary has none' });
    }
  }
  return issues;
}
