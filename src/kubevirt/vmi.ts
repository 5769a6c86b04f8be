/**
 * The VirtualMachineInstance mutating webhook on CREATE (pkg/virt-api/webhooks/mutating-webhook/
 * mutators/vmi-mutator.go, `Mutate` and `ApplyNewVMIMutations`): KubeVirt's defaults
 * (pkg/defaults: `SetDefaultVirtualMachineInstance`), the API's generated defaults
 * (`SetObjectDefaults_VirtualMachineInstance`), the Hyper-V feature dependencies, the architecture's
 * defaults and CPU model, the status memory and CPU topology, CPU and memory hotplug limits, the PCI
 * topology annotation, the runtime user, the finalizer and the Pending phase. In KubeVirt's order.
 */
import { isPlainObject, list, obj, type Json, type JsonObject } from '../json';
import { canonicalQuantity, formatQuantity, parseQuantity } from '../quantity';
import { holds } from './releases';
import { gateEnabled, type ClusterDefaults } from './config';
import { setDefaultInstanceSpec } from './defaults';
import { child, isSet, nonEmpty } from './go';

const TRUE_STATE = (o: JsonObject | undefined): void => {
  if (o && !isSet(o['enabled'])) o['enabled'] = true;
};

/** SetObjectDefaults_VirtualMachineInstance (staging/src/kubevirt.io/api/core/v1: defaults.go and zz_generated.defaults.go). */
function setObjectDefaults(spec: JsonObject): void {
  const domain = child(spec, 'domain');
  // SetDefaults_VirtualMachineInstance: firmware and features exist afterwards.
  child(domain, 'firmware');
  const features = child(domain, 'features');
  const devices = child(domain, 'devices');
  for (const d of list(devices['disks'])) if (!isSet(d['disk']) && !isSet(d['cdrom']) && !isSet(d['lun'])) d['disk'] = {};
  for (const i of list(devices['inputs'])) {
    if (!nonEmpty(i['bus'])) i['bus'] = 'usb';
    if (!nonEmpty(i['type'])) i['type'] = 'tablet';
  }
  for (const p of ['readinessProbe', 'livenessProbe']) setProbeDefaults(obj(spec[p]));
  // Firmware's UUID is drawn by the VM webhook or the VM controller before this; never empty here.
  // A timer's Enabled is `present` in JSON.
  const timer = obj(obj(domain['clock'])?.['timer']);
  for (const t of ['hpet', 'kvm', 'pit', 'rtc', 'hyperv']) {
    const o = obj(timer?.[t]);
    if (o && !isSet(o['present'])) o['present'] = true;
  }
  // Features.ACPI is a struct, not a pointer: always there, so always enabled unless said otherwise.
  TRUE_STATE(child(features, 'acpi'));
  const apic = obj(features['apic']);
  TRUE_STATE(apic);
  const hyperv = obj(features['hyperv']);
  if (hyperv) {
    for (const f of ['relaxed', 'vapic', 'vpindex', 'runtime', 'synic', 'reset', 'frequencies', 'reenlightenment', 'ipi', 'evmcs']) TRUE_STATE(obj(hyperv[f]));
    const spinlocks = obj(hyperv['spinlocks']);
    if (spinlocks) {
      TRUE_STATE(spinlocks);
      if (spinlocks['enabled'] === true && !isSet(spinlocks['spinlocks'])) spinlocks['spinlocks'] = 4096;
    }
    const synictimer = obj(hyperv['synictimer']);
    if (synictimer) {
      TRUE_STATE(synictimer);
      TRUE_STATE(obj(synictimer['direct']));
    }
    TRUE_STATE(obj(hyperv['vendorid']));
    const tlb = obj(hyperv['tlbflush']);
    if (tlb) {
      TRUE_STATE(tlb);
      TRUE_STATE(obj(tlb['direct']));
      TRUE_STATE(obj(tlb['extended']));
    }
  }
  TRUE_STATE(obj(features['smm']));
  TRUE_STATE(obj(features['pvspinlock']));
  for (const d of list(devices['disks'])) {
    if (!isSet(d['disk']) && !isSet(d['cdrom']) && !isSet(d['lun'])) d['disk'] = {};
    const cdrom = obj(d['cdrom']);
    if (cdrom) {
      if (!isSet(cdrom['readonly'])) cdrom['readonly'] = true;
      if (!nonEmpty(cdrom['tray'])) cdrom['tray'] = 'closed';
    }
    TRUE_STATE(obj(obj(d['blockSize'])?.['matchVolume']));
  }
  for (const g of list(devices['gpus'])) TRUE_STATE(obj(obj(obj(g['virtualGPUOptions'])?.['display'])?.['ramFB']));
}

function setProbeDefaults(probe: JsonObject | undefined): void {
  if (!probe) return;
  const below = (k: string, v: number): void => {
    if (!(typeof probe[k] === 'number' && (probe[k] as number) >= 1)) probe[k] = v;
  };
  below('timeoutSeconds', 1);
  below('periodSeconds', 10);
  below('successThreshold', 1);
  below('failureThreshold', 3);
}

const enabled = (fs: Json | undefined): boolean => obj(fs)?.['enabled'] === true;
const missing = (fs: Json | undefined): boolean => !isPlainObject(fs) || !isSet(fs['enabled']);

/** SetHypervFeatureDependencies: best effort, as KubeVirt does (a conflict is left to the validating webhook). */
function setHypervDependencies(spec: JsonObject): void {
  const hyperv = obj(obj(obj(spec['domain'])?.['features'])?.['hyperv']);
  if (!hyperv) return;
  // Leaves first; a requirement the user left unset is enabled on its behalf.
  const state = (k: string): Json | undefined => hyperv[k];
  const require = (dependent: Json | undefined, requirement: string): boolean => {
    if (!enabled(dependent)) return true;
    if (missing(state(requirement))) {
      hyperv[requirement] = { ...(obj(state(requirement)) ?? {}), enabled: true };
      return true;
    }
    return enabled(state(requirement));
  };
  const synictimer = obj(hyperv['synictimer']);
  const tlb = obj(hyperv['tlbflush']);
  const steps: [Json | undefined, string][] = [
    [hyperv['evmcs'], 'vapic'],
    [hyperv['ipi'], 'vpindex'],
    [tlb ? { enabled: tlb['enabled'] ?? null } : undefined, 'vpindex'],
    [{ enabled: synictimer?.['enabled'] ?? null }, 'synic'],
  ];
  for (const [dependent, requirement] of steps) if (!require(dependent, requirement)) return;
  if (!require(hyperv['synic'], 'vpindex')) return;
  const evmcs = obj(hyperv['evmcs']);
  if (evmcs && (!isSet(evmcs['enabled']) || evmcs['enabled'] === true)) {
    const cpu = child(child(spec, 'domain'), 'cpu');
    const features = list(cpu['features']);
    const vmx = features.find((f) => f['name'] === 'vmx');
    if (vmx) vmx['policy'] = 'require';
    else cpu['features'] = [...(Array.isArray(cpu['features']) ? cpu['features'] : []), { name: 'vmx', policy: 'require' }];
  }
}

/** The default disk bus of an architecture: SATA on amd64, virtio on arm64 (no SATA), virtio on s390x. */
function setDiskBuses(spec: JsonObject, bus: string): void {
  for (const d of list(obj(obj(spec['domain'])?.['devices'])?.['disks']))
    for (const target of ['disk', 'cdrom', 'lun']) {
      const t = obj(d[target]);
      if (t && !nonEmpty(t['bus'])) t['bus'] = bus;
    }
}

function setWatchdog(spec: JsonObject, kind: 'i6300esb' | 'diag288'): void {
  const wd = obj(obj(obj(spec['domain'])?.['devices'])?.['watchdog']);
  if (!wd) return;
  const w = child(wd, kind);
  if (!nonEmpty(w['action'])) w['action'] = 'reset';
}

/** setDefaultCPUArch then setDefaultCPUModel. */
function setArchitectureDefaults(spec: JsonObject, config: ClusterDefaults): void {
  const domain = child(spec, 'domain');
  switch (spec['architecture']) {
    case 'arm64': {
      const cpu = child(domain, 'cpu');
      if (!nonEmpty(cpu['model'])) cpu['model'] = 'host-passthrough';
      const firmware = obj(domain['firmware']);
      if (!firmware || !isSet(firmware['bootloader'])) {
        const fw = child(domain, 'firmware');
        child(fw, 'bootloader')['efi'] = { secureBoot: false };
      }
      // Later releases also turn Secure Boot off on an EFI written without it (releases.ts).
      const efi = obj(obj(obj(domain['firmware'])?.['bootloader'])?.['efi']);
      if (efi && !isSet(efi['secureBoot']) && holds('arm64EfiSecureBootOff', config.release)) efi['secureBoot'] = false;
      setDiskBuses(spec, 'virtio');
      break;
    }
    case 's390x':
      setDiskBuses(spec, 'virtio');
      setWatchdog(spec, 'diag288');
      break;
    default:
      setDiskBuses(spec, 'sata');
      setWatchdog(spec, 'i6300esb');
  }
  const cpu = child(domain, 'cpu');
  if (!nonEmpty(cpu['model'])) cpu['model'] = config.cpuModel !== undefined && config.cpuModel !== '' ? config.cpuModel : 'host-model';
}

const HOTPLUG_ALIGNMENT = 2 * 1024 * 1024;
const HOTPLUG_1G_ALIGNMENT = 1024 * 1024 * 1024;

/** memory.ValidateLiveUpdateMemory: why memory hotplug cannot be set up for this VMI, if it cannot. */
export function memoryHotplugProblem(spec: JsonObject, maxGuest: number | undefined): string | undefined {
  const domain = obj(spec['domain']) ?? {};
  const cpu = obj(domain['cpu']);
  if (isSet(cpu?.['realtime'])) return 'Memory hotplug is not compatible with realtime VMs';
  if (isSet(obj(cpu?.['numa'])?.['guestMappingPassthrough'])) return 'Memory hotplug is not compatible with guest mapping passthrough';
  if (isSet(domain['launchSecurity'])) return 'Memory hotplug is not compatible with encrypted VMs';
  const memory = obj(domain['memory']);
  const alignment = obj(memory?.['hugepages'])?.['pageSize'] === '1Gi' ? HOTPLUG_1G_ALIGNMENT : HOTPLUG_ALIGNMENT;
  const guest = isSet(memory?.['guest']) ? parseQuantity(memory!['guest'] as string | number) : undefined;
  if (guest === undefined) return 'Guest memory must be configured when memory hotplug is enabled';
  if (maxGuest === undefined) return 'Max guest memory must be configured when memory hotplug is enabled';
  if (guest > maxGuest) return 'Guest memory is greater than the configured maxGuest memory';
  if (guest % alignment !== 0) return `Guest memory must be ${formatQuantity(alignment, 'BinarySI')} aligned`;
  if (maxGuest % alignment !== 0) return `MaxGuest must be ${formatQuantity(alignment, 'BinarySI')} aligned`;
  if (spec['architecture'] !== 'amd64') return 'Memory hotplug is only available for x86_64 VMs';
  if (guest < HOTPLUG_1G_ALIGNMENT) return 'Memory hotplug is only available for VMs with at least 1Gi of guest memory';
  return undefined;
}

/** setupHotplug: `maxSockets` and `maxGuest` under the LiveUpdate rollout strategy (not on arm64). */
function setupHotplug(spec: JsonObject, config: ClusterDefaults): void {
  if ((config.vmRolloutStrategy ?? 'LiveUpdate') !== 'LiveUpdate') return;
  const domain = child(spec, 'domain');
  const cpu = child(domain, 'cpu');
  const ratio = config.maxHotplugRatio ?? 4;
  const sockets = typeof cpu['sockets'] === 'number' ? cpu['sockets'] : 0;
  const cores = typeof cpu['cores'] === 'number' ? cpu['cores'] : 0;
  const threads = typeof cpu['threads'] === 'number' ? cpu['threads'] : 0;
  if (!(typeof cpu['maxSockets'] === 'number' && cpu['maxSockets'] !== 0)) {
    let max = config.maxCpuSockets ?? 0;
    if (sockets > max && max !== 0) max = sockets;
    cpu['maxSockets'] = max;
  }
  if (cpu['maxSockets'] === 0) {
    // Each machine type has its own maximum of vCPUs; 512 is the bound KubeVirt picks.
    let max = sockets * ratio;
    if (max * cores * threads > 512) max = Math.max(Math.floor(512 / (cores * threads)), sockets);
    cpu['maxSockets'] = max;
  }
  if (cpu['maxSockets'] === 0) delete cpu['maxSockets'];
  const memory = child(domain, 'memory');
  if (isSet(memory['maxGuest'])) return;
  let maxGuest: number | undefined;
  const guest = isSet(memory['guest']) ? parseQuantity(memory['guest'] as string | number) : undefined;
  if (config.maxGuest !== undefined) maxGuest = parseQuantity(config.maxGuest);
  else if (guest !== undefined) maxGuest = guest * ratio;
  if (memoryHotplugProblem(spec, maxGuest) !== undefined) return;
  memory['maxGuest'] = config.maxGuest !== undefined ? config.maxGuest : formatQuantity(maxGuest!, 'BinarySI');
}

/** SupportsPCIeHotplug: amd64 and arm64 (or none) on a q35 or virt machine. */
/**
 * Whether the VM and VMI mutating webhooks annotate the (template) metadata with the PCI topology
 * version: where the spec supports PCIe hotplug, or always at a release that forgot the condition.
 */
export function annotatesPciTopology(spec: JsonObject, release: string | undefined): boolean {
  return holds('pciTopologyAnnotatedAlways', release) || supportsPcieHotplug(spec);
}

function supportsPcieHotplug(spec: JsonObject): boolean {
  const arch = spec['architecture'];
  if (!(arch === 'amd64' || arch === 'arm64' || arch === '' || arch === undefined)) return false;
  const type = obj(obj(spec['domain'])?.['machine'])?.['type'];
  if (typeof type === 'string' && !type.includes('q35') && !type.startsWith('virt')) return false;
  return true;
}

/**
 * The VMI mutating webhook on CREATE, on `vmi` itself (as virt-controller sends it; changed in place
 * and returned): the VMI as the API server stores it. Phase transition timestamps are left out (they
 * hold the time of the request).
 */
export function mutateNewVmi(vmi: JsonObject, config: ClusterDefaults): JsonObject {
  const out = vmi;
  const spec = child(out, 'spec');
  const meta = child(out, 'metadata');
  const status = child(out, 'status');
  // SetDefaultVirtualMachineInstance
  setDefaultInstanceSpec(spec, config);
  if (spec['architecture'] === 's390x') {
    const features = child(child(spec, 'domain'), 'features');
    const acpi = obj(features['acpi']);
    if (!acpi) features['acpi'] = { enabled: false };
    else if (!isSet(acpi['enabled'])) acpi['enabled'] = false;
  }
  setObjectDefaults(spec);
  setHypervDependencies(spec);
  setArchitectureDefaults(spec, config);
  const domain = child(spec, 'domain');
  const guest = obj(domain['memory'])?.['guest'];
  if (isSet(guest)) status['memory'] = { guestAtBoot: guest!, guestCurrent: guest!, guestRequested: guest! };
  const cpu = obj(domain['cpu']);
  if (cpu && !isSet(status['currentCPUTopology'])) {
    // CPUTopology's fields are omitempty: a zero is left out.
    const topology: JsonObject = {};
    for (const k of ['cores', 'sockets', 'threads']) if (typeof cpu[k] === 'number' && cpu[k] !== 0) topology[k] = cpu[k];
    status['currentCPUTopology'] = topology;
  }
  if (spec['architecture'] !== 'arm64') setupHotplug(spec, config);
  // The rest of ApplyNewVMIMutations.
  const annotations = (): JsonObject => child(meta, 'annotations');
  if (annotatesPciTopology(spec, config.release) && !isSet(obj(meta['annotations'])?.['kubevirt.io/pci-topology-version']))
    annotations()['kubevirt.io/pci-topology-version'] = 'v3';
  if (
    obj(domain['cpu'])?.['isolateEmulatorThread'] === true &&
    Object.hasOwn(config.annotations ?? {}, 'kubevirt.io/emulator-thread-complete-to-even-parity') &&
    gateEnabled(config, 'AlignCPUs')
  )
    annotations()['kubevirt.io/emulator-thread-complete-to-even-parity'] = '';
  if (isSet(obj(domain['launchSecurity'])?.['tdx'])) annotations()['kubevirt.io/qgs-socket-path'] = '/var/run/tdx-qgs/qgs.socket';
  // RuntimeUser is not omitempty: 0 (root) under the Root feature gate.
  status['runtimeUser'] = gateEnabled(config, 'Root') ? 0 : 107;
  // Mutate: the foreground finalizer and the Pending phase.
  const finalizer = holds('prefixedNames', config.release) ? 'kubevirt.io/foregroundDeleteVirtualMachine' : 'foregroundDeleteVirtualMachine';
  meta['finalizers'] = [...(Array.isArray(meta['finalizers']) ? meta['finalizers'] : []), finalizer];
  status['phase'] = 'Pending';
  // Go structs that are not pointers are always written.
  if (!isSet(status['guestOSInfo'])) status['guestOSInfo'] = {};
  canonicalQuantities(out);
  return out;
}

/** A memory quantity as the API server stores it (Quantity marshals in canonical form: 3072Mi is 3Gi). */
function canonical(o: JsonObject | undefined, key: string): void {
  const v = o?.[key];
  if (typeof v !== 'string' && typeof v !== 'number') return;
  const c = canonicalQuantity(v);
  if (c !== undefined) o![key] = c;
}

/** Every Quantity of a VMI that itgen writes or carries, in canonical form. */
export function canonicalQuantities(vmi: JsonObject): void {
  const spec = obj(vmi['spec']);
  const domain = obj(spec?.['domain']);
  const memory = obj(domain?.['memory']);
  canonical(memory, 'guest');
  canonical(memory, 'maxGuest');
  canonical(obj(memory?.['reservedOverhead']), 'addedOverhead');
  const resources = obj(domain?.['resources']);
  for (const side of ['requests', 'limits']) {
    const r = obj(resources?.[side]);
    for (const k of Object.keys(r ?? {})) if (k !== 'cpu') canonical(r, k);
  }
  for (const v of list(spec?.['volumes'])) {
    canonical(obj(v['emptyDisk']), 'capacity');
    canonical(obj(v['hostDisk']), 'capacity');
  }
  const status = obj(obj(vmi['status'])?.['memory']);
  for (const k of ['guestAtBoot', 'guestCurrent', 'guestRequested']) canonical(status, k);
}
