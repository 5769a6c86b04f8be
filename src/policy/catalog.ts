/**
 * The catalog as the admission policies see it: its instance types and preferences by name, class and family (with the names the release lock removed), the generator's policy options, and the profiles that allow nothing.
 */

import { removedNames, type RemovedName } from '../suggest';
import { diag, type Diagnostic } from '../diagnostics';
import { locate, type SourceDoc } from '../load/source';
import {
  type PolicyEntry,
  type PolicyCatalog,
  knownOf,
  isKnown,
  type PolicyProfile,
  type PolicyOptions,
  DEFAULT_POLICY_OPTIONS,
  type Which,
  CLUSTER_KIND,
} from './index';

/** The policy's view of a generator's rendered objects: the cluster-wide ones, with family, class and deprecation. */
export function policyCatalogOf(
  objects: readonly {
    readonly manifest: { readonly kind: string; readonly metadata: { readonly name: string } };
    readonly source: {
      readonly kind: string;
      readonly deprecated?: { readonly replacement?: string | undefined } | undefined;
      readonly family?: string;
      readonly version?: string | undefined;
      readonly class?: string;
    };
  }[],
  otherNames: readonly string[] = [],
  locked: Parameters<typeof removedNames>[0] = [],
): PolicyCatalog {
  const entry = (o: (typeof objects)[number]): PolicyEntry => {
    const src = o.source;
    const deprecated = src.deprecated ? { deprecated: src.deprecated.replacement !== undefined ? { replacement: src.deprecated.replacement } : {} } : {};
    const families = src.family !== undefined ? [...new Set([src.family, `${src.family}${src.version ?? ''}`])] : undefined;
    return { name: o.manifest.metadata.name, ...(families ? { families } : {}), ...(src.class !== undefined ? { class: src.class } : {}), ...deprecated };
  };
  const byName = (a: PolicyEntry, b: PolicyEntry): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const catalog: PolicyCatalog = {
    instancetypes: objects
      .filter((o) => o.manifest.kind === CLUSTER_KIND.instancetype)
      .map(entry)
      .sort(byName),
    preferences: objects
      .filter((o) => o.manifest.kind === CLUSTER_KIND.preference)
      .map(entry)
      .sort(byName),
    ...(otherNames.length > 0 ? { otherNames: [...otherNames] } : {}),
  };
  const removedOf = (which: Which): RemovedName[] => removedNames(locked, CLUSTER_KIND[which], new Set(knownOf(catalog, which).names));
  const removed = { instancetype: removedOf('instancetype'), preference: removedOf('preference') };
  return removed.instancetype.length + removed.preference.length > 0 ? { ...catalog, removed } : catalog;
}

/** A generator's `policy:` block as options (its defaults filled in by the schema). */
export function policyOptionsOf(
  generator: string,
  written: {
    readonly deprecated?: 'warn' | 'deny' | undefined;
    readonly requireInstancetype?: boolean | undefined;
    readonly requirePreference?: boolean | undefined;
    readonly profiles?: Readonly<Record<string, PolicyProfile>> | undefined;
    readonly kubevirtNamespace?: string | undefined;
    readonly paramsNamespace?: string | undefined;
  },
): PolicyOptions {
  const kubevirtNamespace = written.kubevirtNamespace ?? DEFAULT_POLICY_OPTIONS.kubevirtNamespace;
  return {
    prefix: `itgen.${generator}`,
    kubevirtNamespace,
    deprecated: written.deprecated ?? 'warn',
    requireInstancetype: written.requireInstancetype ?? false,
    requirePreference: written.requirePreference ?? false,
    profiles: written.profiles ?? {},
    paramsNamespace: written.paramsNamespace ?? kubevirtNamespace,
  };
}

/** Profile entries the catalog has nothing for: a class or family no instance type has, a name it lacks. */
export function profileProblems(
  catalog: PolicyCatalog,
  opts: PolicyOptions,
): { profile: string; key: 'classes' | 'families' | 'names'; index: number; value: string }[] {
  const out: { profile: string; key: 'classes' | 'families' | 'names'; index: number; value: string }[] = [];
  const known = knownOf(catalog, 'instancetype');
  for (const [profile, p] of Object.entries(opts.profiles)) {
    (p.classes ?? []).forEach((v, index) => {
      if (!catalog.instancetypes.some((e) => e.class === v)) out.push({ profile, key: 'classes', index, value: v });
    });
    (p.families ?? []).forEach((v, index) => {
      if (!catalog.instancetypes.some((e) => (e.families ?? []).includes(v))) out.push({ profile, key: 'families', index, value: v });
    });
    (p.names ?? []).forEach((v, index) => {
      if (!isKnown(v, known)) out.push({ profile, key: 'names', index, value: v });
    });
  }
  return out;
}

/** IT5017 for each profile entry the catalog has nothing for, at the generator's `policy.profiles` entry. */
export function profileDiagnostics(catalog: PolicyCatalog, opts: PolicyOptions, generatorSrc: SourceDoc): Diagnostic[] {
  return profileProblems(catalog, opts).map((p) =>
    diag(
      'IT5017',
      `policy profile \`${p.profile}\`: no instance type of the catalog has the ${p.key === 'classes' ? 'class' : p.key === 'families' ? 'family' : 'name'} \`${p.value}\``,
      locate(generatorSrc, ['policy', 'profiles', p.profile, p.key, p.index]),
      {
        severity: 'warning',
        hint: 'the profile allows nothing by it; check the spelling against `itgen explain` or the generated README',
      },
    ),
  );
}
