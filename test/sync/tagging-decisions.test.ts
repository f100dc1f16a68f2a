import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/sync/api/client';
import { ApiError } from '../../src/sync/api/errors';
import { pollPolicy } from '../../src/sync/polling';
import {
  classifySubmitFailure,
  creativeFailureReason,
  decideAfterJobPoll,
  intentInDoubt,
  isExpiredLink,
} from '../../src/sync/tagging-decisions';

const policy = pollPolicy({ pollIntervalSeconds: 600, stalledAfterHours: 48 });
const http = (status: number) =>
  new ApiError(`answered ${status}`, {
    kind: status === 429 ? 'rate-limited' : status >= 500 ? 'server' : 'bad-request',
    status,
  });

describe('classifySubmitFailure', () => {
  it('retries only what surely made no job', () => {
    expect(classifySubmitFailure(http(429))).toBe('not-processed');
    expect(classifySubmitFailure(http(503))).toBe('not-processed');
    expect(classifySubmitFailure(http(500))).toBe('ambiguous');
    expect(classifySubmitFailure(http(504))).toBe('ambiguous');
    expect(classifySubmitFailure(http(400))).toBe('refused');
    expect(classifySubmitFailure(new ApiError('x', { kind: 'unauthorized', status: 401 }))).toBe('fatal');
    expect(classifySubmitFailure(new ApiError('x', { kind: 'invalid-response', status: 201 }))).toBe(
      'ambiguous',
    );
    const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(classifySubmitFailure(new ApiError('x', { kind: 'network', cause: reset }))).toBe('ambiguous');
    const timeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(classifySubmitFailure(new ApiError('x', { kind: 'network', cause: timeout }))).toBe('ambiguous');
  });

  it('calls a refused connection (as the real client reports it) not processed', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const api = new ApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'k',
      retry: { maxAttempts: 1 },
    });
    const error = await api
      .submitTagJob({ creatives: [{ id: 'a', url: 'https://x/a.mp4' }] })
      .catch((e) => e);
    expect(classifySubmitFailure(error)).toBe('not-processed');
  });
});

describe('intentInDoubt', () => {
  it('is an intent whose attempt was counted but whose outcome was never written', () => {
    expect(intentInDoubt({ state: 'intent', submitAttempts: 0, lastErrorKind: null })).toBe(false);
    expect(intentInDoubt({ state: 'intent', submitAttempts: 1, lastErrorKind: null })).toBe(true);
    expect(intentInDoubt({ state: 'intent', submitAttempts: 1, lastErrorKind: 'rate-limited' })).toBe(false);
    expect(intentInDoubt({ state: 'submitted', submitAttempts: 1, lastErrorKind: null })).toBe(false);
  });
});

describe('decideAfterJobPoll', () => {
  const job = { submittedAt: 0 };
  it('downloads a COMPLETED job, and a FAILED one that still offers a report', () => {
    expect(decideAfterJobPoll(job, { status: 'COMPLETED', downloadUrlCsv: 'u' }, 1, policy)).toEqual({
      action: 'download',
      url: 'u',
    });
    expect(decideAfterJobPoll(job, { status: 'FAILED', downloadUrlCsv: 'u' }, 1, policy).action).toBe(
      'download',
    );
    expect(decideAfterJobPoll(job, { status: 'FAILED', downloadUrlCsv: null }, 1, policy).action).toBe(
      'failed',
    );
  });

  it('waits the polite interval for QUEUED, PROCESSING, unknown statuses and a COMPLETED without a link', () => {
    for (const status of ['QUEUED', 'PROCESSING', 'REINDEXING', 'COMPLETED']) {
      expect(decideAfterJobPoll(job, { status, downloadUrlCsv: null }, 1000, policy)).toEqual({
        action: 'wait',
        nextPollAt: 1000 + 600_000,
      });
    }
    const late = 49 * 3_600_000;
    expect(decideAfterJobPoll(job, { status: 'PROCESSING', downloadUrlCsv: null }, late, policy)).toEqual({
      action: 'wait',
      nextPollAt: late + 4 * 600_000,
    });
  });
});

describe('isExpiredLink and creativeFailureReason', () => {
  it('reads 403, 404 and 410 from storage as an expired link', () => {
    for (const status of [403, 404, 410])
      expect(isExpiredLink(new ApiError('x', { kind: 'forbidden', status }))).toBe(true);
    expect(isExpiredLink(new ApiError('x', { kind: 'server', status: 500 }))).toBe(false);
  });

  it("gives a creative its own reason, or a FAILED job's message", () => {
    const record = { status: 'COMPLETED', message: null, errors: { a: 'bad file' } };
    expect(creativeFailureReason(record, 'a')).toBe('bad file');
    expect(creativeFailureReason(record, 'b')).toBeNull();
    expect(creativeFailureReason({ status: 'FAILED', message: 'All failed', errors: {} }, 'b')).toBe(
      'All failed',
    );
  });
});
