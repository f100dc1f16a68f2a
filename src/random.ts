// A small seeded random generator (mulberry32): every place that needs randomness takes a seed,
// so jitter, fault injection and generated benchmark data are the same on every run.

/** A small seeded generator (mulberry32), so tests and simulations draw the same jitter every time. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
