/**
 * The second half of the list, in its order, is rules-catalog-more.ts.
 */

import { diag, didYouMean, type Diagnostic, type SourceRange } from '../diagnostics';
import { locate, type PathSegment } from '../load/source';
import { formatBinary, parseQuantity } from '../quantity';
import { canonicalJson } from '../digest';
import { originOf } from '../resolve/leaves';
import type { ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import { getPath as get } from '../json';
import { fieldDiag, fieldLocation, groupBy, type Rule } from './context';

import { CATALOG_RULES_MORE } from './rules-catalog-more';
export { METRICS_VENDOR_ALLOW_LIST } from './rules-catalog-more';

export const CATALOG_RULES: readonly Rule[] = [
  {
    name: 'size-monotonic',
    description: 'within a family, a bigger size never has fewer vCPUs or less memory',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      // A ladder out of order breaks every family using it at the same line: say it once.
      const reported = new Set<string>();
      const push = (d: Diagnostic, key: string): void => {
        const k = `${d.location?.file}:${d.location?.line}:${d.location?.col}|${key}`;
        if (reported.has(k)) return;
        reported.add(k);
        out.push(d);
      };
      // One ladder per family generation and variant: `m` v1 and v2 are separate families.
      for (const list of groupBy(ctx.catalog.instancetypes, (it) => `${it.family}\u0000${it.version ?? ''}\u0000${it.variant ?? ''}`)) {
        const sorted = [...list].sort((a, b) => a.sizeIndex - b.sizeIndex);
        for (let i = 1; i < sorted.length; i++) {
          const prev = sorted[i - 1]!;
          const cur = sorted[i]!;
          const cpuFromLadder = originOf(cur.leaves, ['cpu', 'guest'])?.origin.path[0] === 'sizes';
          if (cur.cpu < prev.cpu) {
            const d = cpuFromLadder
              ? diag(
                  'IT5001',
                  `size \`${cur.ladderSize}\` has ${cur.cpu} vCPU, fewer than the smaller size \`${prev.ladderSize}\` before it (${prev.cpu})`,
                  fieldLocation(cur, ['cpu', 'guest']),
                  {
                    hint: 'a ladder lists sizes from smallest to largest; reorder the sizes or fix the vCPU counts',
                    related: [{ message: `\`${prev.ladderSize}\` is here`, location: fieldLocation(prev, ['cpu', 'guest']) }],
                  },
                )
              : fieldDiag(
                  'IT5001',
                  cur,
                  ['cpu', 'guest'],
                  `size \`${cur.ladderSize}\` has ${cur.cpu} vCPU, fewer than the smaller size \`${prev.ladderSize}\` (${prev.cpu})`,
                  {
                    hint: 'a bigger size never has fewer vCPUs; fix the override',
                  },
                );
            push(d, `cpu|${cur.ladderSize}|${prev.ladderSize}`);
            continue; // memory follows the vCPUs; one report for one mistake
          }
          if (cur.memoryBytes < prev.memoryBytes) {
            push(
              fieldDiag(
                'IT5001',
                cur,
                ['memory', 'guest'],
                `size \`${cur.ladderSize}\` has ${formatBinary(cur.memoryBytes)}, less memory than the smaller size \`${prev.ladderSize}\` (${formatBinary(prev.memoryBytes)})`,
                {
                  hint: 'a bigger size never has less memory; fix the memory override',
                },
              ),
              `mem|${cur.name}`,
            );
          }
        }
      }
      return out;
    },
  },
  {
    name: 'family-ratio',
    description: 'memory is vCPUs x memoryPerCPU unless a size override says otherwise',
    check: (ctx) =>
      ctx.catalog.instancetypes
        .filter((it) => !it.memoryOverridden && parseQuantity(get(it.spec, ['memory', 'guest']) as string) !== it.cpu * it.memoryPerCPUBytes)
        .map((it) =>
          fieldDiag(
            'IT5002',
            it,
            ['memory', 'guest'],
            `memory ${String(get(it.spec, ['memory', 'guest']))} does not match ${it.cpu} vCPU x ${formatBinary(it.memoryPerCPUBytes)}`,
            {
              hint: 'state a different memory on purpose with `overrides.<size>.memory`',
            },
          ),
        ),
  },
  {
    name: 'unique-display-names',
    description: 'no two preferences share a display name',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const seen = new Map<string, (typeof ctx.catalog.preferences)[number]>();
      for (const p of ctx.catalog.preferences) {
        const first = seen.get(p.displayName);
        if (!first) {
          seen.set(p.displayName, p);
          continue;
        }
        out.push(
          diag('IT5003', `preferences \`${first.name}\` and \`${p.name}\` share the display name ${JSON.stringify(p.displayName)}`, displayNameAt(p), {
            hint: 'users pick preferences by display name in UIs; make each one say what differs',
            related: [{ message: `\`${first.name}\` uses it here`, location: displayNameAt(first) }],
          }),
        );
      }
      return out;
    },
  },
  {
    name: 'unique-family-display-names',
    description: 'no two families (or versions of one) share a display name',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const families = new Map<string, ResolvedInstancetype>();
      // A deprecated family is on its way out: its successor may well keep its display name.
      for (const it of ctx.catalog.instancetypes) {
        const key = `${it.family}${it.version ?? ''}`;
        if (!families.has(key) && it.deprecated === undefined) families.set(key, it);
      }
      const seen = new Map<string, ResolvedInstancetype>();
      for (const [key, it] of families) {
        const first = seen.get(it.displayName);
        if (!first) {
          seen.set(it.displayName, it);
          continue;
        }
        const firstKey = `${first.family}${first.version ?? ''}`;
        const versions = first.family === it.family;
        out.push(
          diag('IT5003', `families \`${firstKey}\` and \`${key}\` share the display name ${JSON.stringify(it.displayName)}`, familyDisplayNameAt(it), {
            // Two versions of one family side by side are a release step (the old one deprecated): a warning.
            ...(versions ? { severity: 'warning' as const } : {}),
            hint: versions
              ? `users pick instance types by display name in UIs: say what the new version changes (\`${it.displayName} v${it.version ?? ''}\`, or what differs)`
              : 'users pick instance types by display name in UIs; make each family say what sets it apart',
            related: [{ message: `\`${firstKey}\` uses it here`, location: familyDisplayNameAt(first) }],
          }),
        );
      }
      return out;
    },
  },
  {
    name: 'distinct-sizes',
    description: 'two sizes of one family (version and variant) do not have the same spec',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const groups = groupBy(ctx.catalog.instancetypes, (it) => `${it.family}|${it.version ?? ''}|${it.variant ?? ''}`);
      for (const group of groups) {
        const bySpec = new Map<string, ResolvedInstancetype>();
        for (const it of group) {
          const key = canonicalJson(it.spec);
          const twin = bySpec.get(key);
          if (!twin) {
            bySpec.set(key, it);
            continue;
          }
          out.push(
            diag(
              'IT5014',
              `instance types \`${twin.name}\` and \`${it.name}\` have the same spec: sizes \`${twin.size}\` and \`${it.size}\` of one family offer the same thing`,
              familyDisplayNameAt(it, ['sizes']),
              {
                severity: 'warning',
                hint: "an override probably gave one size the other's CPU or memory; give each size its own, or drop one",
                related: [{ message: `\`${twin.name}\` is declared here`, location: familyDisplayNameAt(twin, ['sizes']) }],
              },
            ),
          );
        }
      }
      return out;
    },
  },
  {
    name: 'deprecation-replacement-exists',
    description: 'a deprecated object names a replacement the catalog ships',
    check: (ctx) => {
      const families = new Set(ctx.catalog.instancetypes.flatMap((it) => [it.family, `${it.family}${it.version ?? ''}`]));
      const instancetypes = new Set([...families, ...ctx.catalog.instancetypes.map((it) => it.name)]);
      const preferences = new Set(ctx.catalog.preferences.flatMap((p) => [p.name, p.catalogName]));
      const out: Diagnostic[] = [];
      const seen = new Set<string>();
      for (const o of [...ctx.catalog.instancetypes, ...ctx.catalog.preferences]) {
        const r = o.deprecated?.replacement;
        if (r === undefined || (o.kind === 'instancetype' ? instancetypes : preferences).has(r)) continue;
        const paths: PathSegment[][] =
          o.kind === 'instancetype'
            ? [
                ['overrides', o.ladderSize, 'deprecated', 'replacement'],
                ['deprecated', 'replacement'],
              ]
            : [['deprecated', 'replacement']];
        const value = o.origin.src.value as Record<string, unknown>;
        const path = paths.find(
          (p) => p.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[String(k)] : undefined), value) === r,
        ) ?? ['deprecated'];
        const at = locate(o.origin.src, path);
        const k = `${at.file}:${at.line}:${at.col}`;
        if (seen.has(k)) continue;
        seen.add(k);
        const what = o.kind === 'instancetype' ? 'family or instance type' : 'preference';
        const known = [...(o.kind === 'instancetype' ? families : preferences)];
        out.push(
          diag(
            'IT5009',
            `deprecated ${o.kind === 'instancetype' ? 'instance types' : 'preference'} name \`${r}\` as replacement, but the catalog ships no ${what} of that name`,
            at,
            { hint: didYouMean(r, known) ?? 'name a family (like `u2`) or an object the generator emits' },
          ),
        );
      }
      return out;
    },
  },
  ...CATALOG_RULES_MORE,
];

/** Where a preference's display name is written: its architecture override's, else its own. */
/** Where a family declares a key (`displayName`, `sizes`), or the family itself. */
function familyDisplayNameAt(it: ResolvedInstancetype, key: readonly string[] = ['displayName']): SourceRange {
  const value = it.origin.src.value as Record<string, unknown>;
  return locate(it.origin.src, value[key[0]!] !== undefined ? key : []);
}

function displayNameAt(p: ResolvedPreference): SourceRange {
  const value = p.origin.src.value as { architectureOverrides?: Record<string, { displayName?: unknown }>; displayName?: unknown };
  if (p.architecture !== undefined && value.architectureOverrides?.[p.architecture]?.displayName !== undefined) {
    return locate(p.origin.src, ['architectureOverrides', p.architecture, 'displayName']);
  }
  return locate(p.origin.src, value.displayName !== undefined ? ['displayName'] : p.origin.path);
}
