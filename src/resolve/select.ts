/**
 * Vendor options that pick and rename objects: a pure step between resolution and rendering, so
 * that validation, docs, the lock and every output see exactly what the vendor ships.
 */
import { diag, type Diagnostic } from '../diagnostics';
import { locate, type PathSegment, type SourceDoc } from '../load/source';
import type { WrittenGenerator, WrittenSelection } from '../schema/generator';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from './types';

type Dimension = keyof WrittenSelection;

/** A name or a pattern with `*` as a test of names. */
export function matcher(pattern: string): (s: string) => boolean {
  if (!pattern.includes('*')) return (s) => s === pattern;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\-]/g, '\\$&'))
      .join('.*')}$`,
  );
  return (s) => re.test(s);
}

/** The names an object answers to in each dimension. */
export function keys(o: ResolvedInstancetype | ResolvedPreference, dim: Dimension): readonly string[] | undefined {
  if (o.kind === 'instancetype') {
    if (dim === 'families') return [o.family, `${o.family}${o.version ?? ''}`];
    if (dim === 'sizes') return [o.ladderSize, o.size];
    return undefined;
  }
  if (dim === 'preferences') return [declaredName(o), o.catalogName, o.name];
  if (dim === 'architectures') return o.architecture === undefined ? undefined : [o.architecture];
  return undefined;
}

/** The name the preference was declared with, shared by all its architecture variants. */
function declaredName(p: ResolvedPreference): string {
  const value = p.origin.src.value;
  const name = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['name'] : undefined;
  return typeof name === 'string' ? name : p.catalogName;
}

const DIMENSIONS: readonly Dimension[] = ['families', 'sizes', 'preferences', 'architectures'];

export interface SelectOptions {
  readonly include?: WrittenSelection | undefined;
  readonly exclude?: WrittenSelection | undefined;
  readonly namePrefix?: string | undefined;
  readonly nameSuffix?: string | undefined;
  /**
   * The catalog already has errors: objects may be missing because they failed to resolve, so
   * patterns that match nothing and empty kinds would only repeat those errors.
   */
  readonly catalogHasErrors?: boolean;
  /** Kinds that may come out empty (`allowEmpty`); otherwise an empty kind is an error. */
  readonly allowEmpty?: readonly ('instancetypes' | 'preferences')[] | undefined;
}

export function selectOptions(g: WrittenGenerator): SelectOptions {
  return { include: g.include, exclude: g.exclude, namePrefix: g.namePrefix, nameSuffix: g.nameSuffix, allowEmpty: g.allowEmpty };
}

/**
 * Keep what `include` names (each list narrows its own dimension; an object a dimension does not
 * apply to passes it), drop what `exclude` names, then rename. A pattern that matches no object
 * of the catalog is an error: it is almost always a typo, a typo in an exclude list ships what the
 * vendor meant to drop, and one in an include list empties the base, which GitOps tools with
 * pruning turn into deleting every object from the clusters. For the same reason a kind that comes
 * out empty is an error unless the generator says `allowEmpty`.
 */
export function selectCatalog(
  catalog: ResolvedCatalog,
  opts: SelectOptions,
  generatorSrc?: SourceDoc,
): { catalog: ResolvedCatalog; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const all: (ResolvedInstancetype | ResolvedPreference)[] = [...catalog.instancetypes, ...catalog.preferences];
  const at = (path: PathSegment[]): ReturnType<typeof locate> | undefined => (generatorSrc ? locate(generatorSrc, path) : undefined);

  const compiled = (which: 'include' | 'exclude', dim: Dimension): ((o: ResolvedInstancetype | ResolvedPreference) => boolean | undefined) | undefined => {
    const list = opts[which]?.[dim];
    if (list === undefined) return undefined;
    const tests = list.map((p) => ({ p, m: matcher(p) }));
    tests.forEach(({ p, m }, i) => {
      if (!opts.catalogHasErrors && !all.some((o) => keys(o, dim)?.some(m))) {
        diagnostics.push(
          diag('IT7201', `${which}.${dim}: \`${p}\` matches nothing in catalog \`${catalog.name}\``, at([which, dim, i]), {
            hint: `check the spelling; ${dim} are matched by name, \`*\` is a wildcard`,
          }),
        );
      }
    });
    return (o) => {
      const k = keys(o, dim);
      if (k === undefined) return undefined;
      return tests.some(({ m }) => k.some(m));
    };
  };

  const includes = DIMENSIONS.map((d) => compiled('include', d)).filter((f) => f !== undefined);
  const excludes = DIMENSIONS.map((d) => compiled('exclude', d)).filter((f) => f !== undefined);
  const keep = (o: ResolvedInstancetype | ResolvedPreference): boolean => includes.every((f) => f(o) !== false) && !excludes.some((f) => f(o) === true);

  const prefix = opts.namePrefix ?? '';
  const suffix = opts.nameSuffix ?? '';
  // A catalog names its own objects; the generator's prefix and suffix apply after, to the names and
  // to a deprecation's replacement that names one of them (one written with the prefix still works).
  const catalogNames = new Set([...catalog.instancetypes, ...catalog.preferences].map((o) => o.name));
  const rename = <T extends ResolvedInstancetype | ResolvedPreference>(o: T): T => {
    if (prefix === '' && suffix === '') return o;
    const r = o.deprecated?.replacement;
    const deprecated = r !== undefined && catalogNames.has(r) ? { deprecated: { ...o.deprecated!, replacement: `${prefix}${r}${suffix}` } } : {};
    return { ...o, name: `${prefix}${o.name}${suffix}`, ...deprecated };
  };

  const instancetypes = catalog.instancetypes.filter(keep).map(rename);
  const preferences = catalog.preferences.filter(keep).map(rename);
  const allowed = new Set(opts.allowEmpty ?? []);
  const empty = (['instancetypes', 'preferences'] as const).filter(
    (k) => (k === 'instancetypes' ? instancetypes : preferences).length === 0 && !allowed.has(k),
  );
  // A pattern that matched nothing already explains an empty kind: one mistake, one report.
  if (empty.length > 0 && !opts.catalogHasErrors && !diagnostics.some((d) => d.code === 'IT7201')) {
    const selecting = opts.include !== undefined || opts.exclude !== undefined;
    const why =
      instancetypes.length + preferences.length === 0 && all.length > 0
        ? `the include and exclude lists leave no object of catalog \`${catalog.name}\``
        : `the generator would emit no ${empty.join(' and no ')} (catalog \`${catalog.name}\`${selecting ? ' after include and exclude' : ''})`;
    diagnostics.push(
      diag('IT7202', why, at(opts.include ? ['include'] : opts.exclude ? ['exclude'] : ['catalog']), {
        hint: `an empty base deletes every such object from clusters that sync it with pruning; if that is meant, add \`allowEmpty: [${empty.join(', ')}]\` to the generator`,
      }),
    );
  }
  return { catalog: { ...catalog, instancetypes, preferences }, diagnostics };
}
