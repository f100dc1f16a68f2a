// Pure batching for tagging jobs: clientTags belong to a whole job, so creatives are grouped
// by identical client tags and each group is cut into jobs of at most the batch size.

/** The service refuses a job of more than this many creatives. */
export const MAX_CREATIVES_PER_JOB = 200;

export interface TagCandidate {
  assetId: number;
  /** The id sent to the service, and the one the report's rows come back under. */
  creativeId: string;
  url: string;
  clientTags: Record<string, string>;
}

export interface TagBatch {
  clientTags: Record<string, string>;
  creatives: TagCandidate[];
}

/**
 * The client tags of one asset: brand, market and channels from the manifest (lists joined
 * with ';', sorted so the same set always groups together), then the manifest's extra
 * `tag:<name>` columns. Empty values are left out, as the service takes strings only.
 */
export function clientTagsOf(
  lists: { brands: readonly string[]; markets: readonly string[]; channels: readonly string[] },
  extra: Record<string, string> | null | undefined,
): Record<string, string> {
  const tags: Record<string, string> = {};
  const join = (values: readonly string[]) => [...new Set(values)].sort().join(';');
  if (lists.brands.length > 0) tags.brand = join(lists.brands);
  if (lists.markets.length > 0) tags.market = join(lists.markets);
  if (lists.channels.length > 0) tags.channels = join(lists.channels);
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value.trim() !== '') tags[name] = value;
  }
  return tags;
}

/** The same tags in any key order give the same key. */
export function clientTagsKey(tags: Record<string, string>): string {
  return JSON.stringify(Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Groups candidates by identical client tags and cuts each group into jobs of at most
 * `batchSize` (capped at the service's 200). Within one job a creative id appears once, so
 * every report row can be linked back to exactly one asset; a second asset with the same id
 * (another version or source) goes into a later job of the group. Order is kept.
 */
export function batchForTagging(candidates: readonly TagCandidate[], batchSize: number): TagBatch[] {
  const size = Math.max(1, Math.min(Math.floor(batchSize), MAX_CREATIVES_PER_JOB));
  const groups = new Map<string, TagCandidate[]>();
  for (const candidate of candidates) {
    const key = clientTagsKey(candidate.clientTags);
    const group = groups.get(key);
    if (group) group.push(candidate);
    else groups.set(key, [candidate]);
  }
  const batches: TagBatch[] = [];
  for (const group of groups.values()) {
    const open: { ids: Set<string>; batch: TagBatch }[] = [];
    for (const candidate of group) {
      let slot = open.find((o) => o.batch.creatives.length < size && !o.ids.has(candidate.creativeId));
      if (!slot) {
        slot = { ids: new Set(), batch: { clientTags: candidate.clientTags, creatives: [] } };
        open.push(slot);
        batches.push(slot.batch);
      }
      slot.ids.add(candidate.creativeId);
      slot.batch.creatives.push(candidate);
    }
  }
  return batches;
}
