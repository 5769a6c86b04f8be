/**
 * The CPU rules of KubeVirt's VirtualMachineInstance spec validation that follow the request and
 * limit checks (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go, in its
 * order): validateCpuPinning, validateNUMA, validateCPUIsolatorThread, validateCPUFeaturePolicies
 * (here), then validateCPUHotplug and validateStartStrategy (spec-validation.ts), then
 * validateRealtime (here). KubeVirt's types, fields and words.
 */
import { obj, type Json, type JsonObject } from '../json';
import { parseQ, value, milliValue } from '../quantity';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { resource } from './spec-resources';
import { holds } from './releases';

const int = (v: Json | undefined): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

/** hwutil.GetNumberOfVCPUs: cores x sockets x threads, a zero factor left out. */
function vcpus(cpu: JsonObject): number {
  let n = int(cpu['cores']);
  const sockets = int(cpu['sockets']);
  const threads = int(cpu['threads']);
  if (sockets !== 0) n = n === 0 ? sockets : n * sockets;
  if (threads !== 0) n = n === 0 ? threads : n * threads;
  return n;
}

const isZeroQuantity = (v: Json | undefined): boolean => {
  const parsed = typeof v === 'string' || typeof v === 'number' ? parseQ(v) : undefined;
  return parsed === undefined || parsed.nano === 0n;
};

/**
 * validateCpuPinning, validateNUMA, validateCPUIsolatorThread and validateCPUFeaturePolicies.
 *
 * Over 80 lines: a transcription of four of the webhook's functions, kept in its order.
 */
export function cpuPinningCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const add = (type: Cause['type'], at: string, message: string): void => {
    causes.push({ reason: 'cpu-pinning', type, field: at, message });
  };
  const domain = obj(spec['domain']) ?? {};
  const cpu = obj(domain['cpu']);
  const memory = obj(domain['memory']);
  const reqCpu = resource(spec, 'requests', 'cpu');
  const limCpu = resource(spec, 'limits', 'cpu');
  const reqMem = resource(spec, 'requests', 'memory');
  const limMem = resource(spec, 'limits', 'memory');
  const at = (...p: string[]): string => [field, ...p].join('.');
  const dedicated = cpu?.['dedicatedCpuPlacement'] === true;
  if (cpu && dedicated) {
    // validateMemoryIsProvided
    const memoryGiven = limMem.nano !== 0n || reqMem.nano !== 0n || (memory !== undefined && (isSet(memory['hugepages']) || !isZeroQuantity(memory['guest'])));
    if (!memoryGiven)
      add(
        'FieldValueInvalid',
        at('domain.resources.limits.memory'),
        `${at('domain.resources.requests.memory')}, ${at('domain.resources.limits.memory')}, ${at('domain.memory.hugepages')} or ${at('domain.memory.guest')} should be provided`,
      );
    // validateCPURequestIsInteger, validateCPULimitIsInteger
    if (value(reqCpu) > 0n && value(reqCpu) * 1000n !== milliValue(reqCpu))
      add('FieldValueInvalid', at('domain.resources.requests.cpu'), 'provided resources CPU requests must be an interger');
    if (value(limCpu) > 0n && value(limCpu) * 1000n !== milliValue(limCpu))
      add('FieldValueInvalid', at('domain.resources.limits.cpu'), 'provided resources CPU limits must be an interger');
    // validateMemoryRequestsAndLimits
    if (value(reqMem) > 0n && value(limMem) > 0n && value(reqMem) !== value(limMem))
      add(
        'FieldValueInvalid',
        at('domain.resources.requests.memory'),
        `${at('domain.resources.requests.memory')} must be equal to ${at('domain.resources.limits.memory')}`,
      );
    const n = BigInt(vcpus(cpu));
    const placementAt = at('domain.cpu.dedicatedCpuPlacement');
    if (value(reqCpu) === 0n && value(limCpu) === 0n && n === 0n)
      add(
        'FieldValueInvalid',
        placementAt,
        `either ${at('domain.resources.requests.cpu')} or ${at('domain.resources.limits.cpu')} or ${at('domain.cpu.cores')} must be provided when DedicatedCPUPlacement is true `,
      );
    if (value(reqCpu) > 0n && value(limCpu) > 0n && value(reqCpu) !== value(limCpu))
      add(
        'FieldValueInvalid',
        placementAt,
        `${at('domain.resources.requests.cpu')} or ${at('domain.resources.limits.cpu')} must be equal when DedicatedCPUPlacement is true `,
      );
    if ((value(reqCpu) > 0n || value(limCpu) > 0n) && n > 0n && value(reqCpu) !== n && value(limCpu) !== n)
      add(
        'FieldValueInvalid',
        placementAt,
        `${at('domain.resources.requests.cpu')} or ${at('domain.resources.limits.cpu')} must not be provided at the same time with ${at('domain.cpu.cores')} when DedicatedCPUPlacement is true `,
      );
    // validateThreadCountOnArchitecture
    const arch = typeof spec['architecture'] === 'string' && spec['architecture'] !== '' ? spec['architecture'] : config.architecture;
    const threads = int(cpu['threads']);
    if (threads > 1 && arch === 'arm64')
      add(
        'FieldValueInvalid',
        at('architecture'),
        `threads must not be greater than 1 at ${at('domain.cpu.threads')} (got ${threads}) when ${at('architecture')} is arm64`,
      );
    // validateThreadCountOnDedicatedCPUPlacement
    if (threads > 2)
      add(
        'FieldValueInvalid',
        placementAt,
        `Not more than two threads must be provided at ${at('domain.cpu.threads')} (got ${threads}) when DedicatedCPUPlacement is true`,
      );
  }
  // validateNUMA
  const passthroughAt = at('domain.cpu.numa.guestMappingPassthrough');
  if (cpu && isSet(obj(cpu['numa'])?.['guestMappingPassthrough'])) {
    if (!gateEnabled(config, 'NUMA'))
      add('FieldValueInvalid', passthroughAt, `NUMA feature gate is not enabled in kubevirt-config, invalid entry ${passthroughAt}`);
    if (!dedicated)
      add(
        'FieldValueInvalid',
        passthroughAt,
        `${at('domain.cpu.dedicatedCpuPlacement')} must be set to true when NUMA topology strategy is set in ${passthroughAt}`,
      );
    if (!memory || !isSet(memory['hugepages']))
      add('FieldValueInvalid', passthroughAt, `${at('domain.memory.hugepages')} must be requested when NUMA topology strategy is set in ${passthroughAt}`);
  }
  // validateCPUIsolatorThread
  if (cpu && cpu['isolateEmulatorThread'] === true && !dedicated)
    add('FieldValueInvalid', at('domain.cpu.isolateEmulatorThread'), 'IsolateEmulatorThread should be only set in combination with DedicatedCPUPlacement');
  // validateCPUFeaturePolicies
  if (cpu && Array.isArray(cpu['features']))
    cpu['features'].forEach((f, i) => {
      const feature = obj(f) ?? {};
      const policy = typeof feature['policy'] === 'string' ? feature['policy'] : '';
      if (!['', 'force', 'require', 'optional', 'disable', 'forbid'].includes(policy))
        add(
          'FieldValueNotSupported',
          at(`domain.cpu.features[${i}].policy`),
          `CPU feature ${typeof feature['name'] === 'string' ? feature['name'] : ''} uses policy ${policy} that is not supported.`,
        );
    });
  return causes;
}

/**
 * validateArchitecture (v1.6 and v1.7, releases.ts): another architecture than virt-api's own (Go's
 * runtime.GOARCH, the control plane's: amd64 here, as on most clusters; a KubeVirt CR's
 * `defaultArchitecture` changes what a VM gets by default, not what virt-api runs on) needs the
 * MultiArchitecture gate. Proven: the preview corpus at v1.7.4 starts an amd64 VM under a CR whose
 * default architecture is arm64.
 */
const VIRT_API_ARCHITECTURE = 'amd64';

export function multiArchitectureCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const arch = typeof spec['architecture'] === 'string' ? spec['architecture'] : '';
  if (!holds('multiArchitectureGate', config.release) || arch === '' || arch === VIRT_API_ARCHITECTURE || gateEnabled(config, 'MultiArchitecture')) return [];
  return [
    {
      reason: 'cpu-pinning',
      type: 'FieldValueRequired',
      field: `${field}.architecture`,
      message: `MultiArchitecture feature gate is not enabled in kubevirt-config, invalid entry ${field}.architecture`,
    },
  ];
}

/** validateRealtime: dedicated CPUs and a NUMA passthrough with a realtime CPU. */
export function realtimeCauses(spec: JsonObject, field: string): Cause[] {
  const cpu = obj(obj(spec['domain'])?.['cpu']);
  if (!cpu || !isSet(cpu['realtime'])) return [];
  const causes: Cause[] = [];
  const realtimeAt = `${field}.domain.cpu.realtime`;
  if (cpu['dedicatedCpuPlacement'] !== true)
    causes.push({
      reason: 'cpu-pinning',
      type: 'FieldValueRequired',
      field: `${field}.domain.cpu.dedicatedCpuPlacement`,
      message: `${field}.domain.cpu.dedicatedCpuPlacement must be set to true when ${realtimeAt} is used`,
    });
  if (!isSet(obj(cpu['numa'])?.['guestMappingPassthrough']))
    causes.push({
      reason: 'cpu-pinning',
      type: 'FieldValueRequired',
      field: `${field}.domain.cpu.numa.guestMappingPassthrough`,
      message: `${field}.domain.cpu.numa.guestMappingPassthrough must be defined when ${realtimeAt} is used`,
    });
  return causes;
}
