// Channel identifiers come in many spellings (manifests, legacy API keys); everything
// inside creative-sync uses the canonical one.

/** Identifiers the service documents; the list is open, so others are kept as they come. */
export const knownChannels = [
  'META',
  'ADWORDS',
  'TIKTOK',
  'DV360',
  'LINKEDIN',
  'REDDIT',
  'SNAPCHAT',
  'PINTEREST',
  'X',
  'AMAZONADVERTISING',
  'AMAZONADVERTISINGDSP',
  'TRADEDESK',
  'YAHOODSP',
  'ALL_PLATFORMS',
] as const;

const aliases: Record<string, string> = {
  FACEBOOK: 'META',
  FB: 'META',
  INSTAGRAM: 'META',
  IG: 'META',
  TWITTER: 'X',
  GOOGLE: 'ADWORDS',
  GOOGLEADS: 'ADWORDS',
  YOUTUBE: 'DV360',
  SNAP: 'SNAPCHAT',
  AMAZON: 'AMAZONADVERTISING',
  AMAZONDSP: 'AMAZONADVERTISINGDSP',
  THETRADEDESK: 'TRADEDESK',
  TTD: 'TRADEDESK',
  YAHOO: 'YAHOODSP',
  ALLPLATFORMS: 'ALL_PLATFORMS',
};

const known = new Set<string>(knownChannels);

/** Spellings already seen: a manifest repeats a handful of them on every row. */
const seen = new Map<string, string>();

/** Upper-cases, trims, drops spaces, dashes and underscores and maps aliases: ` facebook ` → `META`. */
export function canonicalChannel(raw: string): string {
  const cached = seen.get(raw);
  if (cached !== undefined) return cached;
  const upper = raw
    .trim()
    .toUpperCase()
    .replace(/[\s\-_]+/g, '');
  const channel = aliases[upper] ?? upper;
  if (seen.size < 1000) seen.set(raw, channel);
  return channel;
}

export function isKnownChannel(channel: string): boolean {
  return known.has(channel);
}
