/**
 * What KubeVirt's rules share: rule constructors over instance types and preferences, the spread
 * topology's ratio and divisibility, quantities, and the classes of preferences the pairing checks
 * judge once each.
 */
import { getPath as get, type JsonObject } from '../json';
import { parseQuantity } from '../quantity';
import { shownNames, type Diagnostic } from '../diagnostics';

import { type Architecture } from '../schema/kubevirt-api';
import { fieldLocation, type ObjectRuleContext, type Rule, type RuleInstancetype, type RulePreference } from './context';
import { HUGEPAGE_SIZES_BY_ARCHITECTURE } from '../kubevirt/launch';
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

export function instancetypeRule(name: string, description: string, check: (it: RuleInstancetype) => Diagnostic[]): Rule<ObjectRuleContext> {
  return { name, description, check: (ctx) => ctx.catalog.instancetypes.flatMap(check) };
}

export function preferenceRule(name: string, description: string, check: (p: RulePreference, ctx: ObjectRuleContext) => Diagnostic[]): Rule<ObjectRuleContext> {
  return { name, description, check: (ctx) => ctx.catalog.preferences.flatMap((p) => check(p, ctx)) };
}

export const MiB2 = 2 ** 21;

export const GiB = 2 ** 30;

export const ALL_HUGEPAGE_SIZES = [...new Set(Object.values(HUGEPAGE_SIZES_BY_ARCHITECTURE).flat())];

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

export const classCache = new WeakMap<readonly RulePreference[], PairingClass[]>();

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

export function names(list: readonly { name: string }[], max = 6): string {
  return shownNames(
    list.map((o) => o.name),
    list.length,
    max,
  );
}

export function locKey(it: RuleInstancetype, path: readonly string[]): string {
  const l = fieldLocation(it, path);
  return `${l.file}:${l.line}:${l.col}`;
}

export function asBytes(v: unknown): number | undefined {
  return typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined;
}
