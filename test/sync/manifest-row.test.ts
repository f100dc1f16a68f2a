import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ManifestField, manifestFields } from '../../src/sync/manifest-columns';
import { splitList } from '../../src/sync/manifest-list';
import { limits, type RowOutcome, validateRow } from '../../src/sync/manifest-row';
import { previewValue } from '../../src/sync/manifest-text';

const good = { id: 'a1', url: 'https://cdn.example.com/a1.mp4' };

function problemsOf(outcome: RowOutcome) {
  if (outcome.ok) throw new Error(`expected problems, got the row ${JSON.stringify(outcome.row)}`);
  return outcome.problems;
}

function rowOf(outcome: RowOutcome) {
  if (!outcome.ok) throw new Error(`expected a row, got ${JSON.stringify(outcome.problems)}`);
  return outcome.row;
}

describe('splitList', () => {
  it('reads a JSON array, trimming, dropping empty items and duplicates', () => {
    expect(splitList('["Acme", " Acme ", "", "Beta"]')).toEqual(['Acme', 'Beta']);
  });

  it.each([
    ['Acme;Beta; Acme', ['Acme', 'Beta']],
    ['Acme|Beta', ['Acme', 'Beta']],
    ['Acme, Beta,,', ['Acme', 'Beta']],
    ['Acme', ['Acme']],
    ['', []],
  ])('splits %j on ; | or ,', (text, items) => {
    expect(splitList(text)).toEqual(items);
  });

  it('takes an array value as it is, numbers as text, and nothing as an empty list', () => {
    expect(splitList(['x', 2, 'x'])).toEqual(['x', '2']);
    expect(splitList(undefined)).toEqual([]);
    expect(splitList(null)).toEqual([]);
  });

  it('hands back what is not a list, for the schema to reject', () => {
    expect(splitList('[not json')).toBe('[not json');
    expect(splitList([{ a: 1 }])).toEqual([{ a: 1 }]);
    expect(splitList(42)).toBe(42);
  });
});

describe('validateRow', () => {
  it('accepts a row with only id and url, storing absent version and source as empty text', () => {
    expect(rowOf(validateRow(good))).toEqual({
      id: 'a1',
      version: '',
      source: '',
      url: 'https://cdn.example.com/a1.mp4',
      workspaceId: undefined,
      channels: [],
      brands: [],
      markets: [],
      name: undefined,
      description: undefined,
      tagWanted: true,
      clientTags: undefined,
    });
  });

  it('trims text, takes numbers as text and reads a workspace id written as digits', () => {
    const row = rowOf(
      validateRow({
        id: 17,
        version: 2,
        url: '  https://x.example/a.png ',
        workspaceId: ' 42 ',
        name: ' Hero ',
      }),
    );
    expect(row).toMatchObject({
      id: '17',
      version: '2',
      url: 'https://x.example/a.png',
      workspaceId: 42,
      name: 'Hero',
    });
  });

  it('canonicalises channels and de-duplicates them after canonicalising', () => {
    const row = rowOf(validateRow({ ...good, channels: 'facebook; Instagram;twitter; tik-tok;X' }));
    expect(row.channels).toEqual(['META', 'X', 'TIKTOK']);
  });

  it('reads lists as JSON arrays or ;-separated text', () => {
    const row = rowOf(validateRow({ ...good, brands: '["Acme","Beta","Acme"]', markets: 'US;DE; US' }));
    expect(row.brands).toEqual(['Acme', 'Beta']);
    expect(row.markets).toEqual(['US', 'DE']);
  });

  it.each([
    [{ url: good.url }, null],
    [{ id: '', url: good.url }, ''],
    [{ id: '   ', url: good.url }, '   '],
    [{ id: null, url: good.url }, null],
  ])('rejects %j: every row needs the asset id', (record, value) => {
    expect(problemsOf(validateRow(record))).toEqual([
      { field: 'id', value, message: 'id is empty: every row needs the asset id' },
    ]);
  });

  it('rejects a row without url, saying what is needed', () => {
    expect(problemsOf(validateRow({ id: 'a1' }))).toEqual([
      {
        field: 'url',
        value: null,
        message: 'url is missing: every row needs a direct http(s) link to the media file',
      },
    ]);
  });

  it.each([
    ['htp://x', 'url is not an absolute http(s) URL such as https://cdn.example.com/ad.mp4'],
    ['cdn.example.com/a.mp4', 'url is not an absolute http(s) URL such as https://cdn.example.com/ad.mp4'],
    [
      'ftp://cdn.example.com/a.mp4',
      'url is not an absolute http(s) URL such as https://cdn.example.com/ad.mp4',
    ],
    ['https://cdn.example.com/my ad.mp4', 'url contains whitespace: encode spaces as %20'],
  ])('rejects the url %j', (url, message) => {
    expect(problemsOf(validateRow({ id: 'a1', url }))).toEqual([{ field: 'url', value: url, message }]);
  });

  it.each([
    ['12.5', 'workspaceId must be a whole number (the numeric workspace id)'],
    ['abc', 'workspaceId must be a whole number (the numeric workspace id)'],
    ['1e3', 'workspaceId must be a whole number (the numeric workspace id)'],
    ['0x10', 'workspaceId must be a whole number (the numeric workspace id)'],
    [true, 'workspaceId must be a whole number (the numeric workspace id)'],
    [[5], 'workspaceId must be a whole number (the numeric workspace id)'],
    [1.5, 'workspaceId must be a whole number (the numeric workspace id)'],
    ['0', 'workspaceId must be a positive workspace id'],
    ['-3', 'workspaceId must be a positive workspace id'],
    ['99999999999', 'workspaceId is too large for a workspace id'],
  ])('rejects the workspace id %j', (workspaceId, message) => {
    expect(problemsOf(validateRow({ ...good, workspaceId }))).toEqual([
      { field: 'workspaceId', value: previewValue(workspaceId), message },
    ]);
  });

  it('reports one problem per bad field, each naming its field', () => {
    const problems = problemsOf(validateRow({ url: 'htp://x', workspaceId: 'abc', channels: { a: 1 } }));
    expect(problems.map((p) => p.field)).toEqual(['id', 'url', 'workspaceId', 'channels']);
    expect(problems.find((p) => p.field === 'channels')?.message).toBe(
      'channels must be a JSON array or a list separated by ";"',
    );
  });

  it('rejects text longer than its limit, showing a shortened value', () => {
    const [problem] = problemsOf(validateRow({ ...good, name: 'n'.repeat(513) }));
    expect(problem).toEqual({
      field: 'name',
      value: `${'n'.repeat(120)}…`,
      message: 'name is longer than 512 characters',
    });
  });

  it('never throws and returns a row or at least one problem, whatever the record holds', () => {
    const fields: readonly ManifestField[] = manifestFields;
    const value = fc.oneof(
      fc.anything({
        withBigInt: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withNullPrototype: true,
      }),
      fc.string(),
      fc.webUrl(),
      fc.integer().map(String),
    );
    const record = fc.record(Object.fromEntries(fields.map((f) => [f, value])), { requiredKeys: [] });
    fc.assert(
      fc.property(record, (r) => {
        const outcome = validateRow(r);
        if (outcome.ok) {
          expect(outcome.row.id.length).toBeGreaterThan(0);
          expect(outcome.row.url).toMatch(/^https?:\/\//i);
        } else {
          expect(outcome.problems.length).toBeGreaterThan(0);
          for (const p of outcome.problems) expect(p.message.startsWith(`${p.field ?? 'row'} `)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('the tag column', () => {
  it.each([
    [undefined, true],
    ['', true],
    ['yes', true],
    [' YES ', true],
    ['y', true],
    ['True', true],
    ['1', true],
    [1, true],
    [true, true],
    ['no', false],
    ['N', false],
    ['FALSE', false],
    ['0', false],
    [0, false],
    [false, false],
  ])('reads %j as %s', (tagWanted, wanted) => {
    expect(rowOf(validateRow({ ...good, tagWanted })).tagWanted).toBe(wanted);
  });

  it.each(['maybe', '2', 2, 'summer;beach'])('rejects %j, saying what it takes', (tagWanted) => {
    expect(problemsOf(validateRow({ ...good, tagWanted }))).toEqual([
      {
        field: 'tagWanted',
        value: previewValue(tagWanted),
        message: 'tagWanted must be yes or no (true/false and 1/0 work too); leave it empty for yes',
      },
    ]);
  });
});

describe('client tags', () => {
  const bag = (entries: Record<string, unknown>) => Object.assign(Object.create(null), entries);

  it('keeps tag:<name> values as text, leaving empty ones out', () => {
    const row = rowOf(
      validateRow({ ...good, clientTags: bag({ campaign: ' Spring ', season: 2026, empty: '' }) }),
    );
    expect(row.clientTags).toEqual({ campaign: 'Spring', season: '2026' });
  });

  it('has no client tags when there are none, or all are empty', () => {
    expect(rowOf(validateRow(good)).clientTags).toBeUndefined();
    expect(rowOf(validateRow({ ...good, clientTags: bag({ campaign: ' ' }) })).clientTags).toBeUndefined();
  });

  it('keeps a tag named __proto__ as a tag', () => {
    const row = rowOf(validateRow({ ...good, clientTags: bag(JSON.parse('{"__proto__": "x"}')) }));
    expect(Object.entries(row.clientTags ?? {})).toEqual([['__proto__', 'x']]);
    expect(JSON.stringify(row.clientTags)).toBe('{"__proto__":"x"}');
  });

  it('reads a clientTags object written as JSON text', () => {
    expect(rowOf(validateRow({ ...good, clientTags: '{"campaign": "spring"}' })).clientTags).toEqual({
      campaign: 'spring',
    });
  });

  it('names the tag column in a problem', () => {
    const long = 'v'.repeat(limits.tagValue + 1);
    expect(problemsOf(validateRow({ ...good, clientTags: bag({ campaign: long, ok: 'fine' }) }))).toEqual([
      {
        field: 'tag:campaign',
        value: `${'v'.repeat(120)}…`,
        message: 'tag:campaign is longer than 256 characters',
      },
    ]);
    expect(problemsOf(validateRow({ ...good, clientTags: bag({ season: { a: 1 } }) }))).toEqual([
      { field: 'tag:season', value: '{"a":1}', message: 'tag:season must be text' },
    ]);
  });

  it('rejects a clientTags value that is not an object, and more than 50 tags', () => {
    expect(problemsOf(validateRow({ ...good, clientTags: ['a'] }))[0]?.message).toBe(
      'clientTags must be an object of tag names and values, e.g. {"campaign": "spring"}',
    );
    const many = bag(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'x'])));
    expect(problemsOf(validateRow({ ...good, clientTags: many }))[0]?.message).toBe(
      'clientTags has more than 50 tags',
    );
  });
});

describe('text that cannot be stored', () => {
  it.each([
    ['name', 'Hero\u0000cut'],
    ['id', 'a\u00001'],
    ['url', 'https://x.example/a\u0000.mp4'],
    ['brands', 'Acme;Be\u0000ta'],
  ])('rejects a NUL byte in %s', (field, value) => {
    expect(problemsOf(validateRow({ ...good, [field]: value }))).toEqual([
      {
        field,
        value: previewValue(value),
        message: `${field} contains a NUL byte, so the file is probably not plain text: export it again as CSV UTF-8`,
      },
    ]);
    expect(previewValue(value)).not.toContain('\u0000');
  });

  it.each([
    ['a decoded byte that was not UTF-8', 'Caf\uFFFD'],
    ['a lone high surrogate', 'Caf\uD800'],
    ['a lone low surrogate', '\uDC00Caf'],
  ])('rejects %s as not UTF-8', (_, name) => {
    expect(problemsOf(validateRow({ ...good, name }))[0]?.message).toMatch(/^name is not valid UTF-8 text/);
  });

  it('stores formula-looking text, control characters and emoji as given', () => {
    const name = '=HYPERLINK("http://evil.example","click")\t\u0007\u001b[31m 😀';
    const row = rowOf(validateRow({ ...good, id: '+1-555', name, brands: '@SUM(A1);-2' }));
    expect(row).toMatchObject({ id: '+1-555', name: name.trim(), brands: ['@SUM(A1)', '-2'] });
  });

  it('rejects a list with more than 100 items', () => {
    const markets = Array.from({ length: 101 }, (_, i) => `m${i}`).join(';');
    expect(problemsOf(validateRow({ ...good, markets }))[0]?.message).toBe('markets has more than 100 items');
  });
});
