// The loop every stage shares: pick a chunk of due rows, handle them concurrently (the API
// client's queue sets the real pace), and go on until none is left. A row is handled at
// most once per call, so a row that stays due after a failure cannot spin the loop.
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the run around a stage wants from this loop: stop starting rows once the signal is
 * aborted (the rows in hand finish, with their HTTP call and their transaction), and hear
 * how the work goes. Carried by async context because every stage shares this loop but
 * none of them takes these as parameters.
 */
export interface DueWorkScope {
  signal?: AbortSignal;
  /** Rows handled at once; a little above the API client's concurrency keeps its queue full. */
  inHand: number;
  found?(count: number): void;
  handled?(): void;
}

export const dueWorkScope = new AsyncLocalStorage<DueWorkScope>();

export async function workThroughDue<T extends { id: number }>(
  pick: (limit: number) => T[],
  handle: (row: T) => Promise<void>,
  chunkSize = 200,
): Promise<void> {
  const scope = dueWorkScope.getStore();
  const handled = new Set<number>();
  for (;;) {
    if (scope?.signal?.aborted) return;
    const rows = pick(chunkSize).filter((row) => !handled.has(row.id));
    if (rows.length === 0) return;
    for (const row of rows) handled.add(row.id);
    if (!scope) {
      await Promise.all(rows.map(handle));
      continue;
    }
    scope.found?.(rows.length);
    // A pool of `inHand` workers instead of all rows at once: rows not yet started can then
    // be left for the next run when the signal comes, so a stop takes seconds, not a chunk.
    let next = 0;
    const worker = async () => {
      while (next < rows.length && !scope.signal?.aborted) {
        const row = rows[next++] as T;
        await handle(row);
        scope.handled?.();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, scope.inHand) }, worker));
  }
}
