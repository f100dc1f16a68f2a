// One error family for everything that can go wrong talking to the service. Code branches
// on `kind`, never on message text; the message says what to do next.

export const apiErrorKinds = [
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'rate-limited',
  'bad-request',
  'server',
  'network',
  'invalid-response',
] as const;
export type ApiErrorKind = (typeof apiErrorKinds)[number];

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  /** HTTP status, when an answer came back. */
  status?: number;
  /** The service's traceId: what support asks for. */
  traceId?: string;
  /** `METHOD /path` of the call, without host or query secrets. */
  endpoint?: string;
  /** The service's own error type, e.g. CONFLICTEXCEPTION. */
  serviceType?: string;
  /** Seconds the service asked us to wait (Retry-After), when it said. */
  retryAfterSeconds?: number;
  /** The raw body, shortened, for invalid responses. */
  body?: string;
  /** Whatever the service put in the error body, kept for cases like a 409 that carries a uniqueId. */
  payload?: unknown;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly traceId: string | undefined;
  readonly endpoint: string | undefined;
  readonly serviceType: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly body: string | undefined;
  readonly payload: unknown;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, { cause: details.cause });
    this.kind = details.kind;
    this.status = details.status;
    this.traceId = details.traceId;
    this.endpoint = details.endpoint;
    this.serviceType = details.serviceType;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.body = details.body;
    this.payload = details.payload;
  }
}

export function isApiError(error: unknown, kind?: ApiErrorKind): error is ApiError {
  return error instanceof ApiError && (kind === undefined || error.kind === kind);
}

/** The kind an HTTP status means; 2xx never reaches here. */
export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return 'bad-request';
}

const advice: Record<ApiErrorKind, string> = {
  unauthorized: 'The API key is not valid: check SCORING_API_KEY (run `creative-sync doctor`).',
  forbidden:
    'The API key has no access to this workspace; it usually belongs to another organization. Fix the workspaceId in the manifest or use that organization’s key.',
  'not-found': 'The service does not know this item.',
  conflict: 'The service already has this item.',
  'rate-limited': 'The service is throttling us; the rest is left for the next run.',
  'bad-request': 'The service refused the request; fix the manifest row and give it a new version.',
  server: 'The service had an internal error; it will be retried on the next run.',
  network: 'The service could not be reached: check SCORING_API_URL and the network.',
  'invalid-response': 'The service answered in a shape we do not understand; the raw answer is kept.',
};

export function adviceFor(kind: ApiErrorKind): string {
  return advice[kind];
}
