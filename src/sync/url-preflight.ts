// URL pre-flight: a HEAD (or, where HEAD is refused, a one-byte GET) of each new asset's url
// before it is submitted. The service fails a url that redirects, asks for a log-in or serves a
// web page without saying why, so such urls are flagged here, where someone can still fix them.
// Only the url's own host is asked, with no credentials: never the API key.
import { and, eq, isNull } from 'drizzle-orm';
import PQueue from 'p-queue';
import { request } from 'undici';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import { assets } from '../db/schema';

/** What the url's host answered, as far as the judgement needs it. */
export interface UrlAnswer {
  status: number;
  location?: string | undefined;
  contentType?: string | undefined;
}

/** Why a url is likely to fail silently at the service, or null when its answer looks like media. */
export function judgeUrlAnswer(answer: UrlAnswer): string | null {
  const { status } = answer;
  if (status >= 300 && status < 400) {
    const to = answer.location ? ` to ${answer.location}` : '';
    return `the url redirects (${status})${to}: the service does not follow redirects, so give the final url`;
  }
  if (status === 401 || status === 403) {
    return `the url asks for a log-in (${status}): the service cannot fetch it; give a public link to the file`;
  }
  if (status === 404 || status === 410) return `the url finds nothing (${status}): check the link`;
  const type = (answer.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (status >= 200 && status < 300 && (type === 'text/html' || type === 'application/xhtml+xml')) {
    return `the url serves a web page (${type}), not the media file: give the direct link to the file`;
  }
  return null;
}

const concurrency = 8;
const timeoutMs = 10_000;

/** Checks every pending asset's url not checked yet; returns how many were checked and flagged. */
export async function preflightUrls(
  db: Db,
  options: { clock: Clock; signal?: AbortSignal },
): Promise<{ checked: number; flagged: number }> {
  const due = db
    .select({ id: assets.id, url: assets.url })
    .from(assets)
    .where(and(eq(assets.syncState, 'pending'), isNull(assets.urlCheckedAt)))
    .all();
  const queue = new PQueue({ concurrency });
  let flagged = 0;
  for (const asset of due) {
    void queue.add(async () => {
      if (options.signal?.aborted) return;
      const answer = await ask(asset.url);
      // A url that could not be reached from here may still be reachable from the service: not flagged.
      const flag = answer ? judgeUrlAnswer(answer) : null;
      if (flag) flagged++;
      db.update(assets)
        .set({ urlFlag: flag, urlCheckedAt: options.clock.now() })
        .where(eq(assets.id, asset.id))
        .run();
    });
  }
  await queue.onIdle();
  return { checked: due.length, flagged };
}

/** HEAD, then a one-byte GET where HEAD is not allowed; undefined when the host cannot be reached. */
async function ask(url: string): Promise<UrlAnswer | undefined> {
  try {
    let answer = await once(url, 'HEAD');
    if (answer.status === 405 || answer.status === 501) answer = await once(url, 'GET');
    return answer;
  } catch {
    return undefined;
  }
}

async function once(url: string, method: 'HEAD' | 'GET'): Promise<UrlAnswer> {
  const response = await request(url, {
    method,
    headers: method === 'GET' ? { range: 'bytes=0-0' } : {},
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  await response.body.dump();
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return { status: response.statusCode, location: header('location'), contentType: header('content-type') };
}
