// What happens to an asset, as pure functions of the asset and the time: its media type, its
// processing timeline, and its per-guideline results and per-channel summaries.
import type { Consideration, CreativeType, FixtureGuideline } from './fixture';
import { draw, drawInt, sha256Hex } from './hash';

export type MediaType = CreativeType | 'UNSUPPORTED';
export type MediaStatus = 'PROCESSING' | 'COMPLETE' | 'ERROR' | 'UNSUPPORTED' | 'FAILED';
export type Outcome = 'COMPLETE' | 'ERROR_THEN_COMPLETE' | 'FAILED' | 'UNSUPPORTED';

export interface AssetIdentity {
  orgId: string;
  id: string;
  version: string;
  source: string;
  url: string;
}

/** Every choice about an asset hangs off this seed, so changing the URL changes the outcome. */
export function assetSeed(asset: AssetIdentity): string {
  return sha256Hex('asset', asset.orgId, asset.id, asset.version, asset.source, asset.url);
}

const extensionTypes: Readonly<Record<string, CreativeType>> = {
  mp4: 'VIDEO',
  mov: 'VIDEO',
  webm: 'VIDEO',
  m4v: 'VIDEO',
  jpg: 'IMAGE',
  jpeg: 'IMAGE',
  png: 'IMAGE',
  webp: 'IMAGE',
  gif: 'ANIMATED_IMAGE',
};

function urlPath(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname).toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

/** The media type the service would find, judged (as we cannot download) by the path's extension. */
export function mediaTypeFromUrl(url: string): MediaType {
  const path = urlPath(url);
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return 'UNSUPPORTED';
  return extensionTypes[path.slice(dot + 1)] ?? 'UNSUPPORTED';
}

export interface ProcessingPlan {
  mediaType: MediaType;
  outcome: Outcome;
  /** Time from submission to the terminal state. */
  processingMs: number;
  /** For ERROR_THEN_COMPLETE: offsets from submission of the ERROR window [from, until). */
  errorFromMs?: number;
  errorUntilMs?: number;
}

export const FAILED_SHARE = 0.03;
export const ERROR_SHARE = 0.08;

export function planProcessing(
  asset: AssetIdentity,
  processingMinutes: readonly [number, number],
): ProcessingPlan {
  const seed = assetSeed(asset);
  const [min, max] = processingMinutes;
  // Whole seconds keep the timeline readable in logs and state files.
  const processingMs = Math.round((min + draw(seed, 'duration') * (max - min)) * 60) * 1000;
  const mediaType = mediaTypeFromUrl(asset.url);
  if (urlPath(asset.url).includes('corrupt')) return { mediaType, outcome: 'FAILED', processingMs };
  if (mediaType === 'UNSUPPORTED') return { mediaType, outcome: 'UNSUPPORTED', processingMs };
  const roll = draw(seed, 'outcome');
  if (roll < FAILED_SHARE) return { mediaType, outcome: 'FAILED', processingMs };
  if (roll < FAILED_SHARE + ERROR_SHARE) {
    // The error shows up part-way and lasts until the end of the window, so one poll sees
    // ERROR and a later one sees COMPLETE.
    const errorFromMs = Math.round(processingMs * (0.2 + 0.3 * draw(seed, 'errorFrom')));
    return {
      mediaType,
      outcome: 'ERROR_THEN_COMPLETE',
      processingMs,
      errorFromMs,
      errorUntilMs: processingMs,
    };
  }
  return { mediaType, outcome: 'COMPLETE', processingMs };
}

export function statusAt(plan: ProcessingPlan, submittedAt: number, now: number): MediaStatus {
  const elapsed = now - submittedAt;
  if (
    plan.outcome === 'ERROR_THEN_COMPLETE' &&
    plan.errorFromMs !== undefined &&
    plan.errorUntilMs !== undefined
  ) {
    if (elapsed >= plan.errorFromMs && elapsed < plan.errorUntilMs) return 'ERROR';
  }
  if (elapsed < plan.processingMs) return 'PROCESSING';
  return plan.outcome === 'ERROR_THEN_COMPLETE' ? 'COMPLETE' : plan.outcome;
}

/** Legacy `NO_DATA` plus the specific codes; all count as "not available". */
export const NO_DATA_CODES = [
  'NO_DATA',
  'NO_DATA_NEW_CRITERIA',
  'NO_DATA_MEDIA_PREDATES_MODEL',
  'NO_DATA_MISSING_BRAND_IDENTIFIERS',
  'NO_DATA_MISSING_REQUIRED_TAGS',
  'NO_DATA_ERROR_RETRIEVING_TAGS',
  'NO_DATA_MEDIA_NOT_TAGGED',
  'NO_DATA_MEDIA_RECOGNITION_FAIL',
  'NO_DATA_SCORING_BACKLOG',
  'NO_DATA_MEDIA_DOWNLOAD_FAILURE',
] as const;

export const NO_DATA_SHARE = 0.08;
export const PASS_SHARE_OF_EVALUATED = 0.68;

export interface GuidelineResult {
  guidelineId: number;
  name: string;
  rule: string;
  channel: string;
  consideration: Consideration;
  result: string;
  weight: number;
}

export interface ChannelSummary {
  score: number;
  adherencePercent: number;
  passCount: number;
  failCount: number;
  applicableCount: number;
  notApplicableCount: number;
  notAvailableCount: number;
}

export function isNoData(result: string): boolean {
  return result === 'NO_DATA' || result.startsWith('NO_DATA_');
}

function resultFor(seed: string, mediaType: CreativeType, g: FixtureGuideline): string {
  if (!g.creativeTypes.includes(mediaType)) return 'NOT_APPLICABLE';
  const label = `${g.channel}|${g.id}`;
  const roll = draw(seed, `result|${label}`);
  if (roll < NO_DATA_SHARE)
    return NO_DATA_CODES[drawInt(seed, `noData|${label}`, 0, NO_DATA_CODES.length - 1)] as string;
  return draw(seed, `pass|${label}`) < PASS_SHARE_OF_EVALUATED ? 'PASS' : 'FAIL';
}

/**
 * Per-guideline results for each channel, in channel order then guideline order. Channels
 * without any guideline are left out. Each (channel, consideration) group that has an
 * applicable guideline gets at least one PASS or FAIL, so every summary has a real score
 * whichever consideration filter a client uses.
 */
export function scoreGuidelines(
  seed: string,
  mediaType: CreativeType,
  channels: readonly string[],
  guidelinesFor: (channel: string) => readonly FixtureGuideline[],
): GuidelineResult[] {
  const out: GuidelineResult[] = [];
  for (const channel of channels) {
    const items = guidelinesFor(channel).map((g) => ({
      guidelineId: g.id,
      name: g.name,
      rule: g.rule,
      channel,
      consideration: g.consideration,
      result: resultFor(seed, mediaType, g),
      weight: g.weight,
    }));
    for (const consideration of ['MANDATORY', 'OPTIONAL'] as const) {
      const group = items.filter((i) => i.consideration === consideration && i.result !== 'NOT_APPLICABLE');
      const first = group[0];
      if (first && !group.some((i) => i.result === 'PASS' || i.result === 'FAIL')) {
        first.result =
          draw(seed, `forced|${channel}|${consideration}`) < PASS_SHARE_OF_EVALUATED ? 'PASS' : 'FAIL';
      }
    }
    out.push(...items);
  }
  return out;
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** Rolls results up per channel, in first-seen channel order. */
export function summarise(results: readonly GuidelineResult[]): Record<string, ChannelSummary> {
  const acc = new Map<
    string,
    { pass: number; fail: number; na: number; noData: number; wPass: number; wFail: number }
  >();
  for (const r of results) {
    let a = acc.get(r.channel);
    if (!a) {
      a = { pass: 0, fail: 0, na: 0, noData: 0, wPass: 0, wFail: 0 };
      acc.set(r.channel, a);
    }
    if (r.result === 'PASS') {
      a.pass++;
      a.wPass += r.weight;
    } else if (r.result === 'FAIL') {
      a.fail++;
      a.wFail += r.weight;
    } else if (r.result === 'NOT_APPLICABLE') a.na++;
    else if (isNoData(r.result)) a.noData++;
  }
  const out: Record<string, ChannelSummary> = {};
  for (const [channel, a] of acc) {
    out[channel] = {
      // With nothing evaluated there is nothing to pass: 0, not NaN.
      score: a.wPass + a.wFail > 0 ? round4(a.wPass / (a.wPass + a.wFail)) : 0,
      adherencePercent: a.pass + a.fail > 0 ? round4(a.pass / (a.pass + a.fail)) : 0,
      passCount: a.pass,
      failCount: a.fail,
      applicableCount: a.pass + a.fail + a.noData,
      notApplicableCount: a.na,
      notAvailableCount: a.noData,
    };
  }
  return out;
}
