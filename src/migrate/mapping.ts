/**
 * What a VM's presets become: an instance type from the resource and CPU sections, a preference
 * from firmware, clock, features and the CPU shape, and what neither can hold put back on the VM
 * itself (a watchdog, a firmware UUID) or reported as not carried (a CPU request). Pure: works on
 * the VM's template spec as written and as the presets left it.
 */
import { obj, type Json, type JsonObject } from '../json';
import { overcommittedRequest } from '../expand/instancetype';
import { copy, isSet } from '../kubevirt/go';
import { parseQuantity, quantityCeil } from '../quantity';
import type { MergedSection } from './presets';

/** A path under the VM's `spec.template.spec`. */
export type SpecPath = readonly string[];

export interface NotCarried {
  /** The field, as a path under `spec.template.spec`. */
  readonly field: string;
  readonly value: Json;
  /** The preset it came from, or undefined for the VM's own field. */
  readonly preset?: string | undefined;
  readonly why: string;
}

export interface VmPlan {
  readonly instancetype?: JsonObject | undefined;
  readonly preference?: JsonObject | undefined;
  /** Presets whose sections the instance type and the preference were made from. */
  readonly instancetypeFrom: readonly string[];
  readonly preferenceFrom: readonly string[];
  /** VM fields the instance type now provides, removed from the template. */
  readonly remove: readonly SpecPath[];
  /** Preset values no instance type or preference field holds, written on the VM instead. */
  readonly add: readonly { readonly path: SpecPath; readonly value: Json; readonly preset: string }[];
  readonly notCarried: readonly NotCarried[];
}

export type PlanResult = { readonly plan: VmPlan } | { readonly refused: string };

/** VM CPU fields that are the instance type's once it has one (VM JSON name, instance type name). */
const CPU_FIELDS: readonly (readonly [string, string])[] = [
  ['model', 'model'],
  ['dedicatedCpuPlacement', 'dedicatedCPUPlacement'],
  ['isolateEmulatorThread', 'isolateEmulatorThread'],
  ['numa', 'numa'],
  ['realtime', 'realtime'],
  ['maxSockets', 'maxSockets'],
];

const FEATURE_PREFERENCES: Readonly<Record<string, string>> = {
  acpi: 'preferredAcpi',
  apic: 'preferredApic',
  hyperv: 'preferredHyperv',
  kvm: 'preferredKvm',
  pvspinlock: 'preferredPvspinlock',
  smm: 'preferredSmm',
};

const WHY_CPU_RESOURCES =
  "a VM with an instance type may not set CPU requests or limits; the pod then requests CPU from the vCPU count and the cluster's CPU allocation ratio";
const WHY_MEMORY_LIMIT = 'a VM with an instance type may not set a memory limit, and instance types set none';

function dimension(v: Json | undefined): number {
  return typeof v === 'number' && v > 0 ? v : 1;
}

/**
 * The preference CPU fields giving sockets x cores x threads when an instance type supplies
 * their product (KubeVirt's applyGuestCPUTopology, run backwards); undefined when no topology
 * KubeVirt offers produces that shape.
 */
export function topologyFor(sockets: number, cores: number, threads: number): JsonObject | undefined {
  if (sockets * cores * threads === 1 || (cores === 1 && threads === 1)) return {}; // sockets: the default
  if (sockets === 1 && threads === 1) return { preferredCPUTopology: 'cores' };
  if (sockets === 1 && cores === 1) return { preferredCPUTopology: 'threads' };
  if (threads === 1) return cores === 2 ? { preferredCPUTopology: 'spread' } : { preferredCPUTopology: 'spread', spreadOptions: { ratio: cores } };
  if (threads === 2 && sockets === 1) return { preferredCPUTopology: 'spread', spreadOptions: { across: 'CoresThreads' } };
  if (threads === 2)
    return { preferredCPUTopology: 'spread', spreadOptions: cores === 2 ? { across: 'SocketsCoresThreads' } : { across: 'SocketsCoresThreads', ratio: cores } };
  return undefined;
}

/** The smallest whole overcommitPercent that gives exactly `request` for `guest`, if any. */
export function overcommitFor(guest: Json, request: Json): number | undefined {
  const want = typeof request === 'string' || typeof request === 'number' ? parseQuantity(request) : undefined;
  if (want === undefined) return undefined;
  for (let p = 1; p <= 100; p++) {
    const got = overcommittedRequest(guest, p);
    if (got !== undefined && parseQuantity(got) === want) return p;
  }
  return undefined;
}

function at(root: JsonObject, path: SpecPath): Json | undefined {
  let v: Json | undefined = root;
  for (const k of path) v = obj(v)?.[k];
  return v ?? undefined;
}

function setAt(root: JsonObject, path: SpecPath, value: Json): void {
  let o = root;
  for (const k of path.slice(0, -1)) {
    const next = obj(o[k]) ?? {};
    o[k] = next;
    o = next;
  }
  o[path[path.length - 1]!] = value;
}

class Planner {
  readonly instancetype: JsonObject = {};
  readonly preference: JsonObject = {};
  readonly instancetypeFrom = new Set<string>();
  readonly preferenceFrom = new Set<string>();
  readonly remove: SpecPath[] = [];
  readonly add: { path: SpecPath; value: Json; preset: string }[] = [];
  readonly notCarried: NotCarried[] = [];

  constructor(
    /** The VM's template spec as written. */
    readonly own: JsonObject,
    /** The template spec after the presets merged. */
    readonly merged: JsonObject,
    readonly suppliedBy: ReadonlyMap<MergedSection, string>,
  ) {}

  /** The preset that supplied `section`, or undefined when the value is the VM's own. */
  from(section: MergedSection): string | undefined {
    return this.suppliedBy.get(section);
  }

  /** A VM field the instance type takes over: removed from the VM when the VM wrote it. */
  takeOver(path: SpecPath): void {
    if (isSet(at(this.own, path))) this.remove.push(path);
  }

  /** A field nothing can hold once the VM has an instance type; `section` when a preset may have supplied it. */
  dropped(path: SpecPath, section: MergedSection | undefined, why: string): void {
    const value = at(this.merged, path);
    if (!isSet(value)) return;
    this.notCarried.push({ field: path.join('.'), value: value!, preset: section && this.from(section), why });
    this.takeOver(path);
  }

  toVm(path: SpecPath, value: Json, preset: string): void {
    this.add.push({ path, value: copy(value), preset });
  }

  usedBy(target: 'instancetype' | 'preference', section: MergedSection): void {
    const p = this.from(section);
    if (p !== undefined) (target === 'instancetype' ? this.instancetypeFrom : this.preferenceFrom).add(p);
  }
}

function planCpu(pl: Planner): string | undefined {
  const domain = obj(pl.merged['domain']) ?? {};
  const cpu = obj(domain['cpu']) ?? {};
  const resources = obj(domain['resources']);
  const [s, c, t] = [cpu['sockets'], cpu['cores'], cpu['threads']].map(dimension) as [number, number, number];
  const topologySet = [cpu['sockets'], cpu['cores'], cpu['threads']].some((v) => typeof v === 'number' && v > 0);
  // SetDefaultVirtualMachineInstanceSpec: no topology means sockets from the CPU limit or request, else 1.
  const fallback = (q: Json | undefined): number | undefined => (typeof q === 'string' || typeof q === 'number' ? quantityCeil(q) : undefined);
  const guest = topologySet ? s * c * t : (fallback(obj(resources?.['limits'])?.['cpu']) ?? fallback(obj(resources?.['requests'])?.['cpu']) ?? 1);
  const itCpu: JsonObject = { guest };
  for (const [vmKey, itKey] of CPU_FIELDS) {
    const v = cpu[vmKey];
    if (isSet(v) && v !== '' && v !== false && v !== 0) itCpu[itKey] = copy(v!);
  }
  pl.instancetype['cpu'] = itCpu;
  for (const k of ['sockets', 'cores', 'threads', ...CPU_FIELDS.map(([vmKey]) => vmKey)]) pl.takeOver(['domain', 'cpu', k]);
  pl.usedBy('instancetype', 'cpu');
  const shape = topologySet ? topologyFor(s, c, t) : {};
  if (shape === undefined) return `the CPU shape ${s} sockets x ${c} cores x ${t} threads is none KubeVirt's preferred topologies give`;
  if (Object.keys(shape).length > 0) {
    pl.preference['cpu'] = { ...obj(pl.preference['cpu']), ...shape };
    pl.usedBy('preference', 'cpu');
  }
  return undefined;
}

function planMemory(pl: Planner): string | undefined {
  const domain = obj(pl.merged['domain']) ?? {};
  const memory = obj(domain['memory']) ?? {};
  const requests = obj(obj(domain['resources'])?.['requests']) ?? {};
  const limits = obj(obj(domain['resources'])?.['limits']) ?? {};
  const guest = [memory['guest'], requests['memory'], limits['memory'], obj(memory['hugepages'])?.['pageSize']].find(
    (q) => (typeof q === 'string' || typeof q === 'number') && (parseQuantity(q) ?? 0) > 0,
  );
  if (guest === undefined) return 'neither the presets nor the VM give it memory (KubeVirt refuses such a VMI)';
  const itMemory: JsonObject = { guest: copy(guest) };
  for (const k of ['hugepages', 'maxGuest']) if (isSet(memory[k])) itMemory[k] = copy(memory[k]!);
  for (const k of ['guest', 'hugepages', 'maxGuest']) pl.takeOver(['domain', 'memory', k]);
  const request = requests['memory'];
  if (isSet(request) && parseQuantity(request as string) !== parseQuantity(guest as string)) {
    const percent = overcommitFor(guest, request!);
    if (percent !== undefined) itMemory['overcommitPercent'] = percent;
    else
      pl.notCarried.push({
        field: 'domain.resources.requests.memory',
        value: request!,
        preset: pl.from('resources.requests'),
        why: `no whole overcommitPercent of guest memory ${String(guest)} gives a request of exactly ${String(request)}`,
      });
  }
  pl.takeOver(['domain', 'resources', 'requests', 'memory']);
  pl.instancetype['memory'] = itMemory;
  pl.usedBy('instancetype', 'resources.requests');
  pl.dropped(['domain', 'resources', 'requests', 'cpu'], 'resources.requests', WHY_CPU_RESOURCES);
  pl.dropped(['domain', 'resources', 'limits', 'cpu'], undefined, WHY_CPU_RESOURCES);
  pl.dropped(['domain', 'resources', 'limits', 'memory'], undefined, WHY_MEMORY_LIMIT);
  return undefined;
}

function planFirmware(pl: Planner, preset: string): void {
  const firmware = obj(obj(pl.merged['domain'])?.['firmware']) ?? {};
  const pref: JsonObject = {};
  for (const [k, v] of Object.entries(firmware)) {
    if (k !== 'bootloader') {
      if (isSet(v)) pl.toVm(['domain', 'firmware', k], v, preset);
      continue;
    }
    const bios = obj(obj(v)?.['bios']);
    const efi = obj(obj(v)?.['efi']);
    if (bios) {
      pref['preferredUseBios'] = true;
      if (isSet(bios['useSerial'])) pref['preferredUseBiosSerial'] = bios['useSerial']!;
    }
    if (efi) pref['preferredEfi'] = copy(efi);
  }
  if (Object.keys(pref).length > 0) {
    pl.preference['firmware'] = pref;
    pl.usedBy('preference', 'firmware');
  }
}

function planClock(pl: Planner): void {
  const clock = obj(obj(pl.merged['domain'])?.['clock']) ?? {};
  const pref: JsonObject = {};
  if (pl.from('clock') !== undefined) {
    const offset: JsonObject = {};
    for (const k of ['utc', 'timezone']) if (isSet(clock[k])) offset[k] = copy(clock[k]!);
    if (Object.keys(offset).length > 0) pref['preferredClockOffset'] = offset;
    pl.usedBy('preference', 'clock');
  }
  if (pl.from('clock.timer') !== undefined && isSet(clock['timer'])) {
    pref['preferredTimer'] = copy(clock['timer']!);
    pl.usedBy('preference', 'clock.timer');
  }
  if (Object.keys(pref).length > 0) pl.preference['clock'] = pref;
}

function planFeatures(pl: Planner, preset: string): void {
  const features = obj(obj(pl.merged['domain'])?.['features']) ?? {};
  const pref: JsonObject = {};
  for (const [k, v] of Object.entries(features)) {
    if (!isSet(v)) continue;
    const field = FEATURE_PREFERENCES[k];
    if (field !== undefined) pref[field] = copy(v);
    else pl.toVm(['domain', 'features', k], v, preset);
  }
  if (Object.keys(pref).length > 0) {
    pl.preference['features'] = pref;
    pl.usedBy('preference', 'features');
  }
}

/**
 * The plan for one VM. `own` is its template spec as written, `merged` the same after its presets
 * (in order, already known not to conflict), `suppliedBy` which preset filled which section.
 */
export function planVm(own: JsonObject, merged: JsonObject, suppliedBy: ReadonlyMap<MergedSection, string>): PlanResult {
  const pl = new Planner(own, merged, suppliedBy);
  const supplied = (s: MergedSection): string | undefined => pl.from(s);
  const needsInstancetype = supplied('cpu') !== undefined || supplied('resources.requests') !== undefined;
  if (needsInstancetype) {
    const refused = planMemory(pl) ?? planCpu(pl);
    if (refused !== undefined) return { refused };
  }
  const cpuFeatures = obj(obj(merged['domain'])?.['cpu'])?.['features'];
  if (supplied('cpu') !== undefined && Array.isArray(cpuFeatures) && cpuFeatures.length > 0) {
    pl.preference['cpu'] = { ...obj(pl.preference['cpu']), preferredCPUFeatures: copy(cpuFeatures) };
    pl.usedBy('preference', 'cpu');
    pl.takeOver(['domain', 'cpu', 'features']);
  }
  const requestsFrom = supplied('resources.requests');
  if (requestsFrom !== undefined) {
    const requests = obj(obj(obj(merged['domain'])?.['resources'])?.['requests']) ?? {};
    for (const [k, v] of Object.entries(requests))
      if (k !== 'cpu' && k !== 'memory' && isSet(v)) pl.toVm(['domain', 'resources', 'requests', k], v, requestsFrom);
  }
  const firmwareFrom = supplied('firmware');
  if (firmwareFrom !== undefined) planFirmware(pl, firmwareFrom);
  planClock(pl);
  const featuresFrom = supplied('features');
  if (featuresFrom !== undefined) planFeatures(pl, featuresFrom);
  const watchdogFrom = supplied('devices.watchdog');
  if (watchdogFrom !== undefined) pl.toVm(['domain', 'devices', 'watchdog'], at(merged, ['domain', 'devices', 'watchdog'])!, watchdogFrom);
  const ioFrom = supplied('ioThreadsPolicy');
  const ioThreadsPolicy = at(merged, ['domain', 'ioThreadsPolicy']);
  if (needsInstancetype && isSet(ioThreadsPolicy)) {
    pl.instancetype['ioThreadsPolicy'] = ioThreadsPolicy!;
    pl.takeOver(['domain', 'ioThreadsPolicy']);
    pl.usedBy('instancetype', 'ioThreadsPolicy');
  } else if (ioFrom !== undefined) pl.toVm(['domain', 'ioThreadsPolicy'], ioThreadsPolicy!, ioFrom);
  return {
    plan: {
      instancetype: needsInstancetype ? pl.instancetype : undefined,
      preference: Object.keys(pl.preference).length > 0 ? pl.preference : undefined,
      instancetypeFrom: [...pl.instancetypeFrom].sort(),
      preferenceFrom: [...pl.preferenceFrom].sort(),
      remove: pl.remove,
      add: pl.add,
      notCarried: pl.notCarried,
    },
  };
}

/** The VM's template spec with the plan applied: removals, then what is put back on the VM. */
export function applyPlanToSpec(spec: JsonObject, plan: VmPlan): JsonObject {
  const out = copy(spec);
  for (const path of plan.remove) removeAt(out, path);
  for (const a of plan.add) setAt(out, a.path, copy(a.value));
  return out;
}

/** Deletes the field and then every parent the deletion left empty. */
export function removeAt(root: JsonObject, path: SpecPath): void {
  const parents: JsonObject[] = [root];
  for (const k of path.slice(0, -1)) {
    const next = obj(parents[parents.length - 1]![k]);
    if (!next) return;
    parents.push(next);
  }
  delete parents[parents.length - 1]![path[path.length - 1]!];
  for (let i = parents.length - 1; i > 0; i--) {
    if (Object.keys(parents[i]!).length > 0) break;
    delete parents[i - 1]![path[i - 1]!];
  }
}
