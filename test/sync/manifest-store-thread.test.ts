// Rows written from a worker thread: what happens when the database fails there. (That the
// outcomes equal those written on the main thread is held by intake-corpus.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { type IntakeWorld, intakeWorld } from './intake-world';

describe('rows written from a worker thread', () => {
  let world: IntakeWorld;
  afterEach(() => world.close());

  it('fails intake when the database fails there, leaving the file to be read whole next time', async () => {
    world = intakeWorld({ offThreadBytes: 0 });
    world.db.$client.exec(`CREATE TRIGGER refuse BEFORE INSERT ON assets WHEN NEW.client_id = 'b2'
      BEGIN SELECT RAISE(ABORT, 'the disk is on fire'); END`);
    world.write(
      'night.csv',
      'id,url\nb1,https://cdn.example.com/b1.mp4\nb2,https://cdn.example.com/b2.mp4\nb3,https://cdn.example.com/b3.mp4\n',
    );

    await expect(world.intake()).rejects.toThrow(/^writing .*creative-sync\.db failed: the disk is on fire$/);
    // Not fingerprinted, so not "unchanged": the next run reads it again.
    expect(world.file('night.csv')?.sha256).toBe('');

    world.db.$client.exec('DROP TRIGGER refuse');
    const summary = await world.intake();
    expect(summary).toMatchObject({ filesRead: 1, rowsAccepted: 3, rowsRejected: 0 });
    expect(world.allAssets().map((a) => a.clientId)).toEqual(['b1', 'b2', 'b3']);
    expect(world.file('night.csv')?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
