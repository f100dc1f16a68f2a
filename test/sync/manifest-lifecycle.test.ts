// The drop folder's life cycle: a file is read once it has stopped changing, then leaves the folder:
// to processed/ when any row went in, to failed/ with a note of why when nothing did. Nothing is
// deleted, names are kept, and a file another system keeps overwriting can stay where it is.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IntakeWorld, intakeWorld } from './intake-world';

const good = 'id,url\nm1,https://cdn.example.com/m1.mp4\nm2,https://cdn.example.com/m2.mp4\n';
const useless = 'id,url\nx1,htp://nowhere\n,https://cdn.example.com/x2.mp4\n';

let world: IntakeWorld;
afterEach(() => world.close());
const listing = (folder = '') => readdirSync(join(world.manifestDir, folder)).sort();

describe('after intake, with files moved', () => {
  it('moves a file with good rows to processed/, and one with none to failed/ with the reasons beside it', async () => {
    world = intakeWorld({ move: true });
    world.write('spring.csv', good);
    world.write('broken.csv', useless);

    const summary = await world.intake();

    expect(summary).toMatchObject({ filesRead: 2, rowsAccepted: 2, rowsRejected: 2 });
    expect(listing()).toEqual(['failed', 'processed']);
    expect(listing('processed')).toEqual(['spring.csv']);
    expect(listing('failed')).toEqual(['broken.csv', 'broken.csv.errors.txt']);
    expect(readFileSync(join(world.manifestDir, 'failed', 'broken.csv.errors.txt'), 'utf8')).toBe(
      [
        'Nothing in broken.csv could be used, so no asset came from it.',
        '',
        'line 2, url: url is not an absolute http(s) URL such as https://cdn.example.com/ad.mp4',
        'line 3, id: id is empty: every row needs the asset id',
        '',
        `Fix the file and drop it into ${world.manifestDir} again; the next run reads it.`,
        '',
      ].join('\n'),
    );
    expect(summary.files.map((f) => f.movedTo)).toEqual([
      join(world.manifestDir, 'failed', 'broken.csv'),
      join(world.manifestDir, 'processed', 'spring.csv'),
    ]);
  });

  it('keeps every name: the same name again becomes "name (2)", and the same content again is moved unread', async () => {
    world = intakeWorld({ move: true });
    world.write('spring.csv', good);
    await world.intake();
    world.write('spring.csv', good);
    const again = await world.intake();
    world.write('spring.csv', `${good}m3,https://cdn.example.com/m3.mp4\n`);
    const changed = await world.intake();

    expect(again).toMatchObject({ filesRead: 0, filesUnchanged: 1 });
    expect(changed).toMatchObject({ filesRead: 1, rowsAccepted: 3, assetsNew: 1 });
    expect(listing('processed')).toEqual(['spring (2).csv', 'spring (3).csv', 'spring.csv']);
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['m1', 'm2', 'm3']);
  });
});

describe('after intake, with files kept in place (KEEP_MANIFESTS=true)', () => {
  it('leaves the folder as it was and reads an unchanged file no more', async () => {
    world = intakeWorld({ move: false });
    world.write('spring.csv', good);
    await world.intake();
    const again = await world.intake();
    expect(listing()).toEqual(['spring.csv']);
    expect(again).toMatchObject({ filesRead: 0, filesUnchanged: 1 });
  });
});

describe('a file still being written', () => {
  it('is left for the next run while it keeps growing', async () => {
    world = intakeWorld({ move: true, settleMs: 300 });
    const path = world.write('copying.csv', good);
    // A copy in progress: a row every 10 ms, so no 300 ms pass without a change.
    let n = 0;
    const copying = setInterval(() => appendFileSync(path, `c${n++},https://cdn.example.com/c.mp4\n`), 10);
    try {
      const summary = await world.intake();
      expect(summary.filesRead).toBe(0);
      expect(summary.warnings).toEqual([`${path}: still being written, so it is left for the next run`]);
    } finally {
      clearInterval(copying);
    }
    expect(existsSync(path)).toBe(true);
    expect(world.file('copying.csv')).toBeUndefined();
  });

  it('is read once it has been quiet for the settle time', async () => {
    world = intakeWorld({ settleMs: 300 });
    world.write('fresh.csv', good);
    const started = Date.now();
    const summary = await world.intake();
    expect(summary.rowsAccepted).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
