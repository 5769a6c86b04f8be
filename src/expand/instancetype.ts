/**
 * Instancetype -> template spec (pkg/instancetype/apply/*.go). Every instancetype field is
 * authoritative: a VM that already sets the field conflicts, it is never merged. Rule numbers are
 * those of the apply rules (R 2.x) in docs/design.md's expand section.
 */
import { obj, type Json, type JsonObject } from '../json';
import { canonicalQuantity, formatQuantity, parseQuantity, quantityFormat } from '../quantity';
import { child, copy, isSet, nonEmpty, nonZero } from '../kubevirt/go';
import { guestTopology } from '../kubevirt/topology';
import { holds } from '../kubevirt/releases';

/** A conflict path below the template spec (`domain.cpu.sockets`), or an annotation (`annotations.key`). */
export type ConflictPath = string;

function applyNodeSelector(spec: JsonObject, it: JsonObject): ConflictPath[] {
  const want = obj(it['nodeSelector']);
  if (!isSet(it['nodeSelector']) || !want) return [];
  if (isSet(spec['nodeSelector'])) return ['nodeSelector'];
  spec['nodeSelector'] = copy(want);
  return [];
}

function applySchedulerName(spec: JsonObject, it: JsonObject): ConflictPath[] {
  if (!nonEmpty(it['schedulerName'])) return [];
  if (nonEmpty(spec['schedulerName'])) return ['schedulerName'];
  spec['schedulerName'] = it['schedulerName']!;
  return [];
}

/** R 2.5: five conflicts always (an instancetype always defines vCPUs), the rest when the instancetype sets the field. */
function applyCpu(spec: JsonObject, it: JsonObject, preference: JsonObject | undefined): ConflictPath[] {
  const domain = child(spec, 'domain');
  const cpu = child(domain, 'cpu');
  const itCpu = obj(it['cpu']) ?? {};
  const resources = obj(domain['resources']);
  const conflicts: ConflictPath[] = [];
  if (isSet(obj(resources?.['requests'])?.['cpu'])) conflicts.push('domain.resources.requests.cpu');
  if (isSet(obj(resources?.['limits'])?.['cpu'])) conflicts.push('domain.resources.limits.cpu');
  for (const dim of ['sockets', 'cores', 'threads']) if (nonZero(cpu[dim])) conflicts.push(`domain.cpu.${dim}`);
  if (nonEmpty(cpu['model']) && isSet(itCpu['model'])) conflicts.push('domain.cpu.model');
  if (cpu['dedicatedCpuPlacement'] === true && isSet(itCpu['dedicatedCPUPlacement'])) conflicts.push('domain.cpu.dedicatedCPUPlacement');
  if (cpu['isolateEmulatorThread'] === true && isSet(itCpu['isolateEmulatorThread'])) conflicts.push('domain.cpu.isolateEmulatorThread');
  if (isSet(cpu['numa']) && isSet(itCpu['numa'])) conflicts.push('domain.cpu.numa');
  if (isSet(cpu['realtime']) && isSet(itCpu['realtime'])) conflicts.push('domain.cpu.realtime');
  if (conflicts.length > 0) return conflicts;
  if (isSet(itCpu['model'])) cpu['model'] = itCpu['model']!;
  // The VM spells the field dedicatedCpuPlacement; the instancetype dedicatedCPUPlacement.
  if (isSet(itCpu['dedicatedCPUPlacement'])) cpu['dedicatedCpuPlacement'] = itCpu['dedicatedCPUPlacement']!;
  if (isSet(itCpu['isolateEmulatorThread'])) cpu['isolateEmulatorThread'] = itCpu['isolateEmulatorThread']!;
  if (isSet(itCpu['numa'])) cpu['numa'] = copy(itCpu['numa']!);
  if (isSet(itCpu['realtime'])) cpu['realtime'] = copy(itCpu['realtime']!);
  if (isSet(itCpu['maxSockets'])) cpu['maxSockets'] = itCpu['maxSockets']!;
  const vcpus = typeof itCpu['guest'] === 'number' ? itCpu['guest'] : 0;
  Object.assign(cpu, guestTopology(vcpus, preference));
  return [];
}

/**
 * R 2.6.3: the memory request of an overcommitted instancetype, computed in float32 as KubeVirt's
 * Go code does (`int64(float32(guest) * (1 - float32(pct)/100))`), printed in the guest's format.
 */
export function overcommittedRequest(guest: Json, percent: number): string | undefined {
  if (typeof guest !== 'string' && typeof guest !== 'number') return undefined;
  const bytes = parseQuantity(guest);
  if (bytes === undefined) return undefined;
  const f = Math.fround;
  const factor = f(1 - f(f(percent) / 100));
  const request = Math.trunc(f(f(bytes) * factor));
  return formatQuantity(request, quantityFormat(guest));
}

/** A quantity as the API server prints it back; an unreadable one as written. */
function quantity(v: Json): Json {
  return typeof v === 'string' || typeof v === 'number' ? (canonicalQuantity(v) ?? v) : v;
}

/** R 2.6: only the first memory conflict is reported (v1.6: any memory of the VM conflicts, releases.ts). */
function applyMemory(spec: JsonObject, it: JsonObject, release: string | undefined): ConflictPath[] {
  const domain = child(spec, 'domain');
  if (holds('memoryStructConflicts', release) && isSet(domain['memory'])) return ['domain.memory'];
  const memory = child(domain, 'memory');
  const itMemory = obj(it['memory']) ?? {};
  const resources = obj(domain['resources']);
  if (isSet(memory['guest'])) return ['domain.memory.guest'];
  if (isSet(memory['hugepages']) && isSet(itMemory['hugepages'])) return ['domain.memory.hugepages'];
  if (isSet(memory['maxGuest']) && isSet(itMemory['maxGuest'])) return ['domain.memory.maxGuest'];
  if (isSet(obj(resources?.['requests'])?.['memory'])) return ['domain.resources.requests.memory'];
  if (isSet(obj(resources?.['limits'])?.['memory'])) return ['domain.resources.limits.memory'];
  if (isSet(itMemory['guest'])) memory['guest'] = quantity(itMemory['guest']!);
  const percent = itMemory['overcommitPercent'];
  if (typeof percent === 'number' && percent > 0 && isSet(itMemory['guest'])) {
    const request = overcommittedRequest(itMemory['guest']!, percent);
    if (request !== undefined) child(child(domain, 'resources'), 'requests')['memory'] = request;
  }
  if (isSet(itMemory['hugepages'])) memory['hugepages'] = copy(itMemory['hugepages']!);
  if (isSet(itMemory['maxGuest'])) memory['maxGuest'] = quantity(itMemory['maxGuest']!);
  return [];
}

function applyIoThreads(spec: JsonObject, it: JsonObject): ConflictPath[] {
  const count = obj(it['ioThreads'])?.['supplementalPoolThreadCount'];
  if (!isSet(count)) return [];
  const domain = child(spec, 'domain');
  if (isSet(obj(domain['ioThreads'])?.['supplementalPoolThreadCount'])) return ['domain.ioThreads.supplementalPoolThreadCount'];
  child(domain, 'ioThreads')['supplementalPoolThreadCount'] = count!;
  return [];
}

/** R 2.8 and 2.9: an instancetype field copied into the domain unless the VM sets it. */
function applyDomainField(field: 'ioThreadsPolicy' | 'launchSecurity') {
  return (spec: JsonObject, it: JsonObject): ConflictPath[] => {
    if (!isSet(it[field])) return [];
    const domain = child(spec, 'domain');
    if (isSet(domain[field])) return [`domain.${field}`];
    domain[field] = copy(it[field]!);
    return [];
  };
}

/** R 2.10 and 2.11: the whole device list, unless the VM has one. */
function applyDeviceList(field: 'gpus' | 'hostDevices') {
  return (spec: JsonObject, it: JsonObject): ConflictPath[] => {
    const want = it[field];
    if (!Array.isArray(want) || want.length === 0) return [];
    const devices = child(child(spec, 'domain'), 'devices');
    const have = devices[field];
    if (Array.isArray(have) && have.length > 0) return [`domain.devices.${field}`];
    devices[field] = copy(want);
    return [];
  };
}

/** R 2.13: instancetype annotations go onto the template metadata; a different value conflicts. */
function applyAnnotations(meta: JsonObject, it: JsonObject): ConflictPath[] {
  const want = obj(it['annotations']);
  if (!want) return [];
  const annotations = child(meta, 'annotations');
  const conflicts: ConflictPath[] = [];
  for (const [key, value] of Object.entries(want)) {
    if (!(key in annotations)) annotations[key] = value;
    else if (annotations[key] !== value) conflicts.push(`annotations.${key}`);
  }
  return conflicts;
}

/**
 * R 0.1 step 2: the instancetype appliers in KubeVirt's order, each one's conflicts collected.
 * Mutates `spec` and `meta`; with conflicts the caller discards them.
 */
export function applyInstancetype(spec: JsonObject, meta: JsonObject, it: JsonObject, preference: JsonObject | undefined, release?: string): ConflictPath[] {
  return [
    ...applyNodeSelector(spec, it),
    ...applySchedulerName(spec, it),
    ...applyCpu(spec, it, preference),
    ...applyMemory(spec, it, release),
    ...applyIoThreads(spec, it),
    ...applyDomainField('ioThreadsPolicy')(spec, it),
    ...applyDomainField('launchSecurity')(spec, it),
    ...applyDeviceList('gpus')(spec, it),
    ...applyDeviceList('hostDevices')(spec, it),
    ...applyAnnotations(meta, it),
  ];
}

/** `VM field(s) <paths> conflicts with selected instance type` (two words, as KubeVirt spells it). */
export function conflictMessage(paths: readonly string[]): string {
  return `VM field(s) ${paths.join(', ')} conflicts with selected instance type`;
}

/** The full path KubeVirt names: annotation conflicts carry no prefix. */
export function conflictField(prefix: string, path: ConflictPath): string {
  return path.startsWith('annotations.') ? path : `${prefix}.${path}`;
}
