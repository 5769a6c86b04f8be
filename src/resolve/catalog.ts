/** Resolution: the written model becomes the resolved catalog (families.ts, preferences.ts), names checked unique. */
import { diag, type Diagnostic } from '../diagnostics';
import { locate } from '../load/source';
import { type WrittenModel } from '../schema/documents';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from './types';
import { resolveFamilies } from './families';
import { resolvePreferences } from './preferences';
import type { Sink } from './common';
import { byText } from '../order';

export function resolveCatalog(model: WrittenModel): { catalog: ResolvedCatalog | undefined; diagnostics: Diagnostic[] } {
  const out: Sink = [];
  const cat = model.catalog;
  if (!cat) return { catalog: undefined, diagnostics: out };
  const instancetypes = sizedReplacements(resolveFamilies(model, out));
  const preferences = resolvePreferences(model, out);
  checkDuplicateNames([...instancetypes, ...preferences], out);
  return {
    catalog: {
      name: cat.value.name,
      ...(cat.value.follows !== undefined ? { follows: cat.value.follows } : {}),
      ...((cat.value.imports ?? []).length > 0 ? { imports: true } : {}),
      defaultArchitecture: cat.value.defaultArchitecture,
      ...(cat.value.words !== undefined ? { words: cat.value.words } : {}),
      instancetypes: [...instancetypes].sort(byText((x) => x.name)),
      preferences: [...preferences].sort(byText((x) => x.name)),
    },
    diagnostics: out,
  };
}

function checkDuplicateNames(objects: readonly (ResolvedInstancetype | ResolvedPreference)[], out: Sink): void {
  const seen = new Map<string, ResolvedInstancetype | ResolvedPreference>();
  for (const o of objects) {
    const key = `${o.kind}/${o.name}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, o);
      continue;
    }
    out.push(
      diag(
        'IT2006',
        `${o.kind === 'instancetype' ? 'instance type' : 'preference'} name \`${o.name}\` is produced twice`,
        locate(o.origin.src, o.origin.path),
        {
          hint: 'two declarations expand to the same object name; change a name pattern, a size or a variant suffix',
          related: [{ message: 'also produced from here', location: locate(first.origin.src, first.origin.path) }],
        },
      ),
    );
  }
}

/**
 * A family deprecated in favour of another family: each size's replacement becomes that family's
 * object of the same size (and variant), so `o1.large` says `use hm1.large`, not `use hm1`. Where
 * the replacement family has no such size, the family name stays, and the catalog rule
 * `deprecation-replacement-size` warns (IT5016).
 */
function sizedReplacements(instancetypes: ResolvedInstancetype[]): ResolvedInstancetype[] {
  const names = new Set(instancetypes.map((it) => it.name));
  const byFamily = new Map<string, ResolvedInstancetype[]>();
  for (const it of instancetypes)
    for (const key of new Set([it.family, `${it.family}${it.version ?? ''}`])) byFamily.set(key, [...(byFamily.get(key) ?? []), it]);
  return instancetypes.map((it) => {
    const r = it.deprecated?.replacement;
    if (r === undefined || names.has(r)) return it;
    const family = byFamily.get(r);
    const same =
      family?.find((x) => x.ladderSize === it.ladderSize && (x.variant ?? '') === (it.variant ?? '')) ?? family?.find((x) => x.ladderSize === it.ladderSize);
    return same ? { ...it, deprecated: { ...it.deprecated!, replacement: same.name } } : it;
  });
}
