// The score result of one asset: which channels and guidelines apply to it, and the canonical
// result (canonical channel ids, `channel` in detail) that the dialects then reshape.
import type { Consideration, FixtureGuideline, FixtureOrganization } from './fixture';
import {
  assetSeed,
  type ChannelSummary,
  type GuidelineResult,
  type MediaType,
  scoreGuidelines,
  summarise,
} from './outcome';
import type { SimulatedMedia } from './state';

export interface CanonicalDetailItem {
  name: string;
  rule: string;
  channel: string;
  result: string;
  weight: number;
}

export interface CanonicalScoreResult {
  media: { id: string; uniqueId: string; version: string; name: string; type: MediaType };
  summary: Record<string, ChannelSummary>;
  detail: CanonicalDetailItem[];
}

export interface ScoreFilter {
  channels?: ReadonlySet<string>;
  considerations?: ReadonlySet<Consideration>;
}

/** The asset's channels, else its workspace's scorecard channels, else the organization's default. */
export function effectiveChannels(media: SimulatedMedia, org: FixtureOrganization): string[] {
  if (media.channels.length > 0) return media.channels;
  const workspace = org.workspaces.find((w) => w.id === media.workspaceId);
  if (workspace && workspace.scorecardChannels.length > 0) return workspace.scorecardChannels;
  return org.defaultChannels;
}

/** Organization-global guidelines of the channel, then the asset's workspace's own. */
export function guidelinesFor(
  media: SimulatedMedia,
  org: FixtureOrganization,
  channel: string,
): FixtureGuideline[] {
  const workspace = org.workspaces.find((w) => w.id === media.workspaceId);
  return [...org.guidelines, ...(workspace?.guidelines ?? [])].filter((g) => g.channel === channel);
}

/** All results as scored. The mediaType must be a scorable one (the asset is COMPLETE). */
export function scoreMedia(
  media: SimulatedMedia,
  org: FixtureOrganization,
  mediaType: MediaType,
): GuidelineResult[] {
  if (mediaType === 'UNSUPPORTED') return [];
  return scoreGuidelines(assetSeed(media), mediaType, effectiveChannels(media, org), (channel) =>
    guidelinesFor(media, org, channel),
  );
}

/** The result as the client asked for it: filters first, then the summary over what is left. */
export function buildScoreResult(
  media: SimulatedMedia,
  mediaType: MediaType,
  results: readonly GuidelineResult[],
  filter: ScoreFilter = {},
): CanonicalScoreResult {
  const kept = results.filter(
    (r) =>
      (!filter.channels || filter.channels.has(r.channel)) &&
      (!filter.considerations || filter.considerations.has(r.consideration)),
  );
  return {
    media: {
      id: media.id,
      uniqueId: media.uniqueId,
      version: media.version,
      name: media.name ?? '',
      type: mediaType,
    },
    summary: summarise(kept),
    detail: kept.map(({ name, rule, channel, result, weight }) => ({ name, rule, channel, result, weight })),
  };
}
