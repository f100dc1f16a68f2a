import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/open';
import { brandRollup, channelRollup, marketRollup, scoredChannels } from '../../src/reports/rollups';
import { assetRows } from '../../src/reports/rows';
import { type FixtureAsset, seed } from './fixture';

const score = (channel: string, value: number | null, adherence: number | null = value) => ({
  channel,
  score: value,
  adherence,
  pass: 1,
  fail: 1,
  na: 0,
  nav: 0,
});

describe('rollups', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => {
    db.$client.close();
  });

  it('takes the median as the middle score, or the mean of the two middle scores', () => {
    const items: FixtureAsset[] = [
      { asset: { clientId: 'a', syncState: 'scored' }, brands: ['Odd'], scores: [score('META', 0.9)] },
      { asset: { clientId: 'b', syncState: 'scored' }, brands: ['Odd'], scores: [score('META', 0.1)] },
      {
        asset: { clientId: 'c', syncState: 'scored' },
        brands: ['Odd', 'Even'],
        scores: [score('META', 0.3)],
      },
      { asset: { clientId: 'd', syncState: 'scored' }, brands: ['Even'], scores: [score('META', 0.2)] },
      { asset: { clientId: 'e', syncState: 'scored' }, brands: ['Even'], scores: [score('META', null)] },
    ];
    seed(db, items);
    const rows = new Map(brandRollup(db).map((r) => [r.key, r]));
    expect(rows.get('Odd')?.medianScore).toBeCloseTo(0.3, 12);
    expect(rows.get('Odd')?.meanScore).toBeCloseTo(1.3 / 3, 12);
    // The null score is counted as a score row but left out of the mean and the median.
    expect(rows.get('Even')).toMatchObject({ assets: 3, scoreRows: 3 });
    expect(rows.get('Even')?.medianScore).toBeCloseTo(0.25, 12);
    expect(rows.get('Even')?.meanAdherence).toBeCloseTo(0.25, 12);
  });

  it('counts only the newest version of each (client id, source)', () => {
    seed(db, [
      {
        asset: { clientId: 'a', version: '1', syncState: 'failed' },
        brands: ['Old'],
        scores: [score('SNAP', 1)],
      },
      {
        asset: { clientId: 'a', version: '2', syncState: 'scored' },
        brands: ['New'],
        scores: [score('META', 0.5)],
      },
      { asset: { clientId: 'a', source: 'dam', syncState: 'pending' }, brands: ['New'] },
    ]);
    expect(brandRollup(db).map((r) => [r.key, r.assets, r.scored, r.failed])).toEqual([['New', 2, 1, 0]]);
    expect(scoredChannels(db)).toEqual(['META']);
    expect(channelRollup(db).map((r) => [r.key, r.assets])).toEqual([
      ['META', 1],
      [null, 1],
    ]);
    expect([...assetRows(db)].map((r) => [r.clientId, r.version, r.source])).toEqual([
      ['a', '2', ''],
      ['a', '', 'dam'],
    ]);
  });

  it('puts assets without a brand or market in a null-keyed row, sorted last', () => {
    seed(db, [
      { asset: { clientId: 'a', syncState: 'unsupported' }, markets: ['zz'] },
      { asset: { clientId: 'b', syncState: 'scored' }, brands: ['beta'], markets: ['AA'] },
      { asset: { clientId: 'c', syncState: 'scored' }, brands: ['Alpha'] },
    ]);
    expect(brandRollup(db).map((r) => [r.key, r.assets, r.unsupported])).toEqual([
      ['Alpha', 1, 0],
      ['beta', 1, 0],
      [null, 1, 1],
    ]);
    expect(marketRollup(db).map((r) => r.key)).toEqual(['AA', 'zz', null]);
  });

  it('gives zero counts and null scores to a group with nothing scored', () => {
    seed(db, [{ asset: { clientId: 'a', syncState: 'pending' }, brands: ['B'] }]);
    expect(brandRollup(db)).toEqual([
      {
        key: 'B',
        assets: 1,
        scored: 0,
        meanScore: null,
        medianScore: null,
        meanAdherence: null,
        scoreRows: 0,
        passCount: 0,
        failCount: 0,
        notApplicableCount: 0,
        notAvailableCount: 0,
        unsupported: 0,
        failed: 0,
      },
    ]);
  });

  it('gives each asset row its joined values and its score by channel', () => {
    seed(db, [
      {
        asset: { clientId: 'a', syncState: 'scored', name: 'A' },
        brands: ['Zed', 'Acme'],
        markets: ['FR', 'DE'],
        channels: ['TIKTOK', 'META'],
        scores: [score('META', 0.75), score('X', null)],
      },
    ]);
    const [row] = [...assetRows(db)];
    expect(row).toMatchObject({
      clientId: 'a',
      brands: 'Acme, Zed',
      markets: 'DE, FR',
      channels: 'META, TIKTOK',
      scores: { META: 0.75, X: null },
      workspaceName: null,
    });
  });
});
