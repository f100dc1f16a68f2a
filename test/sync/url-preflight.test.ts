// URL pre-flight: new urls are asked (HEAD, or a one-byte GET where HEAD is refused) on a
// loopback media host before submission; what the service would fail silently is flagged.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets } from '../../src/db/schema';
import { judgeUrlAnswer } from '../../src/sync/url-preflight';
import { readSheet, readWorkbook, records } from '../reports/read-back';
import { harnessPerTest } from './harness';

describe('judgeUrlAnswer', () => {
  it.each([
    [{ status: 200, contentType: 'video/mp4' }, null],
    [{ status: 206, contentType: 'image/jpeg' }, null],
    [
      { status: 302, location: 'https://cdn.example.com/real.mp4' },
      /^the url redirects \(302\) to https:\/\/cdn\.example\.com\/real\.mp4: /,
    ],
    [{ status: 301 }, /^the url redirects \(301\): /],
    [{ status: 401 }, /^the url asks for a log-in \(401\)/],
    [{ status: 403 }, /^the url asks for a log-in \(403\)/],
    [{ status: 404 }, /^the url finds nothing \(404\)/],
    [{ status: 200, contentType: 'text/html; charset=utf-8' }, /^the url serves a web page \(text\/html\)/],
    [{ status: 500 }, null],
  ])('%j → %s', (answer, expected) => {
    const flag = judgeUrlAnswer(answer);
    if (expected === null) expect(flag).toBeNull();
    else expect(flag).toMatch(expected);
  });
});

let host: Server;
let base: string;
const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
beforeAll(async () => {
  host = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const path = req.url ?? '';
    if (path === '/ok.mp4') res.writeHead(200, { 'content-type': 'video/mp4' });
    else if (path === '/moved.mp4') res.writeHead(302, { location: `${base}/ok.mp4` });
    else if (path === '/login.mp4') res.writeHead(401);
    else if (path === '/page.mp4') res.writeHead(200, { 'content-type': 'text/html' });
    else if (path === '/nohead.mp4')
      res.writeHead(req.method === 'HEAD' ? 405 : 206, { 'content-type': 'video/mp4' });
    else res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

const world = harnessPerTest();
const manifest = () =>
  [
    'id,url',
    ...['ok', 'moved', 'login', 'page', 'nohead'].map((name) => `U-${name},${base}/${name}.mp4`),
  ].join('\n');

describe('the url pre-flight of a run', () => {
  it('flags redirects, log-ins and web pages, submits them anyway, lists them on the Issues sheet, and never sends the key', async () => {
    seen.length = 0;
    const h = await world({ env: { URL_PREFLIGHT: 'true' } });
    h.manifest('urls.csv', manifest());
    const { reportPath } = await h.run();

    const flagOf = (id: string) => h.db.select().from(assets).where(eq(assets.clientId, id)).get()?.urlFlag;
    expect(flagOf('U-ok')).toBeNull();
    expect(flagOf('U-nohead')).toBeNull();
    expect(flagOf('U-moved')).toMatch(/^the url redirects \(302\)/);
    expect(flagOf('U-login')).toMatch(/^the url asks for a log-in \(401\)/);
    expect(flagOf('U-page')).toMatch(/^the url serves a web page/);
    expect(h.simulator.media()).toHaveLength(5);

    expect(seen.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /nohead.mp4',
      'HEAD /login.mp4',
      'HEAD /moved.mp4',
      'HEAD /nohead.mp4',
      'HEAD /ok.mp4',
      'HEAD /page.mp4',
    ]);
    expect(seen.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(seen.find((r) => r.method === 'GET')?.headers.range).toBe('bytes=0-0');

    const issues = records(readSheet(await readWorkbook(reportPath as string), 'Issues'));
    expect(issues.filter((r) => r.Kind === 'URL likely to fail silently').map((r) => r['Asset ID'])).toEqual([
      'U-login',
      'U-moved',
      'U-page',
    ]);
  });

  it('holds flagged assets back with HOLD_FLAGGED_URLS, and checks a url again once the manifest changes it', async () => {
    const h = await world({ env: { URL_PREFLIGHT: 'true', HOLD_FLAGGED_URLS: 'true' } });
    h.manifest('urls.csv', manifest());
    await h.run();
    expect(
      h.simulator
        .media()
        .map((m) => m.id)
        .sort(),
    ).toEqual(['U-nohead', 'U-ok']);

    h.manifest('urls.csv', manifest().replace(`${base}/moved.mp4`, `${base}/ok.mp4`));
    await h.run();
    const moved = h.db.select().from(assets).where(eq(assets.clientId, 'U-moved')).get();
    expect(moved?.urlFlag).toBeNull();
    expect(
      h.simulator
        .media()
        .map((m) => m.id)
        .sort(),
    ).toEqual(['U-moved', 'U-nohead', 'U-ok']);
  });
});
