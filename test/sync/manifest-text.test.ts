import { describe, expect, it } from 'vitest';
import { previewValue, shorten, textProblem } from '../../src/sync/manifest-text';

describe('previewValue', () => {
  it('shows text as it is, other values as JSON, and never throws', () => {
    expect(previewValue('x')).toBe('x');
    expect(previewValue(['a', 1])).toBe('["a",1]');
    expect(previewValue(undefined)).toBeNull();
    expect(previewValue(10n)).toBe('10');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(previewValue(cycle)).toBe('[object Object]');
  });

  it('shortens long values to 120 characters and shows a NUL as \\0', () => {
    expect(previewValue('x'.repeat(10_000_000))).toBe(`${'x'.repeat(120)}…`);
    expect(previewValue('a\u0000b')).toBe('a\\0b');
  });

  it('survives nesting too deep to write out', () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(previewValue(deep)).toBe('[object Array]');
  });
});

describe('shorten', () => {
  it('never cuts between the two halves of a surrogate pair', () => {
    expect(shorten('ab😀cd', 3)).toBe('ab…');
    expect(shorten('ab😀cd', 4)).toBe('ab😀…');
    expect(shorten('abc', 3)).toBe('abc');
  });
});

describe('textProblem', () => {
  it('passes ordinary text, control characters, formulas and emoji', () => {
    for (const text of ['Acme', '=1+1', '\t\r\n\u0007', '😀', 'Ünïcødé'])
      expect(textProblem(text)).toBeUndefined();
  });

  it('names a NUL byte and text that was not UTF-8', () => {
    expect(textProblem('a\u0000')).toMatch(/NUL byte/);
    expect(textProblem('a\uFFFD')).toMatch(/not valid UTF-8/);
    expect(textProblem('\uD83D')).toMatch(/not valid UTF-8/);
  });
});
