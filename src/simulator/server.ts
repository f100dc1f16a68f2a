// The HTTP server: records every request, reads the body, runs the layered handler (routes at
// the core) and writes the reply; any thrown error becomes the dialect's error body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { SimulatorCore } from './core';
import { liveUnauthorizedBody } from './dialect';
import { applicationErrorBody, notFound, ServiceError } from './errors';
import { uuidFrom } from './hash';
import {
  compose,
  type Handler,
  type Layer,
  readBody,
  type SimReply,
  type SimRequest,
  writeReply,
} from './http';
import { authenticate, matchRoute } from './routes';

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  /** Clock ms. */
  at: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface RequestLog {
  requests: RecordedRequest[];
  total: number;
  byEndpoint: Record<string, number>;
}

function renderError(core: SimulatorCore, error: unknown, traceId: string): SimReply {
  if (!(error instanceof ServiceError)) {
    const message = error instanceof Error ? error.message : String(error);
    error = new ServiceError(500, 'INTERNALSERVERERROREXCEPTION', `Internal server error: ${message}`);
  }
  const e = error as ServiceError;
  const body =
    e.status === 401 && core.dialect === 'live' ? liveUnauthorizedBody() : applicationErrorBody(e, traceId);
  return { status: e.status, body, headers: e.headers };
}

/** Authentication first, so an unknown path without a key is a 401 like everything else. */
function router(core: SimulatorCore): Handler {
  return async (req) => {
    const org = authenticate(core, req);
    const match = matchRoute(req.method, req.path);
    if (!match.route) {
      if (match.allowed.length > 0) {
        throw new ServiceError(405, 'METHODNOTALLOWEDEXCEPTION', `Cannot ${req.method} ${req.path}`, {
          allow: match.allowed.join(', '),
        });
      }
      throw notFound(`Cannot ${req.method} ${req.path}`);
    }
    return match.route.handle({ core, req, org, params: match.params });
  };
}

export function createSimulatorServer(
  core: SimulatorCore,
  layers: readonly Layer[] = [],
): { server: Server; log: RequestLog } {
  const log: RequestLog = { requests: [], total: 0, byEndpoint: {} };
  const handler = compose(layers, router(core));
  let traceCounter = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = core.clock.now();
    core.registry.noteClock(at);
    traceCounter++;
    const traceId = uuidFrom('trace', String(traceCounter));
    const method = (req.method ?? 'GET').toUpperCase();
    // Prefixing (rather than resolving against a base) keeps a path like '//v1/x' a path, not a host.
    const url = new URL(`http://simulator.invalid${req.url?.startsWith('/') ? req.url : '/'}`);
    const { endpoint } = matchRoute(method, url.pathname);
    const rawQuery = url.search.replace(/^\?/, '');
    log.requests.push({ method, path: url.pathname, query: rawQuery, at, headers: { ...req.headers } });
    log.total++;
    log.byEndpoint[endpoint] = (log.byEndpoint[endpoint] ?? 0) + 1;

    let reply: SimReply;
    try {
      const bodyText = await readBody(req);
      const simReq: SimRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        rawQuery,
        endpoint,
        headers: req.headers,
        bodyText,
        at,
        traceId,
        raw: { req, res },
      };
      reply = await handler(simReq);
    } catch (error) {
      reply = renderError(core, error, traceId);
    }
    writeReply(res, reply, traceId);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Only writing the reply itself can get here; the client sees the connection drop.
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  return { server, log };
}
