// Deterministic "randomness": every choice the simulator makes is a sha256 of named inputs,
// so the same asset gives the same answer in every process and every test.
import { createHash } from 'node:crypto';

export function sha256Hex(...parts: readonly string[]): string {
  // The separator keeps ('ab','c') and ('a','bc') apart.
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** A number in [0, 1) drawn from `seed` for the choice named `label`. */
export function draw(seed: string, label: string): number {
  // 48 bits fit exactly in a double, so the result is uniform and never reaches 1.
  return Number.parseInt(sha256Hex(seed, label).slice(0, 12), 16) / 2 ** 48;
}

/** An integer in [min, max] (inclusive) drawn from `seed` for `label`. */
export function drawInt(seed: string, label: string, min: number, max: number): number {
  return min + Math.floor(draw(seed, label) * (max - min + 1));
}

/**
 * A UUID derived from the inputs. It is formatted as version 4 because that is what the live
 * service hands out, and strict UUID validators in clients should accept it the same way.
 */
export function uuidFrom(...parts: readonly string[]): string {
  const hex = sha256Hex('uuid', ...parts)
    .slice(0, 32)
    .split('');
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
