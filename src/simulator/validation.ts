// Request validation in the service's manner: every problem found is reported at once, as an
// array of messages (a 400 whose `error.message` is an array), and unknown properties are refused.
import { canonicalChannels } from './channels';
import { badRequest } from './errors';
import type { Consideration } from './fixture';
import type { SimulatedMedia } from './state';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
// Optional fields accept null as "absent", as the service's validators do.
const present = (v: unknown): boolean => v !== undefined && v !== null;
const isInt32 = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1;

function refuseUnknown(body: Obj, allowed: readonly string[], problems: string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) problems.push(`property ${key} should not exist`);
  }
}

function optionalString(body: Obj, key: string, problems: string[]): string | undefined {
  const v = body[key];
  if (!present(v)) return undefined;
  if (typeof v !== 'string') {
    problems.push(`${key} must be a string`);
    return undefined;
  }
  return v;
}

function optionalStringArray(body: Obj, key: string, problems: string[]): string[] | undefined {
  const v = body[key];
  if (!present(v)) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
    problems.push(`${key} must be an array of strings`);
    return undefined;
  }
  return v as string[];
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** What a POST /v1/media body means once checked: the stored media without what the service assigns. */
export type MediaSubmission = Omit<SimulatedMedia, 'orgId' | 'uniqueId' | 'submittedAt'>;

const mediaKeys = [
  'id',
  'url',
  'version',
  'source',
  'workspaceId',
  'channels',
  'name',
  'description',
  'brands',
  'markets',
];

export function parseMediaSubmission(body: unknown): MediaSubmission {
  if (!isObject(body)) throw badRequest(['request body must be a JSON object']);
  const problems: string[] = [];
  refuseUnknown(body, mediaKeys, problems);
  const id = body.id;
  if (typeof id !== 'string') problems.push('id must be a string');
  else if (id.trim() === '') problems.push('id should not be empty');
  const url = body.url;
  if (typeof url !== 'string' || !isHttpUrl(url))
    problems.push('url must be an absolute http(s) URL address');
  const version = optionalString(body, 'version', problems) ?? '';
  const source = optionalString(body, 'source', problems) ?? '';
  const name = optionalString(body, 'name', problems);
  const description = optionalString(body, 'description', problems);
  const channels = optionalStringArray(body, 'channels', problems) ?? [];
  const brands = optionalStringArray(body, 'brands', problems) ?? [];
  const markets = optionalStringArray(body, 'markets', problems) ?? [];
  let workspaceId: number | undefined;
  if (present(body.workspaceId)) {
    if (isInt32(body.workspaceId)) workspaceId = body.workspaceId;
    else problems.push('workspaceId must be a 32-bit integer');
  }
  if (problems.length > 0) throw badRequest(problems);
  return {
    id: id as string,
    url: url as string,
    version,
    source,
    workspaceId,
    channels: canonicalChannels(channels),
    brands,
    markets,
    name,
    description,
  };
}

const considerations: readonly Consideration[] = ['MANDATORY', 'OPTIONAL'];

/** `MANDATORY`, `OPTIONAL` or both (comma-separated or a list); undefined means both. */
export function parseConsiderations(value: unknown, field = 'consideration'): Set<Consideration> | undefined {
  if (!present(value) || value === '') return undefined;
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  const out = new Set<Consideration>();
  for (const part of parts ?? [null]) {
    const upper = typeof part === 'string' ? part.trim().toUpperCase() : '';
    if (!considerations.includes(upper as Consideration)) {
      throw badRequest([`${field} must be one of the following values: MANDATORY, OPTIONAL`]);
    }
    out.add(upper as Consideration);
  }
  return out;
}

export interface CriteriaQuery {
  workspaces?: number[];
  globalOnly: boolean;
  channels?: Set<string>;
  considerations?: Set<Consideration>;
  criteriaGroups?: Set<number>;
}

export function parseCriteriaQuery(body: unknown): CriteriaQuery {
  if (!isObject(body)) throw badRequest(['request body must be a JSON object']);
  const problems: string[] = [];
  refuseUnknown(body, ['workspaces', 'globalOnly', 'channels', 'consideration', 'criteriaGroups'], problems);
  let workspaces: number[] | undefined;
  if (present(body.workspaces)) {
    if (Array.isArray(body.workspaces) && body.workspaces.every(isInt32)) workspaces = body.workspaces;
    else problems.push('workspaces must be an array of 32-bit integers');
  }
  let globalOnly = false;
  if (present(body.globalOnly)) {
    if (typeof body.globalOnly === 'boolean') globalOnly = body.globalOnly;
    else problems.push('globalOnly must be a boolean value');
  }
  if (!globalOnly && (workspaces === undefined || workspaces.length === 0) && problems.length === 0) {
    problems.push('workspaces must contain at least 1 elements unless globalOnly is true');
  }
  const channels = optionalStringArray(body, 'channels', problems);
  let criteriaGroups: Set<number> | undefined;
  if (present(body.criteriaGroups)) {
    if (Array.isArray(body.criteriaGroups) && body.criteriaGroups.every(isInt32)) {
      criteriaGroups = new Set(body.criteriaGroups);
    } else problems.push('criteriaGroups must be an array of 32-bit integers');
  }
  if (problems.length > 0) throw badRequest(problems);
  return {
    workspaces,
    globalOnly,
    channels: channels && channels.length > 0 ? new Set(canonicalChannels(channels)) : undefined,
    considerations: parseConsiderations(body.consideration),
    criteriaGroups,
  };
}

export interface Paging {
  offset: number;
  perPage: number;
}

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 20;

/** `offset` (or `offSet`, as one live endpoint spells it) and `perPage`; perPage is capped, not refused. */
export function parsePaging(query: URLSearchParams): Paging {
  const problems: string[] = [];
  const read = (name: string, raw: string | null, fallback: number, min: number): number => {
    if (raw === null || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) {
      problems.push(`${name} must be an integer not less than ${min}`);
      return fallback;
    }
    return n;
  };
  const offset = read('offset', query.get('offset') ?? query.get('offSet'), 0, 0);
  const perPage = read('perPage', query.get('perPage'), DEFAULT_PER_PAGE, 1);
  if (problems.length > 0) throw badRequest(problems);
  return { offset, perPage: Math.min(perPage, MAX_PER_PAGE) };
}

export function page<T>(
  items: readonly T[],
  paging: Paging,
): { result: T[]; pagination: Record<string, number> } {
  const result = items.slice(paging.offset, paging.offset + paging.perPage);
  return {
    result,
    pagination: {
      offset: paging.offset,
      perPage: paging.perPage,
      nextOffset: paging.offset + paging.perPage,
      totalSize: items.length,
    },
  };
}
