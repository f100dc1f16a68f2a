// Re-scoring: the service scores an (id, version, source) once, so scoring again means a new
// version. `rescore` picks assets and adds a new version of each, which the next run submits;
// the old version's results stay as history, and rollups count only the newest version.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import {
  assetBrands,
  assetChannels,
  assetMarkets,
  assets,
  guidelineResults,
  newestVersionFilter,
} from '../db/schema';
import { rescoreLaterCodes } from './no-data';

export interface RescoreSelection {
  /** Client ids to re-score. */
  ids?: string[];
  /** Re-score every asset of these brands. */
  brands?: string[];
  /** Re-score every asset whose results carry a "rescore later" NO_DATA code. */
  rescoreLater?: boolean;
}

export interface RescorePick {
  assetId: number;
  clientId: string;
  version: string;
  source: string;
  reason: string;
}

/** The version label of a re-score: `v1` → `v1+rescore-2026-11-22`; taken labels get `-2`, `-3`, … */
export function rescoreVersion(oldVersion: string, date: string, taken: (label: string) => boolean): string {
  const base = oldVersion ? `${oldVersion}+rescore-${date}` : `rescore-${date}`;
  if (!taken(base)) return base;
  for (let n = 2; ; n++) if (!taken(`${base}-${n}`)) return `${base}-${n}`;
}

/** Newest versions whose results carry a "rescore later" code, with the codes and channels as the reason. */
export function rescoreLaterCandidates(db: Db): RescorePick[] {
  const rows = db
    .select({
      assetId: assets.id,
      clientId: assets.clientId,
      version: assets.version,
      source: assets.source,
      reason: sql<string>`group_concat(DISTINCT ${guidelineResults.result} || ' on ' || ${guidelineResults.channel})`,
    })
    .from(assets)
    .innerJoin(guidelineResults, eq(guidelineResults.assetId, assets.id))
    .where(and(newestVersionFilter, inArray(guidelineResults.result, rescoreLaterCodes)))
    .groupBy(assets.id)
    .orderBy(assets.clientId)
    .all();
  return rows.map((r) => ({ ...r, reason: r.reason.split(',').sort().join(', ') }));
}

/** The assets a selection names: newest versions only, each once, with why it was picked. */
export function selectForRescore(db: Db, selection: RescoreSelection): RescorePick[] {
  const picks = new Map<number, RescorePick>();
  const add = (rows: Omit<RescorePick, 'reason'>[], reason: string) => {
    for (const row of rows) if (!picks.has(row.assetId)) picks.set(row.assetId, { ...row, reason });
  };
  const columns = {
    assetId: assets.id,
    clientId: assets.clientId,
    version: assets.version,
    source: assets.source,
  };
  if (selection.ids?.length) {
    add(
      db
        .select(columns)
        .from(assets)
        .where(and(newestVersionFilter, inArray(assets.clientId, selection.ids)))
        .all(),
      'asked for by id',
    );
  }
  for (const brand of selection.brands ?? []) {
    add(
      db
        .select(columns)
        .from(assets)
        .innerJoin(assetBrands, eq(assetBrands.assetId, assets.id))
        .where(and(newestVersionFilter, eq(assetBrands.value, brand)))
        .all(),
      `brand ${brand}`,
    );
  }
  if (selection.rescoreLater) {
    for (const pick of rescoreLaterCandidates(db))
      if (!picks.has(pick.assetId)) picks.set(pick.assetId, pick);
  }
  return [...picks.values()].sort((a, b) => a.clientId.localeCompare(b.clientId));
}

/** Adds a pending new version of each pick, copying what the manifest said; returns the new labels. */
export function createRescoreVersions(
  db: Db,
  picks: readonly RescorePick[],
  options: { now: number; date: string },
): { assetId: number; clientId: string; version: string }[] {
  return db.transaction((tx) =>
    picks.map((pick) => {
      const old = tx.select().from(assets).where(eq(assets.id, pick.assetId)).get();
      if (!old) throw new Error(`asset ${pick.assetId} vanished while re-scoring`);
      const taken = (label: string) =>
        tx
          .select({ id: assets.id })
          .from(assets)
          .where(
            and(eq(assets.clientId, old.clientId), eq(assets.version, label), eq(assets.source, old.source)),
          )
          .get() !== undefined;
      const version = rescoreVersion(old.version, options.date, taken);
      const { id } = tx
        .insert(assets)
        .values({
          clientId: old.clientId,
          version,
          source: old.source,
          url: old.url,
          name: old.name,
          description: old.description,
          workspaceId: old.workspaceId,
          manifestFileId: old.manifestFileId,
          manifestLine: old.manifestLine,
          // Same file, same tags: the tag report of the old version still describes it.
          tagWanted: false,
          clientTags: old.clientTags,
          rescoreOf: old.id,
          createdAt: options.now,
          updatedAt: options.now,
        })
        .returning({ id: assets.id })
        .get();
      for (const table of [assetBrands, assetMarkets, assetChannels]) {
        const values = tx.select({ value: table.value }).from(table).where(eq(table.assetId, old.id)).all();
        if (values.length > 0)
          tx.insert(table)
            .values(values.map((v) => ({ assetId: id, value: v.value })))
            .run();
      }
      return { assetId: id, clientId: old.clientId, version };
    }),
  );
}
