// What one manifest row means: the zod schema that turns a raw record into a validated asset,
// or into field-level problems a person can fix.
import { z } from 'zod';
import { canonicalChannel } from './channels';
import type { ManifestField, RecordFields } from './manifest-columns';
import { splitList } from './manifest-list';
import { previewValue, textProblem } from './manifest-text';

/** The longest text each field may hold, in characters, and the most items a list or the tags may have. */
export const limits = {
  id: 256,
  key: 256,
  url: 2048,
  name: 512,
  description: 4000,
  listItem: 128,
  listItems: 100,
  tagName: 64,
  tagValue: 256,
  tags: 50,
} as const;

const emptyToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** Refuses text with a NUL byte or bytes that were not UTF-8 (see manifest-text). */
const safeText = (value: string, ctx: z.RefinementCtx) => {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

const text = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: 'must be text' })
      .superRefine(safeText)
      .trim()
      .max(max, { error: `is longer than ${max} characters` }),
  );

const optionalText = (max: number) => z.preprocess(emptyToUndefined, text(max).optional());

const list = (map: (item: string) => string = (item) => item) =>
  z.preprocess(
    splitList,
    z
      .array(
        z
          .string()
          .superRefine(safeText)
          .max(limits.listItem, { error: `has an item longer than ${limits.listItem} characters` }),
        { error: 'must be a JSON array or a list separated by ";"' },
      )
      .max(limits.listItems, { error: `has more than ${limits.listItems} items` })
      .transform((items) => [...new Set(items.map(map))].filter((item) => item !== '')),
  );

const yes = new Set(['yes', 'y', 'true', '1']);
const no = new Set(['no', 'n', 'false', '0']);

/** `yes`/`no`, `true`/`false`, `1`/`0` (any case), a boolean or 1/0; empty means yes. */
export function readYesNo(value: unknown): unknown {
  const v = emptyToUndefined(value);
  if (v === undefined) return true;
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'number' && typeof v !== 'string') return v;
  const word = String(v).trim().toLowerCase();
  if (yes.has(word)) return true;
  if (no.has(word)) return false;
  return v;
}

/**
 * Client tags from `tag:<name>` columns (or a JSON `clientTags` object): names and values as
 * text, empty ones left out. A problem names the tag's column, `tag:<name>`.
 */
const clientTags = z
  .unknown()
  .transform((value, ctx): Record<string, string> | undefined => {
    let bag = emptyToUndefined(value);
    if (bag === undefined) return undefined;
    if (typeof bag === 'string' && bag.trim().startsWith('{')) {
      try {
        bag = JSON.parse(bag);
      } catch {}
    }
    if (typeof bag !== 'object' || bag === null || Array.isArray(bag)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an object of tag names and values, e.g. {"campaign": "spring"}',
      });
      return z.NEVER;
    }
    const tags: [string, string][] = [];
    for (const [rawName, raw] of Object.entries(bag)) {
      const name = rawName.trim();
      const column = `tag:${name}`;
      const fail = (message: string) => ctx.addIssue({ code: 'custom', message, path: [column] });
      const tagValue = emptyToUndefined(raw);
      if (tagValue === undefined) continue;
      if (typeof tagValue !== 'string' && typeof tagValue !== 'number' && typeof tagValue !== 'boolean') {
        fail('must be text');
        continue;
      }
      const problem = textProblem(name) ?? textProblem(String(tagValue));
      if (problem) fail(problem);
      else if (name === '') fail('has no tag name: write the column as tag:<name>, e.g. tag:campaign');
      else if (name.length > limits.tagName) fail(`has a tag name longer than ${limits.tagName} characters`);
      else if (String(tagValue).trim().length > limits.tagValue)
        fail(`is longer than ${limits.tagValue} characters`);
      else tags.push([name, String(tagValue).trim()]);
    }
    if (tags.length > limits.tags) {
      ctx.addIssue({ code: 'custom', message: `has more than ${limits.tags} tags` });
    }
    return tags.length > 0 ? Object.fromEntries(tags) : undefined;
  })
  .optional();

export const manifestRowSchema = z.object({
  // A missing id (absent key, empty CSV cell, JSON null) gets the same actionable message as a blank one.
  id: z.preprocess(
    (v) => v ?? '',
    text(limits.id).pipe(z.string().min(1, { error: 'is empty: every row needs the asset id' })),
  ),
  version: z.preprocess((v) => emptyToUndefined(v) ?? '', text(limits.key)),
  source: z.preprocess((v) => emptyToUndefined(v) ?? '', text(limits.key)),
  url: z.preprocess(
    emptyToUndefined,
    z
      .string({ error: 'is missing: every row needs a direct http(s) link to the media file' })
      .superRefine(safeText)
      .trim()
      .max(limits.url, { error: `is longer than ${limits.url} characters` })
      .refine((v) => !/\s/.test(v), { error: 'contains whitespace: encode spaces as %20' })
      .refine(isHttpUrl, { error: 'is not an absolute http(s) URL such as https://cdn.example.com/ad.mp4' }),
  ),
  // Only decimal digits count as a number: z.coerce would also take `true`, `[5]`, `0x10` or `1e3`.
  workspaceId: z.preprocess((v) => {
    const value = emptyToUndefined(v);
    return typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  }, z
    .number({ error: 'must be a whole number (the numeric workspace id)' })
    .int({ error: 'must be a whole number (the numeric workspace id)' })
    .min(1, { error: 'must be a positive workspace id' })
    .max(2_147_483_647, { error: 'is too large for a workspace id' })
    .optional()),
  channels: list(canonicalChannel),
  brands: list(),
  markets: list(),
  name: optionalText(limits.name),
  description: optionalText(limits.description),
  tagWanted: z.preprocess(
    readYesNo,
    z.boolean({ error: 'must be yes or no (true/false and 1/0 work too); leave it empty for yes' }),
  ),
  clientTags,
} satisfies Record<ManifestField, z.ZodType>);

export type ManifestRow = z.infer<typeof manifestRowSchema>;

export interface RowProblem {
  field: string | null;
  value: string | null;
  message: string;
}

export type RowOutcome = { ok: true; row: ManifestRow } | { ok: false; problems: RowProblem[] };

/** Validates a record whose keys are already manifest fields: the row, or one problem per bad field. */
export function validateRow(record: RecordFields): RowOutcome {
  const parsed = manifestRowSchema.safeParse(record);
  if (parsed.success) return { ok: true, row: parsed.data };
  const seen = new Set<string>();
  const problems: RowProblem[] = [];
  for (const issue of parsed.error.issues) {
    const [first, second] = issue.path;
    const key = first === undefined ? null : String(first);
    // A client tag's problem names the tag's own column, `tag:<name>`.
    const tag = key === 'clientTags' && typeof second === 'string' ? second : undefined;
    const field = tag ?? key;
    if (field !== null && seen.has(field)) continue;
    if (field !== null) seen.add(field);
    const raw =
      tag !== undefined ? tagValue(record.clientTags, tag.slice(4)) : key && record[key as ManifestField];
    problems.push({ field, value: previewValue(raw), message: `${field ?? 'row'} ${issue.message}` });
  }
  return { ok: false, problems };
}

function tagValue(bag: unknown, name: string): unknown {
  if (typeof bag !== 'object' || bag === null) return undefined;
  const entry = Object.entries(bag).find(([n]) => n.trim() === name);
  return entry?.[1];
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
