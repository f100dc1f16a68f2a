import { describe, expect, it } from 'vitest';
import { barChart, barChartSpec, formatValue } from '../../src/reports/charts';
import type { GroupRollupRow } from '../../src/reports/rollups';
import { bestAndWorst, scoreBars, stateBars } from '../../src/reports/sheets/overview';

const row = (key: string | null, meanScore: number | null, scoreRows = 1): GroupRollupRow => ({
  key,
  assets: 1,
  scored: 1,
  meanScore,
  medianScore: meanScore,
  meanAdherence: meanScore,
  scoreRows,
  passCount: 0,
  failCount: 0,
  notApplicableCount: 0,
  notAvailableCount: 0,
  unsupported: 0,
  failed: 0,
});

describe('charts', () => {
  it('draws a PNG whose description carries every figure, in the order given', async () => {
    const picture = await barChart({
      title: 'Mean score by channel',
      bars: [
        { label: 'META', value: 0.8 },
        { label: 'TIKTOK', value: 0.55 },
      ],
      format: 'percent',
    });
    expect(picture.png.subarray(1, 4).toString()).toBe('PNG');
    // Twice the displayed size, for sharp printing.
    expect(picture.png.readUInt32BE(16)).toBe(picture.width * 2);
    expect(picture.width).toBeGreaterThan(300);
    expect(picture.height).toBeGreaterThan(50);
    expect(picture.description).toBe('Mean score by channel: META 80.0%; TIKTOK 55.0%');
  });

  it('puts percentages on a fixed 0–100% axis and keeps the given order', () => {
    const spec = barChartSpec({
      title: 't',
      bars: [
        { label: 'b', value: 0.2 },
        { label: 'a', value: 0.9 },
      ],
      format: 'percent',
    });
    expect(JSON.stringify(spec)).toContain('"domain":[0,1]');
    expect(JSON.stringify(spec)).toContain('"sort":null');
    expect(JSON.stringify(spec)).toContain('"values":[{"label":"b","value":0.2},{"label":"a","value":0.9}]');
  });

  it('says there is nothing to show rather than drawing empty axes', async () => {
    const picture = await barChart({ title: 'Assets by state', bars: [], format: 'count' });
    expect(picture.description).toBe('Assets by state: none');
    expect(formatValue(12345, 'count')).toBe('12,345');
  });
});

describe('the Overview rankings', () => {
  it('never lists a group as both best and worst, and leaves out (none) and unscored groups', () => {
    const rows = [row('a', 0.9), row('b', 0.1), row('c', 0.5), row(null, 1), row('d', null), row('e', 0.5)];
    const { best, worst } = bestAndWorst(rows, 3);
    expect(best.map((r) => r.key)).toEqual(['a', 'c']);
    expect(worst.map((r) => r.key)).toEqual(['b', 'e']);
    expect(bestAndWorst([row('only', 0.4)]).worst).toEqual([]);
  });

  it('charts the brands with most scores, best first', () => {
    const rows = [row('few', 0.99, 1), row('many', 0.2, 50), row('some', 0.6, 10)];
    expect(scoreBars(rows, 2)).toEqual([
      { label: 'some', value: 0.6 },
      { label: 'many', value: 0.2 },
    ]);
    expect(
      stateBars([
        { state: 'failed', assets: 2 },
        { state: 'scored', assets: 5 },
        { state: 'pending', assets: 0 },
      ]),
    ).toEqual([
      { label: 'scored', value: 5 },
      { label: 'failed', value: 2 },
    ]);
  });
});
