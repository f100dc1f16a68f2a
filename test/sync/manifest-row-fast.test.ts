import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestFields } from '../../src/sync/manifest-columns';
import { validateRow } from '../../src/sync/manifest-row';
import { checkRow, quickRow } from '../../src/sync/manifest-row-fast';

const bag = (entries: Record<string, unknown>) => Object.assign(Object.create(null), entries);

describe('quickRow', () => {
  it.each([
    { id: 'a1', url: 'https://cdn.example.com/a1.mp4' },
    {
      id: 17,
      version: 2,
      source: ' dam ',
      url: ' https://x.example/a.png ',
      workspaceId: ' 42 ',
      name: ' Hero ',
    },
    {
      id: 'a1',
      url: 'http://x.example/a',
      channels: 'facebook; Instagram;twitter; tik-tok;X',
      brands: '["Acme","Beta","Acme"]',
      markets: 'US;DE; US',
    },
    {
      id: 'a1',
      url: 'https://x.example/a',
      workspaceId: 7,
      channels: ['META', 'x'],
      tagWanted: 'no',
      clientTags: bag({ campaign: ' Spring ', season: 2026, empty: '' }),
    },
    {
      id: '=cmd',
      url: 'https://x.example/a',
      name: '\u0007bell',
      description: 'd'.repeat(4000),
      tagWanted: false,
    },
  ])('takes the common row %j exactly as the schema does', (record) => {
    const row = quickRow(record);
    expect(row).toBeDefined();
    expect(validateRow(record)).toEqual({ ok: true, row });
  });

  it.each([
    { url: 'https://x.example/a' },
    { id: 'a1', url: 'htp://x' },
    { id: 'a1', url: 'https://x.example/a', workspaceId: '-3' },
    { id: 'a1', url: 'https://x.example/a', name: 'x\u0000' },
    { id: 'a1', url: 'https://x.example/a', tagWanted: 'maybe' },
    { id: 'a1', url: 'https://x.example/a', clientTags: '{"a": "b"}' },
  ])('leaves %j to the schema', (record) => {
    expect(quickRow(record)).toBeUndefined();
  });

  it('never accepts a row the schema rejects, and never differs from it (property)', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom(
        '',
        '  ',
        'https://x.example/a',
        'http://x',
        'htp://x',
        ' 12 ',
        '-1',
        '0',
        '1e3',
        'yes',
        'NO',
        '1',
        'a;b|c,d',
        '["a", 2]',
        '[',
        '\uFFFD',
        '\uD800',
        'x'.repeat(300),
        'x'.repeat(5000),
      ),
    );
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(text, fc.integer()), { maxLength: 4 }),
      fc
        .dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 })
        .map(bag),
      fc.anything(),
    );
    const record = fc.record(Object.fromEntries(manifestFields.map((f) => [f, value])), { requiredKeys: [] });
    const likely = fc.record(
      {
        id: fc.oneof(fc.stringMatching(/^[A-Za-z0-9 -]{0,8}$/), fc.integer()),
        url: fc.oneof(fc.webUrl(), text),
        workspaceId: fc.oneof(
          fc.integer({ min: -2, max: 3_000_000_000 }).map(String),
          fc.integer(),
          fc.constant(undefined),
        ),
        channels: fc.oneof(text, fc.array(text, { maxLength: 3 })),
        tagWanted: fc.oneof(text, fc.boolean(), fc.integer({ min: -1, max: 2 }), fc.constant(undefined)),
        clientTags: fc.oneof(
          fc.constant(undefined),
          fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 }).map(bag),
        ),
      },
      { requiredKeys: ['id', 'url'] },
    );
    fc.assert(
      fc.property(fc.oneof(record, likely), (r) => {
        const row = quickRow(r);
        if (row !== undefined) expect(validateRow(r)).toEqual({ ok: true, row });
        expect(checkRow(r)).toEqual(validateRow(r));
      }),
      { numRuns: 3000 },
    );
  });
});
