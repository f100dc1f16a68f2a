// The one place that speaks HTTP to the Creative Scoring Service: auth, the envelope,
// zod parsing of every answer, errors as ApiError values, and a shared rate/concurrency limit.
import PQueue from 'p-queue';
import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { ApiError, kindForStatus } from './errors';
import {
  envelopeSchema,
  errorBodySchema,
  type MediaStatus,
  mediaStatusSchema,
  type Organization,
  organizationSchema,
  type Pagination,
  type ScoreResult,
  scoreResultSchema,
  submitResultSchema,
  type Workspace,
  workspaceSchema,
} from './schemas';

export interface ApiClientOptions {
  /** Base URL of the service, e.g. https://api.example.com (paths start with /v1). */
  baseUrl: string;
  apiKey: string;
  /** undici dispatcher, for tests or proxies. */
  dispatcher?: Dispatcher;
  /** Milliseconds to wait for response headers, and between body chunks. */
  timeoutMs?: number;
  /** Requests in flight at once, across every stage. */
  concurrency?: number;
  /** Requests started per second, across every stage. */
  requestsPerSecond?: number;
}

/** Exactly the fields POST /v1/media takes; absent optional fields are left out, not sent empty. */
export interface MediaSubmission {
  id: string;
  url: string;
  version?: string;
  source?: string;
  workspaceId?: number;
  channels?: string[];
  name?: string;
  description?: string;
  brands?: string[];
  markets?: string[];
}

/** Look an asset up by the service's uniqueId (preferred) or by the client key. */
export type MediaRef = { uniqueId: string } | { id: string; version: string; source: string };

export interface SubmitOutcome {
  uniqueId: string;
  /** True when the service said (409) it already had this (id, version, source). */
  duplicate: boolean;
}

const bodyPreviewChars = 500;
const workspacesPerPage = 20;

/** The fields of MediaSubmission, in the order they are sent. */
const submissionFields = [
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
] as const satisfies readonly (keyof MediaSubmission)[];

export class ApiClient {
  readonly #base: URL;
  readonly #apiKey: string;
  readonly #authorization: string;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #timeoutMs: number;
  readonly #queue: PQueue;
  readonly #calls = new Map<string, number>();

  constructor(options: ApiClientOptions) {
    this.#base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.#apiKey = options.apiKey;
    this.#authorization = `Bearer ${options.apiKey}`;
    this.#dispatcher = options.dispatcher;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#queue = new PQueue({
      concurrency: options.concurrency ?? 4,
      intervalCap: options.requestsPerSecond ?? 5,
      interval: 1000,
    });
  }

  /** Calls made so far, by endpoint (`GET /v1/media/{uniqueId}/status`). */
  callCounts(): Record<string, number> {
    return Object.fromEntries(this.#calls);
  }

  totalCalls(): number {
    let total = 0;
    for (const n of this.#calls.values()) total += n;
    return total;
  }

  async getOrganization(): Promise<Organization> {
    const { result } = await this.#call('GET', '/v1/organization', { label: 'GET /v1/organization' });
    return this.#parse(organizationSchema, result, 'GET /v1/organization');
  }

  /** Every workspace the key can see, following all pages. */
  async listWorkspaces(): Promise<Workspace[]> {
    const label = 'GET /v1/workspaces';
    const all: Workspace[] = [];
    let offset = 0;
    for (;;) {
      const { result, pagination } = await this.#call('GET', '/v1/workspaces', {
        label,
        query: { offset: String(offset), perPage: String(workspacesPerPage) },
      });
      const page = this.#parse(workspaceSchema.array(), result, label);
      all.push(...page);
      const next = nextPageOffset(offset, page.length, pagination, workspacesPerPage);
      if (next === undefined) return all;
      offset = next;
    }
  }

  /**
   * Registers an asset for scoring. A duplicate (id, version, source) is a success either
   * way the service says it: 201 with the existing uniqueId, or 409, after which the
   * uniqueId is looked up by the client key when the error body does not carry it.
   * A 201 cannot tell a new asset from an existing one, so `duplicate` is only known from a 409.
   */
  async submitMedia(media: MediaSubmission): Promise<SubmitOutcome> {
    const label = 'POST /v1/media';
    const body: Record<string, unknown> = {};
    for (const field of submissionFields) {
      if (media[field] !== undefined) body[field] = media[field];
    }
    try {
      const { result } = await this.#call('POST', '/v1/media', { label, body });
      return { uniqueId: this.#parse(submitResultSchema, result, label).uniqueId, duplicate: false };
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'conflict') throw error;
      const carried = submitResultSchema.safeParse(
        (error.payload as { result?: unknown } | undefined)?.result ?? error.payload,
      );
      if (carried.success) return { uniqueId: carried.data.uniqueId, duplicate: true };
      const status = await this.getStatus({
        id: media.id,
        version: media.version ?? '',
        source: media.source ?? '',
      });
      if (!status.uniqueId) {
        throw new ApiError('The service reported a duplicate but its status lookup carries no uniqueId.', {
          kind: 'invalid-response',
          endpoint: 'GET /v1/media/{id}/status',
        });
      }
      return { uniqueId: status.uniqueId, duplicate: true };
    }
  }

  async getStatus(ref: MediaRef): Promise<MediaStatus> {
    const byUniqueId = 'uniqueId' in ref;
    const label = byUniqueId ? 'GET /v1/media/{uniqueId}/status' : 'GET /v1/media/{id}/status';
    const path = `/v1/media/${encodeURIComponent(byUniqueId ? ref.uniqueId : ref.id)}/status`;
    const query = byUniqueId ? undefined : { source: ref.source, version: ref.version };
    const { result } = await this.#call('GET', path, { label, query });
    return this.#parse(mediaStatusSchema, result, label);
  }

  /** Summary and per-guideline detail of a COMPLETE asset. */
  async getScores(uniqueId: string): Promise<ScoreResult> {
    const label = 'GET /v1/scoring/media/{uniqueId}/scores';
    const { result } = await this.#call('GET', `/v1/scoring/media/${encodeURIComponent(uniqueId)}/scores`, {
      label,
      query: { format: 'summary,detail' },
    });
    return this.#parse(scoreResultSchema, result, label);
  }

  #parse<S extends z.ZodType>(schema: S, value: unknown, endpoint: string): z.infer<S> {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const problem = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new ApiError(this.#redact(`${endpoint} answered in an unexpected shape (${problem}).`), {
      kind: 'invalid-response',
      endpoint,
      body: preview(this.#redact(JSON.stringify(value))),
    });
  }

  /** The key out of anything the service sent back: some gateways echo what they were given. */
  #redact(text: string): string {
    return this.#apiKey === '' ? text : text.split(this.#apiKey).join('***');
  }

  async #call(
    method: 'GET' | 'POST',
    path: string,
    options: { label: string; query?: Record<string, string> | undefined; body?: unknown },
  ): Promise<z.infer<typeof envelopeSchema>> {
    const url = new URL(path.replace(/^\//, ''), this.#base);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
    const endpoint = options.label;
    this.#calls.set(endpoint, (this.#calls.get(endpoint) ?? 0) + 1);

    const response = await this.#queue.add(async () => {
      try {
        const res = await request(url, {
          method,
          headers: {
            authorization: this.#authorization,
            accept: 'application/json',
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          dispatcher: this.#dispatcher,
          headersTimeout: this.#timeoutMs,
          bodyTimeout: this.#timeoutMs,
        });
        return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
      } catch (cause) {
        throw new ApiError(this.#redact(`${endpoint} failed: ${(cause as Error).message}.`), {
          kind: 'network',
          endpoint,
          cause,
        });
      }
    });
    if (!response) throw new ApiError(`${endpoint} was cancelled.`, { kind: 'network', endpoint });

    const json = parseJson(response.text);
    if (response.status >= 200 && response.status < 300) {
      const envelope = envelopeSchema.safeParse(json);
      if (json === undefined || !envelope.success) {
        throw new ApiError(
          `${endpoint} answered ${response.status} with a body that is not the JSON envelope.`,
          {
            kind: 'invalid-response',
            status: response.status,
            endpoint,
            body: preview(this.#redact(response.text)),
          },
        );
      }
      return envelope.data;
    }
    throw errorFromResponse(endpoint, response, json, (text) => this.#redact(text));
  }
}

function errorFromResponse(
  endpoint: string,
  response: { status: number; headers: Record<string, string | string[] | undefined>; text: string },
  json: unknown,
  redact: (text: string) => string,
): ApiError {
  const { status, headers, text } = response;
  const kind = kindForStatus(status);
  const parsed = errorBodySchema.safeParse(json);
  let serviceMessage: string | undefined;
  let serviceType: string | undefined;
  let traceId: string | undefined;
  if (parsed.success) {
    const body = parsed.data;
    traceId = body.traceId;
    if ('statusCode' in body || typeof body.error !== 'object') {
      const flat = body as { error?: string; message?: string | string[] };
      serviceType = flat.error;
      serviceMessage = joinMessage(flat.message);
    } else {
      serviceType = body.error.type;
      serviceMessage = joinMessage(body.error.message);
    }
  }
  const traceHeader = headers['x-trace-id'] ?? headers['x-amzn-trace-id'];
  traceId ??= typeof traceHeader === 'string' ? traceHeader : undefined;
  const what = serviceMessage ? `: ${serviceMessage}` : '';
  return new ApiError(redact(`${endpoint} answered ${status}${what}`), {
    kind,
    status,
    traceId,
    endpoint,
    serviceType,
    retryAfterSeconds: retryAfterSeconds(headers['retry-after']),
    body: parsed.success ? undefined : preview(redact(text)),
    payload: json,
  });
}

/**
 * Where the next page starts, or undefined when this was the last one. Without a `perPage`
 * from the service, a page shorter than `requestedPerPage` is the last one.
 */
export function nextPageOffset(
  offset: number,
  pageLength: number,
  pagination?: Pagination,
  requestedPerPage?: number,
): number | undefined {
  if (pageLength === 0) return undefined;
  const perPage = pagination?.perPage ?? requestedPerPage ?? pageLength;
  const next = pagination?.nextOffset ?? offset + pageLength;
  if (pagination?.totalSize !== undefined && next >= pagination.totalSize) return undefined;
  if (pageLength < perPage || next <= offset) return undefined;
  return next;
}

function retryAfterSeconds(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function joinMessage(message: string | string[] | undefined): string | undefined {
  return Array.isArray(message) ? message.join('; ') : message;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function preview(text: string): string {
  return text.length > bodyPreviewChars ? `${text.slice(0, bodyPreviewChars)}…` : text;
}
