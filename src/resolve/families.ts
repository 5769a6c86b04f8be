/**
 * Instance types: every family expanded over its sizes (from its ladder, with per-size overrides) and
 * variants, each spec merged from fragments, the family, the variant and the size, with provenance.
 */
import { type JsonObject } from '../json';
import path from 'node:path';
import { diag, didYouMean, type SourceRange } from '../diagnostics';
import { locate, type PathSegment } from '../load/source';
import { bytesProblem, formatBinary, parseQuantity } from '../quantity';
import { type TextContext } from './text';
import type { WrittenFamily, WrittenSizeLadder } from '../schema/catalog';
import { mayBeDeclared, type Declared, type WrittenModel } from '../schema/documents';
import { fromLeaves, leaf, leafKey, mergeLevel, overlay, toLeaves, type Leaf, type Leaves, type Origin } from './leaves';
import type { ResolvedInstancetype } from './types';
import { checkName, expandPattern } from './naming';
import { conflictDiagnostic, fragmentLeaves, renderOr, renderMap, type Sink } from './common';

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
  // Several ladders: an imported catalog's families keep the one ladder their own catalog declares
  // (the ladders under the directory closest to the family's file), so that a second ladder in the
  // importing catalog does not make every imported family name one; then the catalog's default.
  const dirOf = (file: string): string => path.posix.dirname(file);
  const shared = (a: string, b: string): number => {
    const x = a.split('/');
    const y = b.split('/');
    let n = 0;
    while (n < x.length && n < y.length && x[n] === y[n]) n++;
    return n;
  };
  const ladders = [...model.ladders.values()];
  const depth = ladders.map((l) => shared(dirOf(l.src.file), dirOf(fam.src.file)));
  const best = Math.max(...depth);
  const closest = ladders.filter((_, i) => depth[i] === best);
  const catalogDir = model.catalog ? dirOf(model.catalog.src.file) : undefined;
  const ownFamily = catalogDir !== undefined && (dirOf(fam.src.file) === catalogDir || fam.src.file.startsWith(`${catalogDir}/`));
  if (closest.length === 1 && !(ownFamily && model.catalog?.value.defaultLadder !== undefined)) return closest[0];
  const byDefault = model.catalog?.value.defaultLadder;
  if (byDefault !== undefined) {
    const l = model.ladders.get(byDefault);
    if (l) return l;
    if (!mayBeDeclared(model, 'SizeLadder', byDefault))
      out.push(
        diag('IT2010', `catalog \`defaultLadder\` names unknown size ladder \`${byDefault}\``, locate(model.catalog!.src, ['defaultLadder']), {
          hint: didYouMean(byDefault, model.ladders.keys()) ?? `declared ladders: ${[...model.ladders.keys()].join(', ')}`,
        }),
      );
    return undefined;
  }
  if (model.rejected.SizeLadder.size > 0 || model.incomplete) return undefined; // already reported where the ladder is written
  out.push(
    diag(
      'IT2010',
      model.ladders.size === 0
        ? `family \`${fam.value.name}\` needs a size ladder, and the catalog declares none`
        : `family \`${fam.value.name}\` must say which size ladder it uses (\`ladder:\`); the catalog has ${model.ladders.size}`,
      locate(fam.src, ['name']),
      model.ladders.size === 0
        ? {}
        : { hint: `or give the Catalog a \`defaultLadder:\` (one of ${[...model.ladders.keys()].join(', ')}) for the families that name none` },
    ),
  );
  return undefined;
}

/** What resolving one size of a family needs from the family: its ladder, spec layers and naming. */
interface FamilyScope {
  readonly model: WrittenModel;
  readonly fam: Declared<WrittenFamily>;
  readonly ladder: Declared<WrittenSizeLadder>;
  readonly ladderIndex: ReadonlyMap<string, number>;
  /** Guest memory per vCPU, in bytes. */
  readonly ratio: number;
  readonly what: string;
  readonly pattern: string;
  readonly patternAt: SourceRange;
  /** Patterns already reported: one report per pattern, not one per size. */
  readonly reported: Set<string>;
  readonly out: Sink;
}

interface Variant {
  readonly name: string | undefined;
  readonly leaves: Leaves;
  readonly sizes: readonly string[];
  /** Index in the family's `variants`, -1 for the family itself. */
  readonly index: number;
}

export function resolveFamilies(model: WrittenModel, out: Sink): ResolvedInstancetype[] {
  return [...model.families.keys()].sort().flatMap((name) => resolveFamily(model, model.families.get(name)!, out));
}

/** The sizes of `list` that `allowed` has; IT2005 at each other one. */
function checkSizes(
  fam: Declared<WrittenFamily>,
  list: readonly string[],
  path: PathSegment[],
  allowed: ReadonlyMap<string, unknown>,
  where: string,
  out: Sink,
): string[] {
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
}

/** The sizes a family offers (its `sizes`, or the whole ladder); IT2005 for overrides of others. */
function offeredSizes(fam: Declared<WrittenFamily>, ladder: Declared<WrittenSizeLadder>, ladderIndex: ReadonlyMap<string, number>, out: Sink): string[] {
  const f = fam.value;
  const offered = f.sizes
    ? checkSizes(fam, f.sizes, ['sizes'], ladderIndex, `in size ladder \`${ladder.value.name}\``, out)
    : ladder.value.sizes.map((s) => s.name);
  const offeredSet = new Set(offered);
  for (const key of Object.keys(f.overrides ?? {})) {
    if (!offeredSet.has(key)) {
      out.push(
        diag('IT2005', `override for size \`${key}\`, which family \`${f.name}\` does not offer`, locate(fam.src, ['overrides', key], { key: true }), {
          hint: didYouMean(key, offeredSet.keys()) ?? `offered: ${offered.join(', ')}`,
        }),
      );
    }
  }
  return offered;
}

/** The family itself and each of its variants, with the spec layers merged so far (fragments, family, variant). */
function variantsOf(scope: FamilyScope, offered: readonly string[]): Variant[] {
  const { model, fam, out, what } = scope;
  const f = fam.value;
  const base = mergeLevel(fragmentLeaves(model, f.include, fam, ['include'], out, 'instancetype'));
  for (const c of base.conflicts) out.push(conflictDiagnostic(c, what));
  const familyLeaves = overlay(base.leaves, toLeaves(f.spec as JsonObject | undefined, fam.src, ['spec'], what));
  const offeredSet = new Map(offered.map((s) => [s, true] as const));
  const variants: Variant[] = [{ name: undefined, leaves: familyLeaves, sizes: offered, index: -1 }];
  (f.variants ?? []).forEach((v, vi) => {
    const vWhat = `variant \`${v.name}\` of family \`${f.name}\``;
    const merged = mergeLevel(fragmentLeaves(model, v.include, fam, ['variants', vi, 'include'], out, 'instancetype'));
    for (const c of merged.conflicts) out.push(conflictDiagnostic(c, vWhat));
    const vLeaves = overlay(overlay(familyLeaves, merged.leaves), toLeaves(v.spec as JsonObject | undefined, fam.src, ['variants', vi, 'spec'], vWhat));
    const sizes = v.sizes ? checkSizes(fam, v.sizes, ['variants', vi, 'sizes'], offeredSet, `offered by family \`${f.name}\``, out) : offered;
    variants.push({ name: v.name, leaves: vLeaves, sizes, index: vi });
  });
  return variants;
}

function resolveFamily(model: WrittenModel, fam: Declared<WrittenFamily>, out: Sink): ResolvedInstancetype[] {
  const cat = model.catalog!;
  const f = fam.value;
  const ladder = pickLadder(model, fam, out);
  if (!ladder) return [];
  const ladderIndex = new Map(ladder.value.sizes.map((s, i) => [s.name, i] as const));
  const offered = offeredSizes(fam, ladder, ladderIndex, out);
  const ratio = parseQuantity(f.memoryPerCPU);
  if (ratio === undefined || ratio === 0) {
    out.push(diag('IT1205', `memoryPerCPU \`${f.memoryPerCPU}\` ${bytesProblem(f.memoryPerCPU, true)}`, locate(fam.src, ['memoryPerCPU'])));
    return [];
  }
  // A bad pattern is reported where it is written: the family's `naming`, else the catalog's.
  const catalogNaming = (cat.src.value as { naming?: { instancetype?: unknown } }).naming?.instancetype !== undefined;
  const patternAt =
    f.naming === undefined && catalogNaming ? locate(cat.src, ['naming', 'instancetype']) : locate(fam.src, f.naming !== undefined ? ['naming'] : ['name']);
  const scope: FamilyScope = {
    model,
    fam,
    ladder,
    ladderIndex,
    ratio,
    what: `family \`${f.name}\``,
    pattern: f.naming ?? cat.value.naming.instancetype,
    patternAt,
    reported: new Set(),
    out,
  };
  return variantsOf(scope, offered).flatMap((variant) => variant.sizes.flatMap((sizeName) => resolveSize(scope, variant, sizeName) ?? []));
}

/** The object name of a size, or undefined after reporting the pattern (once). */
function sizeName(scope: FamilyScope, sizeLabel: string, variant: string | undefined): string | undefined {
  const { fam, pattern, out } = scope;
  const expanded = expandPattern(pattern, { family: fam.value.name, version: fam.value.version, size: sizeLabel, variant: variant ?? '' });
  // `{variant}` empty for the family itself: no doubled or dangling separator is left behind.
  const named =
    expanded.ok && pattern.includes('{variant}')
      ? { ok: true as const, text: expanded.text.replace(/([.-])[.-]+/g, '$1').replace(/^[.-]+|[.-]+$/g, '') }
      : expanded;
  if (!named.ok) {
    if (!scope.reported.has(pattern)) {
      scope.reported.add(pattern);
      const missingValue = /has no value/.test(named.error);
      out.push(
        diag(
          'IT2011',
          `name pattern \`${pattern}\`: ${named.error}`,
          missingValue ? locate(fam.src, ['name']) : scope.patternAt,
          missingValue ? { hint: `give family \`${fam.value.name}\` a \`version:\`, or a \`naming:\` pattern without that placeholder` } : {},
        ),
      );
    }
    return undefined;
  }
  if (scope.reported.has(pattern)) return undefined;
  if (!checkName(named.text, out, scope.patternAt, pattern)) {
    scope.reported.add(pattern);
    return undefined;
  }
  return named.text;
}

/**
 * One instance type: a size of a variant (or of the family itself).
 *
 * Over 80 lines: one size of a family resolved field by field in the documented precedence.
 */
function resolveSize(scope: FamilyScope, variant: Variant, size: string): ResolvedInstancetype | undefined {
  const { model, fam, ladder, ratio, what: familyWhat, out } = scope;
  const cat = model.catalog!;
  const f = fam.value;
  const idx = scope.ladderIndex.get(size)!;
  const ladderSize = ladder.value.sizes[idx]!;
  const ov = f.overrides?.[size];
  const cpu = ov?.cpu ?? ladderSize.cpu;
  const overrideMem = ov?.memory !== undefined ? parseQuantity(ov.memory) : undefined;
  if (ov?.memory !== undefined && overrideMem === undefined) {
    out.push(diag('IT1205', `memory \`${ov.memory}\` ${bytesProblem(ov.memory)}`, locate(fam.src, ['overrides', size, 'memory'])));
    return undefined;
  }
  const ladderMem = ladderSize.memory !== undefined ? parseQuantity(ladderSize.memory) : undefined;
  if (ladderSize.memory !== undefined && ladderMem === undefined) {
    out.push(diag('IT1205', `memory \`${ladderSize.memory}\` ${bytesProblem(ladderSize.memory)}`, locate(ladder.src, ['sizes', idx, 'memory'])));
    return undefined;
  }
  const memoryBytes = overrideMem ?? ladderMem ?? ratio * cpu;
  // A pattern with `{variant}` places the variant itself (a series of its own: `gn1.a10.large`);
  // otherwise the variant is appended to the size (`cx1.medium1gi`).
  const sizeLabel = variant.name !== undefined && !scope.pattern.includes('{variant}') ? `${size}${variant.name}` : size;
  const name = sizeName(scope, sizeLabel, variant.name);
  if (name === undefined) return undefined;

  const cpuOrigin: Origin =
    ov?.cpu !== undefined
      ? { src: fam.src, path: ['overrides', size, 'cpu'], what: `override of size \`${size}\`` }
      : { src: ladder.src, path: ['sizes', idx, 'cpu'], what: `size \`${size}\` of ladder \`${ladder.value.name}\`` };
  const memOrigin: Origin =
    overrideMem !== undefined
      ? { src: fam.src, path: ['overrides', size, 'memory'], what: `override of size \`${size}\`` }
      : ladderMem !== undefined
        ? { src: ladder.src, path: ['sizes', idx, 'memory'], what: `size \`${size}\` of ladder \`${ladder.value.name}\`` }
        : { src: fam.src, path: ['memoryPerCPU'], what: `${familyWhat}: ${cpu} vCPU x memoryPerCPU ${f.memoryPerCPU}` };
  const sizeLeaves = new Map<string, Leaf>();
  // Fields taken from the size sit below the size's own overrides, which may still say otherwise.
  for (const [dotted, quantity] of Object.entries(f.fromSize ?? {})) {
    const path = dotted.split('.');
    const value = quantity === 'cpu' ? cpu : formatBinary(memoryBytes);
    sizeLeaves.set(
      leafKey(path),
      leaf(path, value, { src: fam.src, path: ['fromSize', dotted], what: `${familyWhat}: ${dotted} from the ${quantity} of size \`${size}\`` }),
    );
  }
  if (ov?.spec)
    for (const [k, l] of toLeaves(ov.spec as JsonObject, fam.src, ['overrides', size, 'spec'], `override of size \`${size}\``)) sizeLeaves.set(k, l);
  sizeLeaves.set(leafKey(['cpu', 'guest']), leaf(['cpu', 'guest'], cpu, cpuOrigin));
  sizeLeaves.set(leafKey(['memory', 'guest']), leaf(['memory', 'guest'], formatBinary(memoryBytes), memOrigin));
  const leaves = overlay(variant.leaves, sizeLeaves);

  const ctx: TextContext = {
    name,
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

  return {
    kind: 'instancetype',
    name,
    family: f.name,
    version: f.version,
    size: sizeLabel,
    ladderSize: size,
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
    architectures: vDecl?.architectures ?? f.architectures,
    spec: fromLeaves(leaves),
    labels,
    annotations,
    deprecated: ov?.deprecated ?? f.deprecated,
    origin: { src: fam.src, path: variant.index >= 0 ? ['variants', variant.index, 'name'] : ['name'], what: familyWhat },
    leaves,
  };
}
