/**
 * The one suggestion for a name that names nothing: the algorithm the generated admission policies
 * run in CEL (SymSpell with distance one, the name in another case first), in TypeScript, for
 * `validate` and the policy's own judge alike. Docs: docs/design.md, the admission policies.
 */
/** A removed name's record (the release lock's): the release that removed it and what its deprecation named instead. */
export interface RemovedName {
  readonly name: string;
  readonly release: string;
  readonly replacement: string;
}

/**
 * The one suggestion's words for a removed name whose replacement the cluster has, the same in
 * `validate`, the admission policies' messages and `resize`: "it was removed in v1.2.0: use
 * u1.large instead"; `name` writes the replacement as the output does (a code span in hints).
 */
export const removedWords = (r: Pick<RemovedName, 'release' | 'replacement'>, name: (n: string) => string = (n) => n): string =>
  `it was removed in ${r.release}: use ${name(r.replacement)} instead`;

/**
 * The removed names a cluster's VMs may still give, of one kind: those the lock records removed with
 * a replacement that is among `known`, and that are not known again themselves.
 */
export function removedNames(
  locked: readonly { readonly kind: string; readonly name: string; readonly removed?: string | undefined; readonly replacement?: string | undefined }[],
  kind: string,
  known: ReadonlySet<string>,
): RemovedName[] {
  return locked
    .filter((o) => o.kind === kind && o.removed !== undefined && o.replacement !== undefined && known.has(o.replacement) && !known.has(o.name))
    .map((o) => ({ name: o.name, release: o.removed!, replacement: o.replacement! }));
}

/** Names longer than this get no suggestion (the policies' CEL iterates over a literal list of positions). */
export const SUGGEST_MAX = 63;

/** Every string one deletion away from `s` (by code point), in order. */
export function deletions(s: string): string[] {
  const chars = [...s];
  return chars.map((_, i) => [...chars.slice(0, i), ...chars.slice(i + 1)].join(''));
}

/**
 * The one suggestion for a name that names nothing, in `validate` and in the generated admission
 * policies' CEL alike (src/policy/cel.ts), the known names one edit away: the name in another
 * case; else the least known name with one letter more (a letter dropped); else the first of the
 * name's deletions, by place, that is known (a letter added); else, at the first place where a
 * known name has another letter, or the letters there and at a neighbouring place swapped, the
 * least such name. '' when none, or when `name` is longer than SUGGEST_MAX. Letters are code
 * points; the letters tried are those the known names use.
 */
export function nearestName(name: string, known: readonly string[]): string {
  const chars = [...name];
  if (chars.length > SUGGEST_MAX) return '';
  const set = new Set(known);
  // The name in another case (`M1.xlarge`): ASCII letters folded, as CEL's lowerAscii() does.
  const folded = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (folded !== name && set.has(folded)) return folded;
  const alphabet = [...new Set(known.flatMap((n) => [...n]))];
  const least = (xs: readonly string[]): string | undefined => (xs.length === 0 ? undefined : xs.reduce((a, b) => (b < a ? b : a)));
  const between = (pre: string, post: string): string[] => alphabet.map((c) => pre + c + post).filter((k) => set.has(k));
  const join = (from: number, to?: number): string => chars.slice(from, to).join('');
  if (chars.length > 0) {
    const longer = least(chars.flatMap((_, j) => between(join(0, j), join(j))).concat(between(name, '')));
    if (longer !== undefined) return longer;
  }
  const added = deletions(name).find((d) => set.has(d));
  if (added !== undefined) return added;
  const swapped = (i: number): string[] => {
    if (i < 0 || i + 1 >= chars.length) return [];
    const s = [...join(0, i), chars[i + 1]!, chars[i]!, ...join(i + 2)].join('');
    return set.has(s) ? [s] : [];
  };
  for (let i = 0; i < chars.length; i++) {
    const edited = least([...between(join(0, i), join(i + 1)), ...swapped(i), ...swapped(i - 1)]);
    if (edited !== undefined) return edited;
  }
  return '';
}
