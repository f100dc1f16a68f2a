// A small database for the report tests: brands, markets and channels that overlap, an asset in two
// versions, one id from two sources, unscored/unsupported/failed assets and names that look like formulas.
import type { Db } from '../../src/db/open';
import {
  assetBrands,
  assetChannels,
  assetMarkets,
  assets,
  channelScores,
  manifestFiles,
  type NewAsset,
  workspaces,
} from '../../src/db/schema';

export const T0 = Date.UTC(2025, 2, 9, 22, 15, 30);

export interface FixtureAsset {
  asset: Omit<NewAsset, 'url' | 'createdAt' | 'updatedAt'> & { url?: string };
  brands?: string[];
  markets?: string[];
  channels?: string[];
  scores?: {
    channel: string;
    score: number | null;
    adherence: number | null;
    pass: number;
    fail: number;
    na: number;
    nav: number;
  }[];
}

export const FORMULA_NAME = '=HYPERLINK("x")';
export const PLUS_NAME = '+1';
export const AT_ERROR = '@error: transcoding failed';

export const FIXTURE: FixtureAsset[] = [
  // The old version of hero-1: inserted first, so it must not count anywhere.
  {
    asset: { clientId: 'hero-1', version: 'v1', syncState: 'scored', name: 'Hero old' },
    brands: ['Acme', 'Oldbrand'],
    markets: ['DE'],
    channels: ['META'],
    scores: [{ channel: 'META', score: 0.1, adherence: 0.1, pass: 1, fail: 9, na: 0, nav: 0 }],
  },
  {
    asset: {
      clientId: 'hero-2',
      syncState: 'scored',
      name: FORMULA_NAME,
      remoteStatus: 'COMPLETE',
      workspaceId: 7,
      submittedAt: T0,
      completedAt: T0 + 3_600_000,
      manifestLine: 3,
    },
    brands: ['Acme'],
    markets: ['DE', 'FR'],
    channels: ['META'],
    scores: [{ channel: 'META', score: 0.6, adherence: 0.7, pass: 4, fail: 2, na: 0, nav: 2 }],
  },
  {
    asset: {
      clientId: 'hero-3',
      syncState: 'scored',
      name: PLUS_NAME,
      remoteStatus: 'COMPLETE',
      workspaceId: 99,
    },
    brands: ['Beta'],
    markets: ['FR'],
    channels: ['YOUTUBE'],
    scores: [
      { channel: 'YOUTUBE', score: 1, adherence: 1, pass: 5, fail: 0, na: 0, nav: 0 },
      // Scored on a channel it did not ask for.
      { channel: 'META', score: 0.9, adherence: 0.8, pass: 4, fail: 1, na: 0, nav: 0 },
      // Nothing evaluated: no score, only not-applicable results.
      { channel: 'X', score: null, adherence: null, pass: 0, fail: 0, na: 3, nav: 0 },
    ],
  },
  {
    asset: {
      clientId: 'hero-4',
      syncState: 'unsupported',
      remoteStatus: 'UNSUPPORTED',
      name: '-minus',
    },
    channels: ['META'],
  },
  {
    asset: { clientId: 'hero-5', syncState: 'failed', remoteStatus: 'FAILED', lastError: AT_ERROR },
    brands: ['Acme'],
    markets: ['DE'],
    channels: ['TIKTOK'],
  },
  { asset: { clientId: 'hero-6', syncState: 'pending', name: 'Gamma spot' }, brands: ['@Gamma'] },
  // Same client id as hero-1 from another source: a different asset.
  {
    asset: { clientId: 'hero-1', source: 'dam', syncState: 'scored', name: 'Hero from the DAM' },
    brands: ['Acme'],
    markets: ['DE'],
    channels: ['META'],
    scores: [{ channel: 'META', score: 0.4, adherence: 0.5, pass: 1, fail: 1, na: 0, nav: 0 }],
  },
  // The newest version of hero-1.
  {
    asset: { clientId: 'hero-1', version: 'v2', syncState: 'scored', name: 'Hero', manifestLine: 2 },
    brands: ['Acme', 'Beta'],
    markets: ['DE'],
    channels: ['META', 'TIKTOK'],
    scores: [
      { channel: 'META', score: 0.8, adherence: 0.75, pass: 3, fail: 1, na: 1, nav: 0 },
      { channel: 'TIKTOK', score: 0.5, adherence: 0.5, pass: 2, fail: 2, na: 0, nav: 1 },
    ],
  },
];

export const MANIFEST_PATH = 'manifests/spring.csv';

/** Inserts `items` (the FIXTURE by default) and returns the ids given to them, in order. */
export function seed(db: Db, items: FixtureAsset[] = FIXTURE): number[] {
  if (db.select().from(workspaces).all().length === 0) {
    db.insert(workspaces).values({ id: 7, name: 'EMEA Social', fetchedAt: T0 }).run();
  }
  let file = db.select().from(manifestFiles).all()[0];
  if (!file) {
    file = db
      .insert(manifestFiles)
      .values({
        path: MANIFEST_PATH,
        sha256: 'abc',
        sizeBytes: 10,
        status: 'read',
        firstSeenAt: T0,
        lastReadAt: T0,
      })
      .returning()
      .get();
  }
  const ids: number[] = [];
  for (const item of items) {
    const row = db
      .insert(assets)
      .values({
        url: `https://cdn.example.com/${item.asset.clientId}.mp4`,
        manifestFileId: file.id,
        createdAt: T0,
        updatedAt: T0,
        ...item.asset,
      })
      .returning({ id: assets.id })
      .get();
    ids.push(row.id);
    for (const value of item.brands ?? []) db.insert(assetBrands).values({ assetId: row.id, value }).run();
    for (const value of item.markets ?? []) db.insert(assetMarkets).values({ assetId: row.id, value }).run();
    for (const value of item.channels ?? [])
      db.insert(assetChannels).values({ assetId: row.id, value }).run();
    for (const s of item.scores ?? []) {
      db.insert(channelScores)
        .values({
          assetId: row.id,
          channel: s.channel,
          score: s.score,
          adherence: s.adherence,
          passCount: s.pass,
          failCount: s.fail,
          applicableCount: s.pass + s.fail,
          notApplicableCount: s.na,
          notAvailableCount: s.nav,
        })
        .run();
    }
  }
  return ids;
}
