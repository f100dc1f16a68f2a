import { describe, expect, it } from 'vitest';
import { tagJobs } from '../src/db/schema';
import { readStatus } from '../src/status';
import { harnessPerTest, withStaleWorkspace } from './sync/harness';

const manifest = [
  'id,version,url,workspaceId,channels',
  'S-1,v1,https://cdn.example.com/s1.mp4,1201,META',
  'S-2,v1,https://cdn.example.com/s2.jpg,,META',
  'S-3,v1,https://cdn.example.com/s3.mp4,9901,META',
].join('\n');

/** A fresh harness for one test, closed after it. */
const harness = harnessPerTest();

describe('status', () => {
  it('tells counts, the oldest in flight, what is due, tagging in flight, the last runs and errors', async () => {
    const h = await harness({
      env: { MAX_RUN_MINUTES: '5', POLL_INTERVAL_SECONDS: '60' },
      simulator: { processingMinutes: [30, 40] },
    });
    // S-3's workspace (9901) is another organization's: listed as ours by a stale list, refused with a 403.
    await withStaleWorkspace(h, 9901);
    h.manifest('night.csv', manifest);
    const { run } = await h.run();
    h.db
      .insert(tagJobs)
      .values([
        { state: 'intent', creativeCount: 2, createdAt: h.clock.now() },
        { state: 'completed', creativeCount: 5, createdAt: h.clock.now() },
      ])
      .run();
    // The run may have started tagging jobs of its own: count those in flight from the table.
    const jobs = h.db.select().from(tagJobs).all();
    const inFlight = jobs.filter((j) => j.state === 'intent' || j.state === 'submitted');
    h.clock.advance(60 * 60_000);

    const status = readStatus(h.db, h.clock.now());

    expect(status.assets).toEqual({
      bySyncState: { submitted: 2, forbidden: 1 },
      byRemoteStatus: { PROCESSING: 2 },
    });
    expect(status.oldestInFlight).toMatchObject({ clientId: 'S-1', version: 'v1', syncState: 'submitted' });
    expect(status.oldestInFlight?.ageMinutes).toBeGreaterThanOrEqual(60);
    expect(status.dueNow).toBe(2);
    expect(status.nextDueAt).toBeLessThanOrEqual(h.clock.now());
    expect(status.taggingJobsInFlight).toEqual({
      jobs: inFlight.length,
      creatives: inFlight.reduce((sum, j) => sum + j.creativeCount, 0),
      byState: Object.fromEntries(
        ['intent', 'submitted'].flatMap((state) => {
          const n = inFlight.filter((j) => j.state === state).length;
          return n ? [[state, n]] : [];
        }),
      ),
    });
    expect(status.taggingJobsInFlight.byState.intent).toBeGreaterThanOrEqual(1);
    expect(status.lastCompletedRunAt).toBe(run.finishedAt);
    expect(status.lastRuns).toEqual([
      {
        id: 1,
        mode: 'live',
        outcome: 'completed',
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        durationSeconds: Math.round(((run.finishedAt ?? Number.NaN) - run.startedAt) / 1000),
        filesRead: 1,
        rowsAccepted: 3,
        rowsRejected: 0,
        submitted: 2,
        polled: run.polled,
        scored: 0,
        finalFailures: 1,
        stillInFlight: 2,
        apiCalls: run.apiCalls,
        details: run.details ?? {},
        note: 'Time budget of 5 minutes reached; 2 assets left for the next run.',
        reportPath: run.reportPath,
      },
    ]);
    expect(run.apiCalls).toBeGreaterThan(0);
    expect(status.lastErrors).toEqual([
      expect.objectContaining({
        clientId: 'S-3',
        syncState: 'forbidden',
        kind: 'forbidden',
        traceId: expect.any(String),
      }),
    ]);
  });

  it('is empty but well-formed on a new database', async () => {
    const h = await harness();
    expect(readStatus(h.db, h.clock.now())).toEqual({
      assets: { bySyncState: {}, byRemoteStatus: {} },
      oldestInFlight: null,
      dueNow: 0,
      nextDueAt: null,
      taggingJobsInFlight: { jobs: 0, creatives: 0, byState: {} },
      lastCompletedRunAt: null,
      lastRuns: [],
      lastErrors: [],
    });
  });
});
