// The service's endpoints: the route table, authentication, and one handler per endpoint.
// Handlers answer with a SimReply or throw a ServiceError; the server turns either into HTTP.
import { getAperture, postAperture } from './aperture';
import { parseChannelFilter } from './channels';
import type { SimulatorCore } from './core';
import { organizationResult, scoreResultBody } from './dialect';
import { badRequest, conflict, forbidden, notFound, ServiceError } from './errors';
import type { FixtureGuideline, FixtureOrganization, FixtureWorkspace } from './fixture';
import { uuidFrom } from './hash';
import type { SimReply, SimRequest } from './http';
import { jsonBody } from './http';
import type { CanonicalScoreResult } from './scores';
import type { SimulatedMedia } from './state';
import {
  page,
  parseConsiderations,
  parseCriteriaQuery,
  parseMediaSubmission,
  parsePaging,
} from './validation';

export interface RouteContext {
  core: SimulatorCore;
  req: SimRequest;
  org: FixtureOrganization;
  /** Path parameters, still percent-encoded; read them with `param`. */
  params: Record<string, string>;
}

interface Route {
  method: 'GET' | 'POST';
  pattern: string;
  handle(ctx: RouteContext): SimReply;
}

const ok = (result: unknown, status = 200, pagination?: unknown): SimReply => ({
  status,
  body: pagination === undefined ? { status: 'OK', result } : { status: 'OK', result, pagination },
});

function param(ctx: RouteContext, name: string): string {
  const raw = ctx.params[name] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`Path segment '${raw}' is not valid percent-encoding`);
  }
}

/** The bearer key's organization; anything else is a 401 (shaped per dialect by the server). */
export function authenticate(core: SimulatorCore, req: SimRequest): FixtureOrganization {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const org = match?.[1] ? core.orgByKey(match[1]) : undefined;
  if (!org) {
    throw new ServiceError(401, 'UNAUTHORIZEDEXCEPTION', 'Request is Unauthorized', {
      'www-authenticate': 'Bearer',
    });
  }
  return org;
}

/** 403 for another organization's workspace (the documented sign of a key from the wrong org), 400 for none. */
function ownWorkspace(core: SimulatorCore, org: FixtureOrganization, workspaceId: number): FixtureWorkspace {
  const found = core.findWorkspace(workspaceId);
  if (!found) throw badRequest([`workspaceId ${workspaceId} does not exist`]);
  if (found.org.id !== org.id) {
    throw forbidden(`The API key has no access to workspace ${workspaceId}`);
  }
  return found.workspace;
}

/**
 * Both lookup forms: by uniqueId, or by client id with `source`/`version` query parameters
 * (either may be omitted when it was empty at submission). Mixing them is refused.
 */
function lookupMedia(ctx: RouteContext): SimulatedMedia {
  const key = param(ctx, 'key');
  const { registry } = ctx.core;
  const source = ctx.req.query.get('source');
  const version = ctx.req.query.get('version');
  if (source !== null || version !== null) {
    if (registry.byUniqueId(ctx.org.id, key)) {
      throw badRequest(
        'Use exactly one lookup form: a uniqueId in the path, or a client id in the path with source and version query parameters',
      );
    }
    const media = registry.byClientKey(ctx.org.id, key, version ?? '', source ?? '');
    if (!media) {
      throw notFound(`No media with id '${key}', version '${version ?? ''}' and source '${source ?? ''}'`);
    }
    return media;
  }
  const media = registry.byUniqueId(ctx.org.id, key) ?? registry.byClientKey(ctx.org.id, key, '', '');
  if (!media) throw notFound(`No media with uniqueId or id '${key}'`);
  return media;
}

function getOrganization(ctx: RouteContext): SimReply {
  return ok(organizationResult(ctx.core.dialect, ctx.org));
}

function getWorkspaces(ctx: RouteContext): SimReply {
  const all = ctx.org.workspaces.map((w) => ({ id: w.id, name: w.name }));
  const { result, pagination } = page(all, parsePaging(ctx.req.query));
  return ok(result, 200, pagination);
}

function postMedia(ctx: RouteContext): SimReply {
  const { core, org } = ctx;
  const submission = parseMediaSubmission(jsonBody(ctx.req));
  if (submission.workspaceId !== undefined) ownWorkspace(core, org, submission.workspaceId);
  const { id, version, source } = submission;
  const existing = core.registry.byClientKey(org.id, id, version, source);
  if (existing) {
    core.registry.noteDuplicate();
    if (core.dialect === 'live') {
      throw conflict(`A media entry with id '${id}' and version '${version}' already exists`);
    }
    return ok({ uniqueId: existing.uniqueId }, 201);
  }
  const media: SimulatedMedia = {
    orgId: org.id,
    uniqueId: uuidFrom('media', org.id, id, version, source),
    ...submission,
    submittedAt: ctx.req.at,
  };
  core.registry.add(media);
  return ok({ uniqueId: media.uniqueId }, 201);
}

function getStatus(ctx: RouteContext): SimReply {
  const media = lookupMedia(ctx);
  const { uniqueId, id, version, source } = media;
  return ok({ uniqueId, id, version, source, status: ctx.core.statusOf(media, ctx.req.at) });
}

function parseFormat(value: string | null): { withDetail: boolean } {
  const parts = (value ?? 'summary').split(',').map((p) => p.trim().toLowerCase());
  if (parts.some((p) => p !== 'summary' && p !== 'detail')) {
    throw badRequest([`format must be 'summary', 'detail' or 'summary,detail', got '${value}'`]);
  }
  return { withDetail: parts.includes('detail') };
}

function getScores(ctx: RouteContext): SimReply {
  const { core, req } = ctx;
  const media = lookupMedia(ctx);
  const { withDetail } = parseFormat(req.query.get('format'));
  const filter = {
    channels: parseChannelFilter(req.query.get('channel')),
    considerations: parseConsiderations(req.query.get('consideration')),
  };
  const result = core.scoreResult(media, req.at, filter);
  if (!result) {
    const status = core.statusOf(media, req.at);
    throw badRequest(
      `Media ${media.uniqueId} has no scores: its status is ${status}, scores exist once it is COMPLETE`,
    );
  }
  const dateUploaded = new Date(media.submittedAt).toISOString();
  const answer = core.inconsistentScores.has(media.id) ? withInconsistentSummary(result) : result;
  return ok(scoreResultBody(core.dialect, answer, { withDetail, dateUploaded }));
}

/** One PASS too many in the first channel's summary: a service answer whose counts do not add up. */
function withInconsistentSummary(result: CanonicalScoreResult): CanonicalScoreResult {
  const [channel, summary] = Object.entries(result.summary)[0] ?? [];
  if (!channel || !summary) return result;
  return {
    ...result,
    summary: { ...result.summary, [channel]: { ...summary, passCount: summary.passCount + 1 } },
  };
}

function criterion(g: FixtureGuideline, workspace: FixtureWorkspace | null): unknown {
  return {
    id: g.id,
    name: g.name,
    rule: g.rule,
    bestPractice: g.bestPractice,
    category: g.category,
    channel: g.channel,
    consideration: g.consideration,
    criteriaGroups: g.criteriaGroups.map((c) => ({ ...c })),
    creativeTypes: [...g.creativeTypes],
    dateCreated: g.dateCreated,
    organizationCriteria: workspace === null,
    workspace: workspace ? { id: workspace.id, name: workspace.name } : null,
    person: { ...g.person },
  };
}

function postCriteriaMetadata(ctx: RouteContext): SimReply {
  const { core, org, req } = ctx;
  const query = parseCriteriaQuery(jsonBody(req));
  const workspaces = [...new Set(query.workspaces ?? [])].map((id) => ownWorkspace(core, org, id));
  const pairs: [FixtureGuideline, FixtureWorkspace | null][] = org.guidelines.map((g) => [g, null]);
  if (!query.globalOnly) {
    for (const w of workspaces)
      pairs.push(...w.guidelines.map((g): [FixtureGuideline, FixtureWorkspace] => [g, w]));
  }
  const items = pairs
    .filter(
      ([g]) =>
        (!query.channels || query.channels.has(g.channel)) &&
        (!query.considerations || query.considerations.has(g.consideration)) &&
        (!query.criteriaGroups || g.criteriaGroups.some((c) => query.criteriaGroups?.has(c.id))),
    )
    .map(([g, w]) => criterion(g, w));
  const { result, pagination } = page(items, parsePaging(req.query));
  return ok(result, 201, pagination);
}

const routes: readonly Route[] = [
  { method: 'GET', pattern: '/v1/organization', handle: getOrganization },
  { method: 'GET', pattern: '/v1/workspaces', handle: getWorkspaces },
  { method: 'POST', pattern: '/v1/media', handle: postMedia },
  { method: 'GET', pattern: '/v1/media/:key/status', handle: getStatus },
  { method: 'GET', pattern: '/v1/scoring/media/:key/scores', handle: getScores },
  { method: 'POST', pattern: '/v1/scoring/criteria/metadata', handle: postCriteriaMetadata },
  { method: 'POST', pattern: '/v1/media/aperture', handle: postAperture },
  { method: 'GET', pattern: '/v1/media/aperture/:jobId', handle: getAperture },
];

export interface RouteMatch {
  /** e.g. 'GET /v1/media/:key/status'; 'GET (unknown)' when no path matches. */
  endpoint: string;
  route?: Route;
  params: Record<string, string>;
  /** Methods the path accepts, for a 405's Allow header; empty when the path is unknown. */
  allowed: string[];
}

function matchPattern(pattern: string, segments: readonly string[]): Record<string, string> | undefined {
  const parts = pattern.split('/').filter(Boolean);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
}

export function matchRoute(method: string, path: string): RouteMatch {
  // A trailing slash names the same resource, as on the live service's framework.
  const segments = path.split('/').filter(Boolean);
  const allowed: string[] = [];
  let pattern = '(unknown)';
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method)
      return { endpoint: `${method} ${route.pattern}`, route, params, allowed: [method] };
    allowed.push(route.method);
    pattern = route.pattern;
  }
  return { endpoint: `${method} ${pattern}`, params: {}, allowed };
}
