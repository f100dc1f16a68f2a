// The request/reply plumbing between node:http and the routes: one parsed request type, one
// reply type, and layers that wrap a handler (so fault injection can later sit in front).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, ServiceError } from './errors';

export interface SimRequest {
  method: string;
  /** Path as sent, without the query string; not percent-decoded. */
  path: string;
  query: URLSearchParams;
  rawQuery: string;
  /** The matched route, e.g. 'GET /v1/media/:key/status', so layers can target endpoints. */
  endpoint: string;
  headers: IncomingHttpHeaders;
  bodyText: string;
  /** Clock ms at arrival. */
  at: number;
  traceId: string;
  /** The raw exchange, for layers that must act on the connection itself (resets, slow answers). */
  raw: { req: IncomingMessage; res: ServerResponse };
}

export interface SimReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: SimRequest) => Promise<SimReply>;
export type Layer = (req: SimRequest, next: Handler) => Promise<SimReply>;

/** Wraps `last` in `layers`, the first layer outermost. */
export function compose(layers: readonly Layer[], last: Handler): Handler {
  return layers.reduceRight<Handler>((next, layer) => (req) => layer(req, next), last);
}

export const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new ServiceError(
        413,
        'PAYLOADTOOLARGEEXCEPTION',
        `Request body is larger than ${MAX_BODY_BYTES} bytes`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as JSON; an empty body reads as `{}` so the validators can name the missing fields. */
export function jsonBody(req: SimRequest): unknown {
  if (req.bodyText.trim() === '') return {};
  try {
    return JSON.parse(req.bodyText);
  } catch (error) {
    throw badRequest(`Request body is not valid JSON: ${(error as Error).message}`);
  }
}

export function writeReply(res: ServerResponse, reply: SimReply, traceId: string): void {
  // A layer may already have answered or dropped the connection.
  if (res.headersSent || res.destroyed) return;
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-trace-id': traceId,
    ...reply.headers,
  });
  res.end(text);
}
