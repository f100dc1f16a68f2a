import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/clock';
import { startSimulator } from '../../src/simulator/index';
import { type Harness, MINUTE, START, startHarness } from './helpers';

let dir: string;
let statePath: string;
const harnesses: Harness[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'simulator-state-'));
  statePath = join(dir, 'nested', 'simulator.json');
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(clockAt: number): Promise<Harness> {
  const h = await startHarness({ statePath, clock: new SimulatedClock(clockAt) });
  harnesses.push(h);
  return h;
}

const body = (id: string) => ({ id, url: `https://cdn.example.com/${id}.mp4`, channels: ['META'] });

describe('persistence', () => {
  it('lets a second simulator on the same statePath know the media and keep counting', async () => {
    const first = await start(START);
    const { uniqueId } = (await first.call('POST', '/v1/media', { body: body('kept') })).body.result;
    first.clock.advance(3 * MINUTE);
    await first.call('POST', '/v1/media', { body: body('kept') });
    await first.sim.close();

    const second = await start(START + 60 * MINUTE);
    expect(second.sim.media()).toEqual(first.sim.media());
    expect(second.sim.lastClockTime()).toBe(START + 3 * MINUTE);
    const status = await second.call('GET', `/v1/media/${uniqueId}/status`);
    expect(status.status).toBe(200);
    expect(status.body.result.status).not.toBe('PROCESSING');
    const again = await second.call('POST', '/v1/media', { body: body('kept') });
    expect(again.body.result.uniqueId).toBe(uniqueId);
    await second.call('POST', '/v1/media', { body: body('new') });
    expect(second.sim.stats()).toMatchObject({ mediaCreated: 2, duplicateSubmits: 2 });
    expect(second.sim.media().map((m) => m.id)).toEqual(['kept', 'new']);
  });

  it('saves after every change by write-and-rename, leaving no temporary file', async () => {
    const h = await start(START);
    await h.call('POST', '/v1/media', { body: body('one') });
    // Saved before close: a crash now would lose nothing.
    const saved = JSON.parse(readFileSync(statePath, 'utf8'));
    expect(saved.media.map((m: { id: string }) => m.id)).toEqual(['one']);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['simulator.json']);
  });

  it('remembers the latest clock time it has seen, even without media changes', async () => {
    const h = await start(START);
    await h.call('GET', '/v1/organization');
    h.clock.advance(30_000);
    await h.call('GET', '/v1/organization');
    expect(h.sim.lastClockTime()).toBe(START + 30_000);
    await h.sim.close();
    expect(JSON.parse(readFileSync(statePath, 'utf8')).lastClockTime).toBe(START + 30_000);
  });

  it('starts empty without a state file and reports no clock time', async () => {
    const h = await start(START);
    expect(h.sim.media()).toEqual([]);
    expect(h.sim.lastClockTime()).toBeUndefined();
  });

  it('refuses an unreadable state file with a message that says what to do', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"formatVersion": 99}');
    await expect(startSimulator({ clock: new SimulatedClock(START), statePath: path })).rejects.toThrow(
      `Simulator state file ${path} is not valid; delete it to start afresh`,
    );
  });
});
