/**
 * The words people and agents use with `itgen select` and `itgen mcp`: needs (intents) and guest OS
 * names, the catalogs' own (`Catalog.words`) or built-in ones over the classes and preferences present.
 */
import type { CatalogWords } from '../resolve/types';
import type { SiteData, SitePreference } from '../site';

/** The words people use for a need, and the catalog classes each means (those of the catalog that exist). */
const INTENT_CLASSES: Readonly<Record<string, readonly string[]>> = {
  general: ['general.purpose'],
  'general-purpose': ['general.purpose'],
  overcommitted: ['overcommitted'],
  compute: ['compute.exclusive', 'dedicated.vcpu'],
  'dedicated-compute': ['compute.exclusive', 'dedicated.vcpu'],
  memory: ['memory.intensive'],
  'memory-intensive': ['memory.intensive'],
  network: ['network'],
  realtime: ['realtime'],
  gpu: ['gpu'],
};

export const norm = (w: string): string =>
  w
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

/** What an intent means: classes (`gpu`: any instance type with a GPU) and families. */
export interface IntentMeaning {
  readonly classes: readonly string[];
  readonly families: readonly string[];
}

/**
 * The intents the catalogs answer to: the words they declare (`Catalog.words.intents`), else the
 * built-in words whose classes they have; and each class by its own name.
 */
export function knownIntents(data: SiteData, words: CatalogWords = {}): Map<string, IntentMeaning> {
  const classes = new Set(data.instancetypes.map((i) => i.class).filter((c) => c !== ''));
  const hasGpus = data.instancetypes.some((i) => i.gpus.length > 0);
  const out = new Map<string, IntentMeaning>();
  if (words.intents !== undefined)
    for (const [word, m] of Object.entries(words.intents)) out.set(word, { classes: [...(m.classes ?? [])], families: [...(m.families ?? [])] });
  else
    for (const [word, cs] of Object.entries(INTENT_CLASSES)) {
      const present = cs.filter((c) => classes.has(c) || (c === 'gpu' && hasGpus));
      if (present.length > 0) out.set(word, { classes: present, families: [] });
    }
  for (const c of classes) if (!out.has(c)) out.set(c, { classes: [c], families: [] });
  return out;
}

/** The preference an OS word names (`windows 11`, `win11`, `rhel` for the newest RHEL), on an architecture. */
export function preferenceForWord(
  word: string,
  arch: string | undefined,
  prefs: readonly SitePreference[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  const names = new Set(prefs.filter((p) => !p.deprecated).map((p) => p.name));
  const said = word.trim().toLowerCase().replace(/\s+/g, ' ');
  const aliased = Object.hasOwn(aliases, said) ? aliases[said] : undefined;
  let w = (aliased ?? word).trim().toLowerCase().replace(/\s+/g, '.').replace(/_/g, '.');
  w = w.replace(/^win(?:dows)?\.?(\d|2k)/, 'windows.$1').replace(/^(rhel|centos\.stream|ubuntu|debian|fedora)(\d)/, '$1.$2');
  if (w.startsWith('centos.stream.')) w = w.replace('centos.stream.', 'centos.stream');
  const suffix = arch === undefined || arch === 'amd64' ? '' : `.${arch}`;
  if (names.has(`${w}${suffix}`)) return `${w}${suffix}`;
  // A family word: its newest version (`rhel` -> rhel.10).
  const versions = [...names]
    .map((n) => new RegExp(`^${w.replace(/[.]/g, '\\.')}\\.?(\\d+)${suffix.replace('.', '\\.')}$`).exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(b[1]) - Number(a[1]));
  return versions[0]?.[0];
}
