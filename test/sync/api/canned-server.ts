// A real HTTP server on 127.0.0.1 port 0 that answers each request with the next canned reply
// and records what it was asked, so client tests can assert on both sides of the wire.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CannedReply {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is (HTML, broken JSON, …). */
  text?: string;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  /** The raw query string without `?`, e.g. `offset=0&perPage=20`. */
  query: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
}

export interface CannedServer {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Replies are used in order; a request beyond them gets a 599 that no test expects. */
export async function startCannedServer(replies: CannedReply[]): Promise<CannedServer> {
  const received: ReceivedRequest[] = [];
  const queue = [...replies];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [path = '', query = ''] = (req.url ?? '').split('?');
      received.push({
        method: req.method ?? '',
        path,
        query,
        headers: req.headers,
        body: text === '' ? undefined : JSON.parse(text),
      });
      const reply = queue.shift() ?? { status: 599, text: 'no canned reply left' };
      const body = reply.json === undefined ? (reply.text ?? '') : JSON.stringify(reply.json);
      const type = reply.json === undefined ? 'text/html' : 'application/json';
      res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A base URL on which nothing listens: a port that was just freed. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
