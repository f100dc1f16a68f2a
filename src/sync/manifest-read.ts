// Which reader a manifest file gets, by its extension. Every reader yields the same records
// (see manifest-record), so intake does not care which format a row came from.
import { extname } from 'node:path';
import { readCsv } from './manifest-csv';
import { readJson } from './manifest-json';
import { readJsonLines } from './manifest-jsonl';
import type { ManifestReading } from './manifest-record';
import { readXlsx } from './manifest-xlsx';

export type ManifestFormat = 'csv' | 'json' | 'jsonl' | 'xlsx';

const formats: Record<string, ManifestFormat> = {
  '.csv': 'csv',
  '.tsv': 'csv',
  '.txt': 'csv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.xlsx': 'xlsx',
};

/** The extensions intake reads, for messages. */
export const manifestExtensions = Object.keys(formats);

export function manifestFormat(path: string): ManifestFormat | undefined {
  return formats[extname(path).toLowerCase()];
}

const readers: Record<ManifestFormat, (path: string) => ManifestReading> = {
  csv: readCsv,
  json: readJson,
  jsonl: readJsonLines,
  xlsx: readXlsx,
};

/** Starts reading `path`; nothing is opened until its records are iterated. */
export function readManifest(path: string, format: ManifestFormat): ManifestReading {
  return readers[format](path);
}
