// Which manifest field a column (or JSON key) names: headers are matched ignoring case, spaces,
// dashes, dots and underscores, with the usual aliases; `tag:<name>` columns become client tags.
// Also builds one row's record from a header row (CSV, xlsx) or from an object (JSON).
import { ManifestParseError } from './manifest-record';
import { shorten } from './manifest-text';

export const manifestFields = [
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
  'tagWanted',
  'clientTags',
] as const;
export type ManifestField = (typeof manifestFields)[number];

/** One row as read, keyed by manifest field, values as the file gave them (before validation). */
export type RecordFields = Partial<Record<ManifestField, unknown>>;

/** A column that means a field, or a `tag:<name>` column that adds one client tag. */
export type Column = { field: ManifestField } | { tag: string };

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
  tagWanted: ['tag', 'tagging', 'tagwanted'],
  clientTags: ['clienttags'],
};
const headerAliases = new Map<string, ManifestField>();
for (const [field, aliases] of Object.entries(aliasList)) {
  for (const alias of aliases) headerAliases.set(alias, field as ManifestField);
}

/** Folds a header to its comparable form: `Media ID`, `media_id`, `media-id` → `mediaid`. */
export function foldHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');
}

/** The manifest field a header names, or undefined for a column we do not use. */
export function fieldForHeader(header: string): ManifestField | undefined {
  return headerAliases.get(foldHeader(header));
}

const tagHeader = /^\uFEFF?\s*tag\s*:\s*(.*?)\s*$/is;

/** What a column means: a field, a client tag (`tag:campaign` → the tag `campaign`), or nothing. */
export function columnFor(header: string): Column | undefined {
  const tag = tagHeader.exec(header)?.[1];
  if (tag !== undefined) return tag === '' ? undefined : { tag };
  const field = fieldForHeader(header);
  return field && { field };
}

const maxNamedUnknown = 50;

/** What one file's columns said that a person should hear once: columns not used, fields given twice. */
export class ColumnNotes {
  private readonly unknownNames = new Set<string>();
  private unknownMore = 0;
  readonly repeated: string[] = [];

  unknown(header: string): void {
    const name = shorten(header.replace(/^\uFEFF/, '').trim(), 60);
    if (name === '' || this.unknownNames.has(name)) return;
    if (this.unknownNames.size < maxNamedUnknown) this.unknownNames.add(name);
    else this.unknownMore++;
  }

  /** Unknown columns, each once, in the order met (at most 50 named). */
  get unknownColumns(): string[] {
    return [...this.unknownNames];
  }

  /** The sentence for the file's warning row, or undefined when every column is used once. */
  message(): string | undefined {
    const parts: string[] = [];
    if (this.unknownNames.size > 0) {
      const more = this.unknownMore > 0 ? ` and ${this.unknownMore} more` : '';
      parts.push(
        `columns not used: ${[...this.unknownNames].join(', ')}${more} (rename a column to use it; see the README for the names)`,
      );
    }
    parts.push(...this.repeated);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
}

/** A header row (CSV, xlsx): maps each cell of a data row to its field. */
export class HeaderRow {
  readonly columns: (Column | undefined)[];

  constructor(
    private readonly headers: readonly string[],
    notes: ColumnNotes,
  ) {
    this.columns = headers.map((header) => {
      const column = columnFor(header);
      if (!column) notes.unknown(header);
      return column;
    });
    const byField = new Map<ManifestField, string[]>();
    this.columns.forEach((column, index) => {
      if (column && 'field' in column && column.field !== 'clientTags') {
        byField.set(column.field, [...(byField.get(column.field) ?? []), String(headers[index]).trim()]);
      }
    });
    for (const [field, names] of byField) {
      if (names.length > 1) {
        notes.repeated.push(
          `columns ${names.map((n) => shorten(n, 60)).join(', ')} all give ${field}: where more than one is filled, the last one is used`,
        );
      }
    }
  }

  /** Whether some column gives `field`. */
  has(field: ManifestField): boolean {
    return this.columns.some((c) => c !== undefined && 'field' in c && c.field === field);
  }

  /**
   * Without an id or a url column every row would be rejected for the same reason; one
   * sentence about the header says it better, and also catches a file whose header row is missing.
   */
  requireKeyColumns(line: number): void {
    const missing = (['id', 'url'] as const).filter((field) => !this.has(field));
    if (missing.length === 0) return;
    const seen = this.headers
      .map((h) => shorten(String(h ?? '').trim(), 40))
      .filter((h) => h !== '')
      .slice(0, 12)
      .join(', ');
    throw new ManifestParseError(
      `the header row (line ${line}) has no ${missing.join(' and no ')} column: the first row must name the columns, ` +
        `with at least id and url (or aliases such as "Media ID" and "Media URL"); it reads: ${seen}`,
      line,
    );
  }

  /** A data row's record; empty cells are left out, cells beyond the header ignored. */
  record(values: readonly unknown[]): RecordFields {
    const fields: RecordFields = {};
    const { columns } = this;
    const n = Math.min(values.length, columns.length);
    for (let i = 0; i < n; i++) {
      const column = columns[i];
      const value = values[i];
      if (column && value !== '' && value !== undefined && value !== null) put(fields, column, value);
    }
    return fields;
  }
}

const maxCachedKeys = 1000;

/** JSON objects: each key mapped once (a bounded cache, since hostile files can use endless keys). */
export class ObjectColumns {
  private readonly cache = new Map<string, Column | null>();

  constructor(private readonly notes: ColumnNotes) {}

  record(item: Record<string, unknown>): RecordFields {
    const fields: RecordFields = {};
    for (const key of Object.keys(item)) {
      const column = this.column(key);
      if (column) put(fields, column, item[key]);
    }
    return fields;
  }

  private column(key: string): Column | undefined {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const column = columnFor(key);
    if (!column) this.notes.unknown(key);
    if (this.cache.size < maxCachedKeys) this.cache.set(key, column ?? null);
    return column;
  }
}

/**
 * Client tags are gathered in an object without a prototype, so a tag named `__proto__` is a
 * tag like any other. A `clientTags` value that is an object is merged in (a `tag:<name>`
 * column wins); anything else is kept as it is, for the schema to reject.
 */
function put(fields: RecordFields, column: Column, value: unknown): void {
  if ('field' in column && (column.field !== 'clientTags' || !isPlainObject(value))) {
    fields[column.field] = value;
    return;
  }
  if (!isTagBag(fields.clientTags)) fields.clientTags = Object.create(null);
  const tags = fields.clientTags as Record<string, unknown>;
  if ('tag' in column) tags[column.tag] = value;
  else {
    for (const [name, tagValue] of Object.entries(value as object)) {
      if (!Object.hasOwn(tags, name)) tags[name] = tagValue;
    }
  }
}

function isTagBag(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === null;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
