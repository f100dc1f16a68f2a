// Which discovered guideline a score's detail row belongs to. The detail carries no id, and
// the same name can appear twice for one channel (an organization guideline and a workspace
// twin with another weight), so name alone is not enough: the rule text, then the order of
// appearance, tell the twins apart.

export interface GuidelineCandidate {
  id: string;
  name: string;
  rule: string | null;
  channel: string;
  workspaceId: number | null;
}

export interface DetailRow {
  name: string;
  rule: string | null;
  channel: string;
}

/**
 * Matches each detail row to a guideline id, or null. Candidates are the organization's
 * guidelines plus those of the asset's workspace; organization ones come first when the
 * order of appearance has to decide.
 */
export function matchGuidelines(
  rows: readonly DetailRow[],
  candidates: readonly GuidelineCandidate[],
  workspaceId: number | null,
): (string | null)[] {
  const usable = candidates
    .filter((c) => c.workspaceId === null || c.workspaceId === workspaceId)
    .sort((a, b) => Number(a.workspaceId !== null) - Number(b.workspaceId !== null));
  const byKey = new Map<string, GuidelineCandidate[]>();
  for (const c of usable) {
    const key = `${c.channel}\u0000${c.name}`;
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  const taken = new Set<string>();
  return rows.map((row) => {
    const named = byKey.get(`${row.channel}\u0000${row.name}`) ?? [];
    const free = named.filter((c) => !taken.has(c.id));
    const byRule = row.rule === null ? [] : free.filter((c) => c.rule === row.rule);
    const match = byRule[0] ?? free[0] ?? (named.length === 1 ? named[0] : undefined);
    if (!match) return null;
    taken.add(match.id);
    return match.id;
  });
}
