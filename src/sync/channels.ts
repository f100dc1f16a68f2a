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

/** Upper-cases, trims, drops spaces, dashes and underscores and maps aliases: ` facebook ` → `META`. */
export function canonicalChannel(raw: string): string {
  const upper = raw
    .trim()
    .toUpperCase()
    .replace(/[\s\-_]+/g, '');
  return aliases[upper] ?? upper;
}

export function isKnownChannel(channel: string): boolean {
  return known.has(channel);
}
