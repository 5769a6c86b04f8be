/**
 * A preference's requirements and the spread check (pkg/instancetype/preference/requirements,
 * webhooks/vm): what VM admission checks beyond applying (spread divisibility before, R 4.1; the
 * requirements after the defaults, R 5), with KubeVirt's messages and field paths, and the one
 * reading of `spec.requirements` the catalog rules and the matrix pair instance types by.
 */
import { obj, type JsonObject } from '../json';
import { canonicalQuantity, parseQuantity } from '../quantity';
import type { Cause } from './cause';
import { isSet, nonEmpty } from './go';
import { preferredTopology, spreadOptions, spreadProblem } from './topology';

/** R 4.1: only with an instancetype and a spreading preference; the arithmetic is kubevirt/topology.ts's. */
export function checkSpread(instancetype: JsonObject, preference: JsonObject): Cause | undefined {
  const g = typeof obj(instancetype['cpu'])?.['guest'] === 'number' ? (obj(instancetype['cpu'])!['guest'] as number) : 0;
  const message = spreadProblem(g, preference);
  return message === undefined ? undefined : { type: 'FieldValueInvalid', field: 'instancetype.spec.cpu.guest', message, reason: 'spread' };
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** R 5.2: with an instancetype its vCPUs; without, the VM's topology counted the way the preference prefers. */
function checkCpu(instancetype: JsonObject | undefined, preference: JsonObject, spec: JsonObject): { message: string; fields: string[] } | undefined {
  const required = obj(obj(preference['requirements'])?.['cpu'])?.['guest'];
  if (typeof required !== 'number') return undefined;
  if (instancetype) {
    const provided = num(obj(instancetype['cpu'])?.['guest']);
    return provided < required
      ? {
          message: `insufficient CPU resources of ${provided} vCPU provided by instance type, preference requires ${required} vCPU`,
          fields: ['spec.instancetype'],
        }
      : undefined;
  }
  const cpu = obj(obj(spec['domain'])?.['cpu']);
  if (!cpu) return { message: `no CPU resources provided by VirtualMachine, preference requires ${required} vCPU`, fields: ['spec.template.spec.domain.cpu'] };
  const [s, c, t] = [num(cpu['sockets']), num(cpu['cores']), num(cpu['threads'])];
  const path = (dims: string[]): string[] => dims.map((d) => `spec.template.spec.domain.cpu.${d}`);
  const short = (provided: number, as: string, dims: string[]): { message: string; fields: string[] } | undefined =>
    provided < required
      ? {
          message: `insufficient CPU resources of ${provided} vCPU provided by VirtualMachine, preference requires ${required} vCPU provided as ${as}`,
          fields: path(dims),
        }
      : undefined;
  switch (preferredTopology(preference)) {
    case 'cores':
    case 'preferCores':
      return short(c, 'cores', ['cores']);
    case 'threads':
    case 'preferThreads':
      return short(t, 'threads', ['threads']);
    case 'any':
    case 'preferAny':
      return short(s * c * t, 'cores, sockets and threads', ['cores', 'sockets', 'threads']);
    case 'spread':
    case 'preferSpread': {
      const { across } = spreadOptions(preference);
      if (across === 'CoresThreads') return short(c * t, across, ['cores', 'threads']);
      if (across === 'SocketsCoresThreads') return short(s * c * t, across, ['sockets', 'cores', 'threads']);
      return short(s * c, across, ['sockets', 'cores']);
    }
    case 'sockets':
    case 'preferSockets':
      return short(s, 'sockets', ['sockets']);
    default:
      return undefined;
  }
}

/** R 5.3: the instancetype's guest memory, overridden by the template's. */
function checkMemory(instancetype: JsonObject | undefined, preference: JsonObject, spec: JsonObject): { message: string; fields: string[] } | undefined {
  const required = obj(obj(preference['requirements'])?.['memory'])?.['guest'];
  if (typeof required !== 'string' && typeof required !== 'number') return undefined;
  let provided: string | number = 0;
  const itGuest = obj(instancetype?.['memory'])?.['guest'];
  if (typeof itGuest === 'string' || typeof itGuest === 'number') provided = itGuest;
  const vmGuest = obj(obj(spec['domain'])?.['memory'])?.['guest'];
  if (typeof vmGuest === 'string' || typeof vmGuest === 'number') provided = vmGuest;
  if ((parseQuantity(provided) ?? 0) >= (parseQuantity(required) ?? 0)) return undefined;
  const by = instancetype ? 'instance type' : 'VirtualMachine';
  return {
    message: `insufficient Memory resources of ${canonicalQuantity(provided) ?? provided} provided by ${by}, preference requires ${canonicalQuantity(required) ?? required}`,
    fields: [instancetype ? 'spec.instancetype' : 'spec.template.spec.domain.memory'],
  };
}

/** R 5.4: the architecture after defaulting. */
function checkArchitecture(preference: JsonObject, spec: JsonObject): { message: string; fields: string[] } | undefined {
  const required = obj(preference['requirements'])?.['architecture'];
  if (!nonEmpty(required)) return undefined;
  const requested = typeof spec['architecture'] === 'string' ? spec['architecture'] : '';
  return requested !== required
    ? { message: `preference requires architecture ${String(required)} but ${requested} is being requested`, fields: ['spec.template.spec.architecture'] }
    : undefined;
}

/** R 5.1: CPU, then memory, then architecture; the first failure only. */
export function checkRequirements(instancetype: JsonObject | undefined, preference: JsonObject | undefined, spec: JsonObject): Cause | undefined {
  if (!preference || !isSet(preference['requirements'])) return undefined;
  const failure = checkCpu(instancetype, preference, spec) ?? checkMemory(instancetype, preference, spec) ?? checkArchitecture(preference, spec);
  return failure
    ? {
        type: 'FieldValueNotFound',
        field: failure.fields.join(', '),
        message: `failure checking preference requirements: ${failure.message}`,
        reason: failure.fields[0] === 'spec.instancetype' ? 'requirements-instancetype' : 'requirements',
      }
    : undefined;
}

/** What a preference requires, read once: vCPUs and bytes of guest memory (either may be absent). */
export interface Requirements {
  readonly cpu?: number;
  readonly memoryBytes?: number;
}

export function requirementsOf(preference: JsonObject): Requirements {
  const req = obj(preference['requirements']);
  const cpu = obj(req?.['cpu'])?.['guest'];
  const mem = obj(req?.['memory'])?.['guest'];
  const memoryBytes = typeof mem === 'string' || typeof mem === 'number' ? parseQuantity(mem) : undefined;
  return { ...(typeof cpu === 'number' ? { cpu } : {}), ...(memoryBytes !== undefined ? { memoryBytes } : {}) };
}

/** Which requirements an instance type's vCPUs and memory meet (R 5.2 and R 5.3 with an instance type). */
export function meetsRequirements(req: Requirements, provided: { readonly cpu: number; readonly memoryBytes: number }): { cpu: boolean; memory: boolean } {
  return { cpu: req.cpu === undefined || provided.cpu >= req.cpu, memory: req.memoryBytes === undefined || provided.memoryBytes >= req.memoryBytes };
}
