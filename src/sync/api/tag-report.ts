// Streams a tagging job's CSV report from its short-lived signed link. The link points at
// another host (storage), so no Authorization header is ever sent: the signature is the access.
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { type Dispatcher, request } from 'undici';
import { type CsvRecord, csvRecordSchema } from '../tagging-report';
import { ApiError, kindForStatus } from './errors';

export interface ReportDownloadOptions {
  /** undici dispatcher, for tests or proxies. */
  dispatcher?: Dispatcher;
  /** Milliseconds to wait for response headers, and between body chunks. @default 60000 */
  timeoutMs?: number;
}

const endpoint = 'GET (tag report)';

/** The link without its query: the signature is a credential of sorts, so it stays out of messages. */
export function describeLink(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * The report's records, read as they arrive (undici body stream → csv-parse stream), each a
 * map of header → text. Failures are ApiErrors: a 403/404/410 from storage usually means the
 * link expired, which the caller answers by asking the job for a fresh one.
 */
export async function* readTagReport(
  url: string,
  options: ReportDownloadOptions = {},
): AsyncGenerator<CsvRecord> {
  const where = describeLink(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('The tagging job gave a report link that is not a URL.', {
      kind: 'invalid-response',
      endpoint,
    });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ApiError(`The tagging job gave a report link that is not http(s): ${where}.`, {
      kind: 'invalid-response',
      endpoint,
    });
  }
  const timeoutMs = options.timeoutMs ?? 60_000;
  let body: Readable;
  try {
    const res = await request(parsed, {
      method: 'GET',
      // Deliberately no authorization: the API key goes to the API's host only.
      headers: { accept: 'text/csv' },
      dispatcher: options.dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw new ApiError(`The tag report at ${where} answered ${res.statusCode}.`, {
        kind: kindForStatus(res.statusCode),
        status: res.statusCode,
        endpoint,
      });
    }
    body = res.body;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(`The tag report at ${where} could not be fetched: ${(error as Error).message}.`, {
      kind: 'network',
      endpoint,
      cause: error,
    });
  }

  const parser = body.pipe(
    parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, trim: false }),
  );
  // A failing body stream (a reset mid-download) must end the parse too, not leave it waiting.
  body.once('error', (error) => parser.destroy(error));
  try {
    for await (const record of parser) {
      const row = csvRecordSchema.safeParse(record);
      if (!row.success) {
        throw new ApiError(`The tag report at ${where} has a row that is not plain columns of text.`, {
          kind: 'invalid-response',
          endpoint,
        });
      }
      yield row.data;
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: unknown }).code;
    const fromCsv = typeof code === 'string' && code.startsWith('CSV_');
    throw new ApiError(`The tag report at ${where} could not be read: ${(error as Error).message}.`, {
      kind: fromCsv ? 'invalid-response' : 'network',
      endpoint,
      cause: error,
    });
  } finally {
    body.destroy();
  }
}
