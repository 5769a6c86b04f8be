/**
 * The catalog's rules on deprecations, requirements, pairing, names and metadata (the second half
 * of CATALOG_RULES, in its order): a replacement of the same size, preferences some instance type
 * satisfies, spread pairs, upstream names, the metrics allow-list, URL annotations.
 */
import { onePerSource } from '../render/manifests';
import { diag, shownNames, type Diagnostic, type SourceRange } from '../diagnostics';
import { locate } from '../load/source';

import { getPath as get } from '../json';
import { fieldDiag, memoized, objectDiag, type Rule } from './context';
import { isSpread, spreadDivides, spreadRatio } from './rules-kubevirt';
import { meetsRequirements, requirementsOf, type Requirements } from '../kubevirt/requirements';
import { DEPLOYED_COMMON_INSTANCETYPES, DEPLOYED_NAMES } from '../kubevirt/deployed-catalog';
import { releasesBetween } from '../kubevirt/releases';
import { targetRange } from '../schema/kubevirt-api';

function collision(o: Parameters<typeof objectDiag>[1], releases: readonly string[]): Diagnostic {
  const versions = [...new Set(releases.map((r) => DEPLOYED_COMMON_INSTANCETYPES[r as keyof typeof DEPLOYED_COMMON_INSTANCETYPES]))];
  return objectDiag(
    'IT5006',
    o,
    `a cluster-scoped object of this name is deployed by virt-operator (common-instancetypes ${versions.join(', ')}, in KubeVirt ${releases.join(', ')}); the operator will revert it`,
    {
      severity: 'warning',
      hint: 'choose another name pattern, or disable commonInstancetypesDeployment in the KubeVirt CR',
    },
  );
}

/** Vendors whose objects KubeVirt's VMI metrics report by name; any other shows as `<other>`. */
export const METRICS_VENDOR_ALLOW_LIST: readonly string[] = ['kubevirt.io', 'redhat.com'];

export const CATALOG_RULES_MORE: readonly Rule[] = [
  {
    name: 'deprecation-replacement-size',
    description: 'a size deprecated in favour of a family that has no such size gets no replacement object',
    check: (ctx) => {
      const families = new Map<string, Set<string>>();
      for (const it of ctx.catalog.instancetypes)
        for (const key of [it.family, `${it.family}${it.version ?? ''}`]) families.set(key, (families.get(key) ?? new Set()).add(it.ladderSize));
      // One report per place the replacement is written (a family's `deprecated:` reaches every size).
      const found = new Map<string, { at: SourceRange; replacement: string; names: string[]; sizes: Set<string> }>();
      for (const it of ctx.catalog.instancetypes) {
        const r = it.deprecated?.replacement;
        const sizes = r === undefined ? undefined : families.get(r);
        if (r === undefined || !sizes || sizes.has(it.ladderSize)) continue;
        const value = it.origin.src.value as Record<string, unknown>;
        const own = (value['overrides'] as Record<string, { deprecated?: unknown }> | undefined)?.[it.ladderSize]?.deprecated;
        const at = locate(it.origin.src, own !== undefined ? ['overrides', it.ladderSize, 'deprecated'] : ['deprecated']);
        const k = `${at.file}:${at.line}:${at.col}`;
        const entry = found.get(k) ?? { at, replacement: r, names: [], sizes };
        entry.names.push(it.name);
        found.set(k, entry);
      }
      return [...found.values()].map((e) =>
        diag(
          'IT5016',
          `${e.names.map((n) => `\`${n}\``).join(', ')} ${e.names.length === 1 ? 'is' : 'are'} deprecated in favour of family \`${e.replacement}\`, which has no such size: ${e.names.length === 1 ? 'its VMs get' : 'their VMs get'} no replacement to move to`,
          e.at,
          {
            severity: 'warning',
            hint: `${e.replacement} offers ${[...e.sizes].join(', ')}; name the object to move to in a size override (overrides: {<size>: {deprecated: {replacement: <name>}}})`,
          },
        ),
      );
    },
  },
  {
    name: 'requirements-satisfiable',
    description: "each preference's requirements are met by at least one instance type of the catalog",
    check: (ctx) => {
      if (ctx.catalog.instancetypes.length === 0) return [];
      // Preferences share a few requirements: each distinct one is answered once, in one pass over
      // the instance types that stops as soon as the answer is known (10,000 preferences by 40,000
      // instance types took 35 s pair by pair).
      const answers = new Map<string, { ok: boolean; cpuUnmet: boolean; memUnmet: boolean }>();
      const answer = (req: Requirements): { ok: boolean; cpuUnmet: boolean; memUnmet: boolean } => {
        const key = `${req.cpu ?? ''}|${req.memoryBytes ?? ''}`;
        let a = answers.get(key);
        if (a === undefined) {
          let ok = false;
          let anyCpu = false;
          let anyMem = false;
          for (const it of ctx.catalog.instancetypes) {
            const m = meetsRequirements(req, it);
            ok ||= m.cpu && m.memory;
            anyCpu ||= m.cpu;
            anyMem ||= m.memory;
            if (ok) break;
          }
          a = { ok, cpuUnmet: !anyCpu, memUnmet: !anyMem };
          answers.set(key, a);
        }
        return a;
      };
      return ctx.catalog.preferences.flatMap((p) => {
        const req = requirementsOf(p.spec);
        if (req.cpu === undefined && req.memoryBytes === undefined) return [];
        const { ok, cpuUnmet, memUnmet } = answer(req);
        // Point at the requirement no instance type meets on its own (the CPU one when both fail).
        const unmet = cpuUnmet ? ['requirements', 'cpu', 'guest'] : memUnmet ? ['requirements', 'memory', 'guest'] : ['requirements'];
        return ok
          ? []
          : [
              fieldDiag('IT5004', p, unmet, 'no instance type of the catalog meets these requirements', {
                severity: 'warning',
                hint: 'add a larger size, or lower the requirements',
              }),
            ];
      });
    },
  },
  {
    name: 'spread-pairing',
    description: 'a spread preference says which sizes it cannot pair with',
    check: (ctx) =>
      ctx.catalog.preferences.flatMap((p) => {
        // Ratio 0 (IT4010) and a CoresThreads ratio other than 2 (IT4004) are errors of their own.
        if (!isSpread(p.spec) || spreadRatio(p.spec) === 0) return [];
        if (get(p.spec, ['cpu', 'spreadOptions', 'across']) === 'CoresThreads' && spreadRatio(p.spec) !== 2) return [];
        const req = requirementsOf(p.spec);
        const bad = ctx.catalog.instancetypes.filter((it) => {
          const met = meetsRequirements(req, it);
          return met.cpu && met.memory && !spreadDivides(it.cpu, p.spec);
        });
        if (bad.length === 0) return [];
        const list = bad.map((b) => b.name);
        const smallest = Math.min(...ctx.catalog.instancetypes.filter((it) => spreadDivides(it.cpu, p.spec)).map((it) => it.cpu));
        const ratio = spreadRatio(p.spec);
        const across = get(p.spec, ['cpu', 'spreadOptions', 'across']) ?? 'SocketsCores';
        const example = bad[0]!.cpu;
        const kubevirt =
          across === 'SocketsCoresThreads'
            ? `${example} vCPUs provided by the instance type are not divisible by the number of threads per core 2 and Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of ${ratio}`
            : across === 'CoresThreads'
              ? `${example} vCPUs provided by the instance type are not divisible by the number of threads per core ${ratio}`
              : `${example} vCPUs provided by the instance type are not divisible by the Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of ${ratio} provided by the preference`;
        return [
          fieldDiag(
            'IT5005',
            p,
            ['cpu', 'preferredCPUTopology'],
            `cannot be used with ${list.length} instance type(s) that meet its requirements: ${list.slice(0, 8).join(', ')}${list.length > 8 ? ', ...' : ''}; a VM combining them is rejected: ${kubevirt}`,
            {
              severity: 'warning',
              hint: Number.isFinite(smallest)
                ? `raise requirements.cpu.guest to ${smallest} or more so that those sizes are excluded`
                : 'no instance type of the catalog divides by this spread; change the ratio',
            },
          ),
        ];
      }),
  },
  {
    name: 'upstream-name-collision',
    description: 'cluster-scoped names differ from the common-instancetypes bundle virt-operator deploys',
    check: (ctx) => {
      if (!ctx.generator.scopes.includes('cluster')) return [];
      // The names the targeted releases' virt-operator deploys (each release its own
      // common-instancetypes release: v1.7 deploys no d1), not those of common-instancetypes main.
      const range = targetRange(ctx.generator.targetKubevirt);
      const releases = releasesBetween(range.min, range.max);
      const deployers = (name: string, kind: 'instancetypes' | 'preferences'): string[] =>
        releases.filter((r) => DEPLOYED_NAMES[DEPLOYED_COMMON_INSTANCETYPES[r]]?.[kind].includes(name));
      const out: Diagnostic[] = [];
      for (const it of ctx.catalog.instancetypes) {
        const by = deployers(it.name, 'instancetypes');
        if (by.length > 0) out.push(collision(it, by));
      }
      for (const p of ctx.catalog.preferences) {
        const by = deployers(p.name, 'preferences');
        if (by.length > 0) out.push(collision(p, by));
      }
      return out;
    },
  },
  {
    name: 'vendor-kubevirt',
    description: 'a catalog built on upstream labels its own objects with its own vendor, not kubevirt.io',
    check: (ctx) => {
      // `init` refuses kubevirt.io; in a file it would pass in silence. A catalog that builds on
      // another (an ISV on common-instancetypes) and does not say it reproduces upstream (`follows:`)
      // labels its own objects as KubeVirt's.
      if (ctx.generator.vendor !== 'kubevirt.io' || ctx.catalog.follows !== undefined || ctx.catalog.imports !== true) return [];
      const upstream = new Set(Object.values(DEPLOYED_NAMES).flatMap((n) => [...n.instancetypes, ...n.preferences]));
      const theirs = [...ctx.catalog.instancetypes, ...ctx.catalog.preferences].map((o) => o.name).filter((n) => !upstream.has(n));
      if (theirs.length === 0) return [];
      return [
        diag(
          'IT5021',
          `vendor \`kubevirt.io\` labels ${theirs.length} object${theirs.length === 1 ? '' : 's'} KubeVirt does not ship (${shownNames(theirs)}) as KubeVirt's own common-instancetypes`,
          ctx.generatorSrc ? locate(ctx.generatorSrc, ['vendor']) : undefined,
          {
            severity: 'warning',
            hint: 'name a vendor of your own (a domain of yours, as `itgen init --vendor` asks); kubevirt.io is for a catalog that reproduces upstream, which says so with `follows:` in its Catalog',
          },
        ),
      ];
    },
  },
  {
    name: 'vendor-metrics-allow-list',
    description: "a vendor label outside KubeVirt's metrics allow-list makes per-type metrics read <other>",
    check: (ctx) =>
      ctx.generator.vendor === undefined || METRICS_VENDOR_ALLOW_LIST.includes(ctx.generator.vendor)
        ? []
        : [
            diag(
              'IT5007',
              `vendor \`${ctx.generator.vendor}\` is not in KubeVirt's metrics allow-list (${METRICS_VENDOR_ALLOW_LIST.join(', ')}): kubevirt_vmi_* metrics will report these instance types and preferences as \`<other>\``,
              ctx.generatorSrc ? locate(ctx.generatorSrc, ['vendor']) : undefined,
              {
                severity: 'warning',
                hint: 'keep the vendor if per-type metrics do not matter to you; `--strict` turns this into an error',
              },
            ),
          ],
  },
  {
    name: 'url-annotations',
    description: 'annotations whose key names a URL hold one clean http(s) URL',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      // Objects of a catalog share their links: each distinct value is parsed once.
      const clean = memoized((value) => {
        if (value !== value.trim() || /["'\s]/.test(value)) return false;
        try {
          return ['http:', 'https:'].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      });
      for (const o of onePerSource(ctx.objects)) {
        for (const [key, value] of Object.entries(o.manifest.metadata.annotations ?? {})) {
          if (!/(url|link)$/i.test(key)) continue;
          if (!clean(value)) {
            out.push(
              objectDiag('IT5008', o.source, `annotation \`${key}\` is not a clean URL: ${JSON.stringify(value)}`, {
                severity: 'warning',
                hint: 'write the bare http(s) URL: no quotes, spaces or trailing newline (a `|` block scalar adds one; use a plain scalar)',
              }),
            );
          }
        }
      }
      return out;
    },
  },
];
