// Fault injection: a layer in front of the routes that, for a seeded share of requests, answers
// the way a struggling service or network does — throttling, 5xx, resets, slow or cut answers,
// garbled JSON, wrong content types. Faults that strike after processing (a reset after the
// media was created, say) leave the state changed, as in life; none ever corrupts it.
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../clock';
import { draw, drawInt, sha256Hex } from './hash';
import type { Layer, SimReply, SimRequest } from './http';

export const faultKinds = [
  /** 429 without Retry-After. */
  '429',
  /** 429 with Retry-After in seconds (0 included). */
  '429-retry-after',
  /** 429 with Retry-After as an HTTP date, and a Date header from the simulator's clock. */
  '429-retry-after-date',
  /** 500 in the application error shape, after the request was processed. */
  '500',
  /** 502 and 503: a gateway's HTML page, before processing. */
  '502',
  '503',
  /** The connection dropped before processing. */
  'reset',
  /** Processed, then the connection dropped: the client never hears that it worked. */
  'reset-after-processing',
  /** Processed only after `slowMs` of real time, longer than the client waits. */
  'slow',
  /** Processed at once, answered only after `slowMs` of real time: the work is done, the client not told. */
  'slow-after-processing',
  /** Processed; the headers promise the whole body, half of it comes, then the connection drops. */
  'truncated',
  /** Processed; the body is cut in half but the answer looks complete. */
  'malformed-json',
  /** Processed; the right JSON labelled text/plain. */
  'wrong-content-type',
  /** A 200 with a maintenance page in HTML, before processing. */
  'html-page',
  /** Processed; a 2xx whose result is not what the endpoint returns. */
  'unexpected-shape',
] as const;
export type FaultKind = (typeof faultKinds)[number];

export interface FaultOptions {
  /** Same seed, same requests: same faults. */
  seed: string;
  /** Share of requests that get a fault, 0 to 1. */
  rate: number;
  /** The kinds to draw from, equally likely. @default every kind */
  kinds?: readonly FaultKind[];
  /** Only these endpoints (as the request record names them, e.g. 'GET /v1/media/:key/status'). @default all */
  endpoints?: readonly string[];
  /** Real milliseconds a 'slow' answer takes. @default 35_000 (past the client's 30 s) */
  slowMs?: number;
  /** Range of the Retry-After a 429 asks for, in seconds. @default [0, 3] */
  retryAfterSeconds?: [number, number];
}

export interface InjectedFault {
  /** Clock ms at arrival. */
  at: number;
  endpoint: string;
  path: string;
  kind: FaultKind;
}

export function checkFaultOptions(options: FaultOptions): FaultOptions {
  if (!(options.rate >= 0 && options.rate <= 1)) {
    throw new RangeError(`Expected faults.rate to be between 0 and 1, got ${options.rate}`);
  }
  for (const kind of options.kinds ?? []) {
    if (!faultKinds.includes(kind)) throw new RangeError(`Unknown fault kind '${kind}'`);
  }
  if (options.kinds?.length === 0) throw new RangeError('Expected faults.kinds to name at least one kind');
  return options;
}

/**
 * The layer. Which request gets which fault is drawn from the seed and the request itself
 * (method, path, query, body, and how often that exact request came before), so concurrent
 * clients meet the same faults whatever order their requests arrive in.
 */
export function faultLayer(options: FaultOptions, clock: Clock, injected: InjectedFault[]): Layer {
  const kinds = options.kinds ?? faultKinds;
  const seen = new Map<string, number>();
  const [minWait, maxWait] = options.retryAfterSeconds ?? [0, 3];
  return async (req, next) => {
    if (options.endpoints && !options.endpoints.includes(req.endpoint)) return next(req);
    const key = `${req.method} ${req.path}?${req.rawQuery} ${sha256Hex(req.bodyText)}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const label = `${key}#${n}`;
    if (draw(options.seed, label) >= options.rate) return next(req);
    const kind = kinds[drawInt(options.seed, `${label}:kind`, 0, kinds.length - 1)] as FaultKind;
    injected.push({ at: req.at, endpoint: req.endpoint, path: req.path, kind });
    const wait = drawInt(options.seed, `${label}:wait`, minWait, maxWait);
    return inject(kind, req, next, { clock, wait, slowMs: options.slowMs ?? 35_000 });
  };
}

async function inject(
  kind: FaultKind,
  req: SimRequest,
  next: (req: SimRequest) => Promise<SimReply>,
  opts: { clock: Clock; wait: number; slowMs: number },
): Promise<SimReply> {
  const { res } = req.raw;
  switch (kind) {
    case '429':
      return throttled(req, {});
    case '429-retry-after':
      return throttled(req, { 'retry-after': String(opts.wait) });
    case '429-retry-after-date': {
      const now = opts.clock.now();
      return throttled(req, {
        date: new Date(now).toUTCString(),
        'retry-after': new Date(now + opts.wait * 1000).toUTCString(),
      });
    }
    case '500':
      await next(req);
      return {
        status: 500,
        body: {
          status: 'ERROR',
          traceId: req.traceId,
          error: {
            identifier: 'vidmob.scoring.internalservererrorexception',
            type: 'INTERNALSERVERERROREXCEPTION',
            system: 'scoring',
            message: 'Internal server error',
          },
        },
      };
    case '502':
    case '503':
      return sendRaw(
        req,
        Number(kind),
        'text/html',
        `<html><body><h1>${kind} ${kind === '502' ? 'Bad Gateway' : 'Service Unavailable'}</h1></body></html>`,
      );
    case 'html-page':
      return sendRaw(
        req,
        200,
        'text/html',
        '<!doctype html><html><body>Down for maintenance, back soon.</body></html>',
      );
    case 'reset':
      res.destroy();
      return { status: 0 };
    case 'reset-after-processing':
      await next(req);
      res.destroy();
      return { status: 0 };
    case 'slow':
      await delay(opts.slowMs, undefined, { ref: false });
      return next(req);
    case 'slow-after-processing': {
      const reply = await next(req);
      await delay(opts.slowMs, undefined, { ref: false });
      return reply;
    }
    case 'truncated': {
      const reply = await next(req);
      const text = JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.write(text.slice(0, Math.floor(text.length / 2)), () => res.destroy());
      return reply;
    }
    case 'malformed-json': {
      const reply = await next(req);
      const text = JSON.stringify(reply.body ?? {});
      return sendRaw(
        req,
        reply.status,
        'application/json; charset=utf-8',
        text.slice(0, Math.floor(text.length / 2)),
      );
    }
    case 'wrong-content-type': {
      const reply = await next(req);
      return { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } };
    }
    case 'unexpected-shape': {
      const reply = await next(req);
      if (reply.status < 200 || reply.status >= 300) return reply;
      return { status: reply.status, body: { status: 'OK', result: 'unexpected' } };
    }
  }
}

function throttled(req: SimRequest, headers: Record<string, string>): SimReply {
  return {
    status: 429,
    headers,
    body: {
      status: 'ERROR',
      traceId: req.traceId,
      error: {
        identifier: 'vidmob.scoring.toomanyrequestsexception',
        type: 'TOOMANYREQUESTSEXCEPTION',
        system: 'scoring',
        message: 'Too many requests',
      },
    },
  };
}

/** Writes an answer the normal writer would not (HTML, a cut body); the writer then leaves it alone. */
function sendRaw(req: SimRequest, status: number, type: string, text: string): SimReply {
  const { res } = req.raw;
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'x-trace-id': req.traceId,
  });
  res.end(text);
  return { status };
}
