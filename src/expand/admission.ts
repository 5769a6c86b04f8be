/**
 * What VM admission checks beyond applying: spread divisibility before (R 4.1) and the preference's
 * requirements after the defaults (R 5), with KubeVirt's messages and field paths.
 */
import { obj, type JsonObject } from '../json';
import { canonicalQuantity, parseQuantity } from '../quantity';
import { isSet, nonEmpty, type Cause } from './model';
import { preferredTopology, spreadOptions, spreadProblem } from '../kubevirt/topology';

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
