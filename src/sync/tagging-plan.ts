// Plans tagging jobs: finds the assets still to be tagged, batches them, and writes each job
// (state `intent`) with its creatives in one transaction, before anything is sent.
import { and, eq, inArray, ne, notExists, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { assetBrands, assetChannels, assetMarkets, assets, tagJobCreatives, tagJobs } from '../db/schema';
import { batchForTagging, clientTagsOf, type TagBatch, type TagCandidate } from './tagging-batches';

/**
 * Assets to tag: wanted, not refused by the service (a rejected row has a bad URL), and never
 * yet carried by a tagging job. Once a job holds an asset, that job's lifecycle answers for it,
 * so an asset is put into a job once per (id, version, source).
 */
export function tagCandidates(db: Db): TagCandidate[] {
  const rows = db
    .select({ id: assets.id, clientId: assets.clientId, url: assets.url, clientTags: assets.clientTags })
    .from(assets)
    .where(
      and(
        eq(assets.tagWanted, true),
        ne(assets.syncState, 'rejected'),
        notExists(
          db.select({ one: sql`1` }).from(tagJobCreatives).where(eq(tagJobCreatives.assetId, assets.id)),
        ),
      ),
    )
    .orderBy(assets.id)
    .all();
  if (rows.length === 0) return [];
  const lists = new Map(
    rows.map((r) => [r.id, { brands: [] as string[], markets: [] as string[], channels: [] as string[] }]),
  );
  const tables = [
    ['brands', assetBrands],
    ['markets', assetMarkets],
    ['channels', assetChannels],
  ] as const;
  const ids = rows.map((r) => r.id);
  for (const [key, table] of tables) {
    // Chunked, so a large first run stays within SQLite's limit on bound parameters.
    for (let i = 0; i < ids.length; i += 500) {
      for (const row of db
        .select()
        .from(table)
        .where(inArray(table.assetId, ids.slice(i, i + 500)))
        .all()) {
        lists.get(row.assetId)?.[key].push(row.value);
      }
    }
  }
  return rows.map((r) => ({
    assetId: r.id,
    creativeId: r.clientId,
    url: r.url,
    clientTags: clientTagsOf(lists.get(r.id) ?? { brands: [], markets: [], channels: [] }, r.clientTags),
  }));
}

/** Writes each batch as an `intent` job with its creatives, all in one transaction. */
export function writeIntents(db: Db, batches: readonly TagBatch[], runId: number, now: number): number[] {
  return db.transaction((tx) =>
    batches.map((batch) => {
      const { id } = tx
        .insert(tagJobs)
        .values({
          state: 'intent',
          clientTags: batch.clientTags,
          creativeCount: batch.creatives.length,
          runId,
          createdAt: now,
        })
        .returning({ id: tagJobs.id })
        .get();
      tx.insert(tagJobCreatives)
        .values(batch.creatives.map((c) => ({ tagJobId: id, assetId: c.assetId, creativeId: c.creativeId })))
        .run();
      return id;
    }),
  );
}

/** Plans jobs for every asset still to be tagged; returns the new jobs' row ids. */
export function planTagJobs(db: Db, options: { runId: number; batchSize: number; now: number }): number[] {
  const batches = batchForTagging(tagCandidates(db), options.batchSize);
  return batches.length === 0 ? [] : writeIntents(db, batches, options.runId, options.now);
}
