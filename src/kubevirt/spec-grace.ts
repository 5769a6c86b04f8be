/**
 * Grace IO virtualization (v1.9, pkg/virt-api/webhooks/validating-webhook/admitters/
 * grace_io_virtualization.go): GPUs and host devices whose permitted PCI resource selects an NVIDIA
 * Grace GPU (`10de:2342`, `2348`, `2941`) need the GraceIOVirtualization gate, an arm64 guest on a
 * `virt` machine type, dedicated CPUs and the PCINUMAAwareTopology and IOMMUFD gates; an NVIDIA
 * selector of any device (`10de:*`) is ambiguous once the gate is on; and the VM's annotations may
 * neither put PCI devices on the root complex nor drop the 64-bit PCI hole. In KubeVirt's words.
 */
import { list, obj, str, type JsonObject } from '../json';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { clusterMachineType } from './defaults';
import { holds } from './releases';

const GRACE_DEVICE_IDS = new Set(['2342', '2348', '2941']);
const NVIDIA = '10DE';

/** hwutil.ParsePCIVendorSelector: `vendor:device`, four hex digits each (the device may be `*`), normalized. */
function parseSelector(selector: string): { vendor: string; device: string } | undefined {
  const parts = selector.split(':');
  if (parts.length !== 2) return undefined;
  // NormalizePCIID: trimmed, upper case, without 0X.
  const norm = (id: string): string => id.trim().toUpperCase().replace(/^0X/, '');
  const vendor = norm(parts[0]!);
  const device = norm(parts[1]!);
  const hex4 = (id: string): boolean => /^[0-9A-F]{4}$/.test(id);
  if (!hex4(vendor) || (device !== '*' && !hex4(device))) return undefined;
  return { vendor, device };
}

interface Request {
  readonly path: string;
  readonly resource: string;
}

/** gracePCIDeviceRequests: the GPUs and host devices whose permitted PCI resource is a Grace GPU, and those an NVIDIA `*` selector makes ambiguous. */
function graceRequests(spec: JsonObject, config: ClusterDefaults, field: string): { grace: Request[]; ambiguous: Request[] } {
  const selectors = new Map<string, string>();
  for (const d of list(obj(config.permittedHostDevices)?.['pciHostDevices']))
    if (str(d['resourceName']) !== '' && str(d['pciVendorSelector']) !== '') selectors.set(str(d['resourceName']), str(d['pciVendorSelector']));
  const grace: Request[] = [];
  const ambiguous: Request[] = [];
  if (selectors.size === 0) return { grace, ambiguous };
  const devices = obj(obj(spec['domain'])?.['devices']) ?? {};
  for (const kind of ['gpus', 'hostDevices'])
    list(devices[kind]).forEach((d, i) => {
      const resource = str(d['deviceName']);
      const selector = resource === '' ? undefined : selectors.get(resource);
      const parsed = selector === undefined ? undefined : parseSelector(selector);
      if (!parsed || parsed.vendor !== NVIDIA) return;
      const request = { path: `${field}.domain.devices.${kind}[${i}].deviceName`, resource };
      if (GRACE_DEVICE_IDS.has(parsed.device)) grace.push(request);
      else if (parsed.device === '*') ambiguous.push(request);
    });
  return { grace, ambiguous };
}

/** validateGraceIOVirtualization (ValidateVirtualMachineInstanceSpec's). */
export function graceCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  if (!holds('graceIoVirtualization', config.release)) return [];
  const { grace, ambiguous } = graceRequests(spec, config, field);
  const causes: Cause[] = [];
  const add = (f: string, message: string, type: Cause['type'] = 'FieldValueInvalid'): void => {
    causes.push({ reason: 'cluster-feature', type, field: f, message });
  };
  const enabled = gateEnabled(config, 'GraceIOVirtualization');
  if (enabled)
    for (const r of ambiguous)
      add(r.path, `GraceIOVirtualization requires an exact pciVendorSelector for NVIDIA PCI host device resource ${JSON.stringify(r.resource)}`);
  if (grace.length === 0) return causes;
  if (!enabled) {
    for (const r of grace)
      add(r.path, `GraceIOVirtualization feature gate must be enabled for NVIDIA Grace GPU passthrough resource ${JSON.stringify(r.resource)}`);
    return causes;
  }
  const arch = str(spec['architecture']) || config.architecture;
  if (arch !== 'arm64') add(`${field}.architecture`, 'GraceIOVirtualization requires arm64 architecture');
  const machine = str(obj(obj(spec['domain'])?.['machine'])?.['type']) || (clusterMachineType(config, arch) ?? '');
  if (!machine.startsWith('virt')) add(`${field}.domain.machine.type`, 'GraceIOVirtualization requires "virt" machine type');
  if (obj(obj(spec['domain'])?.['cpu'])?.['dedicatedCpuPlacement'] !== true)
    add(`${field}.domain.cpu.dedicatedCpuPlacement`, 'GraceIOVirtualization requires dedicated CPU placement', 'FieldValueRequired');
  if (!gateEnabled(config, 'PCINUMAAwareTopology'))
    add(`${field}.domain.devices`, 'PCINUMAAwareTopology feature gate must be enabled when GraceIOVirtualization is used');
  if (!gateEnabled(config, 'IOMMUFD')) add(`${field}.domain.devices`, 'IOMMUFD feature gate must be enabled when GraceIOVirtualization is used');
  return causes;
}

/** validateGraceIOVirtualizationAnnotations: `field` the metadata's path (`spec.template.metadata`, `metadata`). */
export function graceAnnotationCauses(spec: JsonObject, annotations: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  if (!holds('graceIoVirtualization', config.release) || graceRequests(spec, config, 'spec').grace.length === 0) return [];
  const causes: Cause[] = [];
  if (annotations['kubevirt.io/placePCIDevicesOnRootComplex'] === 'true')
    causes.push({
      reason: 'cluster-feature',
      type: 'FieldValueInvalid',
      field: `${field}.annotations[kubevirt.io/placePCIDevicesOnRootComplex]`,
      message: 'GraceIOVirtualization is not compatible with placing PCI devices on the root complex',
    });
  if (annotations['kubevirt.io/disablePCIHole64'] === 'true')
    causes.push({
      reason: 'cluster-feature',
      type: 'FieldValueInvalid',
      field: `${field}.annotations[kubevirt.io/disablePCIHole64]`,
      message: 'GraceIOVirtualization requires the 64-bit PCI hole',
    });
  return causes;
}
