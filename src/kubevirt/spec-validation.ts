/**
 * A part of KubeVirt's VirtualMachineInstance spec validation (pkg/virt-api/webhooks/
 * validating-webhook/admitters/vmi-create-admitter.go `ValidateVirtualMachineInstanceSpec`, which
 * the VM webhook runs on the template with its instance type and preference applied, and the VMI
 * webhook on the VMI; and `ValidateVirtualMachineInstancePerArch`, the VMI webhook's). Only the
 * rules below are modelled, in KubeVirt's order; docs/design.md says which are not. Each cause
 * carries KubeVirt's type, field and message, and a reason tag (house style 35).
 */
import { list, obj, str, type JsonObject } from '../json';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { holds, RELEASE_RULES } from './releases';
import { cpuPinningCauses, multiArchitectureCauses, realtimeCauses } from './spec-cpu';
import { domainSpecCauses } from './spec-disks';
import { accessCredentialCauses, containerDiskPathCauses, volumeCauses } from './spec-volumes';
import { downwardMetricsCauses, lastCauses, launchSecurityCauses, probeCauses, vsockCauses } from './spec-devices';
import { affinityCauses, topologySpreadCauses } from './spec-affinity';
import { networkCauses } from './spec-network';
import { draCauses } from './spec-dra';
import { graceCauses } from './spec-grace';
import { filesystemCauses, firmwareAcpiCauses, mdevRamFbCauses, persistentReservationCauses } from './spec-gates';
import {
  cpuResourceCauses,
  dnsConfigCauses,
  evictionStrategyCauses,
  inputDeviceCauses,
  ioThreadsCauses,
  resourceCauses,
  soundDeviceCauses,
  startStrategyCauses,
} from './spec-resources';
export { mandatoryFieldCauses } from './spec-resources';

/**
 * ValidateUtilityVolumesNotPresentOnCreation (from v1.8): utility volumes are only hotplugged. An empty
 * list passes: the mutating webhook's JSON round trip (omitempty) leaves a nil slice, and KubeVirt's
 * start path (the oracle) starts such a VM.
 */
/** ValidateUtilityVolumesNotPresentOnCreation (from v1.8). */
export function utilityVolumeCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  if (!holds('utilityVolumes', config.release) || list(spec['utilityVolumes']).length === 0) return [];
  return [
    {
      reason: 'volume',
      type: 'FieldValueInvalid',
      field: `${field}.utilityVolumes`,
      message: 'cannot create VMI with utility volumes in spec, utility volumes can only be added via hotplug',
    },
  ];
}

/** The labels only KubeVirt's service accounts may set on a VMI (restrictedVmiLabels). */
const RESTRICTED_VMI_LABELS = new Set([
  'kubevirt.io/created-by',
  'kubevirt.io/migrationJobUID',
  'kubevirt.io/nodeName',
  'kubevirt.io/migrationTargetNodeName',
  'kubevirt.io/schedulable',
  'kubevirt.io/install-strategy',
]);

/**
 * ValidateVirtualMachineInstanceMetadata: the VM webhook's on the template's metadata
 * (`spec.template.metadata`, for the VM's author), and the VMI webhook's on the VMI (`metadata`,
 * created by the VM controller: a KubeVirt service account, whose reserved labels pass). The
 * ignition and hook sidecar annotations need their (Alpha) gates.
 */
export function metadataCauses(metadata: JsonObject, config: ClusterDefaults, field: string, byKubevirt: boolean): Cause[] {
  const annotations = obj(metadata['annotations']) ?? {};
  const labels = obj(metadata['labels']) ?? {};
  const causes: Cause[] = [];
  if (!byKubevirt && Object.keys(labels).some((l) => RESTRICTED_VMI_LABELS.has(l)))
    causes.push({
      reason: 'metadata',
      type: 'FieldValueNotSupported',
      field: `${field}.labels`,
      message: 'creation of the following reserved kubevirt.io/ labels on a VMI object is prohibited',
    });
  const given = (key: string): boolean => typeof annotations[key] === 'string' && annotations[key] !== '';
  if (given('kubevirt.io/ignitiondata') && !gateEnabled(config, 'ExperimentalIgnitionSupport'))
    causes.push({
      reason: 'metadata',
      type: 'FieldValueInvalid',
      field: `${field}.annotations`,
      message: `ExperimentalIgnitionSupport feature gate is not enabled in kubevirt-config, invalid entry ${field}.annotations.kubevirt.io/ignitiondata`,
    });
  if (given('hooks.kubevirt.io/hookSidecars') && !gateEnabled(config, 'Sidecar'))
    causes.push({
      reason: 'metadata',
      type: 'FieldValueInvalid',
      field: `${field}.annotations`,
      message: `sidecar feature gate is not enabled in kubevirt-config, invalid entry ${field}.annotations.hooks.kubevirt.io/hookSidecars`,
    });
  return causes;
}

/** GetEmulatedMachines: the machine type patterns an architecture allows (virt-config defaults). */
const EMULATED_MACHINES: Readonly<Record<string, readonly string[]>> = { amd64: ['q35*', 'pc-q35*'], arm64: ['virt*'], s390x: ['s390-ccw-virtio*'] };

/** filepath.Match for the patterns KubeVirt writes (`*` only). */
const globs = new Map<string, RegExp>();
function globMatch(pattern: string, text: string): boolean {
  let re = globs.get(pattern);
  if (re === undefined) {
    re = new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    );
    if (globs.size >= 256) globs.clear();
    globs.set(pattern, re);
  }
  return re.test(text);
}

/**
 * ValidateVirtualMachineInstanceSpec, the modelled rules; `field` is the spec's path (`spec`, `spec.template.spec`).
 *
 * Over 80 lines: a transcription of the webhook's instancetype spec validation, kept in KubeVirt's order.
 */
export function validateInstanceSpec(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [...resourceCauses(spec, config, field)];
  const domain = obj(spec['domain']) ?? {};
  const devices = obj(domain['devices']) ?? {};
  // validateEmulatedMachine
  const machineType = obj(domain['machine'])?.['type'];
  if (typeof machineType === 'string' && machineType !== '') {
    const arch = typeof spec['architecture'] === 'string' ? spec['architecture'] : '';
    const supported = EMULATED_MACHINES[Object.hasOwn(EMULATED_MACHINES, arch) ? arch : 'amd64']!;
    if (!supported.some((p) => globMatch(p, machineType)))
      causes.push({
        reason: 'emulated-machine',
        type: 'FieldValueInvalid',
        field: `${field}.domain.machine.type`,
        message: `${field}.domain.machine.type is not supported: ${machineType} (allowed values: [${supported.join(' ')}])`,
      });
  }
  causes.push(...firmwareAcpiCauses(spec, field), ...cpuResourceCauses(spec, field), ...cpuPinningCauses(spec, config, field));
  // validateCPUHotplug
  const cpu = obj(domain['cpu']);
  if (cpu && typeof cpu['maxSockets'] === 'number' && cpu['maxSockets'] !== 0 && typeof cpu['sockets'] === 'number' && cpu['sockets'] > cpu['maxSockets'])
    causes.push({
      reason: 'cpu-hotplug',
      type: 'FieldValueInvalid',
      field: `${field}.domain.cpu.sockets`,
      message: 'Number of sockets in CPU topology is greater than the maximum sockets allowed',
    });
  causes.push(
    ...startStrategyCauses(spec, field),
    ...realtimeCauses(spec, field),
    ...affinityCauses(spec, field),
    ...topologySpreadCauses(spec, field),
    ...multiArchitectureCauses(spec, config, field),
    ...networkCauses(spec, config, field),
    ...draCauses(spec, config, field),
  );
  // validateBootOrder: disks naming no volume, and boot orders used twice.
  const volumes = new Map(list(spec['volumes']).map((v) => [v['name'], v]));
  const orders = new Set<number>();
  list(devices['disks']).forEach((disk, i) => {
    const at = `${field}.domain.devices.disks[${i}]`;
    const volume = volumes.get(disk['name']);
    if (!volume && !isSet(disk['cdrom']))
      causes.push({
        reason: 'disk-not-found',
        type: 'FieldValueInvalid',
        field: `${at}.name`,
        message: `${at}.Name '${String(disk['name'] ?? '')}' not found.`,
      });
    else if (!volume && !gateEnabled(config, 'DeclarativeHotplugVolumes'))
      causes.push({
        reason: 'disk-not-found',
        type: 'FieldValueInvalid',
        field: `${at}.name`,
        message: 'DeclarativeHotplugVolumes feature gate not enabled, cannot define an empty CD-ROM disk',
      });
    // A LUN on a PVC or DataVolume only; a DownwardMetrics volume on a virtio disk.
    if (isSet(disk['lun']) && volume && !isSet(volume['persistentVolumeClaim']) && !isSet(volume['dataVolume']))
      causes.push({
        reason: 'disk-not-found',
        type: 'FieldValueInvalid',
        field: `${at}.lun`,
        message: `${at}.lun can only be mapped to a DataVolume or PersistentVolumeClaim volume.`,
      });
    if (volume && isSet(volume['downwardMetrics'])) {
      const target = obj(disk['disk']);
      if (!target)
        causes.push({
          reason: 'disk-not-found',
          type: 'FieldValueRequired',
          field: `${at}.disk`,
          message: `DownwardMetrics volume must be mapped to a disk, but disk is not set on ${at}.disk.`,
        });
      else if (typeof target['bus'] === 'string' && target['bus'] !== 'virtio' && target['bus'] !== '')
        causes.push({
          reason: 'disk-not-found',
          type: 'FieldValueInvalid',
          field: `${at}.disk.bus`,
          message: `DownwardMetrics volume must be mapped to virtio bus, but ${at}.disk.bus is set to ${target['bus']}`,
        });
    }
    const order = disk['bootOrder'];
    if (typeof order === 'number') {
      if (orders.has(order))
        causes.push({
          reason: 'boot-order',
          type: 'FieldValueInvalid',
          field: `${at}.bootOrder`,
          message: `Boot order for ${at}.bootOrder already set for a different device.`,
        });
      orders.add(order);
    }
  });
  list(devices['interfaces']).forEach((iface, i) => {
    const order = iface['bootOrder'];
    if (typeof order !== 'number') return;
    if (order < 1)
      causes.push({
        reason: 'boot-order',
        type: 'FieldValueInvalid',
        field: `${field}[${i}].bootOrder`,
        message: `${field}[${i}] must have a boot order > 0, if supplied`,
      });
    else {
      const at = `${field}.domain.devices.interfaces[${i}].bootOrder`;
      if (orders.has(order))
        causes.push({ reason: 'boot-order', type: 'FieldValueInvalid', field: at, message: `Boot order for ${at} already set for a different device.` });
      orders.add(order);
    }
  });
  // validateDomainSpec (after the probes, which are not modelled).
  causes.push(
    ...inputDeviceCauses(spec, field),
    ...ioThreadsCauses(spec, field),
    ...probeCauses(spec, field),
    ...domainSpecCauses(spec, field, config.release),
    ...volumeCauses(spec['volumes'], config, `${field}.volumes`),
    ...containerDiskPathCauses(spec['volumes'], field),
    ...utilityVolumeCauses(spec, config, field),
    ...accessCredentialCauses(spec, field),
    ...dnsConfigCauses(spec, field),
    ...evictionStrategyCauses(spec, field),
    ...mdevRamFbCauses(spec, field),
  );
  // validateHostDevicesWithPassthroughEnabled
  if (isSet(devices['hostDevices']) && !gateEnabled(config, 'HostDevices'))
    causes.push({
      reason: 'host-devices-gate',
      type: 'FieldValueInvalid',
      field: `${field}.HostDevices`,
      message: 'Host Devices feature gate is not enabled in kubevirt-config',
    });
  causes.push(...graceCauses(spec, config, field), ...soundDeviceCauses(spec, field));
  causes.push(
    ...launchSecurityCauses(spec, config, field),
    ...vsockCauses(spec, config, field),
    ...persistentReservationCauses(spec, config, field),
    ...downwardMetricsCauses(spec, config, field),
    ...filesystemCauses(spec, config, field),
  );
  // validateVideoConfig (before v1.9 behind its feature gate, GA since)
  if (isSet(devices['video']) && !gateEnabled(config, 'VideoConfig'))
    causes.push({
      reason: 'video-autoattach',
      type: 'FieldValueInvalid',
      field: `${field}.video`,
      message: 'Video configuration is specified but the VideoConfig feature gate is not enabled',
    });
  else if (isSet(devices['video']) && devices['autoattachGraphicsDevice'] === false)
    causes.push({
      reason: 'video-autoattach',
      type: 'FieldValueInvalid',
      field: `${field}.video`,
      message: 'Video configuration is not allowed when autoattachGraphicsDevice is set to false',
    });
  causes.push(...lastCauses(spec, config, field));
  return causes;
}

/** ValidateVirtualMachineInstancePerArch (the VMI webhook): amd64, arm64 and s390x settings. */
export function validatePerArch(spec: JsonObject, field: string, config?: Pick<ClusterDefaults, 'release'>): Cause[] {
  config ??= {};
  const causes: Cause[] = [];
  const domain = obj(spec['domain']) ?? {};
  const devices = obj(domain['devices']) ?? {};
  const video = obj(devices['video']);
  const notSupported = (at: string, message: string): void => {
    causes.push({ reason: 'arch-setting', type: 'FieldValueNotSupported', field: at, message });
  };
  switch (spec['architecture']) {
    case 'amd64': {
      const wd = obj(devices['watchdog']);
      if (wd && !(isSet(wd['i6300esb']) && !isSet(wd['diag288'])))
        notSupported(`${field}.domain.devices.watchdog`, 'amd64 only supports I6300ESB watchdog device');
      if (video && !['vga', 'cirrus', 'virtio', 'ramfb', 'bochs'].includes(str(video['type'])))
        notSupported(`${field}.domain.devices.video.type`, `video model '${str(video['type'])}' is not supported on amd64 architecture`);
      break;
    }
    case 'arm64': {
      if (isSet(obj(obj(domain['firmware'])?.['bootloader'])?.['bios']))
        notSupported(`${field}.domain.firmware.bootloader.bios`, 'Arm64 does not support bios boot, please change to uefi boot');
      // Releases before the refusal was removed (releases.ts): EFI with Secure Boot, explicit or by default.
      const efi = obj(obj(obj(domain['firmware'])?.['bootloader'])?.['efi']);
      if (efi && efi['secureBoot'] !== false && holds('arm64SecureBoot', config.release))
        notSupported(`${field}.domain.firmware.bootloader.efi.secureboot`, RELEASE_RULES.arm64SecureBoot.words);
      const model = str(obj(domain['cpu'])?.['model']);
      if (model !== '' && model !== 'host-passthrough')
        notSupported(`${field}.domain.cpu.model`, 'currently, host-passthrough is the only model supported on Arm64');
      list(devices['disks']).forEach((d, i) => {
        for (const target of ['disk', 'cdrom', 'lun']) {
          const t = obj(d[target]);
          const bus = str(t?.['bus']);
          if (t && !(bus === '' || bus === 'virtio' || bus === 'scsi'))
            notSupported(`${field}.domain.devices.disks[${i}].${target}.bus`, 'Arm64 not support this disk bus type, please use virtio or scsi');
        }
      });
      if (isSet(devices['watchdog'])) notSupported(`${field}.domain.devices.watchdog`, 'Arm64 not support Watchdog device');
      if (isSet(devices['sound'])) notSupported(`${field}.domain.devices.sound`, 'Arm64 not support sound device');
      if (video && !['virtio', 'ramfb'].includes(str(video['type'])))
        notSupported(`${field}.domain.devices.video.type`, `video model '${str(video['type'])}' is not supported on arm64 architecture`);
      break;
    }
    case 's390x': {
      const wd = obj(devices['watchdog']);
      if (wd && !(isSet(wd['diag288']) && !isSet(wd['i6300esb'])))
        notSupported(`${field}.domain.devices.watchdog`, 's390x only supports Diag288 watchdog device');
      if (video && str(video['type']) !== 'virtio')
        notSupported(`${field}.domain.devices.video.type`, `video model '${str(video['type'])}' is not supported on s390x architecture`);
      break;
    }
    default:
      causes.push({
        reason: 'arch-unsupported',
        type: 'FieldValueInvalid',
        field: `${field}.architecture`,
        message: `unsupported architecture: ${str(spec['architecture'])}`,
      });
  }
  return causes;
}
