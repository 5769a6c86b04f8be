import { diag, didYouMean, type Diagnostic, type SourceRange } from '../diagnostics';
import { locate, type PathSegment, type SourceDoc } from '../load/source';
import { formatBinary, parseQuantity } from '../quantity';
import { renderText, type TextContext } from './text';
import type { WrittenCatalog, WrittenFamily, WrittenPreference, WrittenPreferenceFragment, WrittenSizeLadder } from '../schema/catalog';
import { DNS_SUBDOMAIN_RE, type Architecture } from '../schema/common';
import { mayBeDeclared, type Declared, type WrittenModel } from '../schema/documents';
import { fromLeaves, leaf, leafKey, mergeLevel, overlay, toLeaves, type Conflict, type JsonObject, type Leaf, type Leaves, type Origin } from './leaves';
import { expandPattern } from './patterns';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from './types';

type Sink = Diagnostic[];

function conflictDiagnostic(c: Conflict, objectWhat: string): Diagnostic {
  const field = c.path.join('.');
  return diag(
    'IT2004',
    `\`${field}\` is set to ${JSON.stringify(c.first.value)} by ${c.first.origin.what} and to ${JSON.stringify(c.second.value)} by ${c.second.origin.what}, both merged into ${objectWhat}`,
    locate(c.second.origin.src, c.second.origin.path),
    {
      hint: `sources at the same level must agree; set \`${field}\` in ${objectWhat} itself to decide, or remove it from one source`,
      related: [{ message: `${c.first.origin.what} sets it here`, location: locate(c.first.origin.src, c.first.origin.path) }],
    },
  );
}

function renderOr(template: string, ctx: TextContext, out: Sink, src: Declared<unknown>['src'], path: PathSegment[]): string {
  const r = renderText(template, ctx);
  if (r.ok) return r.text;
  out.push(
    diag('IT2009', `template error: ${r.error}`, locate(src, path), {
      hint: `free text may use only these variables: ${Object.keys(ctx)
        .filter((k) => ctx[k] !== undefined)
        .map((k) => `{{${k}}}`)
        .join(', ')}`,
    }),
  );
  return template;
}

function renderMap(
  map: Readonly<Record<string, string>> | undefined,
  ctx: TextContext,
  out: Sink,
  src: Declared<unknown>['src'],
  path: PathSegment[],
  into: Record<string, string>,
): void {
  if (!map) return;
  for (const k of Object.keys(map)) into[k] = renderOr(map[k]!, ctx, out, src, [...path, k]);
}

export function resolveCatalog(model: WrittenModel): { catalog: ResolvedCatalog | undefined; diagnostics: Diagnostic[] } {
  const out: Sink = [];
  const cat = model.catalog;
  if (!cat) return { catalog: undefined, diagnostics: out };
  const instancetypes = resolveFamilies(model, out);
  const preferences = resolvePreferences(model, out);
  checkDuplicateNames([...instancetypes, ...preferences], out);
  return {
    catalog: {
      name: cat.value.name,
      defaultArchitecture: cat.value.defaultArchitecture,
      instancetypes: [...instancetypes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      preferences: [...preferences].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
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

function checkName(name: string, out: Sink, at: SourceRange, pattern: string): boolean {
  if (name.length <= 253 && DNS_SUBDOMAIN_RE.test(name)) return true;
  out.push(
    diag('IT2011', `name \`${name}\` (from pattern \`${pattern}\`) is not a valid Kubernetes object name`, at, {
      hint: 'object names are lowercase letters, digits, `-` and `.`, at most 253 characters',
    }),
  );
  return false;
}

// ---------------------------------------------------------------------------------------------
// Instance types: family x size matrix

function pickLadder(model: WrittenModel, fam: Declared<WrittenFamily>, out: Sink): Declared<WrittenSizeLadder> | undefined {
  const name = fam.value.ladder;
  if (name !== undefined) {
    const l = model.ladders.get(name);
    if (!l && !mayBeDeclared(model, 'SizeLadder', name)) {
      out.push(
        diag('IT2010', `family \`${fam.value.name}\` uses unknown size ladder \`${name}\``, locate(fam.src, ['ladder']), {
          hint: didYouMean(name, model.ladders.keys()) ?? `declared ladders: ${[...model.ladders.keys()].join(', ') || 'none'}`,
        }),
      );
    }
    return l;
  }
  if (model.ladders.size === 1) return [...model.ladders.values()][0];
  if (model.rejected.SizeLadder.size > 0 || model.incomplete) return undefined; // already reported where the ladder is written
  out.push(
    diag(
      'IT2010',
      model.ladders.size === 0
        ? `family \`${fam.value.name}\` needs a size ladder, and the catalog declares none`
        : `family \`${fam.value.name}\` must say which size ladder it uses (\`ladder:\`); the catalog has ${model.ladders.size}`,
      locate(fam.src, ['name']),
    ),
  );
  return undefined;
}

function fragmentLeaves(
  model: WrittenModel,
  names: readonly string[] | undefined,
  owner: Declared<unknown>,
  includePath: PathSegment[],
  out: Sink,
  kind: 'instancetype' | 'preference',
): Leaves[] {
  const layers: Leaves[] = [];
  const table = kind === 'instancetype' ? model.instancetypeFragments : model.preferenceFragments;
  (names ?? []).forEach((n, i) => {
    const f = table.get(n);
    if (!f && mayBeDeclared(model, kind === 'instancetype' ? 'InstancetypeFragment' : 'PreferenceFragment', n)) return;
    if (!f) {
      out.push(
        diag('IT2002', `unknown ${kind === 'instancetype' ? 'InstancetypeFragment' : 'PreferenceFragment'} \`${n}\``, locate(owner.src, [...includePath, i]), {
          hint: didYouMean(n, table.keys()) ?? `declared: ${[...table.keys()].sort().join(', ') || 'none'}`,
        }),
      );
      return;
    }
    layers.push(toLeaves(f.value.spec as JsonObject, f.src, ['spec'], `fragment \`${n}\``));
  });
  return layers;
}

function resolveFamilies(model: WrittenModel, out: Sink): ResolvedInstancetype[] {
  const cat = model.catalog!;
  const result: ResolvedInstancetype[] = [];
  for (const name of [...model.families.keys()].sort()) {
    const fam = model.families.get(name)!;
    const f = fam.value;
    const ladder = pickLadder(model, fam, out);
    if (!ladder) continue;
    const ladderSizes = ladder.value.sizes;
    const ladderIndex = new Map(ladderSizes.map((s, i) => [s.name, i] as const));
    const offered: string[] = [];
    const checkSizes = (list: readonly string[], path: PathSegment[], allowed: ReadonlyMap<string, unknown>, where: string): string[] => {
      const ok: string[] = [];
      list.forEach((s, i) => {
        if (allowed.has(s)) ok.push(s);
        else
          out.push(
            diag('IT2005', `size \`${s}\` is not ${where}`, locate(fam.src, [...path, i]), {
              hint: didYouMean(s, allowed.keys()) ?? `available: ${[...allowed.keys()].join(', ')}`,
            }),
          );
      });
      return ok;
    };
    offered.push(...(f.sizes ? checkSizes(f.sizes, ['sizes'], ladderIndex, `in size ladder \`${ladder.value.name}\``) : ladderSizes.map((s) => s.name)));
    const offeredSet = new Map(offered.map((s) => [s, true] as const));
    for (const key of Object.keys(f.overrides ?? {})) {
      if (!offeredSet.has(key)) {
        out.push(
          diag('IT2005', `override for size \`${key}\`, which family \`${f.name}\` does not offer`, locate(fam.src, ['overrides', key], { key: true }), {
            hint: didYouMean(key, offeredSet.keys()) ?? `offered: ${offered.join(', ')}`,
          }),
        );
      }
    }
    const ratio = parseQuantity(f.memoryPerCPU);
    if (ratio === undefined || ratio === 0) {
      out.push(diag('IT1205', `memoryPerCPU \`${f.memoryPerCPU}\` is not a positive whole number of bytes`, locate(fam.src, ['memoryPerCPU'])));
      continue;
    }
    const familyWhat = `family \`${f.name}\``;
    const base = mergeLevel(fragmentLeaves(model, f.include, fam, ['include'], out, 'instancetype'));
    for (const c of base.conflicts) out.push(conflictDiagnostic(c, familyWhat));
    const familyLeaves = overlay(base.leaves, toLeaves(f.spec as JsonObject | undefined, fam.src, ['spec'], familyWhat));
    const pattern = f.naming ?? cat.value.naming.instancetype;
    const patternPath: PathSegment[] = f.naming !== undefined ? ['naming'] : ['name'];
    // A bad pattern is reported where it is written: the family's `naming`, else the catalog's.
    const catalogNaming = (cat.src.value as { naming?: { instancetype?: unknown } }).naming?.instancetype !== undefined;
    const patternAt = f.naming === undefined && catalogNaming ? locate(cat.src, ['naming', 'instancetype']) : locate(fam.src, patternPath);

    const variants: { name: string | undefined; leaves: Leaves; sizes: readonly string[]; index: number }[] = [
      { name: undefined, leaves: familyLeaves, sizes: offered, index: -1 },
    ];
    (f.variants ?? []).forEach((v, vi) => {
      const vWhat = `variant \`${v.name}\` of family \`${f.name}\``;
      const merged = mergeLevel(fragmentLeaves(model, v.include, fam, ['variants', vi, 'include'], out, 'instancetype'));
      for (const c of merged.conflicts) out.push(conflictDiagnostic(c, vWhat));
      const vLeaves = overlay(overlay(familyLeaves, merged.leaves), toLeaves(v.spec as JsonObject | undefined, fam.src, ['variants', vi, 'spec'], vWhat));
      const sizes = v.sizes ? checkSizes(v.sizes, ['variants', vi, 'sizes'], offeredSet, `offered by family \`${f.name}\``) : offered;
      variants.push({ name: v.name, leaves: vLeaves, sizes, index: vi });
    });

    const displayTemplateCache = new Map<string, string>();
    for (const variant of variants) {
      for (const sizeName of variant.sizes) {
        const idx = ladderIndex.get(sizeName)!;
        const ladderSize = ladderSizes[idx]!;
        const ov = f.overrides?.[sizeName];
        const cpu = ov?.cpu ?? ladderSize.cpu;
        const overrideMem = ov?.memory !== undefined ? parseQuantity(ov.memory) : undefined;
        if (ov?.memory !== undefined && overrideMem === undefined) {
          out.push(diag('IT1205', `memory \`${ov.memory}\` is not a whole number of bytes`, locate(fam.src, ['overrides', sizeName, 'memory'])));
          continue;
        }
        const ladderMem = ladderSize.memory !== undefined ? parseQuantity(ladderSize.memory) : undefined;
        if (ladderSize.memory !== undefined && ladderMem === undefined) {
          out.push(diag('IT1205', `memory \`${ladderSize.memory}\` is not a whole number of bytes`, locate(ladder.src, ['sizes', idx, 'memory'])));
          continue;
        }
        const memoryBytes = overrideMem ?? ladderMem ?? ratio * cpu;
        const sizeLabel = variant.name !== undefined ? `${sizeName}${variant.name}` : sizeName;
        const vars = { family: f.name, version: f.version, size: sizeLabel };
        const named = expandPattern(pattern, vars);
        if (!named.ok) {
          if (!displayTemplateCache.has(`err:${pattern}`)) {
            displayTemplateCache.set(`err:${pattern}`, '');
            const missingValue = /has no value/.test(named.error);
            out.push(
              diag(
                'IT2011',
                `name pattern \`${pattern}\`: ${named.error}`,
                missingValue ? locate(fam.src, ['name']) : patternAt,
                missingValue ? { hint: `give family \`${f.name}\` a \`version:\`, or a \`naming:\` pattern without that placeholder` } : {},
              ),
            );
          }
          continue;
        }
        if (displayTemplateCache.has(`bad:${pattern}`)) continue;
        if (!checkName(named.text, out, patternAt, pattern)) {
          displayTemplateCache.set(`bad:${pattern}`, ''); // one report per pattern, not one per size
          continue;
        }

        const cpuOrigin: Origin =
          ov?.cpu !== undefined
            ? { src: fam.src, path: ['overrides', sizeName, 'cpu'], what: `override of size \`${sizeName}\`` }
            : { src: ladder.src, path: ['sizes', idx, 'cpu'], what: `size \`${sizeName}\` of ladder \`${ladder.value.name}\`` };
        const memOrigin: Origin =
          overrideMem !== undefined
            ? { src: fam.src, path: ['overrides', sizeName, 'memory'], what: `override of size \`${sizeName}\`` }
            : ladderMem !== undefined
              ? { src: ladder.src, path: ['sizes', idx, 'memory'], what: `size \`${sizeName}\` of ladder \`${ladder.value.name}\`` }
              : { src: fam.src, path: ['memoryPerCPU'], what: `${familyWhat}: ${cpu} vCPU x memoryPerCPU ${f.memoryPerCPU}` };
        const sizeLeaves = new Map<string, Leaf>();
        // Fields taken from the size sit below the size's own overrides, which may still say otherwise.
        for (const [dotted, quantity] of Object.entries(f.fromSize ?? {})) {
          const path = dotted.split('.');
          const value = quantity === 'cpu' ? cpu : formatBinary(memoryBytes);
          sizeLeaves.set(
            leafKey(path),
            leaf(path, value, { src: fam.src, path: ['fromSize', dotted], what: `${familyWhat}: ${dotted} from the ${quantity} of size \`${sizeName}\`` }),
          );
        }
        if (ov?.spec)
          for (const [k, l] of toLeaves(ov.spec as JsonObject, fam.src, ['overrides', sizeName, 'spec'], `override of size \`${sizeName}\``))
            sizeLeaves.set(k, l);
        sizeLeaves.set(leafKey(['cpu', 'guest']), leaf(['cpu', 'guest'], cpu, cpuOrigin));
        sizeLeaves.set(leafKey(['memory', 'guest']), leaf(['memory', 'guest'], formatBinary(memoryBytes), memOrigin));
        const leaves = overlay(variant.leaves, sizeLeaves);

        const ctx: TextContext = {
          name: named.text,
          family: f.name,
          version: f.version,
          size: sizeLabel,
          variant: variant.name,
          class: f.class,
          cpu,
          memory: formatBinary(memoryBytes),
        };
        const vDecl = variant.index >= 0 ? f.variants![variant.index]! : undefined;
        const displayPath: PathSegment[] = vDecl?.displayName !== undefined ? ['variants', variant.index, 'displayName'] : ['displayName'];
        const descPath: PathSegment[] = vDecl?.description !== undefined ? ['variants', variant.index, 'description'] : ['description'];
        const displayName = renderOr(vDecl?.displayName ?? f.displayName, ctx, out, fam.src, displayPath);
        const description = renderOr(vDecl?.description ?? f.description, ctx, out, fam.src, descPath);
        const labels: Record<string, string> = {};
        const annotations: Record<string, string> = {};
        renderMap(cat.value.instancetypes?.labels, ctx, out, cat.src, ['instancetypes', 'labels'], labels);
        renderMap(cat.value.instancetypes?.annotations, ctx, out, cat.src, ['instancetypes', 'annotations'], annotations);
        renderMap(f.labels, ctx, out, fam.src, ['labels'], labels);
        renderMap(f.annotations, ctx, out, fam.src, ['annotations'], annotations);

        result.push({
          kind: 'instancetype',
          name: named.text,
          family: f.name,
          version: f.version,
          size: sizeLabel,
          ladderSize: sizeName,
          variant: variant.name,
          sizeIndex: idx,
          cpu,
          memoryBytes,
          displayName,
          description,
          class: f.class,
          icon: f.icon,
          memoryPerCPUBytes: ratio,
          memoryOverridden: overrideMem !== undefined || ladderMem !== undefined,
          architectures: (variant.index >= 0 ? f.variants![variant.index]!.architectures : undefined) ?? f.architectures,
          spec: fromLeaves(leaves),
          labels,
          annotations,
          deprecated: ov?.deprecated ?? f.deprecated,
          origin: { src: fam.src, path: variant.index >= 0 ? ['variants', variant.index, 'name'] : ['name'], what: familyWhat },
          leaves,
        });
      }
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Preferences: inheritance, fragments, architecture dimension

interface PrefBase {
  readonly leaves: Leaves;
  readonly icon: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
}

interface VariantUse {
  readonly name: string;
  /** Position in the preference's `variants` list. */
  readonly index: number;
  readonly fragment: Declared<WrittenPreferenceFragment>;
}

function resolvePreferences(model: WrittenModel, out: Sink): ResolvedPreference[] {
  const cat = model.catalog!.value;
  const catSrc = model.catalog!.src;
  const memo = new Map<string, PrefBase | null>();
  const visiting: string[] = [];

  const resolveBase = (name: string): PrefBase | null => {
    const done = memo.get(name);
    if (done !== undefined) return done;
    const decl = model.preferences.get(name)!;
    const p: WrittenPreference = decl.value;
    visiting.push(name);
    const what = `preference \`${name}\``;
    const layers: Leaves[] = [];
    const icons = new Set<string>();
    const labels: Record<string, string> = {};
    const annotations: Record<string, string> = {};
    const vars: Record<string, string> = {};
    const iconFrom = new Map<string, { base: string; index: number }>();
    const metaFrom = new Map<string, { value: string; base: string; index: number }>();
    const metaConflicts: {
      field: 'labels' | 'annotations' | 'vars';
      key: string;
      first: { value: string; base: string; index: number };
      second: { value: string; base: string; index: number };
    }[] = [];
    let failed = false;
    (p.inherits ?? []).forEach((b, i) => {
      if (!model.preferences.has(b) && mayBeDeclared(model, 'Preference', b)) {
        failed = true;
        return;
      }
      if (!model.preferences.has(b)) {
        out.push(
          diag(
            'IT2001',
            `${what} inherits unknown preference \`${b}\``,
            locate(decl.src, typeof (decl.src.value as Record<string, unknown>)['inherits'] === 'string' ? ['inherits'] : ['inherits', i]),
            {
              hint: didYouMean(b, model.preferences.keys()) ?? 'inherit from a declared Preference',
            },
          ),
        );
        failed = true;
        return;
      }
      if (visiting.includes(b)) {
        const cycle = [...visiting.slice(visiting.indexOf(b)), b].join(' -> ');
        out.push(
          diag('IT2003', `inheritance cycle: ${cycle}`, locate(decl.src, ['inherits']), {
            hint: 'a preference cannot inherit from itself, directly or through its bases',
          }),
        );
        failed = true;
        return;
      }
      const base = resolveBase(b);
      if (!base) {
        failed = true;
        return;
      }
      layers.push(base.leaves);
      if (base.icon !== undefined) {
        icons.add(base.icon);
        if (!iconFrom.has(base.icon)) iconFrom.set(base.icon, { base: b, index: i });
      }
      for (const [field, into, from] of [
        ['labels', labels, base.labels],
        ['annotations', annotations, base.annotations],
        ['vars', vars, base.vars],
      ] as const) {
        for (const [k, v] of Object.entries(from)) {
          const key = `${field}\u0000${k}`;
          const earlier = metaFrom.get(key);
          if (earlier && earlier.value !== v) metaConflicts.push({ field, key: k, first: earlier, second: { value: v, base: b, index: i } });
          else if (!earlier) metaFrom.set(key, { value: v, base: b, index: i });
          into[k] = earlier ? earlier.value : v;
        }
      }
    });
    // Bases at one level must agree on metadata as on spec, unless the preference decides.
    const inheritsPath = (index: number): PathSegment[] =>
      typeof (decl.src.value as Record<string, unknown>)['inherits'] === 'string' ? ['inherits'] : ['inherits', index];
    const own: Record<string, Readonly<Record<string, string>> | undefined> = { labels: p.labels, annotations: p.annotations, vars: p.vars };
    for (const c of metaConflicts) {
      if (own[c.field]?.[c.key] !== undefined) continue;
      out.push(
        diag(
          'IT2004',
          `\`${c.field}.${c.key}\` is set to ${JSON.stringify(c.first.value)} by base \`${c.first.base}\` and to ${JSON.stringify(c.second.value)} by base \`${c.second.base}\`, both inherited by ${what}`,
          locate(decl.src, inheritsPath(c.second.index)),
          {
            hint: `bases at one level must agree; set \`${c.field}.${c.key}\` in ${what} itself to decide`,
            related: [{ message: `\`${c.first.base}\` is inherited here`, location: locate(decl.src, inheritsPath(c.first.index)) }],
          },
        ),
      );
    }
    if (p.icon === undefined && icons.size > 1) {
      const [a, b] = [...iconFrom.entries()];
      out.push(
        diag(
          'IT2004',
          `\`icon\` is ${JSON.stringify(a![0])} from base \`${a![1].base}\` and ${JSON.stringify(b![0])} from base \`${b![1].base}\`, both inherited by ${what}`,
          locate(decl.src, inheritsPath(b![1].index)),
          {
            hint: `set \`icon\` in ${what} itself to decide`,
            related: [{ message: `\`${a![1].base}\` is inherited here`, location: locate(decl.src, inheritsPath(a![1].index)) }],
          },
        ),
      );
    }
    layers.push(...fragmentLeaves(model, p.include, decl, ['include'], out, 'preference'));
    const merged = mergeLevel(layers);
    for (const c of merged.conflicts) out.push(conflictDiagnostic(c, what));
    const leaves = overlay(merged.leaves, toLeaves(p.spec as JsonObject | undefined, decl.src, ['spec'], what));
    Object.assign(labels, p.labels ?? {});
    Object.assign(annotations, p.annotations ?? {});
    Object.assign(vars, p.vars ?? {});
    visiting.pop();
    const result: PrefBase | null = failed ? null : { leaves, icon: p.icon ?? (icons.size === 1 ? [...icons][0] : undefined), labels, annotations, vars };
    memo.set(name, result);
    return result;
  };

  const emitted: ResolvedPreference[] = [];
  for (const name of [...model.preferences.keys()].sort()) {
    const base = resolveBase(name);
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
    const what = `preference \`${name}\``;
    const variants = variantUses(model, decl, out);
    const usedVariants = new Set<number>();
    const arches: (Architecture | undefined)[] = p.architectures ? [...new Set(p.architectures)] : [undefined];
    for (const arch of arches) {
      // The architecture level: the preference, its override for this architecture, its name.
      let leaves: Leaves = base.leaves;
      let archName = name;
      const archLeaves = new Map<string, Leaf>();
      const ov = arch !== undefined ? p.architectureOverrides?.[arch] : undefined;
      if (arch !== undefined) {
        const ai = p.architectures!.indexOf(arch);
        const archOrigin: Origin = { src: decl.src, path: ['architectures', ai], what: `architecture \`${arch}\` of ${what}` };
        archLeaves.set(leafKey(['preferredArchitecture']), leaf(['preferredArchitecture'], arch, archOrigin));
        archLeaves.set(leafKey(['requirements', 'architecture']), leaf(['requirements', 'architecture'], arch, archOrigin));
        if (ov) {
          const ovWhat = `${arch} override of ${what}`;
          const inc = mergeLevel(fragmentLeaves(model, ov.include, decl, ['architectureOverrides', arch, 'include'], out, 'preference'));
          for (const c of inc.conflicts) out.push(conflictDiagnostic(c, ovWhat));
          leaves = overlay(overlay(leaves, inc.leaves), toLeaves(ov.spec as JsonObject | undefined, decl.src, ['architectureOverrides', arch, 'spec'], ovWhat));
        }
        if (arch !== cat.defaultArchitecture) {
          const n = expandPattern(cat.naming.architecture, { name, arch });
          if (!n.ok) {
            out.push(diag('IT2011', `architecture name pattern \`${cat.naming.architecture}\`: ${n.error}`, locate(catSrc, ['naming', 'architecture'])));
            continue;
          }
          archName = n.text;
        }
      }
      for (const v of [undefined, ...variants]) {
        if (v !== undefined && arch !== undefined && !(v.fragment.value.variant?.architectures ?? [cat.defaultArchitecture]).includes(arch)) continue;
        if (v !== undefined) usedVariants.add(v.index);
        let catalogName = archName;
        if (v !== undefined) {
          const n = expandPattern(cat.naming.variant, { name: archName, variant: v.name });
          if (!n.ok) {
            out.push(diag('IT2011', `variant name pattern \`${cat.naming.variant}\`: ${n.error}`, locate(catSrc, ['naming', 'variant'])));
            continue;
          }
          catalogName = n.text;
        }
        const named = expandPattern(cat.naming.preference, { name: catalogName });
        if (!named.ok) {
          out.push(diag('IT2011', `preference name pattern \`${cat.naming.preference}\`: ${named.error}`, locate(catSrc, ['naming', 'preference'])));
          continue;
        }
        if (!checkName(named.text, out, locate(decl.src, v !== undefined ? ['variants', v.index] : ['name']), cat.naming.preference)) continue;

        // Text variables: the preference's, then the variant's (whose values may use the preference's).
        const vars: Record<string, string> = { ...base.vars };
        const textCtx = (displayName: string): TextContext => ({ ...vars, name: named.text, catalogName, displayName, arch, variant: v?.name });
        if (v !== undefined) {
          const own = v.fragment.value.variant?.vars ?? {};
          const rendered: Record<string, string> = {};
          for (const k of Object.keys(own)) rendered[k] = renderOr(own[k]!, textCtx(p.displayName), out, v.fragment.src, ['variant', 'vars', k]);
          Object.assign(vars, rendered);
        }

        // Display name: the preference's, made the variant's, then given its architecture. Each
        // template is rendered once, where it is written, so text coming from variables is never
        // read as a template and errors point at the right line.
        let displayName = renderOr(p.displayName, textCtx(p.displayName), out, decl.src, ['displayName']);
        if (v !== undefined) {
          const own = v.fragment.value.variant?.displayName;
          displayName =
            own !== undefined
              ? renderOr(own, textCtx(displayName), out, v.fragment.src, ['variant', 'displayName'])
              : renderOr(cat.naming.variantDisplayName, textCtx(displayName), out, catSrc, ['naming', 'variantDisplayName']);
        }
        if (v === undefined && ov?.displayName !== undefined) {
          displayName = renderOr(ov.displayName, textCtx(displayName), out, decl.src, ['architectureOverrides', arch!, 'displayName']);
        } else {
          const pattern = architectureDisplayPattern(model.catalog!, arch, v);
          if (pattern) displayName = renderOr(pattern.template, textCtx(displayName), out, pattern.src, pattern.path);
        }

        let objectLeaves: Leaves = leaves;
        if (v !== undefined) {
          objectLeaves = overlay(objectLeaves, toLeaves(v.fragment.value.spec as JsonObject, v.fragment.src, ['spec'], `variant \`${v.name}\` of ${what}`));
        }
        objectLeaves = overlay(objectLeaves, archLeaves);

        const ctx = textCtx(displayName);
        const labels: Record<string, string> = {};
        const annotations: Record<string, string> = {};
        renderMap(cat.preferences?.labels, ctx, out, catSrc, ['preferences', 'labels'], labels);
        renderMap(cat.preferences?.annotations, ctx, out, catSrc, ['preferences', 'annotations'], annotations);
        renderMap(base.labels, ctx, out, decl.src, ['labels'], labels);
        renderMap(base.annotations, ctx, out, decl.src, ['annotations'], annotations);
        emitted.push({
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
        });
      }
    }
    for (const v of variants) {
      if (usedVariants.has(v.index)) continue;
      const archs = v.fragment.value.variant?.architectures ?? [cat.defaultArchitecture];
      out.push(
        diag(
          'IT1203',
          `variant \`${v.name}\` of ${what} makes no object: it applies to ${archs.join(', ')}, and the preference has ${(p.architectures ?? []).join(', ')}`,
          locate(decl.src, ['variants', v.index]),
          {
            hint: `add ${archs.length === 1 ? archs[0] : `one of ${archs.join(', ')}`} to \`architectures\`, or set \`variant.architectures\` in fragment \`${v.name}\``,
          },
        ),
      );
    }
  }
  return emitted;
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
