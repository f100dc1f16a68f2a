// Channel identifiers as the service understands them: case-insensitive input, the aliases
// seen in the wild folded onto one canonical id, and unknown ids kept (the list is open).

const aliases: Readonly<Record<string, string>> = {
  FACEBOOK: 'META',
  INSTAGRAM: 'META',
  TWITTER: 'X',
  GOOGLE: 'ADWORDS',
  YOUTUBE: 'DV360',
  AMAZON: 'AMAZONADVERTISING',
};

/** The canonical id of a channel as a client may spell it; unknown ids pass through upper-cased. */
export function canonicalChannel(input: string): string {
  const upper = input.trim().toUpperCase();
  return aliases[upper] ?? upper;
}

/** Canonical ids of a list, first occurrence wins, blanks dropped. */
export function canonicalChannels(inputs: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const input of inputs) {
    const channel = canonicalChannel(input);
    if (channel !== '') seen.add(channel);
  }
  return [...seen];
}

/** The comma-separated `channel` query parameter as canonical ids, or undefined when absent or empty. */
export function parseChannelFilter(value: string | null): Set<string> | undefined {
  if (value === null) return undefined;
  const channels = canonicalChannels(value.split(','));
  return channels.length > 0 ? new Set(channels) : undefined;
}
