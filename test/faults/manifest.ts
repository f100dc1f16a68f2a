// The manifest the fault tests run on: brands, markets, several channels, and the outcomes
// that are not scores (unsupported, failed, forbidden, a rejected row), so every path is taken.

export const faultManifestHeader = 'id,version,source,url,workspaceId,channels,brands,markets,name';

export function faultManifest(scoredAssets = 14): string {
  const brands = ['Northwind Coffee', 'Northwind Tea', 'Contoso'];
  const markets = ['US', 'UK', 'DE'];
  const channels = ['META;TIKTOK', 'META', 'X;META', 'TIKTOK'];
  const rows = Array.from({ length: scoredAssets }, (_, i) => {
    const ext = i % 3 === 0 ? 'jpg' : 'mp4';
    const workspace = i % 2 === 0 ? '1201' : '';
    return `F-${i + 1},v1,dam,https://cdn.example.com/f${i + 1}.${ext},${workspace},${channels[i % 4]},${brands[i % 3]},${markets[i % 3]},Asset ${i + 1}`;
  });
  return [
    faultManifestHeader,
    ...rows,
    'U-1,v1,dam,https://cdn.example.com/u1.pdf,,META,Contoso,US,Storyboard',
    'X-1,v1,dam,https://cdn.example.com/corrupt/x1.mp4,1201,TIKTOK,Contoso,UK,Broken upload',
    'G-1,v1,,https://cdn.example.com/g1.mp4,9901,META,Globex,US,Theirs',
    ',v1,dam,https://cdn.example.com/none.mp4,,META,Contoso,US,No id',
  ].join('\n');
}

/**
 * The same rows as faultManifest(scoredAssets), split into `parts` files (each with the header),
 * the rows that do not score in the first: for tests that drop files in one at a time.
 */
export function faultManifestParts(scoredAssets: number, parts: number): string[] {
  const [header, ...rows] = faultManifest(scoredAssets).split('\n');
  const scored = rows.slice(0, scoredAssets);
  const others = rows.slice(scoredAssets);
  const size = Math.ceil(scored.length / parts);
  return Array.from({ length: parts }, (_, i) =>
    [header, ...scored.slice(i * size, (i + 1) * size), ...(i === 0 ? others : [])].join('\n'),
  );
}
