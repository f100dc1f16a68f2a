// The loop every stage shares: pick a chunk of due rows, handle them concurrently (the API
// client's queue sets the real pace), and go on until none is left. A row is handled at
// most once per call, so a row that stays due after a failure cannot spin the loop.

export async function workThroughDue<T extends { id: number }>(
  pick: (limit: number) => T[],
  handle: (row: T) => Promise<void>,
  chunkSize = 200,
): Promise<void> {
  const handled = new Set<number>();
  for (;;) {
    const rows = pick(chunkSize).filter((row) => !handled.has(row.id));
    if (rows.length === 0) return;
    for (const row of rows) handled.add(row.id);
    await Promise.all(rows.map(handle));
  }
}
