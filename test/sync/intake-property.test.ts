// Issue 3, "what it must show": whatever rows or bytes a manifest holds, intake never throws, and
// every row read is either an asset or a recorded error (accepted + rejected = rows read).
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type IntakeWorld, intakeWorld, writeWorkbook } from './intake-world';

let world: IntakeWorld;
beforeEach(() => {
  world = intakeWorld();
});
afterEach(() => {
  world.close();
});

const columns = ['id', 'url', 'workspaceId', 'channels', 'name', 'tag', 'tag:campaign'] as const;

const cell = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom(
    'htp://x',
    'https://cdn.example.com/a.mp4',
    'https://cdn.example.com/a b.mp4',
    '12.5',
    '7',
    'yes',
    'maybe',
    'facebook;x',
    'myspace',
    '["Acme","Acme"]',
    '"quoted"',
    'a,b',
    'line\nbreak',
    'cr\r\nlf',
    '=HYPERLINK("http://x")',
    '\uD800 lone surrogate',
    'Caf\uFFFD',
    'x'.repeat(5000),
  ),
);
const row = fc.tuple(
  fc.option(fc.stringMatching(/^[a-z0-9]{1,4}$/), { nil: '' }),
  cell,
  cell,
  cell,
  cell,
  cell,
  cell,
);
type Row = (typeof row extends fc.Arbitrary<infer T> ? T : never) & string[];

const quote = (value: string) =>
  /[",;\t\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
const blank = (r: readonly string[]) => r.every((c) => c.trim() === '');
/** What Excel can hold: no control characters but tab and line breaks, no lone surrogates. */
const excelSafe = (c: string) =>
  Array.from(c, (ch) => {
    const code = ch.codePointAt(0) ?? 0;
    const control = code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r';
    const surrogate = ch.length === 1 && code >= 0xd800 && code <= 0xdfff;
    return control || surrogate || code === 0xfffe || code === 0xffff ? '?' : ch;
  }).join('');
const asObject = (r: readonly string[]) =>
  Object.fromEntries(columns.map((name, i) => [name, r[i]]).filter(([, v]) => v !== ''));

/** A fresh file name each time: the same bytes under a name intake has seen are (rightly) not read again. */
let serial = 0;

/** Writes `rows` as a manifest in `format`; returns its name and how many rows it holds. */
async function writeManifest(rows: Row[], format: 'csv' | 'jsonl' | 'json' | 'xlsx', variant: number) {
  const base = `random-${++serial}`;
  if (format === 'csv') {
    const delimiter = [',', ';', '\t'][variant % 3] as string;
    const eol = variant % 2 === 0 ? '\n' : '\r\n';
    // NUL bytes make a file binary; they are the hostile test's business.
    const text = [
      columns.join(delimiter),
      ...rows.map((r) => r.map((c) => quote(c.replaceAll('\0', ''))).join(delimiter)),
    ].join(eol);
    world.write(`${base}.csv`, `${variant % 4 === 0 ? '\uFEFF' : ''}${text}`);
    return {
      name: `${base}.csv`,
      rows: rows.filter((r) => !blank(r.map((c) => c.replaceAll('\0', '')))).length,
    };
  }
  if (format === 'jsonl') {
    world.write(
      `${base}.jsonl`,
      rows.map((r) => JSON.stringify(asObject(r))).join(variant % 2 === 0 ? '\n' : '\r\n'),
    );
    return { name: `${base}.jsonl`, rows: rows.length };
  }
  if (format === 'json') {
    world.write(
      `${base}.json`,
      JSON.stringify(variant % 2 === 0 ? rows.map(asObject) : { assets: rows.map(asObject) }),
    );
    return { name: `${base}.json`, rows: rows.length };
  }
  const safe = rows.map((r) => r.map(excelSafe));
  await writeWorkbook(join(world.manifestDir, `${base}.xlsx`), [['Sheet1', [[...columns], ...safe]]]);
  return { name: `${base}.xlsx`, rows: safe.filter((r) => !blank(r)).length };
}

describe('intake of generated manifests', () => {
  it('accounts for every written row as accepted or rejected, in every format', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 25 }),
        fc.constantFrom('csv', 'jsonl', 'json', 'xlsx'),
        fc.nat(11),
        async (rows, format, variant) => {
          const written = await writeManifest(rows as Row[], format, variant);
          const summary = await world.intake();
          const file = summary.files.find((f) => f.path.endsWith(written.name));
          expect(file).toMatchObject({ status: 'read', rowsRead: written.rows });
          expect((file?.rowsAccepted ?? 0) + (file?.rowsRejected ?? 0)).toBe(written.rows);
          expect(world.file(written.name)).toMatchObject({
            rowsRead: written.rows,
            rowsAccepted: file?.rowsAccepted,
            rowsRejected: file?.rowsRejected,
          });
          // Each rejected row has its own error rows, at its own line.
          const errorLines = world
            .errors()
            .filter((e) => e.file === written.name && e.severity === 'error')
            .map((e) => e.line);
          expect(new Set(errorLines).size).toBe(file?.rowsRejected);
          world.remove(written.name);
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('intake of random bytes', () => {
  const prefixes = [
    '',
    '\uFEFF',
    'id,url\n',
    'id;url\r\n',
    '[',
    '{"assets": [',
    '{"id": "a", "url": "https://x.example/a"}\n',
    'PK\u0003\u0004',
  ];

  it('never throws, and every file it reads adds up', async () => {
    // A fresh name each time: the same bytes under a name intake has seen are (rightly) not read again.
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...prefixes),
        fc.uint8Array({ maxLength: 3000 }),
        fc.constantFrom('.csv', '.tsv', '.json', '.jsonl', '.ndjson', '.xlsx'),
        async (prefix, bytes, extension) => {
          const name = `random-${++n}${extension}`;
          world.write(name, Buffer.concat([Buffer.from(prefix, 'latin1'), bytes]));
          const summary = await world.intake();
          const file = summary.files.find((f) => f.path.endsWith(name));
          if (!file) throw new Error(`${name} was not read`);
          expect(file.rowsAccepted + file.rowsRejected).toBe(file.rowsRead);
          if (file.status === 'unreadable') expect(file.rowsRead).toBe(0);
          const errors = world.errors().filter((e) => e.file === name && e.severity === 'error');
          expect(new Set(errors.map((e) => e.line)).size).toBeGreaterThanOrEqual(file.rowsRejected);
          if (file.problem) expect(errors.map((e) => e.message)).toContain(file.problem);
          world.remove(name);
        },
      ),
      { numRuns: 150 },
    );
  });
});
