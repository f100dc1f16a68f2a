// Runs the CLI as a user does, a child process in a folder of its own, and watches its output.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
export const cli = resolve(import.meta.dirname, '../../bin/creative-sync.js');

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

export function childEnv(cwd: string, env: Record<string, string> = {}): Record<string, string> {
  // The tests' manifests are complete when written, and their urls made up: no settling, no url checks.
  return {
    PATH: process.env.PATH ?? '',
    HOME: cwd,
    MANIFEST_SETTLE_SECONDS: '0',
    URL_PREFLIGHT: 'false',
    ...env,
  };
}

/** Runs to the end; a non-zero exit is an outcome, not a failure. */
export async function creativeSync(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [cli, ...args], {
      cwd,
      env: childEnv(cwd, env),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export interface Started {
  child: ChildProcess;
  output(): string;
  /** Resolves once the output (stdout and stderr) matches. */
  seen(pattern: RegExp): Promise<void>;
  exited: Promise<Outcome>;
}

/** Starts the CLI and leaves it running, for tests that signal it mid-way. */
export function startCreativeSync(args: string[], cwd: string, env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env: childEnv(cwd, env) });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of waiters.splice(0)) {
      if (w.pattern.test(stdout + stderr)) w.resolve();
      else waiters.push(w);
    }
  };
  child.stdout.on('data', (d) => {
    stdout += d;
    check();
  });
  child.stderr.on('data', (d) => {
    stderr += d;
    check();
  });
  const exited = new Promise<Outcome>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr })),
  );
  return {
    child,
    output: () => stdout + stderr,
    seen: (pattern) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        check();
        exited.then(() => reject(new Error(`exited before showing ${pattern}:\n${stdout}${stderr}`)));
      }),
    exited,
  };
}

/** A fresh working folder with one manifest of `count` assets. */
export function workingFolder(name: string, count: number): string {
  const dir = mkdtempSync(join(tmpdir(), `creative-sync-${name}-`));
  mkdirSync(join(dir, 'manifests'));
  const rows = Array.from(
    { length: count },
    (_, i) => `N-${i + 1},v1,https://cdn.example.com/n${i + 1}.mp4,META,Acme,US`,
  );
  writeFileSync(
    join(dir, 'manifests', 'night.csv'),
    ['id,version,url,channels,brand,market', ...rows].join('\n'),
  );
  return dir;
}
