/**
 * Preferences: inheritance from bases and fragments at one level, the architecture dimension and
 * variants, display names and metadata from templates, each spec with provenance.
 */
import { type JsonObject } from '../json';
import { diag, didYouMean } from '../diagnostics';
import { locate, type PathSegment, type SourceDoc } from '../load/source';
import { type TextContext } from './text';
import type { WrittenCatalog, WrittenPreference, WrittenPreferenceFragment } from '../schema/catalog';
import type { Architecture } from '../schema/kubevirt-api';
import { mayBeDeclared, type Declared, type WrittenModel } from '../schema/documents';
import { fromLeaves, leaf, leafKey, mergeLevel, overlay, toLeaves, type Leaf, type Leaves, type Origin } from './leaves';
import type { ResolvedPreference } from './types';
import { checkName, expandPattern } from './naming';
import { conflictDiagnostic, fragmentLeaves, renderOr, renderMap, type Sink } from './common';
import { Inheritance, type PrefBase } from './inheritance';

// ---------------------------------------------------------------------------------------------
// Preferences: inheritance, fragments, architecture dimension

interface VariantUse {
  readonly name: string;
  /** Position in the preference's `variants` list. */
  readonly index: number;
  readonly fragment: Declared<WrittenPreferenceFragment>;
}

export function resolvePreferences(model: WrittenModel, out: Sink): ResolvedPreference[] {
  const cat = model.catalog!.value;
  const inheritance = new Inheritance(model, out);
  const emitted: ResolvedPreference[] = [];
  for (const name of [...model.preferences.keys()].sort()) {
    const base = inheritance.resolve(name);
    const decl = model.preferences.get(name)!;
    const p = decl.value;
    if (!base || p.abstract) continue;
    if (p.displayName === undefined) {
      out.push(
        diag('IT1204', `preference \`${name}\` needs a \`displayName\` (display names are never inherited)`, locate(decl.src, ['name']), {
          hint: 'add `displayName:`, or mark the preference `abstract: true` if it is only a base',
        }),
      );
      continue;
    }
    if (reportLostOverrides(model, name, p.architectures ?? [cat.defaultArchitecture], out)) continue;
    // Overrides apply to the architectures the preference names: without any, none would apply.
    const elsewhere = Object.keys(p.architectureOverrides ?? {}).filter((a) => a !== cat.defaultArchitecture);
    if (p.architectures === undefined && elsewhere.length > 0) {
      const arch = elsewhere[0]!;
      out.push(
        diag(
          'IT2022',
          `preference \`${name}\` names no \`architectures\`: its one object is for the catalog's ${cat.defaultArchitecture}, and its ${arch} override (${overrideFields(model, p.architectureOverrides![arch as Architecture]).join(', ') || 'empty'}) would silently be lost`,
          locate(decl.src, ['architectureOverrides', arch]),
          { hint: `name the architectures it is for: \`architectures: [${[cat.defaultArchitecture, ...elsewhere].join(', ')}]\`` },
        ),
      );
      continue;
    }
    const scope: PreferenceScope = { model, decl, base, displayName: p.displayName, what: `preference \`${name}\``, out };
    const variants = variantUses(model, decl, out);
    const usedVariants = new Set<number>();
    const arches: (Architecture | undefined)[] = p.architectures ? [...new Set(p.architectures)] : [undefined];
    for (const arch of arches) {
      const level = architectureLevel(scope, arch);
      if (!level) continue;
      for (const v of [undefined, ...variants]) {
        if (v !== undefined && arch !== undefined && !(v.fragment.value.variant?.architectures ?? [cat.defaultArchitecture]).includes(arch)) continue;
        if (v !== undefined) usedVariants.add(v.index);
        const object = preferenceObject(scope, level, v);
        if (object) emitted.push(object);
      }
    }
    reportUnusedVariants(scope, variants, usedVariants);
  }
  return emitted;
}

/** What the objects of one preference share. */
interface PreferenceScope {
  readonly model: WrittenModel;
  readonly decl: Declared<WrittenPreference>;
  readonly base: PrefBase;
  readonly displayName: string;
  readonly what: string;
  readonly out: Sink;
}

/** One architecture of a preference (or the preference without one): its spec so far, name and pinned fields. */
interface ArchitectureLevel {
  readonly arch: Architecture | undefined;
  readonly archName: string;
  readonly leaves: Leaves;
  /** `preferredArchitecture` and `requirements.architecture`, laid over everything else. */
  readonly archLeaves: Leaves;
  readonly override: NonNullable<WrittenPreference['architectureOverrides']>[Architecture] | undefined;
  /** The architecture whose override `override` is (the default one for a preference that names none). */
  readonly overrideArch: Architecture;
}

/** The architecture level: the preference, its override for this architecture, its name; undefined after reporting a bad name pattern. */
function architectureLevel(scope: PreferenceScope, arch: Architecture | undefined): ArchitectureLevel | undefined {
  const { model, decl, base, what, out } = scope;
  const cat = model.catalog!.value;
  const p = decl.value;
  let leaves: Leaves = base.leaves;
  let archName = p.name;
  const archLeaves = new Map<string, Leaf>();
  // A preference that names no architectures is one object, of the catalog's default architecture:
  // its override for that architecture applies to it (as inheritance's IT2022 check reasons).
  const overrideArch = arch ?? cat.defaultArchitecture;
  const ov = p.architectureOverrides?.[overrideArch];
  if (ov) {
    const ovWhat = `${overrideArch} override of ${what}`;
    const inc = mergeLevel(fragmentLeaves(model, ov.include, decl, ['architectureOverrides', overrideArch, 'include'], out, 'preference'));
    for (const c of inc.conflicts) out.push(conflictDiagnostic(c, ovWhat));
    leaves = overlay(
      overlay(leaves, inc.leaves),
      toLeaves(ov.spec as JsonObject | undefined, decl.src, ['architectureOverrides', overrideArch, 'spec'], ovWhat),
    );
  }
  if (arch !== undefined) {
    const ai = p.architectures!.indexOf(arch);
    const archOrigin: Origin = { src: decl.src, path: ['architectures', ai], what: `architecture \`${arch}\` of ${what}` };
    archLeaves.set(leafKey(['preferredArchitecture']), leaf(['preferredArchitecture'], arch, archOrigin));
    archLeaves.set(leafKey(['requirements', 'architecture']), leaf(['requirements', 'architecture'], arch, archOrigin));
    if (arch !== cat.defaultArchitecture) {
      const n = expandPattern(cat.naming.architecture, { name: p.name, arch });
      if (!n.ok) {
        out.push(
          diag('IT2011', `architecture name pattern \`${cat.naming.architecture}\`: ${n.error}`, locate(model.catalog!.src, ['naming', 'architecture'])),
        );
        return undefined;
      }
      archName = n.text;
    }
  }
  return { arch, archName, leaves, archLeaves, override: ov, overrideArch };
}

/**
 * One object: an architecture level of a preference, or a variant of it; undefined after reporting a bad name.
 *
 * Over 80 lines: a preference resolved in the documented precedence (bases, fragments, own spec, variants).
 */
function preferenceObject(scope: PreferenceScope, level: ArchitectureLevel, v: VariantUse | undefined): ResolvedPreference | undefined {
  const { model, decl, base, what, out } = scope;
  const cat = model.catalog!.value;
  const catSrc = model.catalog!.src;
  const p = decl.value;
  const { arch, archName, override: ov } = level;
  let catalogName = archName;
  if (v !== undefined) {
    const n = expandPattern(cat.naming.variant, { name: archName, variant: v.name });
    if (!n.ok) {
      out.push(diag('IT2011', `variant name pattern \`${cat.naming.variant}\`: ${n.error}`, locate(catSrc, ['naming', 'variant'])));
      return undefined;
    }
    catalogName = n.text;
  }
  const named = expandPattern(cat.naming.preference, { name: catalogName });
  if (!named.ok) {
    out.push(diag('IT2011', `preference name pattern \`${cat.naming.preference}\`: ${named.error}`, locate(catSrc, ['naming', 'preference'])));
    return undefined;
  }
  if (!checkName(named.text, out, locate(decl.src, v !== undefined ? ['variants', v.index] : ['name']), cat.naming.preference)) return undefined;

  // Text variables: the preference's, then the variant's (whose values may use the preference's).
  // One context object per stage, its display name set for each template: rendering reads it
  // and keeps nothing, and a copy per template was most of the cost of a catalog's text.
  const vars: Record<string, string> = { ...base.vars };
  const withVars = (): Record<string, string | undefined> => ({
    ...vars,
    name: named.text,
    catalogName,
    displayName: scope.displayName,
    arch,
    variant: v?.name,
  });
  let context = withVars();
  const textCtx = (displayName: string): TextContext => {
    context['displayName'] = displayName;
    return context;
  };
  if (v !== undefined) {
    const own = v.fragment.value.variant?.vars ?? {};
    const rendered: Record<string, string> = {};
    for (const k of Object.keys(own)) rendered[k] = renderOr(own[k]!, textCtx(scope.displayName), out, v.fragment.src, ['variant', 'vars', k]);
    Object.assign(vars, rendered);
    context = withVars();
  }

  // Display name: the preference's, made the variant's, then given its architecture. Each
  // template is rendered once, where it is written, so text coming from variables is never
  // read as a template and errors point at the right line.
  let displayName = renderOr(scope.displayName, textCtx(scope.displayName), out, decl.src, ['displayName']);
  if (v !== undefined) {
    const own = v.fragment.value.variant?.displayName;
    displayName =
      own !== undefined
        ? renderOr(own, textCtx(displayName), out, v.fragment.src, ['variant', 'displayName'])
        : renderOr(cat.naming.variantDisplayName, textCtx(displayName), out, catSrc, ['naming', 'variantDisplayName']);
  }
  if (v === undefined && ov?.displayName !== undefined) {
    displayName = renderOr(ov.displayName, textCtx(displayName), out, decl.src, ['architectureOverrides', level.overrideArch, 'displayName']);
  } else {
    const pattern = architectureDisplayPattern(model.catalog!, arch, v);
    if (pattern) {
      const withArch = renderOr(pattern.template, textCtx(displayName), out, pattern.src, pattern.path);
      // A display name that names its architecture already would name it twice (`Fedora (arm64) (arm64)`): kept as written, and said.
      const marker = `(${arch})`;
      if (arch !== undefined && displayName.includes(marker) && withArch.split(marker).length > displayName.split(marker).length) {
        const written = (decl.src.value as { displayName?: unknown } | null)?.displayName !== undefined;
        out.push(
          diag(
            'IT2026',
            `display name \`${displayName}\` names its architecture already; the pattern \`${pattern.template}\` would add \`${marker}\` again, so it is kept as written`,
            locate(written ? decl.src : pattern.src, written ? ['displayName'] : pattern.path),
            {
              severity: 'warning',
              hint: `leave the architecture out of the display name (the pattern adds it), or give this preference the display name of each architecture in architectureOverrides.${arch}.displayName`,
            },
          ),
        );
      } else displayName = withArch;
    }
  }

  let objectLeaves: Leaves = level.leaves;
  if (v !== undefined) {
    objectLeaves = overlay(objectLeaves, toLeaves(v.fragment.value.spec as JsonObject, v.fragment.src, ['spec'], `variant \`${v.name}\` of ${what}`));
  }
  objectLeaves = overlay(objectLeaves, level.archLeaves);

  const ctx = textCtx(displayName);
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  renderMap(cat.preferences?.labels, ctx, out, catSrc, ['preferences', 'labels'], labels);
  renderMap(cat.preferences?.annotations, ctx, out, catSrc, ['preferences', 'annotations'], annotations);
  renderMap(base.labels, ctx, out, decl.src, ['labels'], labels);
  renderMap(base.annotations, ctx, out, decl.src, ['annotations'], annotations);
  return {
    kind: 'preference',
    name: named.text,
    catalogName,
    architecture: arch,
    variant: v?.name,
    displayName,
    icon: base.icon,
    inherits: p.inherits ?? [],
    include: p.include ?? [],
    spec: fromLeaves(objectLeaves),
    labels,
    annotations,
    deprecated: p.deprecated,
    origin: {
      src: decl.src,
      path: v !== undefined ? ['variants', v.index] : arch !== undefined ? ['architectures', p.architectures!.indexOf(arch)] : ['name'],
      what: v !== undefined ? `variant \`${v.name}\` of ${what}` : what,
    },
    leaves: objectLeaves,
  };
}

/** IT1203 for a variant that applies to none of the preference's architectures. */
function reportUnusedVariants(scope: PreferenceScope, variants: readonly VariantUse[], used: ReadonlySet<number>): void {
  const { decl, what, out } = scope;
  const cat = scope.model.catalog!.value;
  for (const v of variants) {
    if (used.has(v.index)) continue;
    const archs = v.fragment.value.variant?.architectures ?? [cat.defaultArchitecture];
    out.push(
      diag(
        'IT1203',
        `variant \`${v.name}\` of ${what} makes no object: it applies to ${archs.join(', ')}, and the preference has ${(decl.value.architectures ?? []).join(', ')}`,
        locate(decl.src, ['variants', v.index]),
        {
          hint: `add ${archs.length === 1 ? archs[0] : `one of ${archs.join(', ')}`} to \`architectures\`, or set \`variant.architectures\` in fragment \`${v.name}\``,
        },
      ),
    );
  }
}

/**
 * How an architecture enters an object's display name: the variant's own pattern, else the
 * catalog's (`architectureDisplayName`, or `defaultArchitectureDisplayName` for the default
 * architecture, which keeps the plain display name when that is unset).
 */
function architectureDisplayPattern(
  catalog: Declared<WrittenCatalog>,
  arch: Architecture | undefined,
  v: VariantUse | undefined,
): { template: string; src: SourceDoc; path: PathSegment[] } | undefined {
  if (arch === undefined) return undefined;
  const own = v?.fragment.value.variant?.architectureDisplayName;
  if (v !== undefined && own !== undefined) return { template: own, src: v.fragment.src, path: ['variant', 'architectureDisplayName'] };
  const naming = catalog.value.naming;
  if (arch !== catalog.value.defaultArchitecture)
    return { template: naming.architectureDisplayName, src: catalog.src, path: ['naming', 'architectureDisplayName'] };
  return naming.defaultArchitectureDisplayName !== undefined
    ? { template: naming.defaultArchitectureDisplayName, src: catalog.src, path: ['naming', 'defaultArchitectureDisplayName'] }
    : undefined;
}

/** The fragments a preference lists in `variants`, each known; unknown names are reported. */
function variantUses(model: WrittenModel, decl: Declared<WrittenPreference>, out: Sink): VariantUse[] {
  const uses: VariantUse[] = [];
  (decl.value.variants ?? []).forEach((n, index) => {
    const fragment = model.preferenceFragments.get(n);
    if (fragment) {
      uses.push({ name: n, index, fragment });
      return;
    }
    if (mayBeDeclared(model, 'PreferenceFragment', n)) return;
    out.push(
      diag('IT2002', `unknown PreferenceFragment \`${n}\` in \`variants\``, locate(decl.src, ['variants', index]), {
        hint: didYouMean(n, model.preferenceFragments.keys()) ?? `declared: ${[...model.preferenceFragments.keys()].sort().join(', ') || 'none'}`,
      }),
    );
  });
  return uses;
}

/**
 * Inheritance carries a base's spec, not its `architectureOverrides`: a preference that inherits
 * from one with an override for an architecture it produces, and overrides nothing there itself,
 * would silently lose that override (Secure Boot and SMM on amd64, say). IT2022, at the `inherits`
 * entry, naming the base, the architecture and the fields that would be lost. True when reported.
 */
function reportLostOverrides(model: WrittenModel, name: string, arches: readonly Architecture[], out: Sink): boolean {
  const decl = model.preferences.get(name)!;
  const own = decl.value.architectureOverrides ?? {};
  let reported = false;
  (decl.value.inherits ?? []).forEach((first, i) => {
    const seen = new Set<string>();
    const queue = [first];
    while (queue.length > 0) {
      const b = queue.shift()!;
      if (seen.has(b)) continue;
      seen.add(b);
      const bd = model.preferences.get(b);
      if (!bd) continue;
      for (const arch of arches) {
        const ov = bd.value.architectureOverrides?.[arch];
        if (ov === undefined || own[arch] !== undefined) continue;
        const fields = overrideFields(model, ov);
        out.push(
          diag(
            'IT2022',
            `preference \`${name}\` inherits \`${b}\`, whose ${arch} override${fields.length > 0 ? ` (${fields.join(', ')})` : ''} inheritance does not carry: its ${arch} object would silently lose it`,
            locate(decl.src, ['inherits', i]),
            {
              hint: `repeat what it needs under architectureOverrides: {${arch}: ...} of \`${name}\` (or include a fragment holding it there)`,
            },
          ),
        );
        reported = true;
      }
      queue.push(...(bd.value.inherits ?? []));
    }
  });
  return reported;
}

/** The fields an override sets, its fragments' first (as it merges them), at most four. */
function overrideFields(model: WrittenModel, ov: { readonly include?: readonly string[] | undefined; readonly spec?: unknown } | undefined): string[] {
  if (!ov) return [];
  const fromFragments = (ov.include ?? []).flatMap((n) => leafPaths(model.preferenceFragments.get(n)?.value.spec ?? {}));
  return [...new Set([...fromFragments, ...leafPaths(ov.spec ?? {})])].slice(0, 4);
}

function leafPaths(v: unknown, prefix = ''): string[] {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length === 0) return prefix === '' ? [] : [prefix];
  return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => leafPaths(x, prefix === '' ? k : `${prefix}.${k}`));
}
