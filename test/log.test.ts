import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { censorText, createLogger, openLogFile } from '../src/log';

const KEY = 'marker-key-5b9c7e21';

/** A stream that keeps what it is given. */
function memory() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

function logEverywhereTheKeyCouldBe(log: ReturnType<typeof createLogger>) {
  log.info({ apiKey: KEY }, 'a field named apiKey');
  log.info({ request: { headers: { authorization: `Bearer ${KEY}` } } }, 'a header');
  log.warn(`a message quoting ${KEY}`);
  log.error({ err: new Error(`failed with key ${KEY}`) }, 'an error');
  log.info({ note: `"${KEY}"` }, 'json-escaped');
}

describe('logs', () => {
  it('carry no API key in JSON lines, wherever it was put', () => {
    const out = memory();
    const log = createLogger({ level: 'info', destination: out.stream, secrets: [KEY] });
    logEverywhereTheKeyCouldBe(log);
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(out.text()).not.toContain(KEY);
    expect(JSON.parse(lines[0] as string).apiKey).toBe('[redacted]');
    expect(JSON.parse(lines[2] as string).msg).toBe('a message quoting [redacted]');
  });

  it('carry no API key in the readable lines on the terminal either', () => {
    const terminal = memory();
    const log = createLogger({ level: 'info', pretty: true, terminal: terminal.stream, secrets: [KEY] });
    logEverywhereTheKeyCouldBe(log);
    expect(terminal.text()).toContain('a message quoting [redacted]');
    expect(terminal.text()).not.toContain(KEY);
    // Readable: one line per message, not JSON.
    expect(terminal.text()).not.toMatch(/^\{/m);
  });

  it('honour the level', () => {
    const out = memory();
    const log = createLogger({ level: 'warn', destination: out.stream });
    log.info('hidden');
    log.warn('shown');
    expect(out.text()).toContain('shown');
    expect(out.text()).not.toContain('hidden');
  });

  it('go to a rotating file in the log folder, as JSON lines', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'creative-sync-log-')), 'logs');
    const file = await openLogFile(dir);
    const log = createLogger({ level: 'info', destination: file, secrets: [KEY] });
    log.info({ runId: 1 }, `run with ${KEY}`);
    file.end();
    const names = readdirSync(dir).sort();
    expect(names).toEqual(['creative-sync.1.log', 'current.log']);
    const line = JSON.parse(readFileSync(join(dir, 'current.log'), 'utf8').trim());
    expect(line).toMatchObject({ level: 30, runId: 1, msg: 'run with [redacted]' });
  });

  it('leave short or missing secrets alone rather than censoring common text', () => {
    expect(censorText([undefined, 'ab'])('ab cd')).toBe('ab cd');
  });
});
