import { closest, diag, didYouMean, type Diagnostic } from '../diagnostics';
import { locate, type SourceDoc } from '../load/source';
import type {
  CatalogKind,
  WrittenCatalog,
  WrittenFamily,
  WrittenInstancetypeFragment,
  WrittenPreference,
  WrittenPreferenceFragment,
  WrittenSizeLadder,
} from './catalog';
import { checkDocument, strict } from './lazy';
import { CATALOG_KIND_NAMES } from './names';

/** A written declaration and the document it came from (for positions). */
export interface Declared<T> {
  readonly value: T;
  readonly src: SourceDoc;
}

/** Everything a catalog declares, keyed by name; schema-valid, not yet resolved. */
export interface WrittenModel {
  readonly catalog: Declared<WrittenCatalog> | undefined;
  readonly ladders: ReadonlyMap<string, Declared<WrittenSizeLadder>>;
  /** Keyed by name, or name and version when the family has one (`m` v1 beside `m` v2). */
  readonly families: ReadonlyMap<string, Declared<WrittenFamily>>;
  readonly instancetypeFragments: ReadonlyMap<string, Declared<WrittenInstancetypeFragment>>;
  readonly preferenceFragments: ReadonlyMap<string, Declared<WrittenPreferenceFragment>>;
  readonly preferences: ReadonlyMap<string, Declared<WrittenPreference>>;
  /**
   * Names of declarations that failed their schema check, by kind. They are already reported;
   * resolution treats references to them as known so that one typo does not cascade into
   * "unknown base" errors everywhere it is used.
   */
  readonly rejected: { readonly [K in CatalogKind]: ReadonlySet<string> };
  /** A catalog file could not be read at all: any name may be declared there. */
  readonly incomplete: boolean;
}

/**
 * Whether a reference to `name` may be to a declaration that exists but was already reported as
 * broken, so that resolution should stay quiet about it rather than call it unknown.
 */
export function mayBeDeclared(model: WrittenModel, kind: CatalogKind, name: string): boolean {
  return model.incomplete || model.rejected[kind].has(name);
}

function order(a: SourceDoc, b: SourceDoc): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.index - b.index;
}

/**
 * Check every document against its kind's strict schema and index declarations by name.
 *
 * Over 80 lines: one switch over the document kinds of a catalog.
 */
export function readDocuments(docs: readonly SourceDoc[]): { model: WrittenModel; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const sorted = [...docs].sort(order);
  const buckets: { [K in CatalogKind]: Map<string, Declared<unknown>> } = {
    Catalog: new Map(),
    SizeLadder: new Map(),
    Family: new Map(),
    InstancetypeFragment: new Map(),
    PreferenceFragment: new Map(),
    Preference: new Map(),
  };
  const rejected: { [K in CatalogKind]: Set<string> } = {
    Catalog: new Set(),
    SizeLadder: new Set(),
    Family: new Set(),
    InstancetypeFragment: new Set(),
    PreferenceFragment: new Set(),
    Preference: new Set(),
  };
  const kinds: readonly CatalogKind[] = CATALOG_KIND_NAMES;
  const isKind = (k: unknown): k is CatalogKind => typeof k === 'string' && (kinds as readonly string[]).includes(k);
  let incomplete = false;
  for (const src of sorted) {
    if (src.broken !== undefined) {
      // Already reported by the loader; remember what it may have declared.
      const b = src.broken;
      const kind = b === 'opaque' || b.kind === undefined ? undefined : isKind(b.kind) ? b.kind : (closest(b.kind, kinds) as CatalogKind | undefined);
      if (b === 'opaque' || kind === undefined || b.name === undefined) incomplete = true;
      else rejected[kind].add(b.name);
      continue;
    }
    const raw = src.value as Record<string, unknown>;
    const kind = raw['kind'];
    if (!isKind(kind)) {
      const typo = kind === undefined ? strict().misspeltKey(raw, 'kind') : undefined;
      const hint = typeof kind === 'string' ? didYouMean(kind, kinds) : typo !== undefined ? 'did you mean `kind`?' : undefined;
      diagnostics.push(
        diag(
          'IT1201',
          kind === undefined
            ? typo !== undefined
              ? `document has no \`kind\` (found \`${typo}\`)`
              : 'document has no `kind`'
            : `unknown kind ${JSON.stringify(kind)}`,
          locate(src, kind === undefined ? (typo !== undefined ? [typo] : []) : ['kind'], { key: typo !== undefined }),
          { hint: hint ?? `a catalog document is one of: ${kinds.join(', ')}` },
        ),
      );
      // `kind: Preferense` is most likely a Preference: keep its name from cascading as "unknown".
      const guess = typeof kind === 'string' ? closest(kind, kinds) : undefined;
      if (guess !== undefined) rejected[guess as CatalogKind].add(typeof raw['name'] === 'string' ? raw['name'] : '');
      continue;
    }
    const k = kind;
    const checked = checkDocument(`catalog:${k}`, src, (zod) => zod.CATALOG_KINDS[k]);
    if (!checked.ok) {
      diagnostics.push(...checked.diagnostics);
      const name = raw['name'];
      rejected[k].add(typeof name === 'string' ? name : '');
      continue;
    }
    const value = checked.data as { name: string; version?: string };
    const bucket = buckets[k];
    // Families are keyed by name and version: `m` version 1 and `m` version 2 live side by side
    // while the older one is deprecated (a published spec never changes in place).
    const key = k === 'Family' && value.version !== undefined ? `${value.name}\u0000${value.version}` : value.name;
    const earlier = bucket.get(key);
    if (earlier) {
      const what = k === 'Family' && value.version !== undefined ? `${k} \`${value.name}\` version ${value.version}` : `${k} \`${value.name}\``;
      diagnostics.push(
        diag('IT2007', `${what} is declared twice`, locate(src, ['name']), {
          hint:
            k === 'Family'
              ? 'a family is unique by name and version; bump `version` for a new generation, or rename'
              : 'names are unique per kind within a catalog; rename or delete one',
          related: [{ message: 'first declared here', location: locate(earlier.src, ['name']) }],
        }),
      );
      continue;
    }
    bucket.set(key, { value, src });
  }
  const catalogs = [...buckets.Catalog.values()];
  if (catalogs.length === 0 && sorted.length > 0 && rejected.Catalog.size === 0 && !incomplete) {
    diagnostics.push(diag('IT2008', 'the catalog has no `kind: Catalog` document', undefined, { hint: 'add one (see docs/design.md)' }));
  } else if (catalogs.length > 1) {
    diagnostics.push(
      diag('IT2008', 'the catalog has more than one `kind: Catalog` document', locate(catalogs[1]!.src, ['kind']), {
        related: [{ message: 'first one', location: locate(catalogs[0]!.src, ['kind']) }],
      }),
    );
  }
  return {
    model: {
      catalog: catalogs[0] as Declared<WrittenCatalog> | undefined,
      ladders: buckets.SizeLadder as Map<string, Declared<WrittenSizeLadder>>,
      families: buckets.Family as Map<string, Declared<WrittenFamily>>,
      instancetypeFragments: buckets.InstancetypeFragment as Map<string, Declared<WrittenInstancetypeFragment>>,
      preferenceFragments: buckets.PreferenceFragment as Map<string, Declared<WrittenPreferenceFragment>>,
      preferences: buckets.Preference as Map<string, Declared<WrittenPreference>>,
      rejected,
      incomplete,
    },
    diagnostics,
  };
}
