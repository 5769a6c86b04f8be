/**
 * Rules of ValidateVirtualMachineInstanceSpec (pkg/virt-api/webhooks/validating-webhook/admitters/
 * vmi-create-admitter.go) on the firmware's ACPI tables, mediated devices' displays and the
 * features a cluster enables: validateFirmwareACPI, validateMDEVRamFB, validatePersistentReservation,
 * validateFilesystemsWithVirtIOFSEnabled, validateReservedOverheadMemlock. In KubeVirt's words;
 * spec-validation.ts calls each where KubeVirt's order has it.
 */
import { list, obj, type JsonObject } from '../json';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { holds } from './releases';

const invalid = (field: string, message: string): Cause => ({ reason: 'cluster-feature', type: 'FieldValueInvalid', field, message });

/** validateFirmwareACPI: the ACPI tables name Secret volumes of the VM. `field` is the spec's path (KubeVirt reports `<spec>.acpi`). */
export function firmwareAcpiCauses(spec: JsonObject, field: string): Cause[] {
  const acpi = obj(obj(obj(spec['domain'])?.['firmware'])?.['acpi']);
  if (!acpi) return [];
  const at = `${field}.acpi`;
  const slic = typeof acpi['slicNameRef'] === 'string' ? acpi['slicNameRef'] : '';
  const msdm = typeof acpi['msdmNameRef'] === 'string' ? acpi['msdmNameRef'] : '';
  if (slic === '' && msdm === '') return [invalid(at, 'ACPI was set but no SLIC nor MSDM volume reference was set')];
  const ref = (name: string, key: string): Cause[] => {
    if (name === '') return [];
    const volume = list(spec['volumes']).find((v) => v['name'] === name);
    if (!volume) return [invalid(`${at}.${key}`, `${at} does not have a matching Volume.`)];
    return isSet(volume['secret']) ? [] : [invalid(`${at}.${key}`, `${at} refers to Volume of unsupported type.`)];
  };
  return [...ref(slic, 'slicNameRef'), ...ref(msdm, 'msdmNameRef')];
}

/** validateMDEVRamFB: at most one GPU display with ramfb (an unset `enabled` counts as on). */
export function mdevRamFbCauses(spec: JsonObject, field: string): Cause[] {
  const gpus = list(obj(obj(spec['domain'])?.['devices'])?.['gpus']);
  const on = (v: unknown): boolean => v === undefined || v === null || v === true;
  const count = gpus.filter((g) => {
    const display = obj(obj(g['virtualGPUOptions'])?.['display']);
    return display !== undefined && on(display['enabled']) && on(obj(display['ramFB'])?.['enabled']);
  }).length;
  return count > 1 ? [invalid(`${field}.GPUs`, 'configuring multiple displays with ramfb is not valid ')] : [];
}

/**
 * validatePersistentReservation: a LUN with `reservation: true` needs the feature. v1.9 reads the
 * CR's `persistentReservationConfiguration.enabled`, else the gate listed in `featureGates` (it is
 * GA and yet off unless listed); before, the gate, in other words (releases.ts).
 */
export function persistentReservationCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const wanted = list(obj(obj(spec['domain'])?.['devices'])?.['disks']).some((d) => obj(d['lun'])?.['reservation'] === true);
  if (!wanted) return [];
  const configured = holds('persistentReservationConfiguration', config.release);
  const enabled = configured
    ? (config.persistentReservationEnabled ?? (config.featureGates ?? []).includes('PersistentReservation'))
    : gateEnabled(config, 'PersistentReservation');
  if (enabled) return [];
  const message = configured
    ? 'persistent reservation is not enabled in kubevirt config'
    : 'PersistentReservation feature gate is not enabled in kubevirt-config';
  return [invalid(`${field}.domain.devices.disks.luns.reservation`, message)];
}

/**
 * validateFilesystemsWithVirtIOFSEnabled: a filesystem on a PVC or DataVolume needs
 * EnableVirtioFsStorageVolumes; before v1.8 a config volume (ConfigMap, Secret, ServiceAccount,
 * DownwardAPI) needed EnableVirtioFsConfigVolumes, and the old ExperimentalVirtiofsSupport allowed both.
 */
export function filesystemCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const volumes = new Map(list(spec['volumes']).map((v) => [v['name'], v]));
  const at = `${field}.domain.devices.filesystems`;
  const gated = holds('virtiofsConfigVolumesGate', config.release);
  const old = gated && gateEnabled(config, 'ExperimentalVirtiofsSupport');
  return list(obj(obj(spec['domain'])?.['devices'])?.['filesystems']).flatMap((fs) => {
    const volume = volumes.get(fs['name']);
    if (!volume) return [];
    const isConfig = ['configMap', 'secret', 'serviceAccount', 'downwardAPI'].some((k) => isSet(volume[k]));
    if (gated && isConfig && !gateEnabled(config, 'EnableVirtioFsConfigVolumes') && !old)
      return [invalid(at, 'virtiofs is not allowed: virtiofs feature gate is not enabled for config volumes')];
    if (!(isSet(volume['persistentVolumeClaim']) || isSet(volume['dataVolume']))) return [];
    return gateEnabled(config, 'EnableVirtioFsStorageVolumes') || old
      ? []
      : [invalid(at, 'virtiofs is not allowed: virtiofs feature gate is not enabled for PVC')];
  });
}

/** validateReservedOverheadMemlock (v1.8 on): `memory.reservedOverhead` needs the ReservedOverheadMemlock gate. */
export function reservedOverheadCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const memory = obj(obj(spec['domain'])?.['memory']);
  // The field and its check arrived in v1.8, with the overhead it adds (releases.ts).
  if (!memory || !isSet(memory['reservedOverhead']) || gateEnabled(config, 'ReservedOverheadMemlock') || !holds('reservedOverheadCounted', config.release))
    return [];
  return [invalid(`${field}.domain.memory.reservedOverhead`, 'Reserved overhead memlock feature gate is not enabled in kubevirt-config')];
}
