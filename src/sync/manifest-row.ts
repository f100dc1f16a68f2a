// What one manifest row means: header aliases, list splitting and the zod schema that
// turns a raw record into a validated asset, or into field-level problems a person can fix.
import { z } from 'zod';
import { canonicalChannel } from './channels';

const maxText = { id: 256, key: 256, url: 2048, name: 512, description: 4000, listItem: 128 } as const;

/** Folds a header to its comparable form: `Media ID`, `media_id`, `media-id` → `mediaid`. */
export function foldHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');
}

const headerAliases: Record<string, ManifestField> = {};
const aliasList: Record<ManifestField, string[]> = {
  id: ['id', 'mediaid', 'assetid', 'clientid', 'creativeid'],
  version: ['version', 'assetversion', 'mediaversion'],
  source: ['source', 'sourcesystem', 'dam'],
  url: ['url', 'mediaurl', 'asseturl', 'downloadurl', 'link'],
  workspaceId: ['workspaceid', 'workspace'],
  channels: ['channels', 'channel', 'platforms', 'platform'],
  brands: ['brands', 'brand'],
  markets: ['markets', 'market'],
  name: ['name', 'title', 'assetname', 'medianame'],
  description: ['description', 'notes'],
};
for (const [field, aliases] of Object.entries(aliasList)) {
  for (const alias of aliases) headerAliases[alias] = field as ManifestField;
}

/** The manifest field a header names, or undefined for a column we do not use. */
export function fieldForHeader(header: string): ManifestField | undefined {
  return headerAliases[foldHeader(header)];
}

/** A list cell: a JSON array, or text separated by `;`, `|` or `,`. Trimmed, empty items dropped, de-duplicated. */
export function splitList(value: unknown): unknown {
  if (value === undefined || value === null) return [];
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (!Array.isArray(parsed)) return value;
        items = parsed;
      } catch {
        return value;
      }
    } else items = text.split(/[;|,]/);
  } else return value;
  if (!items.every((item) => typeof item === 'string' || typeof item === 'number')) return value;
  return [...new Set(items.map((item) => String(item).trim()).filter((item) => item !== ''))];
}

const emptyToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

const text = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: 'must be text' })
      .trim()
      .max(max, { error: `is longer than ${max} characters` }),
  );

const optionalText = (max: number) => z.preprocess(emptyToUndefined, text(max).optional());

const list = (map: (item: string) => string = (item) => item) =>
  z.preprocess(
    splitList,
    z
      .array(
        z.string().max(maxText.listItem, { error: `has an item longer than ${maxText.listItem} characters` }),
        {
          error: 'must be a JSON array or a list separated by ";"',
        },
      )
      .transform((items) => [...new Set(items.map(map))].filter((item) => item !== '')),
  );

export const manifestRowSchema = z.object({
  // A missing id (absent key, empty CSV cell, JSON null) gets the same actionable message as a blank one.
  id: z.preprocess(
    (v) => v ?? '',
    text(maxText.id).pipe(z.string().min(1, { error: 'is empty: every row needs the asset id' })),
  ),
  version: z.preprocess((v) => emptyToUndefined(v) ?? '', text(maxText.key)),
  source: z.preprocess((v) => emptyToUndefined(v) ?? '', text(maxText.key)),
  url: z.preprocess(
    emptyToUndefined,
    z
      .string({ error: 'is missing: every row needs a direct http(s) link to the media file' })
      .trim()
      .max(maxText.url, { error: `is longer than ${maxText.url} characters` })
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
  name: optionalText(maxText.name),
  description: optionalText(maxText.description),
});

export type ManifestRow = z.infer<typeof manifestRowSchema>;
export type ManifestField = keyof ManifestRow;

export interface RowProblem {
  field: string | null;
  value: string | null;
  message: string;
}

export type RowOutcome = { ok: true; row: ManifestRow } | { ok: false; problems: RowProblem[] };

const valuePreviewChars = 120;

/** Validates a record whose keys are already manifest fields. */
export function validateRow(record: Partial<Record<ManifestField, unknown>>): RowOutcome {
  const parsed = manifestRowSchema.safeParse(record);
  if (parsed.success) return { ok: true, row: parsed.data };
  const seen = new Set<string>();
  const problems: RowProblem[] = [];
  for (const issue of parsed.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : null;
    if (field !== null && seen.has(field)) continue;
    if (field !== null) seen.add(field);
    const raw = field === null ? undefined : record[field as ManifestField];
    problems.push({ field, value: previewValue(raw), message: `${field ?? 'row'} ${issue.message}` });
  }
  return { ok: false, problems };
}

export function previewValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : safeStringify(value);
  return text.length > valuePreviewChars ? `${text.slice(0, valuePreviewChars)}…` : text;
}

/** JSON where possible; never throws (bigints, cycles, functions fall back to String). */
function safeStringify(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (typeof json === 'string') return json;
  } catch {}
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
