import { diag, type Diagnostic } from '../diagnostics';
import { locate } from '../load/source';
import { formatBinary, parseQuantity } from '../quantity';
import type { ResolvedInstancetype } from '../resolve/types';
import { fieldDiag, get, objectDiag, type Rule } from './context';
import { UPSTREAM_INSTANCETYPE_NAMES, UPSTREAM_PREFERENCE_NAMES } from './upstream-names';

/** Vendors whose objects KubeVirt's VMI metrics report by name; any other shows as `<other>`. */
export const METRICS_VENDOR_ALLOW_LIST: readonly string[] = ['kubevirt.io', 'redhat.com'];

function byFamily(its: readonly ResolvedInstancetype[]): Map<string, ResolvedInstancetype[]> {
  const m = new Map<string, ResolvedInstancetype[]>();
  for (const it of its) {
    const key = `${it.family}\u0000${it.variant ?? ''}`;
    const list = m.get(key) ?? [];
    list.push(it);
    m.set(key, list);
  }
  return m;
}

export const CATALOG_RULES: readonly Rule[] = [
  {
    name: 'size-monotonic',
    description: 'within a family, a bigger size never has fewer vCPUs or less memory',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      for (const list of byFamily(ctx.catalog.instancetypes).values()) {
        const sorted = [...list].sort((a, b) => a.sizeIndex - b.sizeIndex);
        for (let i = 1; i < sorted.length; i++) {
          const prev = sorted[i - 1]!;
          const cur = sorted[i]!;
          if (cur.cpu < prev.cpu) {
            out.push(
              fieldDiag('IT5001', cur, ['cpu', 'guest'], `size \`${cur.ladderSize}\` has ${cur.cpu} vCPUs, fewer than the smaller size \`${prev.ladderSize}\` (${prev.cpu})`, {
                hint: 'order the ladder from smallest to largest, or fix the vCPU counts',
              }),
            );
          }
          if (cur.memoryBytes < prev.memoryBytes) {
            out.push(
              fieldDiag('IT5001', cur, ['memory', 'guest'], `size \`${cur.ladderSize}\` has ${formatBinary(cur.memoryBytes)}, less memory than the smaller size \`${prev.ladderSize}\` (${formatBinary(prev.memoryBytes)})`),
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
          fieldDiag('IT5002', it, ['memory', 'guest'], `memory ${String(get(it.spec, ['memory', 'guest']))} does not match ${it.cpu} vCPU x ${formatBinary(it.memoryPerCPUBytes)}`, {
            hint: 'state a different memory on purpose with `overrides.<size>.memory`',
          }),
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
          diag('IT5003', `preferences \`${first.name}\` and \`${p.name}\` share the display name ${JSON.stringify(p.displayName)}`, locate(p.origin.src, p.origin.path[0] === 'architectures' ? p.origin.path : ['displayName']), {
            hint: 'users pick preferences by display name in UIs; make each one say what differs',
            related: [{ message: 'first used here', location: locate(first.origin.src, ['displayName']) }],
          }),
        );
      }
      return out;
    },
  },
  {
    name: 'requirements-satisfiable',
    description: "each preference's requirements are met by at least one instance type of the catalog",
    check: (ctx) => {
      if (ctx.catalog.instancetypes.length === 0) return [];
      return ctx.catalog.preferences.flatMap((p) => {
        const cpu = get(p.spec, ['requirements', 'cpu', 'guest']);
        const memQ = get(p.spec, ['requirements', 'memory', 'guest']);
        const mem = typeof memQ === 'string' || typeof memQ === 'number' ? parseQuantity(memQ) : undefined;
        if (typeof cpu !== 'number' && mem === undefined) return [];
        const ok = ctx.catalog.instancetypes.some((it) => (typeof cpu !== 'number' || it.cpu >= cpu) && (mem === undefined || it.memoryBytes >= mem));
        return ok
          ? []
          : [
              fieldDiag('IT5004', p, ['requirements'], 'no instance type of the catalog meets these requirements', {
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
        const topology = get(p.spec, ['cpu', 'preferredCPUTopology']);
        if (topology !== 'spread' && topology !== 'preferSpread') return [];
        const ratioRaw = get(p.spec, ['cpu', 'spreadOptions', 'ratio']) ?? get(p.spec, ['preferSpreadSocketToCoreRatio']);
        const ratio = typeof ratioRaw === 'number' && ratioRaw > 0 ? ratioRaw : 2;
        const across = get(p.spec, ['cpu', 'spreadOptions', 'across']) ?? 'SocketsCores';
        const fits = (guest: number): boolean =>
          across === 'SocketsCoresThreads' ? guest % 2 === 0 && (guest / 2) % ratio === 0 : guest % ratio === 0;
        const reqCpu = get(p.spec, ['requirements', 'cpu', 'guest']);
        const bad = ctx.catalog.instancetypes.filter((it) => (typeof reqCpu !== 'number' || it.cpu >= reqCpu) && !fits(it.cpu));
        if (bad.length === 0) return [];
        const names = bad.map((b) => b.name);
        return [
          fieldDiag('IT5005', p, ['cpu', 'preferredCPUTopology'], `cannot be used with ${names.length} instance type(s) whose vCPUs do not divide by the spread: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', ...' : ''}`, {
            severity: 'warning',
            hint: 'a VM pairing them is rejected at admission; raise requirements.cpu.guest so those sizes are excluded',
          }),
        ];
      }),
  },
  {
    name: 'upstream-name-collision',
    description: 'cluster-scoped names differ from the common-instancetypes bundle virt-operator deploys',
    check: (ctx) => {
      if (!ctx.generator.scopes.includes('cluster')) return [];
      const out: Diagnostic[] = [];
      for (const it of ctx.catalog.instancetypes) {
        if (UPSTREAM_INSTANCETYPE_NAMES.has(it.name)) out.push(collision(it));
      }
      for (const p of ctx.catalog.preferences) {
        if (UPSTREAM_PREFERENCE_NAMES.has(p.name)) out.push(collision(p));
      }
      return out;
    },
  },
  {
    name: 'vendor-metrics-allow-list',
    description: "a vendor label outside KubeVirt's metrics allow-list makes per-type metrics read <other>",
    check: (ctx) =>
      METRICS_VENDOR_ALLOW_LIST.includes(ctx.generator.vendor)
        ? []
        : [
            diag('IT5007', `vendor \`${ctx.generator.vendor}\` is not in KubeVirt's metrics allow-list (${METRICS_VENDOR_ALLOW_LIST.join(', ')}): kubevirt_vmi_* metrics will report these instance types and preferences as \`<other>\``, undefined, {
              severity: 'warning',
              hint: 'keep the vendor if per-type metrics do not matter to you; `--strict` turns this into an error',
            }),
          ],
  },
];

function collision(o: Parameters<typeof objectDiag>[1]): Diagnostic {
  return objectDiag('IT5006', o, 'a cluster-scoped object of this name is deployed by virt-operator (common-instancetypes); the operator will revert it', {
    severity: 'warning',
    hint: 'choose another name pattern, or disable commonInstancetypesDeployment in the KubeVirt CR',
  });
}
