/**
 * Over 400 lines: A list of small named rules transcribing KubeVirt's webhook checks (house rule
 * 11); each is short, the file is their list.
 */
import { getPath as get, type JsonObject } from '../json';
import { bytesProblem, formatBinary, MiB, parseQuantity } from '../quantity';
import type { Diagnostic } from '../diagnostics';
import { originOf } from '../resolve/leaves';
import { DEPRECATED_FIELDS, DEPRECATED_TOPOLOGIES, targetRange, VIDEO_TYPES_BY_ARCHITECTURE, type Architecture } from '../schema/kubevirt-api';
import { holds, releasesBetween } from '../kubevirt/releases';
import { fieldDiag, fieldLocation, groupBy, type ObjectRuleContext, type Rule, type RuleInstancetype, type RulePreference } from './context';
import { dedicatedThreadsProblem, HUGEPAGE_SIZES_BY_ARCHITECTURE } from '../kubevirt/launch';
import { preferencePairingKey } from '../kubevirt/pairing';
import { meetsRequirements, requirementsOf } from '../kubevirt/requirements';
import {
  guestTopology as kubevirtTopology,
  isSpread as isSpreadTopology,
  preferredTopology,
  spreadOptions,
  spreadProblem,
  type Topology,
} from '../kubevirt/topology';

/**
 * What KubeVirt's admission webhooks reject, and what makes a VM using the object fail to start.
 * (Over 400 lines on purpose: one rule per KubeVirt check, each short; they are read as one list
 * against KubeVirt's webhook code, and the list is the file.)
 * Messages quote KubeVirt's own wording where it has one (kubevirt-api.md, sections b and g).
 * Rules about one object look at that object; pairing rules look at each instance type together
 * with each preference whose requirements it meets, because that is what a user will combine.
 */

function instancetypeRule(name: string, description: string, check: (it: RuleInstancetype) => Diagnostic[]): Rule<ObjectRuleContext> {
  return { name, description, check: (ctx) => ctx.catalog.instancetypes.flatMap(check) };
}

function preferenceRule(name: string, description: string, check: (p: RulePreference, ctx: ObjectRuleContext) => Diagnostic[]): Rule<ObjectRuleContext> {
  return { name, description, check: (ctx) => ctx.catalog.preferences.flatMap((p) => check(p, ctx)) };
}

const MiB2 = 2 ** 21;
const GiB = 2 ** 30;

export { HUGEPAGE_SIZES_BY_ARCHITECTURE } from '../kubevirt/launch';
export type { Topology } from '../kubevirt/topology';

const ALL_HUGEPAGE_SIZES = [...new Set(Object.values(HUGEPAGE_SIZES_BY_ARCHITECTURE).flat())];

/** The effective spread ratio (GetSpreadOptions): spreadOptions.ratio, else a non-zero preferSpreadSocketToCoreRatio, else 2. */
export function spreadRatio(spec: JsonObject): number {
  return spreadOptions(spec).ratio;
}

export function isSpread(spec: JsonObject): boolean {
  return isSpreadTopology(preferredTopology(spec));
}

/**
 * The topology KubeVirt derives from `guest` vCPUs and a preference: kubevirt/topology.ts, the one
 * implementation expand uses too. A ratio of 0 (IT4010 reports it) makes KubeVirt panic; the
 * catalog rules read it as the topology a ratio of 1 would give, so that they go on to the others.
 */
export function guestTopology(guest: number, spec: JsonObject | undefined): Topology {
  if (spec && isSpread(spec) && spreadRatio(spec) === 0)
    return kubevirtTopology(guest, {
      ...spec,
      cpu: { ...(get(spec, ['cpu']) as JsonObject), spreadOptions: { ...((get(spec, ['cpu', 'spreadOptions']) as JsonObject | undefined) ?? {}), ratio: 1 } },
    });
  return kubevirtTopology(guest, spec);
}

/** Whether KubeVirt's spread check at VM admission accepts `guest` vCPUs with this preference (R 4.1, kubevirt/topology.ts). */
export function spreadDivides(guest: number, spec: JsonObject): boolean {
  if (!isSpread(spec)) return true;
  if (spreadRatio(spec) === 0) return false;
  return spreadProblem(guest, spec) === undefined;
}

/** Architecture a VM using the preference runs on, when the preference says. */
export function preferenceArchitecture(p: RulePreference): Architecture | undefined {
  const a = p.architecture ?? get(p.spec, ['requirements', 'architecture']) ?? get(p.spec, ['preferredArchitecture']);
  return typeof a === 'string' ? (a as Architecture) : undefined;
}

/** The instance type meets the preference's requirements and its spread, so a user may combine them. */
export function pairable(p: RulePreference, it: RuleInstancetype): boolean {
  const met = meetsRequirements(requirementsOf(p.spec), it);
  return met.cpu && met.memory && spreadDivides(it.cpu, p.spec);
}

/**
 * Preferences that pair with exactly the same instance types and yield the same topology: same
 * requirements, architecture and CPU topology settings. Rules that look at every (preference,
 * instance type) pair iterate over these classes, so a catalog with thousands of preferences stays
 * linear in its size.
 */
export interface PairingClass {
  readonly members: readonly RulePreference[];
  /** Spec of the first member: the topology settings all members share. */
  readonly spec: JsonObject;
  readonly architecture: Architecture | undefined;
  readonly reqCpu: number | undefined;
  readonly reqMemBytes: number | undefined;
}

const classCache = new WeakMap<readonly RulePreference[], PairingClass[]>();

export function pairingClasses(preferences: readonly RulePreference[]): PairingClass[] {
  const cached = classCache.get(preferences);
  if (cached) return cached;
  const byKey = new Map<
    string,
    { members: RulePreference[]; spec: JsonObject; architecture: Architecture | undefined; reqCpu: number | undefined; reqMemBytes: number | undefined }
  >();
  for (const p of preferences) {
    const { cpu: reqCpu, memoryBytes: reqMemBytes } = requirementsOf(p.spec);
    const architecture = preferenceArchitecture(p);
    // The pairing key (kubevirt/pairing.ts), with the architecture the preference resolved to.
    const key = `${architecture ?? ''}|${preferencePairingKey(p.spec)}`;
    const c = byKey.get(key);
    if (c) c.members.push(p);
    else byKey.set(key, { members: [p], spec: p.spec, architecture, reqCpu, reqMemBytes });
  }
  const classes = [...byKey.values()];
  classCache.set(preferences, classes);
  return classes;
}

/**
 * The instance type meets the class's requirements and spread, and is meant for its architecture
 * (a preference naming none runs on the catalog's default architecture).
 */
export function classPairable(c: PairingClass, it: RuleInstancetype, defaultArchitecture: Architecture): boolean {
  if (it.architectures !== undefined && !it.architectures.includes(c.architecture ?? defaultArchitecture)) return false;
  if (c.reqCpu !== undefined && it.cpu < c.reqCpu) return false;
  if (c.reqMemBytes !== undefined && it.memoryBytes < c.reqMemBytes) return false;
  return spreadDivides(it.cpu, c.spec);
}

function names(list: readonly { name: string }[], max = 6): string {
  const n = list.map((o) => `\`${o.name}\``);
  return n.length > max ? `${n.slice(0, max).join(', ')} and ${n.length - max} more` : n.join(', ');
}

function locKey(it: RuleInstancetype, path: readonly string[]): string {
  const l = fieldLocation(it, path);
  return `${l.file}:${l.line}:${l.col}`;
}

function asBytes(v: unknown): number | undefined {
  return typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined;
}

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
  preferenceRule('cpu-topology', 'preferredCPUTopology is one KubeVirt knows; long forms are deprecated', (p) => {
    const t = get(p.spec, ['cpu', 'preferredCPUTopology']);
    if (typeof t !== 'string') return [];
    const dep = (DEPRECATED_TOPOLOGIES as Record<string, { replacement: string; serverWarning: string } | undefined>)[t];
    return dep
      ? [fieldDiag('IT4015', p, ['cpu', 'preferredCPUTopology'], dep.serverWarning, { severity: 'warning', hint: `write \`${dep.replacement}\`` })]
      : [];
  }),
  preferenceRule('spread-options', 'spreadOptions rules of the preference webhook and VM admission', (p) => {
    const out: Diagnostic[] = [];
    const spread = isSpread(p.spec);
    const ratio = get(p.spec, ['cpu', 'spreadOptions', 'ratio']);
    const across = get(p.spec, ['cpu', 'spreadOptions', 'across']) ?? 'SocketsCores';
    // preferSpreadSocketToCoreRatio: 0 falls back to 2; only spreadOptions.ratio: 0 reaches the division.
    if (ratio === 0) {
      out.push(
        fieldDiag(
          'IT4010',
          p,
          ['cpu', 'spreadOptions', 'ratio'],
          'a spread ratio of 0 passes the preference webhook but divides by zero when a VM using it is admitted',
          {
            hint: 'use a ratio of at least 1 (the default is 2)',
          },
        ),
      );
    }
    if (spread && across === 'CoresThreads' && spreadRatio(p.spec) !== 2) {
      out.push(
        fieldDiag(
          'IT4004',
          p,
          typeof ratio === 'number' ? ['cpu', 'spreadOptions', 'ratio'] : ['cpu', 'spreadOptions', 'across'],
          'only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads',
          {
            hint: 'set `spreadOptions.ratio: 2`, or spread across SocketsCores',
            // KubeVirt's preference webhook refuses this one itself (admission/index.ts keeps it an error).
            reason: 'webhook-coresthreads-ratio',
          },
        ),
      );
    }
    if (!spread && get(p.spec, ['cpu', 'spreadOptions']) !== undefined) {
      out.push(
        fieldDiag(
          'IT4004',
          p,
          ['cpu', 'spreadOptions'],
          `spreadOptions has no effect with preferredCPUTopology ${String(get(p.spec, ['cpu', 'preferredCPUTopology']) ?? 'sockets (the default)')}`,
          {
            severity: 'warning',
            hint: 'set `preferredCPUTopology: spread`, or drop spreadOptions',
          },
        ),
      );
    }
    return out;
  }),
  preferenceRule('secure-boot-architecture', 'UEFI Secure Boot where KubeVirt refuses it: s390x, and arm64 on the releases that still refuse it', (p, ctx) => {
    const arch = preferenceArchitecture(p) ?? ctx.catalog.defaultArchitecture;
    if (arch === 'amd64') return [];
    // arm64: a rule of some releases only (kubevirt/releases.ts), checked on every targeted release.
    let refusedBy = '';
    if (arch === 'arm64') {
      const range = targetRange(ctx.generator.targetKubevirt);
      const refusing = releasesBetween(range.min, range.max).filter((r) => holds('arm64SecureBoot', r));
      if (refusing.length === 0) return [];
      refusedBy = `refused by KubeVirt ${refusing.length === 1 ? refusing[0]! : `${refusing.slice(0, -1).join(', ')} and ${refusing[refusing.length - 1]!}`}: `;
    }
    const out: Diagnostic[] = [];
    if (get(p.spec, ['firmware', 'preferredEfi', 'secureBoot']) === true) {
      out.push(
        fieldDiag(
          'IT4017',
          p,
          ['firmware', 'preferredEfi', 'secureBoot'],
          `${refusedBy}UEFI secure boot is currently not supported on ${arch === 'arm64' ? 'aarch64' : arch} Arch`,
          {
            hint:
              arch === 'arm64'
                ? 'target only releases that start it (targetKubevirt: {min: v1.8.4}), or add Secure Boot for amd64 only (`architectureOverrides.amd64.include`)'
                : 'add Secure Boot for amd64 only, e.g. through `architectureOverrides.amd64.include`',
          },
        ),
      );
    }
    if (get(p.spec, ['firmware', 'preferredUseSecureBoot']) === true) {
      out.push(
        fieldDiag(
          'IT4017',
          p,
          ['firmware', 'preferredUseSecureBoot'],
          `${refusedBy}UEFI secure boot is currently not supported on ${arch === 'arm64' ? 'aarch64' : arch} Arch`,
        ),
      );
    }
    return out;
  }),
  preferenceRule('cdrom-bus', 'CD-ROMs cannot use the virtio bus', (p) =>
    get(p.spec, ['devices', 'preferredCdromBus']) === 'virtio'
      ? [fieldDiag('IT4011', p, ['devices', 'preferredCdromBus'], 'Bus type virtio is invalid for CD-ROM device', { hint: 'use sata or scsi' })]
      : [],
  ),
  preferenceRule('input-device', 'input devices are tablets', (p) =>
    get(p.spec, ['devices', 'preferredInputType']) === 'keyboard'
      ? [fieldDiag('IT4014', p, ['devices', 'preferredInputType'], 'Input device can have only tablet type.', { hint: 'use `tablet`' })]
      : [],
  ),
  preferenceRule('video-needs-graphics', 'a video type needs the graphics device', (p) =>
    get(p.spec, ['devices', 'preferredVideoType']) !== undefined && get(p.spec, ['devices', 'preferredAutoattachGraphicsDevice']) === false
      ? [fieldDiag('IT4014', p, ['devices', 'preferredVideoType'], 'Video configuration is not allowed when autoattachGraphicsDevice is set to false')]
      : [],
  ),
  preferenceRule('video-type-architecture', 'the video type exists on the architecture of the VM', (p, ctx) => {
    const t = get(p.spec, ['devices', 'preferredVideoType']);
    if (typeof t !== 'string') return [];
    const arch = preferenceArchitecture(p) ?? ctx.catalog.defaultArchitecture;
    const allowed = VIDEO_TYPES_BY_ARCHITECTURE[arch];
    return allowed.includes(t)
      ? []
      : [
          fieldDiag('IT4014', p, ['devices', 'preferredVideoType'], `video model '${t}' is not supported on ${arch} architecture`, {
            hint: `on ${arch}: ${allowed.join(', ')}`,
          }),
        ];
  }),
  preferenceRule('no-effect-devices', 'device preferences KubeVirt never applies in this combination', (p) => {
    const out: Diagnostic[] = [];
    if (get(p.spec, ['devices', 'preferredVirtualGPUOptions']) !== undefined) {
      out.push(
        fieldDiag('IT4014', p, ['devices', 'preferredVirtualGPUOptions'], 'preferredVirtualGPUOptions is declared by KubeVirt but never applied to a VM', {
          severity: 'warning',
          hint: 'set virtualGPUOptions on the GPU of the instance type instead',
        }),
      );
    }
    const bus = get(p.spec, ['devices', 'preferredDiskBus']);
    if (get(p.spec, ['devices', 'preferredDiskDedicatedIoThread']) === true && typeof bus === 'string' && bus !== 'virtio') {
      out.push(
        fieldDiag(
          'IT4014',
          p,
          ['devices', 'preferredDiskDedicatedIoThread'],
          `preferredDiskDedicatedIoThread has no effect with preferredDiskBus ${bus}: KubeVirt gives dedicated IOThreads only to virtio disks`,
          {
            severity: 'warning',
          },
        ),
      );
    }
    return out;
  }),
  preferenceRule('deprecated-preference-fields', 'fields KubeVirt deprecated', (p) =>
    DEPRECATED_FIELDS.filter((f) => f.specKind === 'preference' && get(p.spec, f.path.split('.')) !== undefined).map((f) =>
      fieldDiag('IT4015', p, f.path.split('.'), `${f.path} is deprecated since ${f.deprecatedIn}`, { severity: 'warning', hint: f.replacement }),
    ),
  ),
  preferenceRule('preference-memory-whole-bytes', 'required memory is a whole number of bytes', (p) => {
    const q = get(p.spec, ['requirements', 'memory', 'guest']);
    if ((typeof q !== 'string' && typeof q !== 'number') || parseQuantity(q) !== undefined) return [];
    return [
      fieldDiag('IT1205', p, ['requirements', 'memory', 'guest'], `${JSON.stringify(q)} ${bytesProblem(q)}`, {
        hint: typeof q === 'string' && /[0-9]m$/.test(q) ? `\`m\` means milli; did you mean \`${q.slice(0, -1)}Mi\`?` : 'use a binary suffix such as Mi or Gi',
      }),
    ];
  }),
];
