// The benchmarks' synthetic data: N assets spread over brands, markets, workspaces and channels,
// from a fixed seed, so every run of a scenario works on the same data. Written as a manifest CSV
// in the shape a DAM exports (the columns the README documents), a row at a time, never held whole.
import { createWriteStream } from 'node:fs';
import { seededRandom } from '../src/random';

export const SEED = 20261122;

/** The workspaces of the simulator's demo organization (src/simulator/fixture.ts). */
export const WORKSPACES = [1201, 1202, 1203, 1204, 1205, 1206, 1207, 1208, 1209, 1210, 1211, 1212] as const;
export const CHANNELS = [
  'META',
  'TIKTOK',
  'ADWORDS',
  'DV360',
  'SNAPCHAT',
  'LINKEDIN',
  'PINTEREST',
  'X',
] as const;
export const BRANDS = 40;
export const MARKETS = ['US', 'UK', 'DE', 'FR', 'ES', 'IT', 'JP', 'BR', 'CA', 'MX', 'AU', 'IN'] as const;
/** Media kinds by share: mostly video and stills, a few GIFs, and 1% the service cannot read. */
const EXTENSIONS: readonly [string, number][] = [
  ['mp4', 0.55],
  ['jpg', 0.3],
  ['png', 0.1],
  ['gif', 0.04],
  ['pdf', 0.01],
];

export const MANIFEST_COLUMNS = [
  'id',
  'version',
  'source',
  'url',
  'workspaceId',
  'channels',
  'brands',
  'markets',
  'name',
] as const;

export interface GeneratedAsset {
  id: string;
  version: string;
  source: string;
  url: string;
  workspaceId: number;
  channels: string[];
  brands: string[];
  markets: string[];
  name: string;
}

/** `count` assets, the same ones for the same seed: 1–3 channels, 1–2 brands, 1–2 markets each. */
export function* generateAssets(count: number, seed = SEED): Generator<GeneratedAsset> {
  const rnd = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const some = <T>(items: readonly T[], most: number): T[] => {
    const n = 1 + Math.floor(rnd() * most);
    return [...new Set(Array.from({ length: n }, () => pick(items)))];
  };
  const brands = Array.from({ length: BRANDS }, (_, i) => `Brand ${String(i + 1).padStart(2, '0')}`);
  for (let i = 0; i < count; i++) {
    const id = `BENCH-${String(i).padStart(7, '0')}`;
    let roll = rnd();
    let extension = 'mp4';
    for (const [ext, share] of EXTENSIONS) {
      if (roll < share) {
        extension = ext;
        break;
      }
      roll -= share;
    }
    yield {
      id,
      version: 'v1',
      source: 'bench-dam',
      url: `https://cdn.example.com/media/${id}.${extension}`,
      workspaceId: pick(WORKSPACES),
      channels: some(CHANNELS, 3),
      brands: some(brands, 2),
      markets: some(MARKETS, 2),
      name: `Spring spot ${i}`,
    };
  }
}

const quote = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Writes `count` generated assets to `path` as a manifest CSV (lists separated by `;`). */
export async function writeManifestCsv(path: string, count: number, seed = SEED): Promise<void> {
  const out = createWriteStream(path);
  const write = (text: string): Promise<void> | undefined =>
    out.write(text) ? undefined : new Promise((resolve) => out.once('drain', resolve));
  await write(`${MANIFEST_COLUMNS.join(',')}\r\n`);
  for (const a of generateAssets(count, seed)) {
    const cells = [
      a.id,
      a.version,
      a.source,
      a.url,
      String(a.workspaceId),
      a.channels.join(';'),
      a.brands.join(';'),
      a.markets.join(';'),
      a.name,
    ];
    await write(`${cells.map(quote).join(',')}\r\n`);
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}
