// The common case of a manifest row, checked in plain code: intake validates every row of
// files of a million rows, and the zod schema costs several microseconds a row. This accepts
// only rows it is sure the schema accepts, with exactly the schema's result (a property test
// holds the two together); anything unusual returns undefined and goes to the schema, which
// also writes every message.
import { canonicalChannel } from './channels';
import type { RecordFields } from './manifest-columns';
import { splitList } from './manifest-list';
import { isHttpUrl, limits, type ManifestRow, type RowOutcome, readYesNo, validateRow } from './manifest-row';
import { textProblem } from './manifest-text';

/** Validates a record: the plain check for the common case, the schema for everything else. */
export function checkRow(record: RecordFields): RowOutcome {
  const row = quickRow(record);
  return row ? { ok: true, row } : validateRow(record);
}

/** The validated row, or undefined when the schema must decide. */
export function quickRow(record: RecordFields): ManifestRow | undefined {
  const id = requiredText(record.id, limits.id);
  if (id === undefined) return undefined;
  const version = keyText(record.version);
  const source = keyText(record.source);
  if (version === undefined || source === undefined) return undefined;
  const url = urlText(record.url);
  if (url === undefined) return undefined;
  const workspaceId = workspace(record.workspaceId);
  if (workspaceId === false) return undefined;
  const channels = list(record.channels, canonicalChannel);
  const brands = list(record.brands);
  const markets = list(record.markets);
  if (!channels || !brands || !markets) return undefined;
  const name = optionalText(record.name, limits.name);
  const description = optionalText(record.description, limits.description);
  if (name === false || description === false) return undefined;
  const tagWanted = readYesNo(record.tagWanted);
  if (typeof tagWanted !== 'boolean') return undefined;
  const clientTags = tags(record.clientTags);
  if (clientTags === false) return undefined;
  return {
    id,
    version,
    source,
    url,
    workspaceId,
    channels,
    brands,
    markets,
    name,
    description,
    tagWanted,
    clientTags,
  };
}

const asText = (value: unknown) => (typeof value === 'number' ? String(value) : value);

/** Text within `max` once trimmed and safe to store; undefined otherwise. */
function safeTrimmed(value: unknown, max: number): string | undefined {
  const text = asText(value);
  if (typeof text !== 'string' || textProblem(text) !== undefined) return undefined;
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : undefined;
}

function requiredText(value: unknown, max: number): string | undefined {
  const text = safeTrimmed(value, max);
  return text === '' ? undefined : text;
}

/** Version and source: '' when absent or blank. */
function keyText(value: unknown): string | undefined {
  if (value === undefined || value === null) return '';
  return safeTrimmed(value, limits.key);
}

function urlText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const url = safeTrimmed(value, limits.url);
  if (!url || /\s/.test(url) || !isHttpUrl(url)) return undefined;
  return url;
}

/** undefined when absent, the id when plainly valid, false when the schema must look. */
function workspace(value: unknown): number | undefined | false {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return undefined;
  }
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 2_147_483_647 ? n : false;
}

function optionalText(value: unknown, max: number): string | undefined | false {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return undefined;
  }
  return safeTrimmed(value, max) ?? false;
}

function list(value: unknown, map?: (item: string) => string): string[] | undefined {
  const items = splitList(value);
  if (!Array.isArray(items) || items.length > limits.listItems) return undefined;
  for (const item of items) {
    if (typeof item !== 'string' || item.length > limits.listItem || textProblem(item) !== undefined) {
      return undefined;
    }
  }
  const strings = items as string[];
  return map ? [...new Set(strings.map(map))].filter((item) => item !== '') : strings;
}

function tags(value: unknown): Record<string, string> | undefined | false {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  // A for-in loop rather than Object.entries: this runs for every row, and the entries arrays
  // cost a tenth of the check. fromEntries, not assignment, so that a tag named __proto__ is a tag.
  const found: [string, string][] = [];
  for (const rawName in value) {
    if (!Object.hasOwn(value, rawName)) continue;
    const raw = (value as Record<string, unknown>)[rawName];
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) continue;
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') return false;
    const name = rawName.trim();
    const text = String(raw);
    if (name === '' || name.length > limits.tagName || textProblem(name) || textProblem(text)) return false;
    const trimmed = text.trim();
    if (trimmed.length > limits.tagValue) return false;
    found.push([name, trimmed]);
  }
  if (found.length > limits.tags) return false;
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}
