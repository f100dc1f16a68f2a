// The object storage that tag reports are downloaded from: a separate loopback server (another
// host than the API's), serving each finished job's CSV from signed links that expire. It records
// every request's headers, so a test can check that the API key never reached it.

import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApertureService } from './aperture';
import { csvHeader, csvLines, tagRowsFor } from './aperture-report';

export interface StorageRequest {
  method: string;
  path: string;
  /** Clock ms. */
  at: number;
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface RunningStorage {
  /** e.g. http://127.0.0.2:40123 */
  url: string;
  requests(): ReadonlyArray<StorageRequest>;
  close(): Promise<void>;
}

/** What S3-like storage answers when a link is wrong or old: an XML error, never JSON. */
function xmlError(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function listen(server: Server, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Starts on `host` (default 127.0.0.2, a different loopback address than the API's). Where that
 * address is not configured (macOS has only 127.0.0.1), it falls back to `localhost`, still
 * another host name than the API's 127.0.0.1.
 */
export async function startStorage(service: ApertureService, host = '127.0.0.2'): Promise<RunningStorage> {
  const log: StorageRequest[] = [];
  const server = createServer((req, res) => {
    const at = service.clock.now();
    const url = new URL(`http://storage.invalid${req.url?.startsWith('/') ? req.url : '/'}`);
    const entry: StorageRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      at,
      status: 0,
      headers: { ...req.headers },
    };
    log.push(entry);
    const fail = (status: number, code: string, message: string) => {
      entry.status = status;
      const body = xmlError(code, message);
      res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const match = /^\/reports\/([^/]+)\.csv$/.exec(url.pathname);
    const job = match?.[1] ? service.job(match[1]) : undefined;
    if (req.method !== 'GET' || !job) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature') ?? '';
    if (!Number.isFinite(expires) || !sameText(signature, service.signature(job.jobId, expires))) {
      return fail(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    if (at > expires) return fail(403, 'AccessDenied', 'Request has expired');
    if (service.statusAt(job, at) !== 'COMPLETED')
      return fail(404, 'NoSuchKey', 'The specified key does not exist.');
    entry.status = 200;
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
    // Written creative by creative, so a large report streams rather than sitting in one string.
    res.write(csvHeader(service.dialect));
    for (const creative of service.tagged(job)) res.write(csvLines(service.dialect, tagRowsFor(creative)));
    res.end();
  });
  let bound = host;
  try {
    await listen(server, host);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL') throw error;
    bound = 'localhost';
    await listen(server, '127.0.0.1');
  }
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${bound}:${port}`,
    requests: () => log,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
