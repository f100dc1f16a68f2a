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
  INSTAGRAM: 'META',
  TWITTER: 'X',
  GOOGLE: 'ADWORDS',
  GOOGLEADS: 'ADWORDS',
  YOUTUBE: 'DV360',
  AMAZON: 'AMAZONADVERTISING',
};

const known = new Set<string>(knownChannels);

/** Upper-cases, trims, drops spaces/dashes and maps aliases: ` facebook ` → `META`. */
export function canonicalChannel(raw: string): string {
  const upper = raw
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '');
  return aliases[upper] ?? upper;
}

export function isKnownChannel(channel: string): boolean {
  return known.has(channel);
}
