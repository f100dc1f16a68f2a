// `creative-sync run --dry-run`: what a run would do, said before doing any of it.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceleratedClock } from '../../src/clock';
import { DEMO_API_KEY, type RunningSimulator, startSimulator } from '../../src/simulator';
import { creativeSync, workingFolder } from './cli-helpers';

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ clock: acceleratedClock(600) });
});
afterAll(() => simulator.close());

describe('creative-sync run --dry-run', () => {
  it('says what would be submitted and rejected, and writes, moves and sends nothing', async () => {
    const dir = workingFolder('dry-run', 3);
    writeFileSync(
      join(dir, 'manifests', 'extra.csv'),
      'id,url\nE-1,https://cdn.example.com/e1.mp4\nE-2,ftp://cdn.example.com/e2.mp4\n',
    );
    const env = { SCORING_API_URL: simulator.url, SCORING_API_KEY: DEMO_API_KEY };

    const { code, stdout } = await creativeSync(['run', '--dry-run'], dir, env);

    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^creative-sync run --dry-run: nothing was written or moved, and the service was not called$/m,
    );
    expect(stdout).toMatch(/^ {2}manifests +2 to read$/m);
    expect(stdout).toMatch(/^ {2}rows +4 accepted, 1 rejected, 0 warnings$/m);
    expect(stdout).toMatch(/^ {2}new assets +4$/m);
    expect(stdout).toMatch(/^ {2}would submit +4$/m);
    expect(stdout).toMatch(/^ {4}.*extra\.csv line 3: url is not an absolute http\(s\) URL/m);
    expect(simulator.requests()).toEqual([]);
    expect(readdirSync(join(dir, 'manifests')).sort()).toEqual(['extra.csv', 'night.csv']);
    const db = new Database(join(dir, 'data', 'creative-sync.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM assets').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM manifest_files').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    // The real run then does what the dry run said.
    const real = await creativeSync(['run', '--max-run-minutes', '1'], dir, {
      ...env,
      POLL_INTERVAL_SECONDS: '600',
    });
    expect(real.stdout).toMatch(/^ {2}submitted +4$/m);
    expect(existsSync(join(dir, 'manifests', 'processed', 'night.csv'))).toBe(true);
  });
});
