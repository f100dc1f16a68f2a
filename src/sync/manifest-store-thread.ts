// Writes a large manifest's rows on a worker thread with its own connection to the database, so
// that reading and checking the next rows (on this thread) overlaps with writing the last ones.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckedRow } from './manifest-check';
import type { RowProblem } from './manifest-row';
import type { FileWritten, ManifestWriter, Severity } from './manifest-store';

/** What this thread sends the writer, in file order. */
export type ToWriter =
  /** The rows as JSON: cheaper on both threads than the structured clone of the same objects. */
  | { kind: 'rows'; rows: string }
  | { kind: 'problems'; line: number | null; problems: RowProblem[]; severity: Severity | undefined }
  | { kind: 'finish' };

/** What the writer answers: a batch written, the file done, or the failure that stopped it. */
export type FromWriter =
  | { kind: 'written' }
  | ({ kind: 'finished' } & FileWritten)
  | { kind: 'failed'; message: string };

export interface WriterSetup {
  databasePath: string;
  fileId: number;
  now: number;
}

/**
 * Batches sent and not yet written. Enough that the writer never waits for this thread while a
 * transaction commits; few enough that a slow disk does not pile rows up in memory.
 */
export const batchesAhead = 4;

/**
 * A ManifestStore on a worker thread. The worker starts while this thread reads the first rows.
 * A failure there (the database) is thrown from the next `rows` or from `finish`, as the store
 * on this thread would throw it, so the file is not marked read and the next run reads it again.
 */
export class OffThreadStore implements ManifestWriter {
  private readonly worker: Worker;
  private inFlight = 0;
  private failure: Error | undefined;
  private finished: FileWritten | undefined;
  private wake: (() => void) | undefined;

  constructor(setup: WriterSetup) {
    this.worker = startWorker(setup);
    this.worker.on('message', (answer: FromWriter) => {
      if (answer.kind === 'written') this.inFlight--;
      else if (answer.kind === 'finished') {
        const { kind: _, ...written } = answer;
        this.finished = written;
      } else this.failure ??= new Error(`writing ${setup.databasePath} failed: ${answer.message}`);
      this.signal();
    });
    this.worker.on('error', (error: Error) => {
      this.failure ??= error;
      this.signal();
    });
    this.worker.on('exit', (code: number) => {
      this.failure ??= new Error(`the intake's writer thread stopped with exit code ${code}`);
      this.signal();
    });
  }

  async rows(items: readonly CheckedRow[]): Promise<void> {
    await this.until(() => this.inFlight < batchesAhead);
    this.send({ kind: 'rows', rows: JSON.stringify(items) });
    this.inFlight++;
  }

  problems(line: number | null, problems: RowProblem[], severity?: Severity): void {
    this.send({ kind: 'problems', line, problems, severity });
  }

  async finish(): Promise<FileWritten> {
    this.send({ kind: 'finish' });
    await this.until(() => this.finished !== undefined);
    await this.close();
    return this.finished as FileWritten;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private send(message: ToWriter): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage(message);
  }

  /** Waits until `ready` holds; throws as soon as the writer has failed. */
  private async until(ready: () => boolean): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (ready()) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private signal(): void {
    this.wake?.();
    this.wake = undefined;
  }
}

/**
 * The worker runs TypeScript like the rest of the program: it registers tsx before loading its
 * module, since a worker inherits neither the main thread's loader hooks nor vitest's.
 */
function startWorker(setup: WriterSetup): Worker {
  const tsx = tsxApiUrl();
  const entry = new URL('./manifest-store-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  // A small young generation: the writer's objects live one transaction, and a default-sized one
  // let the process's peak memory at 1M rows grow by 50 MB for no gain in speed.
  return new Worker(bootstrap, {
    eval: true,
    workerData: setup,
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
}

/**
 * Where tsx's ESM API is, read from its package.json exports: `import.meta.resolve` is missing
 * under vitest, and require.resolve finds the CommonJS build, whose `register` fails in a worker.
 */
function tsxApiUrl(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api'].import.default)).href;
}
