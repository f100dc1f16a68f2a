// The scheduling files in deploy/ are what the README tells people to install: they must
// agree with the README, with the default schedule and with the CLI's exit codes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../src/commands/handle-error';
import { settingsSchema } from '../src/config';

const read = (path: string) => readFileSync(resolve(import.meta.dirname, '..', path), 'utf8');
const readme = read('README.md');

describe('deploy/', () => {
  it('has the crontab line the README shows, at the default schedule', () => {
    const line = read('deploy/crontab')
      .split('\n')
      .find((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(line).toBeDefined();
    expect(readme).toContain(line as string);
    expect(line?.startsWith(`${settingsSchema.parse({}).schedule} `)).toBe(true);
  });

  it('has a systemd service that treats "another run is going" as success, and a nightly timer', () => {
    const service = read('deploy/creative-sync.service');
    expect(service).toContain(`SuccessExitStatus=${exitCodes.busy}`);
    expect(service).toMatch(/^ExecStart=\S*npx creative-sync run$/m);
    expect(read('deploy/creative-sync.timer')).toMatch(/^OnCalendar=\*-\*-\* 02:00:00$/m);
  });

  it('has a launchd job that starts `creative-sync run` at 02:00', () => {
    const plist = read('deploy/com.creative-sync.nightly.plist');
    expect(plist).toMatch(/<string>creative-sync<\/string>\s*<string>run<\/string>/);
    expect(plist).toMatch(
      /<key>Hour<\/key>\s*<integer>2<\/integer>\s*<key>Minute<\/key>\s*<integer>0<\/integer>/,
    );
  });
});
