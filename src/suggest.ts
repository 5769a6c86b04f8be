/**
 * The one suggestion for a name that names nothing: the algorithm the generated admission policies
 * run in CEL (SymSpell with distance one, the name in another case first), in TypeScript, for
 * `validate` and the policy's own judge alike. Docs: docs/design.md, the admission policies.
 */
/** Names longer than this get no suggestion (the policies' CEL iterates over a literal list of positions). */
export const SUGGEST_MAX = 63;

/** Every string one deletion away from `s` (by code point), in order. */
export function deletions(s: string): string[] {
  const chars = [...s];
  return chars.map((_, i) => [...chars.slice(0, i), ...chars.slice(i + 1)].join(''));
}

/**
 * The one suggestion for a name that names nothing, in `validate` and in the generated admission
 * policies' CEL alike: the name in another case, or `name` is one deletion of a known name (a letter dropped), or one of `name`'s deletions is a known name (a letter added), or
 * they share a deletion (a letter changed, two letters swapped); the first in the catalog's sorted
 * order wins. '' when none, or when `name` is longer than SUGGEST_MAX.
 */
export function nearestName(name: string, known: readonly string[]): string {
  const index = deletionIndex(known);
  if ([...name].length > SUGGEST_MAX) return '';
  const set = new Set(known);
  // The name in another case (`M1.xlarge`): ASCII letters folded, as CEL's lowerAscii() does.
  const folded = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (folded !== name && set.has(folded)) return folded;
  if (index.has(name)) return index.get(name)!;
  const dels = deletions(name);
  const added = dels.find((d) => set.has(d));
  if (added !== undefined) return added;
  const shared = dels.find((d) => index.has(d));
  return shared !== undefined ? index.get(shared)! : '';
}

/** Deletion -> the first known name (sorted) it comes from. */
export function deletionIndex(known: readonly string[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const n of [...known].sort()) for (const d of deletions(n)) if (d !== '' && !index.has(d)) index.set(d, n);
  return index;
}
