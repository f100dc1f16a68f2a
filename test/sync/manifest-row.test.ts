import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fieldForHeader,
  foldHeader,
  type ManifestField,
  previewValue,
  type RowOutcome,
  splitList,
  validateRow,
} from '../../src/sync/manifest-row';

const good = { id: 'a1', url: 'https://cdn.example.com/a1.mp4' };

function problemsOf(outcome: RowOutcome) {
  if (outcome.ok) throw new Error(`expected problems, got the row ${JSON.stringify(outcome.row)}`);
  return outcome.problems;
}

function rowOf(outcome: RowOutcome) {
  if (!outcome.ok) throw new Error(`expected a row, got ${JSON.stringify(outcome.problems)}`);
  return outcome.row;
}

describe('headers', () => {
  it('folds case, spaces, underscores, dashes, dots and a BOM away', () => {
    expect(foldHeader('Media ID')).toBe('mediaid');
    expect(foldHeader('media_id')).toBe('mediaid');
    expect(foldHeader('Media-Id')).toBe('mediaid');
    expect(foldHeader('\uFEFFWorkspace.ID')).toBe('workspaceid');
  });

  it.each([
    ['Media ID', 'id'],
    ['Asset ID', 'id'],
    ['id', 'id'],
    ['\uFEFFid', 'id'],
    ['workspace', 'workspaceId'],
    ['Workspace ID', 'workspaceId'],
    ['brand', 'brands'],
    ['Brands', 'brands'],
    ['Market', 'markets'],
    ['platform', 'channels'],
    ['Media URL', 'url'],
    ['Download-URL', 'url'],
    ['Asset Version', 'version'],
    ['DAM', 'source'],
    ['Title', 'name'],
    ['notes', 'description'],
  ])('maps the header %j to the field %s', (header, field) => {
    expect(fieldForHeader(header)).toBe(field);
  });

  it('maps a header it does not know to no field', () => {
    expect(fieldForHeader('colour')).toBeUndefined();
    expect(fieldForHeader('')).toBeUndefined();
  });
});

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
    const fields: ManifestField[] = [
      'id',
      'version',
      'source',
      'url',
      'workspaceId',
      'channels',
      'brands',
      'markets',
      'name',
      'description',
    ];
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
          for (const p of outcome.problems) expect(p.message).toMatch(new RegExp(`^${p.field ?? 'row'} `));
        }
      }),
      { numRuns: 500 },
    );
  });
});

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
});
