// The two answer styles: 'spec' follows service-interface.md, 'live' answers the way the live
// service does (live-service-notes.md), so client tests can cover both from one simulator.
import type { FixtureOrganization } from './fixture';
import type { CanonicalScoreResult } from './scores';

export type Dialect = 'spec' | 'live';

/** The live service still keys some channels by their legacy names. */
const liveChannelKeys: Readonly<Record<string, string>> = { META: 'FACEBOOK', X: 'TWITTER' };

const liveChannel = (channel: string): string => liveChannelKeys[channel] ?? channel;

/** The live 401 comes from the gateway in front of the application, hence its flat shape. */
export function liveUnauthorizedBody(): unknown {
  return { statusCode: 401, message: 'Request is Unauthorized', error: 'Unauthorized' };
}

export function organizationResult(dialect: Dialect, org: FixtureOrganization): unknown {
  return dialect === 'live' ? { id: org.id, name: org.name } : { orgId: org.id, name: org.name };
}

export function scoreResultBody(
  dialect: Dialect,
  result: CanonicalScoreResult,
  options: { withDetail: boolean; dateUploaded: string },
): unknown {
  if (dialect === 'spec') {
    const { detail, ...rest } = result;
    return options.withDetail ? result : rest;
  }
  const summary = Object.fromEntries(Object.entries(result.summary).map(([k, v]) => [liveChannel(k), v]));
  const body: Record<string, unknown> = {
    media: { ...result.media, dateUploaded: options.dateUploaded },
    summary,
  };
  if (options.withDetail) {
    body.detail = result.detail.map(({ name, rule, channel, result: outcome, weight }) => ({
      name,
      rule,
      channelIdentifier: liveChannel(channel),
      result: outcome,
      weight,
    }));
  }
  return body;
}
