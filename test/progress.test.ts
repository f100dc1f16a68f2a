import { describe, expect, it } from 'vitest';
import { createProgress, formatSeconds, progressLine, rateAndEta, TerminalOutput } from '../src/progress';

describe('progress', () => {
  it('computes the rate per real second and the time left at that pace', () => {
    const stage = { name: 'submit' as const, done: 50, total: 200, startedAt: 0 };
    expect(rateAndEta(stage, 10_000)).toEqual({ rate: 5, etaSeconds: 30 });
    expect(rateAndEta({ ...stage, done: 0 }, 10_000)).toEqual({ rate: 0, etaSeconds: null });
    expect(rateAndEta({ ...stage, done: 200 }, 10_000).etaSeconds).toBe(0);
  });

  it('writes one plain line with every stage’s counts, and rate and ETA for the one in hand', () => {
    const line = progressLine(
      [
        { name: 'intake', done: 3, total: 3, startedAt: 0 },
        { name: 'submit', done: 120, total: 500, startedAt: 0 },
      ],
      'submit',
      5_000,
    );
    expect(line).toBe('progress: intake 3/3 · submit 120/500 (24.0/s, about 16s left)');
  });

  it('formats durations for people', () => {
    expect([formatSeconds(16), formatSeconds(600), formatSeconds(3 * 3600)]).toEqual([
      '16s',
      '10min',
      '3.0h',
    ]);
  });

  it('when not a terminal, writes plain lines (only when something moved) and no bars', () => {
    const lines: string[] = [];
    let now = 0;
    const written: string[] = [];
    const terminal = new TerminalOutput({
      write: (t: string) => written.push(t),
    } as unknown as NodeJS.WriteStream);
    const progress = createProgress({
      tty: false,
      terminal,
      write: (l) => lines.push(l),
      everyMs: 3_600_000,
      now: () => now,
    });
    progress.stage('submit');
    progress.found(4);
    now = 2_000;
    progress.handled();
    progress.handled();
    progress.stop();
    expect(lines).toEqual(['progress: submit 2/4 (1.0/s, about 2s left)']);
    expect(written).toEqual([]);
  });

  it('sends terminal log lines straight through when no bars are drawn', () => {
    const written: string[] = [];
    const terminal = new TerminalOutput({
      write: (t: string) => written.push(t),
    } as unknown as NodeJS.WriteStream);
    terminal.write('hello\n');
    expect(written).toEqual(['hello\n']);
  });
});
