// A list cell (brands, markets, channels) as people write it: a JSON array, or text separated
// by `;`, `|` or `,`.

/** Trimmed, empty items dropped, de-duplicated; anything that is not a list is handed back for the schema to reject. */
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
  const kept: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string' && typeof item !== 'number') return value;
    const text = String(item).trim();
    // Lists are short: a scan beats building a Set for each cell.
    if (text !== '' && !kept.includes(text)) kept.push(text);
  }
  return kept;
}
