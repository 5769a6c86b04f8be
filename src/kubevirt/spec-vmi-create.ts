/**
 * What only the VMI create webhook checks (vmi-create-admitter.go `Admit`), beside the spec rules
 * it shares with the VM webhook (spec-validation.ts): the storage spec validator KubeVirt registers
 * for VMIs on the v1.9 line (api.go: ValidateContainerDisks, ValidateUtilityVolumesNotPresentOnCreation
 * and ValidateDisks, so that a disk's refusal is said twice, as KubeVirt says it), the volumes'
 * disks and filesystems, and the Hyper-V rules (webhooks/hyperv.go ValidateVirtualMachineInstanceHyperv).
 */
import { list, obj, type JsonObject } from '../json';
import type { Cause } from './cause';
import type { ClusterDefaults } from './config';
import { holds } from './releases';
import { diskCauses } from './spec-disks';
import { containerDiskPathCauses } from './spec-volumes';
import { utilityVolumeCauses } from './spec-validation';

/** storageadmitters.Validate, the VMI's storage spec validator (v1.9 line), run before the spec's own rules. */
export function storageValidatorCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  if (!holds('vmiStorageValidator', config.release)) return [];
  const devices = obj(obj(spec['domain'])?.['devices']) ?? {};
  return [
    ...containerDiskPathCauses(spec['volumes'], field),
    ...utilityVolumeCauses(spec, config, field),
    ...diskCauses(devices['disks'], `${field}.domain.devices.disks`, config.release),
  ];
}

/**
 * validateVirtualMachineInstanceSpecVolumeDisks: every volume (but a memory dump) is a disk's or a
 * filesystem's; a ContainerPath volume (from v1.8) a filesystem's only, outside KubeVirt's own paths.
 */
export function volumeDiskCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const devices = obj(obj(spec['domain'])?.['devices']) ?? {};
  const disks = new Set(list(devices['disks']).map((d) => d['name']));
  const filesystems = new Set(list(devices['filesystems']).map((f) => f['name']));
  const causes: Cause[] = [];
  const add = (at: string, message: string): void => {
    causes.push({ type: 'FieldValueInvalid', field: at, message, reason: 'volume' });
  };
  list(spec['volumes']).forEach((volume, idx) => {
    if (volume['memoryDump'] !== undefined && volume['memoryDump'] !== null) return;
    const at = `${field}.domain.volumes[${idx}]`;
    const name = typeof volume['name'] === 'string' ? volume['name'] : '';
    const disk = disks.has(volume['name']);
    const filesystem = filesystems.has(volume['name']);
    if (!disk && !filesystem) add(`${at}.name`, `${at}.name '${name}' not found.`);
    const containerPath = obj(volume['containerPath']);
    if (!containerPath || !holds('containerPathVolumes', config.release)) return;
    if (disk) add(at, `ContainerPath volume '${name}' must be mapped to a filesystem, not a disk`);
    if (!filesystem) add(at, `ContainerPath volume '${name}' must have a matching filesystem defined in spec.domain.devices.filesystems`);
    const path = typeof containerPath['path'] === 'string' ? containerPath['path'] : '';
    const reserved = ['/var/run/kubevirt', '/var/run/libvirt'].find((prefix) => path.startsWith(prefix));
    if (reserved !== undefined) add(`${at}.containerPath.path`, `ContainerPath volume '${name}' uses reserved path prefix '${reserved}'`);
  });
  return causes;
}

/** A FeatureState: enabled when set to true; missing when absent or without `enabled`. */
const enabled = (fs: JsonObject | undefined): boolean => fs?.['enabled'] === true;

/**
 * ValidateVirtualMachineInstanceHyperv: the Hyper-V features' dependencies (the mutating webhook
 * enables a dependency left unset, so only one written disabled remains), evmcs's vmx CPU feature,
 * and Hyper-V features beside HypervPassthrough. `field` is KubeVirt's `spec.domain.features.hyperv`,
 * under which it names each feature again as `domain.features.hyperv.<name>`, as its words do.
 */
export function hypervCauses(spec: JsonObject, field = 'spec.domain.features.hyperv'): Cause[] {
  const domain = obj(spec['domain']) ?? {};
  const features = obj(domain['features']);
  const hyperv = obj(features?.['hyperv']);
  const causes: Cause[] = [];
  if (hyperv) {
    const at = (name: string): string => `${field}.domain.features.hyperv.${name}`;
    const state = (name: string): JsonObject | undefined => obj(hyperv[name]);
    // Leaves first, as KubeVirt lists them: evmcs, ipi, tlbflush, synictimer, synic.
    const rules: readonly [string, JsonObject | undefined, string][] = [
      ['evmcs', state('evmcs'), 'vapic'],
      ['ipi', state('ipi'), 'vpindex'],
      ['tlbflush', state('tlbflush') ? { enabled: state('tlbflush')!['enabled'] ?? null } : undefined, 'vpindex'],
      ['synictimer', { enabled: state('synictimer')?.['enabled'] ?? null }, 'synic'],
      ['synic', state('synic'), 'vpindex'],
    ];
    for (const [name, fs, requires] of rules)
      if (enabled(fs) && !enabled(state(requires)))
        causes.push({ type: 'FieldValueInvalid', field: at(name), message: `'${at(name)}' requires '${at(requires)}', which was disabled.`, reason: 'hyperv' });
    const evmcs = state('evmcs');
    if (evmcs && evmcs['enabled'] !== false) {
      const cpuFeatures = list(obj(domain['cpu'])?.['features']);
      if (cpuFeatures.length === 0)
        causes.push({
          type: 'FieldValueRequired',
          field: 'spec.domain.cpu.features',
          message: 'vmx cpu feature is required when evmcs is set',
          reason: 'hyperv',
        });
      else
        cpuFeatures.forEach((f, i) => {
          if (f['name'] === 'vmx' && f['policy'] !== 'require')
            causes.push({
              type: 'FieldValueInvalid',
              field: `spec.domain.cpu.features[${i}].policy`,
              message: 'vmx cpu feature has to be set to require policy',
              reason: 'hyperv',
            });
        });
    }
  }
  if (hyperv && features?.['hypervPassthrough'] !== undefined && features['hypervPassthrough'] !== null)
    causes.push({
      type: 'FieldValueInvalid',
      field,
      message: 'Cannot explicitly set hyperV features if HypervPassthrough is being used. Please use either HyperV or HypervPassthrough.',
      reason: 'hyperv',
    });
  return causes;
}
