import { describe, expect, it } from 'vitest';
import { harnessPerTest } from '../../sync/harness';
import { readSheet, readWorkbook, records } from '../read-back';

/** A fresh harness for one test, closed after it. */
const harness = harnessPerTest();

async function reportOfARun() {
  const h = await harness();
  h.manifest(
    'm.csv',
    [
      'id,url,workspaceId,channels,brands',
      ...Array.from({ length: 12 }, (_, i) =>
        [
          `G-${i}`,
          `https://cdn.example.com/g${i}.${i % 3 === 0 ? 'jpg' : 'mp4'}`,
          i % 2 ? 1201 : '',
          'META;TIKTOK',
          'A',
        ].join(','),
      ),
    ].join('\n'),
  );
  const { reportPath } = await h.run();
  return { h, workbook: await readWorkbook(reportPath as string) };
}

describe('the Guidelines sheet', () => {
  it('shows each guideline’s pass rate as an independent count over guideline_results gives it', async () => {
    const { h, workbook } = await reportOfARun();
    const rows = records(readSheet(workbook, 'Guidelines'));
    // Independent: per linked guideline and channel, PASS / (PASS + FAIL), straight from the table.
    const truth = h.db.$client
      .prepare(
        `SELECT g.name AS name, r.channel AS channel,
                SUM(r.result = 'PASS') AS pass, SUM(r.result = 'FAIL') AS fail, COUNT(DISTINCT r.asset_id) AS assets
         FROM guideline_results r JOIN guidelines g ON g.id = r.guideline_id
         GROUP BY r.guideline_id, r.channel`,
      )
      .all() as { name: string; channel: string; pass: number; fail: number; assets: number }[];
    expect(rows).toHaveLength(truth.length);
    const key = (name: unknown, channel: unknown, pass: unknown, fail: unknown) =>
      `${name}|${channel}|${pass}|${fail}`;
    const shown = new Map(rows.map((r) => [key(r.Guideline, r.Channel, r.Pass, r.Fail), r]));
    for (const t of truth) {
      const row = shown.get(key(t.name, t.channel, t.pass, t.fail));
      expect(row, `${t.name} on ${t.channel}`).toBeDefined();
      expect(row?.Assets).toBe(t.assets);
      if (t.pass + t.fail === 0) expect(row?.['Pass rate']).toBeNull();
      else expect(row?.['Pass rate']).toBeCloseTo(t.pass / (t.pass + t.fail), 12);
    }
    // Worst first.
    const rates = rows.map((r) => r['Pass rate']).filter((v): v is number => typeof v === 'number');
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
  });

  it('lists NO_DATA results by code, adding up to the not-available count', async () => {
    const { workbook } = await reportOfARun();
    const rows = records(readSheet(workbook, 'Guidelines')).filter((r) => (r['Not available'] as number) > 0);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const listed = String(r['Not available, by code'])
        .split(', ')
        .map((part) => Number(part.split(': ')[1]));
      expect(listed.reduce((a, b) => a + b, 0)).toBe(r['Not available']);
    }
  });
});

describe('the Rescore sheet', () => {
  it('lists exactly the assets with a "rescore later" code, with what to run', async () => {
    const { h, workbook } = await reportOfARun();
    const rows = records(readSheet(workbook, 'Rescore'));
    const truth = h.db.$client
      .prepare(
        `SELECT DISTINCT a.client_id AS id FROM assets a JOIN guideline_results r ON r.asset_id = a.id
         WHERE r.result IN ('NO_DATA','NO_DATA_NEW_CRITERIA','NO_DATA_MISSING_REQUIRED_TAGS','NO_DATA_ERROR_RETRIEVING_TAGS','NO_DATA_MEDIA_NOT_TAGGED','NO_DATA_SCORING_BACKLOG')
         ORDER BY a.client_id`,
      )
      .all() as { id: string }[];
    expect(truth.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.ID)).toEqual(truth.map((t) => t.id));
    for (const r of rows) expect(r['What to do']).toContain(`npx creative-sync rescore --id ${r.ID}`);
  });
});
