// The one place that speaks HTTP to the Creative Scoring Service: auth, the envelope,
// zod parsing of every answer, errors as ApiError values, and a shared rate/concurrency limit.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import PQueue from 'p-queue';
import { Agent, type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { CircuitBreaker } from './circuit-breaker';
import { ApiError, kindForStatus } from './errors';
import {
  decideRetry,
  defaultRetryPolicy,
  isIdempotent,
  isTransient,
  parseRetryAfter,
  type RetryPolicy,
} from './retry';
import {
  type Criterion,
  criterionSchema,
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
  type TagJobRecord,
  tagJobSchema,
  tagJobSubmitResultSchema,
  type Workspace,
  workspaceSchema,
} from './schemas';
import { ApiStoppedError, type StopReason } from './stopped';

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
  /** Milliseconds to wait for a connection (only without a custom dispatcher). @default 10_000 */
  connectTimeoutMs?: number;
  /** How failed idempotent calls are retried. @default defaultRetryPolicy */
  retry?: Partial<RetryPolicy>;
  /** Consecutive failed requests after which the client stops calling for the rest of the run. @default 10 */
  breakerThreshold?: number;
  /** Waits between retries: pass the run's clock's sleep so tests never wait. @default real time */
  sleep?: (ms: number) => Promise<void>;
  /** Draws in [0, 1) for the backoff jitter; seeded in tests. @default Math.random */
  random?: () => number;
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
/** The largest page some endpoints allow. */
const itemsPerPage = 20;

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
  readonly #retries = new Map<string, number>();
  readonly #retryPolicy: RetryPolicy;
  readonly #breaker: CircuitBreaker;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  /** Set once the client stops calling the service for this run; every later call fails fast. */
  #stopped: ApiStoppedError | undefined;

  constructor(options: ApiClientOptions) {
    this.#base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.#apiKey = options.apiKey;
    this.#authorization = `Bearer ${options.apiKey}`;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    // The connect timeout lives on the dispatcher; a caller's own dispatcher keeps its own.
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
    this.#queue = new PQueue({
      concurrency: options.concurrency ?? 4,
      intervalCap: options.requestsPerSecond ?? 5,
      interval: 1000,
    });
    this.#retryPolicy = { ...defaultRetryPolicy, ...options.retry };
    this.#breaker = new CircuitBreaker(options.breakerThreshold ?? 10);
    this.#sleep = options.sleep ?? ((ms) => delay(ms));
    this.#random = options.random ?? Math.random;
  }

  /** Requests sent so far, retries included, by endpoint (`GET /v1/media/{uniqueId}/status`). */
  callCounts(): Record<string, number> {
    return Object.fromEntries(this.#calls);
  }

  totalCalls(): number {
    let total = 0;
    for (const n of this.#calls.values()) total += n;
    return total;
  }

  /** Of those requests, the ones that repeated a failed one, by endpoint. */
  retryCounts(): Record<string, number> {
    return Object.fromEntries(this.#retries);
  }

  totalRetries(): number {
    let total = 0;
    for (const n of this.#retries.values()) total += n;
    return total;
  }

  /** Why the client stopped calling the service in this run, or undefined while it still calls. */
  stopReason(): string | undefined {
    return this.#stopped?.message;
  }

  async getOrganization(): Promise<Organization> {
    const { result } = await this.#call('GET', '/v1/organization', { label: 'GET /v1/organization' });
    return this.#parse(organizationSchema, result, 'GET /v1/organization');
  }

  /** Every workspace the key can see, following all pages. */
  async listWorkspaces(): Promise<Workspace[]> {
    return this.#allPages('GET', '/v1/workspaces', 'GET /v1/workspaces', workspaceSchema);
  }

  /**
   * Every guideline (criteria metadata) of the organization plus those of the given
   * workspaces, following all pages. The lookup is a POST, but a read-only one.
   */
  async listGuidelines(workspaceIds: number[]): Promise<Criterion[]> {
    const body = workspaceIds.length > 0 ? { workspaces: workspaceIds } : { globalOnly: true };
    return this.#allPages(
      'POST',
      '/v1/scoring/criteria/metadata',
      'POST /v1/scoring/criteria/metadata',
      criterionSchema,
      body,
    );
  }

  /** Offset paging: `offset`/`perPage` in the query, until a short, empty or last page. */
  async #allPages<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    label: string,
    itemSchema: S,
    body?: unknown,
  ): Promise<z.infer<S>[]> {
    const all: z.infer<S>[] = [];
    let offset = 0;
    for (;;) {
      const { result, pagination } = await this.#call(method, path, {
        label,
        query: { offset: String(offset), perPage: String(itemsPerPage) },
        body,
      });
      const page = this.#parse(itemSchema.array(), result, label) as z.infer<S>[];
      all.push(...page);
      const next = nextPageOffset(offset, page.length, pagination, itemsPerPage);
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

  /**
   * Starts an Aperture tagging job. NOT idempotent: every POST that reaches the service makes a
   * new, slow job, so this must never be retried blindly; the tagging stage decides (from the
   * error) whether the request surely did not arrive.
   */
  async submitTagJob(job: {
    creatives: { id: string; url: string }[];
    clientTags?: Record<string, string>;
  }): Promise<{
    jobId: string;
    status: string;
  }> {
    const label = 'POST /v1/media/aperture';
    const body = job.clientTags === undefined ? { creatives: job.creatives } : job;
    const { result } = await this.#call('POST', '/v1/media/aperture', { label, body });
    return this.#parse(tagJobSubmitResultSchema, result, label);
  }

  /** A tagging job's status, progress message, per-creative errors and (once COMPLETED) a fresh report link. */
  async getTagJob(jobId: string): Promise<TagJobRecord> {
    const label = 'GET /v1/media/aperture/{jobId}';
    const { result } = await this.#call('GET', `/v1/media/aperture/${encodeURIComponent(jobId)}`, { label });
    return this.#parse(tagJobSchema, result, label);
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

  /**
   * One logical call: up to `maxAttempts` requests when it is idempotent, each through the
   * shared queue (so retries count against the rate limit too), with the backoff slept on the
   * injected clock outside the queue. Every attempt carries the same x-request-id, so the
   * service (and our tests) can tell a retry from a new call.
   */
  async #call(
    method: 'GET' | 'POST',
    path: string,
    options: { label: string; query?: Record<string, string> | undefined; body?: unknown },
  ): Promise<z.infer<typeof envelopeSchema>> {
    const url = new URL(path.replace(/^\//, ''), this.#base);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
    const endpoint = options.label;
    // The key goes to the API's own host and nowhere else, whatever a path turns out to be.
    if (url.origin !== this.#base.origin) {
      throw new Error(`${endpoint} would be sent to ${url.origin}, not to the API at ${this.#base.origin}.`);
    }
    const idempotent = isIdempotent(method, endpoint);
    const requestId = randomUUID();

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(method, url, endpoint, options.body, requestId);
      if (!(outcome instanceof ApiError)) {
        this.#breaker.recordSuccess();
        return outcome;
      }
      const error = outcome;
      if (!isTransient(error)) this.#breaker.recordSuccess();
      else if (this.#breaker.recordFailure(error.message)) {
        this.#stop(`The service ${this.#breaker.describe()}, so this run stopped calling it`, 'circuit-open');
      }
      const decision = decideRetry({ attempt, error, idempotent, random: this.#random() }, this.#retryPolicy);
      if (decision.action === 'stop') {
        this.#stop(
          `The service asked to wait ${Math.ceil(decision.waitMs / 1000)} seconds (${endpoint} answered ${error.status ?? error.kind}), longer than a run waits`,
          'long-wait',
        );
      }
      if (decision.action !== 'retry' || this.#stopped) throw error;
      this.#retries.set(endpoint, (this.#retries.get(endpoint) ?? 0) + 1);
      await this.#sleep(decision.delayMs);
      if (this.#stopped) throw error;
    }
  }

  #stop(why: string, reason: StopReason): void {
    this.#stopped ??= new ApiStoppedError(this.#redact(`${why}; the rest is left for the next run.`), reason);
  }

  /** One request. Answers as an envelope or an ApiError value; only a stopped client throws. */
  async #attempt(
    method: 'GET' | 'POST',
    url: URL,
    endpoint: string,
    body: unknown,
    requestId: string,
  ): Promise<z.infer<typeof envelopeSchema> | ApiError> {
    const response = await this.#queue.add(async () => {
      // Checked at the head of the queue: calls queued before the circuit opened are not sent.
      if (this.#stopped) throw this.#stopped;
      this.#calls.set(endpoint, (this.#calls.get(endpoint) ?? 0) + 1);
      try {
        const res = await request(url, {
          method,
          headers: {
            authorization: this.#authorization,
            accept: 'application/json',
            'x-request-id': requestId,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          dispatcher: this.#dispatcher,
          headersTimeout: this.#timeoutMs,
          bodyTimeout: this.#timeoutMs,
        });
        return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
      } catch (cause) {
        return new ApiError(this.#redact(`${endpoint} failed: ${(cause as Error).message}.`), {
          kind: 'network',
          endpoint,
          cause,
        });
      }
    });
    if (!response) return new ApiError(`${endpoint} was cancelled.`, { kind: 'network', endpoint });
    if (response instanceof ApiError) return response;

    const json = parseJson(response.text);
    if (response.status >= 200 && response.status < 300) {
      const envelope = envelopeSchema.safeParse(json);
      if (json === undefined || !envelope.success) {
        return new ApiError(
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
    return errorFromResponse(endpoint, response, json, (text) => this.#redact(text));
  }
}

function errorFromResponse(
  endpoint: string,
  response: { status: number; headers: Record<string, string | string[] | undefined>; text: string },
  json: unknown,
  redact: (text: string) => string,
): ApiError {
  const { status, headers, text } = response;
  // 408: the server gave up waiting for us; nothing was wrong with the request itself.
  const kind = status === 408 ? 'network' : kindForStatus(status);
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
    retryAfterSeconds: parseRetryAfter(headers['retry-after'], headers.date, Date.now()),
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
