/**
 * KubeVirt's checks on instance types, each a small named rule (house rule 11); the preference
 * rules are rules-kubevirt-preferences.ts and what the rules share rules-kubevirt-support.ts.
 */
import { getPath as get, type JsonObject } from '../json';
import { bytesProblem, formatBinary, MiB, parseQuantity } from '../quantity';
import type { Diagnostic } from '../diagnostics';
import { originOf } from '../resolve/leaves';
import { DEPRECATED_FIELDS, type Architecture } from '../schema/kubevirt-api';
import { fieldDiag, fieldLocation, groupBy, type ObjectRuleContext, type Rule, type RuleInstancetype } from './context';
import { dedicatedThreadsProblem, HUGEPAGE_SIZES_BY_ARCHITECTURE } from '../kubevirt/launch';
import { KUBEVIRT_PREFERENCE_RULES } from './rules-kubevirt-preferences';

import {
  instancetypeRule,
  MiB2,
  GiB,
  ALL_HUGEPAGE_SIZES,
  guestTopology,
  preferenceArchitecture,
  type PairingClass,
  pairingClasses,
  classPairable,
  names,
  locKey,
  asBytes,
} from './rules-kubevirt-support';
export {
  spreadRatio,
  isSpread,
  guestTopology,
  spreadDivides,
  preferenceArchitecture,
  pairable,
  type PairingClass,
  pairingClasses,
  classPairable,
} from './rules-kubevirt-support';

export { HUGEPAGE_SIZES_BY_ARCHITECTURE } from '../kubevirt/launch';
export type { Topology } from '../kubevirt/topology';

export const KUBEVIRT_RULES: readonly Rule<ObjectRuleContext>[] = [
  instancetypeRule('cpu-guest-positive', 'an instance type gives the guest at least one vCPU', (it) =>
    get(it.spec, ['cpu', 'guest']) === 0 ? [fieldDiag('IT4012', it, ['cpu', 'guest'], 'a VM needs at least 1 vCPU')] : [],
  ),
  instancetypeRule('memory-at-least-1mi', 'guest memory of 1Mi or more: a quantity without a unit is bytes', (it) =>
    (['guest', 'maxGuest'] as const).flatMap((f) => {
      const q = get(it.spec, ['memory', f]);
      const bytes = typeof q === 'string' || typeof q === 'number' ? parseQuantity(q) : undefined;
      if (bytes === undefined || bytes >= MiB) return [];
      // The hint repeats what was written (memoryPerCPU: 4), not the derived value, so that every
      // size of a family gives the same finding and the findings merge into one.
      const origin = originOf(it.leaves, ['memory', f])?.origin;
      const written = origin ? get(origin.src.value as JsonObject, origin.path.map(String)) : q;
      const digits = /^\s*([0-9]+(?:\.[0-9]+)?)\s*$/.exec(String(written))?.[1];
      return [
        fieldDiag('IT1205', it, ['memory', f], 'less than 1Mi; no guest boots in that', {
          hint: digits !== undefined ? `a quantity without a unit is bytes; did you mean \`${digits}Gi\`?` : 'use a binary suffix such as Mi or Gi',
        }),
      ];
    }),
  ),
  instancetypeRule('memory-decimal-units', 'memory written in decimal units (G, M) is valid and almost certainly meant binary (Gi, Mi)', (it) =>
    (['guest', 'maxGuest'] as const).flatMap((f) => {
      // What was written (memoryPerCPU: 4G, an override, the spec), not the derived value, so that
      // every size of a family gives the same finding and the findings merge into one.
      const origin = originOf(it.leaves, ['memory', f])?.origin;
      const written = origin ? get(origin.src.value as JsonObject, origin.path.map(String)) : get(it.spec, ['memory', f]);
      const m = typeof written === 'string' ? /^\s*([0-9]+(?:\.[0-9]+)?)\s*([kMGTPE])\s*$/.exec(written) : null;
      if (!m) return [];
      const unit = m[2] === 'k' ? 'Ki' : `${m[2]}i`;
      const power = 'kMGTPE'.indexOf(m[2]!) + 1;
      const inBinary = (Number(m[1]) * (1000 / 1024) ** power).toFixed(2).replace(/\.?0+$/, '');
      return [
        fieldDiag('IT1207', it, ['memory', f], `\`${written as string}\` is in decimal units: ${m[1]}${m[2]} is ${inBinary}${unit}, not ${m[1]}${unit}`, {
          severity: 'warning',
          hint: `did you mean \`${m[1]}${unit}\`? KubeVirt, Kubernetes and the guest count memory in binary units`,
        }),
      ];
    }),
  ),
  instancetypeRule('memory-whole-bytes', 'memory quantities are whole numbers of bytes', (it) =>
    (['guest', 'maxGuest'] as const).flatMap((f) => {
      const q = get(it.spec, ['memory', f]);
      if ((typeof q !== 'string' && typeof q !== 'number') || parseQuantity(q) !== undefined) return [];
      return [
        fieldDiag('IT1205', it, ['memory', f], `${JSON.stringify(q)} ${bytesProblem(q)}`, {
          hint:
            typeof q === 'string' && /[0-9]m$/.test(q)
              ? `\`m\` means milli; did you mean \`${q.slice(0, -1)}Mi\`?`
              : bytesProblem(q).startsWith('is more')
                ? 'no node has this much memory: write the size the guest has, in Gi or Ti'
                : 'use a binary suffix such as Mi or Gi',
        }),
      ];
    }),
  ),
  instancetypeRule('overcommit-range', 'overcommitPercent is 0..100 (instancetype webhook)', (it) => {
    const pct = get(it.spec, ['memory', 'overcommitPercent']);
    return typeof pct === 'number' && (pct < 0 || pct > 100)
      ? [fieldDiag('IT4001', it, ['memory', 'overcommitPercent'], `spec.memory.overcommitPercent '${pct}': must be in range between 0 and 100.`)]
      : [];
  }),
  instancetypeRule('overcommit-hugepages', 'overcommit and hugepages are exclusive (instancetype webhook)', (it) => {
    const pct = get(it.spec, ['memory', 'overcommitPercent']);
    return typeof pct === 'number' && pct !== 0 && get(it.spec, ['memory', 'hugepages']) !== undefined
      ? [
          fieldDiag(
            'IT4002',
            it,
            ['memory', 'overcommitPercent'],
            'spec.memory.overcommitPercent and spec.memory.hugepages should not be requested together.',
            {
              hint: 'hugepage memory cannot be overcommitted; drop one of the two',
              related: [{ message: 'hugepages are requested here', location: fieldLocation(it, ['memory', 'hugepages']) }],
            },
          ),
        ]
      : [];
  }),
  instancetypeRule('dedicated-overcommit', 'dedicated CPUs are not paired with overcommitted memory', (it) => {
    const pct = get(it.spec, ['memory', 'overcommitPercent']);
    return get(it.spec, ['cpu', 'dedicatedCPUPlacement']) === true && typeof pct === 'number' && pct > 0
      ? [
          fieldDiag('IT5020', it, ['memory', 'overcommitPercent'], `dedicated CPUs with ${pct}% of the guest memory overcommitted`, {
            severity: 'warning',
            hint: 'a VM pays for dedicated CPUs to run without contention; its launcher pod then requests less memory than the guest has, and the guest can be swapped or killed under memory pressure: drop overcommitPercent, or dedicatedCPUPlacement',
            related: [{ message: 'dedicated CPUs are asked here', location: fieldLocation(it, ['cpu', 'dedicatedCPUPlacement']) }],
          }),
        ]
      : [];
  }),
  instancetypeRule('hugepage-alignment', 'guest memory is at least, and a multiple of, the hugepage size', (it) => {
    const pageSize = get(it.spec, ['memory', 'hugepages', 'pageSize']);
    const guest = get(it.spec, ['memory', 'guest']);
    if (typeof pageSize !== 'string' || (typeof guest !== 'string' && typeof guest !== 'number')) return [];
    // A size no architecture has is IT4016; alignment to it would only echo that.
    if (!ALL_HUGEPAGE_SIZES.includes(pageSize)) return [];
    const page = parseQuantity(pageSize);
    const bytes = parseQuantity(guest);
    if (page === undefined || bytes === undefined || page === 0) return [];
    if (bytes < page) {
      return [fieldDiag('IT4005', it, ['memory', 'guest'], `guest memory '${guest}' must be equal to or larger than page size '${pageSize}'`)];
    }
    if (bytes % page !== 0) {
      return [
        fieldDiag('IT4005', it, ['memory', 'guest'], `guest memory '${guest}' is not a multiple of the page size '${pageSize}'`, {
          hint: `use a multiple of ${pageSize}, e.g. ${formatBinary(Math.ceil(bytes / page) * page)}`,
        }),
      ];
    }
    return [];
  }),
  {
    name: 'hugepage-size',
    description: 'hugepage sizes exist on the architectures the instance type is used on',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const withPages = ctx.catalog.instancetypes.filter((it) => typeof get(it.spec, ['memory', 'hugepages', 'pageSize']) === 'string');
      for (const group of groupBy(withPages, (it) => locKey(it, ['memory', 'hugepages', 'pageSize']))) {
        const first = group[0]!;
        const pageSize = get(first.spec, ['memory', 'hugepages', 'pageSize']) as string;
        if (!ALL_HUGEPAGE_SIZES.includes(pageSize)) {
          out.push(
            fieldDiag('IT4016', first, ['memory', 'hugepages', 'pageSize'], `page size '${pageSize}' is not valid; for x86_64 valid values are 1Gi and 2Mi`, {
              hint: `hugepage sizes: ${Object.entries(HUGEPAGE_SIZES_BY_ARCHITECTURE)
                .map(([a, s]) => `${a} ${s.join(', ')}`)
                .join('; ')}`,
            }),
          );
          continue;
        }
        // A family meant only for architectures that have no such page size can never run: an error, at its line.
        const meantFor = first.architectures;
        if (meantFor !== undefined && meantFor.length > 0 && meantFor.every((a) => !HUGEPAGE_SIZES_BY_ARCHITECTURE[a].includes(pageSize))) {
          out.push(
            fieldDiag(
              'IT4016',
              first,
              ['memory', 'hugepages', 'pageSize'],
              `${pageSize} hugepages do not exist on ${meantFor.join(' or ')} (${meantFor.map((a) => HUGEPAGE_SIZES_BY_ARCHITECTURE[a].join(', ')).join('; ')} there), the only architecture${meantFor.length === 1 ? '' : 's'} the family is meant for: ${names(group)} can never run`,
              {
                hint: `use a page size of ${meantFor.join(' or ')} (${[...new Set(meantFor.flatMap((a) => HUGEPAGE_SIZES_BY_ARCHITECTURE[a]))].join(', ')}), or add the architecture that has ${pageSize} to the family's \`architectures\``,
              },
            ),
          );
          continue;
        }
        // Architectures the catalog pairs these instance types with: each preference's, or the catalog default for those that name none.
        const arches = new Map<Architecture, string[]>();
        for (const c of pairingClasses(ctx.catalog.preferences)) {
          if (!group.some((it) => classPairable(c, it, ctx.catalog.defaultArchitecture))) continue;
          const arch = c.architecture ?? ctx.catalog.defaultArchitecture;
          if (!arches.has(arch)) arches.set(arch, []);
          arches.get(arch)!.push(...c.members.map((p) => p.name));
        }
        for (const list of arches.values()) list.sort();
        for (const [arch, prefs] of arches) {
          if (HUGEPAGE_SIZES_BY_ARCHITECTURE[arch].includes(pageSize)) continue;
          out.push(
            fieldDiag(
              'IT4016',
              first,
              ['memory', 'hugepages', 'pageSize'],
              `${pageSize} hugepages do not exist on ${arch} (${HUGEPAGE_SIZES_BY_ARCHITECTURE[arch].join(', ')} there), yet ${names(group)} pair with ${arch} preferences (${prefs
                .slice(0, 4)
                .map((n) => `\`${n}\``)
                .join(', ')}${prefs.length > 4 ? ', ...' : ''})`,
              {
                severity: 'warning',
                hint: `raise those preferences' requirements above these sizes, or offer a ${arch} variant of the family`,
              },
            ),
          );
        }
      }
      return out;
    },
  },
  instancetypeRule('numa-passthrough', 'NUMA guest mapping passthrough needs dedicated CPUs and hugepages', (it) => {
    if (get(it.spec, ['cpu', 'numa', 'guestMappingPassthrough']) === undefined) return [];
    const out: Diagnostic[] = [];
    if (get(it.spec, ['cpu', 'dedicatedCPUPlacement']) !== true) {
      out.push(
        fieldDiag(
          'IT4006',
          it,
          ['cpu', 'numa'],
          'spec.domain.cpu.dedicatedCPUPlacement must be set to true when NUMA topology strategy is set in spec.domain.cpu.numa.guestMappingPassthrough',
          { hint: 'add `cpu.dedicatedCPUPlacement: true`' },
        ),
      );
    }
    if (get(it.spec, ['memory', 'hugepages']) === undefined) {
      out.push(
        fieldDiag(
          'IT4006',
          it,
          ['cpu', 'numa'],
          'spec.domain.memory.hugepages must be requested when NUMA topology strategy is set in spec.domain.cpu.numa.guestMappingPassthrough',
          { hint: 'add `memory.hugepages.pageSize: 1Gi` (or 2Mi)' },
        ),
      );
    }
    return out;
  }),
  instancetypeRule('isolate-needs-dedicated', 'isolateEmulatorThread only with dedicatedCPUPlacement', (it) =>
    get(it.spec, ['cpu', 'isolateEmulatorThread']) === true && get(it.spec, ['cpu', 'dedicatedCPUPlacement']) !== true
      ? [
          fieldDiag('IT4007', it, ['cpu', 'isolateEmulatorThread'], 'IsolateEmulatorThread should be only set in combination with DedicatedCPUPlacement', {
            hint: 'add `cpu.dedicatedCPUPlacement: true`, or drop isolateEmulatorThread',
          }),
        ]
      : [],
  ),
  {
    name: 'dedicated-threads',
    description: 'with dedicated CPUs a paired preference yields at most 2 threads per core (1 on arm64)',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const dedicated = ctx.catalog.instancetypes.filter((it) => get(it.spec, ['cpu', 'dedicatedCPUPlacement']) === true);
      if (dedicated.length === 0) return out;
      const badByClass = new Map<PairingClass, RuleInstancetype[]>();
      for (const c of pairingClasses(ctx.catalog.preferences)) {
        const limit = (c.architecture ?? ctx.catalog.defaultArchitecture) === 'arm64' ? 1 : 2;
        badByClass.set(
          c,
          dedicated.filter((it) => classPairable(c, it, ctx.catalog.defaultArchitecture) && guestTopology(it.cpu, c.spec).threads > limit),
        );
      }
      const classOf = new Map(pairingClasses(ctx.catalog.preferences).flatMap((c) => c.members.map((m) => [m, c] as const)));
      for (const p of ctx.catalog.preferences) {
        const arm = (preferenceArchitecture(p) ?? ctx.catalog.defaultArchitecture) === 'arm64';
        const bad = badByClass.get(classOf.get(p)!)!;
        if (bad.length === 0) continue;
        const worst = bad.reduce((a, b) => (guestTopology(b.cpu, p.spec).threads > guestTopology(a.cpu, p.spec).threads ? b : a));
        const threads = guestTopology(worst.cpu, p.spec).threads;
        const message = dedicatedThreadsProblem(threads, arm ? 'arm64' : 'amd64')!;
        out.push(
          fieldDiag('IT4008', p, ['cpu', 'preferredCPUTopology'], `paired with dedicated-CPU instance type(s) ${names(bad)}: ${message}`, {
            hint: `use the \`cores\` topology${arm ? '' : ' or a spread with at most 2 threads'}, or raise requirements.cpu.guest/memory.guest so these sizes cannot be paired`,
            related: [{ message: `\`${worst.name}\` dedicates its CPUs here`, location: fieldLocation(worst, ['cpu', 'dedicatedCPUPlacement']) }],
          }),
        );
      }
      return out;
    },
  },
  {
    name: 'max-sockets',
    description: 'maxSockets leaves room for the sockets the topologies of paired preferences need',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const limited = ctx.catalog.instancetypes.filter((it) => typeof get(it.spec, ['cpu', 'maxSockets']) === 'number');
      for (const group of groupBy(limited, (it) => locKey(it, ['cpu', 'maxSockets']))) {
        // Without a preference (or with `sockets`/`any`) every vCPU is a socket.
        const bad = group.filter((it) => it.cpu > (get(it.spec, ['cpu', 'maxSockets']) as number));
        const prefs = new Set<string>();
        for (const c of pairingClasses(ctx.catalog.preferences)) {
          const exceeds = group.some(
            (it) =>
              classPairable(c, it, ctx.catalog.defaultArchitecture) && guestTopology(it.cpu, c.spec).sockets > (get(it.spec, ['cpu', 'maxSockets']) as number),
          );
          if (exceeds) for (const p of c.members) prefs.add(p.name);
        }
        if (bad.length === 0 && prefs.size === 0) continue;
        const first = bad[0] ?? group[0]!;
        const max = get(first.spec, ['cpu', 'maxSockets']) as number;
        const pl = [...prefs];
        out.push(
          fieldDiag(
            'IT4009',
            first,
            ['cpu', 'maxSockets'],
            `Number of sockets in CPU topology is greater than the maximum sockets allowed: maxSockets ${max}, but ${names(bad)} give${bad.length === 1 ? 's' : ''} a VM without a preference up to ${Math.max(...bad.map((b) => b.cpu))} sockets${
              pl.length > 0
                ? `, as do preferences ${pl
                    .slice(0, 4)
                    .map((n) => `\`${n}\``)
                    .join(', ')}${pl.length > 4 ? ', ...' : ''}`
                : ''
            }`,
            {
              hint: 'set maxSockets to at least the vCPU count (upstream sets it equal), or pair these sizes only with preferences using cores or threads',
            },
          ),
        );
      }
      return out;
    },
  },
  instancetypeRule('memory-hotplug', 'maxGuest constraints of memory hotplug', (it) => {
    const maxGuest = get(it.spec, ['memory', 'maxGuest']);
    if (typeof maxGuest !== 'string' && typeof maxGuest !== 'number') return [];
    const max = asBytes(maxGuest);
    const guest = asBytes(get(it.spec, ['memory', 'guest']));
    const pageSize = get(it.spec, ['memory', 'hugepages', 'pageSize']);
    const align = pageSize === '1Gi' ? GiB : MiB2;
    const alignName = pageSize === '1Gi' ? '1Gi' : '2Mi';
    const out: Diagnostic[] = [];
    const at = (message: string, path: readonly string[] = ['memory', 'maxGuest']): void => {
      out.push(fieldDiag('IT4013', it, path, message));
    };
    if (max !== undefined && guest !== undefined && guest > max) at('Guest memory is greater than the configured maxGuest memory');
    if (guest !== undefined && guest % align !== 0) at(`Guest memory must be ${alignName} aligned`, ['memory', 'guest']);
    if (max !== undefined && max % align !== 0) at(`MaxGuest must be ${alignName} aligned`);
    if (guest !== undefined && guest < GiB) at('Memory hotplug is only available for VMs with at least 1Gi of guest memory');
    if (get(it.spec, ['cpu', 'realtime']) !== undefined) at('Memory hotplug is not compatible with realtime VMs');
    if (get(it.spec, ['cpu', 'numa', 'guestMappingPassthrough']) !== undefined) at('Memory hotplug is not compatible with guest mapping passthrough');
    if (get(it.spec, ['launchSecurity']) !== undefined) at('Memory hotplug is not compatible with encrypted VMs');
    return out;
  }),
  {
    name: 'memory-hotplug-architecture',
    description: 'memory hotplug only on x86_64: instance types with maxGuest do not pair with other architectures',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const hot = ctx.catalog.instancetypes.filter((it) => get(it.spec, ['memory', 'maxGuest']) !== undefined);
      for (const group of groupBy(hot, (it) => locKey(it, ['memory', 'maxGuest']))) {
        const pairs = new Set(
          pairingClasses(ctx.catalog.preferences)
            .filter(
              (c) => c.architecture !== undefined && c.architecture !== 'amd64' && group.some((it) => classPairable(c, it, ctx.catalog.defaultArchitecture)),
            )
            .flatMap((c) => c.members),
        );
        const prefs = ctx.catalog.preferences.filter((p) => pairs.has(p));
        if (prefs.length === 0) continue;
        out.push(
          fieldDiag(
            'IT4013',
            group[0]!,
            ['memory', 'maxGuest'],
            `Memory hotplug is only available for x86_64 VMs, yet ${names(group)} pair with ${names(prefs, 4)}`,
            {
              severity: 'warning',
              hint: "raise those preferences' requirements above these sizes, or drop maxGuest",
            },
          ),
        );
      }
      return out;
    },
  },
  instancetypeRule('deprecated-instancetype-fields', 'fields KubeVirt deprecated', (it) =>
    DEPRECATED_FIELDS.filter((f) => f.specKind === 'instancetype' && get(it.spec, f.path.split('.')) !== undefined).map((f) =>
      fieldDiag('IT4015', it, f.path.split('.'), f.serverWarning ?? `${f.path} is deprecated since ${f.deprecatedIn}`, {
        severity: 'warning',
        hint: f.replacement,
      }),
    ),
  ),
  ...KUBEVIRT_PREFERENCE_RULES,
];
