/**
 * The first rules of ValidateVirtualMachineInstanceSpec (vmi-create-admitter.go), in KubeVirt's
 * order: the hostname and subdomain as DNS names, memory requests and limits, hugepages against
 * the memory, the guest memory against its limit (outside LiveUpdate), CPU requests and limits;
 * and the device rules the same function runs later (input devices, sound, start strategy). Each
 * cause in KubeVirt's words, quantities printed as Kubernetes prints them (Quantity.String()).
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import { isIP } from './go-net';
import type { Cause, CauseReason } from './cause';
import type { ClusterDefaults } from './config';
import { holds } from './releases';
import { cmp, milliValue, parseQ, q, qString, value, ZERO, type Quantity } from '../quantity';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** k8s.io/apimachinery validation.IsDNS1123Label's errors. */
export function dnsLabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  // Newer apimachinery: a valid subdomain that only fails for its dots says so.
  if (!DNS_LABEL.test(v) && DNS_SUBDOMAIN.test(v)) errs.push('must not contain dots');
  else if (!DNS_LABEL.test(v))
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  return errs;
}

/** validation.IsDNS1123Subdomain's errors. */
export function dnsSubdomainErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS_SUBDOMAIN.test(v))
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  return errs;
}

/** ResourceList.Memory()/Cpu(): the quantity, or zero when absent (or not a quantity: the API server refused that earlier). */
export function resource(spec: JsonObject, which: 'requests' | 'limits', name: 'memory' | 'cpu'): Quantity {
  const v = obj(obj(obj(spec['domain'])?.['resources'])?.[which])?.[name];
  return (typeof v === 'string' || typeof v === 'number' ? parseQ(v) : undefined) ?? ZERO;
}

const ONE_M = q('1M');

/** The rules before the machine type, in KubeVirt's order. */
export function resourceCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const add = (reason: CauseReason, at: string, message: string): void => {
    causes.push({ reason, type: 'FieldValueInvalid', field: at, message });
  };
  const hostname = spec['hostname'];
  if (typeof hostname === 'string' && hostname !== '') {
    const errs = dnsLabelErrors(hostname);
    if (errs.length > 0) add('dns-name', `${field}.hostname`, `${field}.hostname does not conform to the kubernetes DNS_LABEL rules : ${errs.join(', ')}`);
  }
  const subdomain = spec['subdomain'];
  if (typeof subdomain === 'string' && subdomain !== '') {
    const errs = dnsSubdomainErrors(subdomain);
    if (errs.length > 0)
      add('dns-name', `${field}.subdomain`, `${field}.subdomain does not conform to the kubernetes DNS_SUBDOMAIN rules : ${errs.join(', ')}`);
  }
  const reqMem = resource(spec, 'requests', 'memory');
  const limMem = resource(spec, 'limits', 'memory');
  const reqAt = `${field}.domain.resources.requests.memory`;
  const limAt = `${field}.domain.resources.limits.memory`;
  // validateMemoryRequestsNegativeOrNull
  if (value(reqMem) < 0n) add('memory', reqAt, `${reqAt} '${qString(reqMem)}': must be greater than or equal to 0.`);
  else if (value(reqMem) > 0n && cmp(reqMem, ONE_M) < 0) add('memory', reqAt, `${reqAt} '${qString(reqMem)}': must be greater than or equal to 1M.`);
  // validateMemoryLimitsNegativeOrNull
  if (value(limMem) < 0n) add('memory', limAt, `${limAt} '${qString(limMem)}': must be greater than or equal to 0.`);
  if (value(limMem) > 0n && value(reqMem) > value(limMem)) add('memory', reqAt, `${reqAt} '${qString(reqMem)}' is greater than ${limAt} '${qString(limMem)}'`);
  // validateHugepagesMemoryRequests
  const memory = obj(obj(spec['domain'])?.['memory']);
  const hugepages = obj(memory?.['hugepages']);
  if (hugepages) {
    const pageAt = holds('hugepagesSizeWords', config.release) ? `${field}.domain.hugepages.size` : `${field}.domain.memory.hugepages.pageSize`;
    const written = typeof hugepages['pageSize'] === 'string' ? hugepages['pageSize'] : '';
    const page = parseQ(written);
    if (!page) add('hugepages', pageAt, `${pageAt} '${written}': quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    else {
      const guest = memory?.['guest'];
      let vm = value(reqMem);
      if (vm === 0n) vm = value((typeof guest === 'string' || typeof guest === 'number' ? parseQ(guest) : undefined) ?? ZERO);
      if (vm === 0n) vm = value(limMem);
      const size = value(page);
      if (vm !== 0n && vm < size) add('hugepages', reqAt, `${reqAt} '${qString(reqMem)}' must be equal to or larger than page size ${pageAt} '${written}'`);
      else if (size !== 0n && vm % size !== 0n)
        add('hugepages', reqAt, `${reqAt} '${qString(reqMem)}' is not a multiple of the page size ${pageAt} '${written}'`);
    }
  }
  // validateGuestMemoryLimit: only outside the LiveUpdate rollout strategy (KubeVirt's default).
  const guestWritten = memory?.['guest'];
  const guest = typeof guestWritten === 'string' || typeof guestWritten === 'number' ? parseQ(guestWritten) : undefined;
  if ((config.vmRolloutStrategy ?? 'LiveUpdate') !== 'LiveUpdate' && guest && value(limMem) !== 0n && value(limMem) < value(guest))
    add(
      'memory',
      `${field}.domain.memory.guest`,
      `${field}.domain.memory.guest '${qString(guest)}' must be equal to or less than the memory limit ${limAt} '${qString(limMem)}'`,
    );
  return causes;
}

/** The CPU request and limit rules, which KubeVirt runs after the machine type and ACPI. */
export function cpuResourceCauses(spec: JsonObject, field: string): Cause[] {
  const causes: Cause[] = [];
  const req = resource(spec, 'requests', 'cpu');
  const lim = resource(spec, 'limits', 'cpu');
  const reqAt = `${field}.domain.resources.requests.cpu`;
  const limAt = `${field}.domain.resources.limits.cpu`;
  if (milliValue(req) < 0n)
    causes.push({ reason: 'cpu', type: 'FieldValueInvalid', field: reqAt, message: `${reqAt} '${qString(req)}': must be greater than or equal to 0.` });
  if (milliValue(lim) < 0n)
    causes.push({ reason: 'cpu', type: 'FieldValueInvalid', field: limAt, message: `${limAt} '${qString(lim)}': must be greater than or equal to 0.` });
  if (milliValue(lim) > 0n && milliValue(req) > milliValue(lim))
    causes.push({ reason: 'cpu', type: 'FieldValueInvalid', field: reqAt, message: `${reqAt} '${qString(req)}' is greater than ${limAt} '${qString(lim)}'` });
  return causes;
}

/** validateStartStrategy, which KubeVirt runs after the CPU hotplug check. */
export function startStrategyCauses(spec: JsonObject, field: string): Cause[] {
  const s = spec['startStrategy'];
  if (typeof s !== 'string') return [];
  const at = `${field}.startStrategy`;
  if (s !== 'Paused') return [{ reason: 'start-strategy', type: 'FieldValueInvalid', field: at, message: `${at} is set with an unrecognized option: ${s}` }];
  if (obj(spec['livenessProbe']))
    return [
      {
        reason: 'start-strategy',
        type: 'FieldValueInvalid',
        field: at,
        message: `either ${at} or ${field}.livenessProbe should be provided.Pausing VMI with LivenessProbe is not supported`,
      },
    ];
  return [];
}

/** validateInputDevices, which KubeVirt runs after the boot order. */
export function inputDeviceCauses(spec: JsonObject, field: string): Cause[] {
  const devices = obj(obj(spec['domain'])?.['devices']) ?? {};
  return list(devices['inputs']).flatMap((input, i) => {
    const at = `${field}.domain.devices.inputs[${i}]`;
    const bus = typeof input['bus'] === 'string' ? input['bus'] : '';
    return [
      ...(bus !== 'virtio' && bus !== 'usb' && bus !== ''
        ? [
            {
              reason: 'input-device' as const,
              type: 'FieldValueInvalid' as const,
              field: `${at}.bus`,
              message: 'Input device can have only virtio or usb bus.',
            },
          ]
        : []),
      ...(input['type'] !== 'tablet'
        ? [{ reason: 'input-device' as const, type: 'FieldValueInvalid' as const, field: `${at}.type`, message: 'Input device can have only tablet type.' }]
        : []),
    ];
  });
}

/** validateSoundDevices, which KubeVirt runs after the host devices' gate. */
export function soundDeviceCauses(spec: JsonObject, field: string): Cause[] {
  const sound = obj(obj(obj(spec['domain'])?.['devices'])?.['sound']);
  if (!sound) return [];
  const model = typeof sound['model'] === 'string' ? sound['model'] : '';
  const at = `${field}.Sound`;
  return [
    ...(model !== '' && model !== 'ich9' && model !== 'ac97'
      ? [
          {
            reason: 'sound-device' as const,
            type: 'FieldValueInvalid' as const,
            field: at,
            message: "Sound device type is not supported. Options: 'ich9' or 'ac97'",
          },
        ]
      : []),
    ...(typeof sound['name'] !== 'string' || sound['name'] === ''
      ? [{ reason: 'sound-device' as const, type: 'FieldValueInvalid' as const, field: at, message: 'Sound device requires a name field.' }]
      : []),
  ];
}

/** validateIOThreadsPolicy, which KubeVirt runs right after the input devices. */
export function ioThreadsCauses(spec: JsonObject, field: string): Cause[] {
  const domain = obj(spec['domain']);
  const policy = domain?.['ioThreadsPolicy'];
  if (typeof policy !== 'string') return [];
  const causes: Cause[] = [];
  if (!['shared', 'auto', 'supplementalPool'].includes(policy))
    causes.push({ reason: 'io-threads', type: 'FieldValueInvalid', field: `${field}.domain.ioThreadsPolicy`, message: `Invalid IOThreadsPolicy (${policy})` });
  // The supplemental pool needs its size (KubeVirt's words say "dedicated").
  const count = obj(domain?.['ioThreads'])?.['supplementalPoolThreadCount'];
  if (policy === 'supplementalPool' && !(typeof count === 'number' && count >= 1))
    causes.push({
      reason: 'io-threads',
      type: 'FieldValueInvalid',
      field: `${field}.domain.ioThreads.count`,
      message: 'the number of iothreads needs to be set and positive for the dedicated policy',
    });
  return causes;
}

/** validatePodDNSConfig's first rule: the None policy needs a dnsConfig (KubeVirt runs it after the access credentials). */
export function dnsConfigCauses(spec: JsonObject, field: string): Cause[] {
  const config = obj(spec['dnsConfig']);
  const at = `${field}.dnsConfig`;
  const cause = (type: Cause['type'], where: string, message: string): Cause => ({ reason: 'dns-policy', type, field: `${at}.${where}`, message });
  const strings = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : []);
  const nameservers = strings(config?.['nameservers']);
  if (spec['dnsPolicy'] === 'None') {
    if (!config) return [{ reason: 'dns-policy', type: 'FieldValueRequired', field: at, message: 'must provide `dnsConfig` when `dnsPolicy` is None' }];
    if (nameservers.length === 0) return [cause('FieldValueRequired', 'nameservers', 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  // validatePodDNSConfig, copied by KubeVirt from Kubernetes (its causes name the bare fields).
  const causes: Cause[] = [];
  if (nameservers.length > 3) causes.push(cause('FieldValueInvalid', 'nameservers', `must not have more than 3 nameservers: [${nameservers.join(' ')}]`));
  for (const ns of nameservers) if (!isIP(ns)) causes.push(cause('FieldValueInvalid', 'nameservers', `must be valid IP address: ${ns}`));
  const searches = strings(config['searches']);
  if (searches.length > 6) causes.push(cause('FieldValueInvalid', 'searches', 'must not have more than 6 search paths'));
  if (searches.join(' ').length > 256)
    causes.push(cause('FieldValueInvalid', 'searches', 'must not have more than 256 characters (including spaces) in the search list'));
  for (const search of searches) for (const message of dnsSubdomainErrors(search)) causes.push(cause('FieldValueInvalid', 'searches', message));
  for (const option of list(config['options']))
    if (str(option['name']) === '') causes.push(cause('FieldValueInvalid', 'options', 'Option.Name must not be empty'));
  return causes;
}

/** validateLiveMigration: an eviction strategy KubeVirt does not know. */
export function evictionStrategyCauses(spec: JsonObject, field: string): Cause[] {
  const strategy = spec['evictionStrategy'];
  if (typeof strategy !== 'string' || ['LiveMigrate', 'LiveMigrateIfPossible', 'None', 'External'].includes(strategy)) return [];
  const at = `${field}.evictionStrategy`;
  return [{ reason: 'eviction', type: 'FieldValueInvalid', field: at, message: `${at} is set with an unrecognized option: ${strategy}` }];
}

/** ValidateVirtualMachineInstanceMandatoryFields (the VMI webhook only): some memory must be asked for. */
export function mandatoryFieldCauses(spec: JsonObject, field: string, release?: string): Cause[] {
  if (value(resource(spec, 'requests', 'memory')) !== 0n) return [];
  const memory = obj(obj(spec['domain'])?.['memory']);
  if (memory && (memory['guest'] !== undefined || memory['hugepages'] !== undefined)) return [];
  return [
    {
      reason: 'mandatory',
      type: 'FieldValueRequired',
      field: `${field}.domain`,
      message: `no memory requested, at least one of '${field}.domain.memory.guest', '${field}.domain.memory.hugepages.${holds('hugepagesSizeWords', release) ? 'size' : 'pageSize'}' or '${field}.domain.resources.requests.memory' must be set`,
    },
  ];
}
