// The CLI as a child process for the fault tests: run it to the end, or start it and kill it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { childEnv, cli } from '../commands/cli-helpers';

export async function runCli(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [resolve(cli), ...args], {
    cwd: options.cwd,
    env: childEnv(options.cwd, options.env),
    timeout: 120_000,
  });
}

/**
 * Starts `creative-sync run` and SIGKILLs it `ms` of real time after `started()` first says
 * the run is under way (e.g. its first request reached the service), unless it ended before.
 * Counting from there, not from the spawn, keeps the moments inside the run's work whatever
 * the machine's load does to start-up time.
 */
export function runAndKill(
  ms: number,
  options: { cwd: string; env: Record<string, string>; started: () => boolean },
): Promise<{ killed: boolean; code: number | null }> {
  const child: ChildProcess = spawn(process.execPath, [cli, 'run'], {
    cwd: options.cwd,
    env: childEnv(options.cwd, options.env),
    stdio: 'ignore',
  });
  return new Promise((resolvePromise, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const watch = setInterval(() => {
      if (timer || !options.started()) return;
      clearInterval(watch);
      timer = setTimeout(() => child.kill('SIGKILL'), ms);
    }, 5);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearInterval(watch);
      clearTimeout(timer);
      resolvePromise({ killed: signal === 'SIGKILL', code });
    });
  });
}
