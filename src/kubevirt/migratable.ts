/**
 * Whether a running VMI can live-migrate: KubeVirt's LiveMigratable condition as virt-handler
 * computes it (pkg/virt-handler/vm.go `calculateLiveMigrationCondition`, v1.9), in its order and
 * words: the pod network's binding (`VerifyVMIMigratable`), host devices and GPUs, SEV, TDX and
 * Secure Execution, Hyper-V passthrough, then the volumes (every PVC shared: ReadWriteMany; a host
 * disk shared). A PVC that was not given is assumed shared, and the assumption is said. Not modelled:
 * what only the node knows (its host-model CPU support, the TSC frequency), volumes already migrated.
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';

export interface LiveMigratable {
  readonly migratable: boolean;
  /** The condition's reason and message when it is False (KubeVirt's words). */
  readonly reason?: string;
  readonly message?: string;
  /** What was taken as migratable for want of an input. */
  readonly assumed: readonly string[];
}

/** VerifyVMIMigratable: the pod network's interface is masquerade, passt, or bridge allowed by annotation, or a plugin that migrates. */
function interfaceProblem(vmi: JsonObject, config: ClusterDefaults): string | undefined {
  const spec = obj(vmi['spec']) ?? {};
  const ifaces = list(obj(obj(spec['domain'])?.['devices'])?.['interfaces']);
  if (ifaces.length === 0) return undefined;
  const podNetwork = list(spec['networks']).find((n) => isSet(n['pod']));
  if (!podNetwork) return undefined;
  const primary = ifaces.find((i) => str(i['name']) === str(podNetwork['name']));
  if (!primary) return `no primary interface found for network ${str(podNetwork['name'])}`;
  if (isSet(primary['masquerade']) || isSet(primary['passtBinding'])) return undefined;
  if (isSet(primary['bridge']) && Object.hasOwn(obj(obj(vmi['metadata'])?.['annotations']) ?? {}, 'kubevirt.io/allow-pod-bridge-network-live-migration'))
    return undefined;
  if (isSet(primary['binding']) && (config.migratableBindings ?? []).includes(str(obj(primary['binding'])?.['name']))) return undefined;
  return 'cannot migrate VMI which does not use masquerade or a migratable plugin to connect to the pod network';
}

/** vmiContainsNonMigratablePCIHostDevices. */
function hostDeviceProblem(spec: JsonObject, config: ClusterDefaults): string | undefined {
  const devices = obj(obj(spec['domain'])?.['devices']) ?? {};
  const gpus = list(devices['gpus']);
  if (list(devices['hostDevices']).length > 0) return 'VMI specifies non-migratable generic PCI host device';
  if (gpus.length > 1) return 'VMI specifies too many GPUs';
  if (gpus.length === 1 && !gateEnabled(config, 'VGPULiveMigration')) return 'VMI specifies a GPU but feature gate VGPULiveMigration is not enabled';
  const mediated = list(obj(config.permittedHostDevices)?.['mediatedDevices']).map((m) => str(m['resourceName']));
  if (gpus.length === 1 && !mediated.includes(str(gpus[0]!['deviceName']))) return 'VMI specifies non-migratable GPU device';
  return undefined;
}

/**
 * checkVolumesForMigration's refusal: a PVC or DataVolume whose claim is not ReadWriteMany, a host
 * disk not shared. `claims` are the namespace's PVCs given; a claim not among them is assumed shared.
 */
function volumeProblem(spec: JsonObject, claims: readonly JsonObject[], assumed: string[]): string | undefined {
  for (const v of list(spec['volumes'])) {
    const claimName = str(obj(v['persistentVolumeClaim'])?.['claimName']) || str(obj(v['dataVolume'])?.['name']);
    if (isSet(v['persistentVolumeClaim']) || isSet(v['dataVolume'])) {
      const pvc = claims.find((c) => str(obj(c['metadata'])?.['name']) === claimName);
      if (!pvc) {
        assumed.push(`PVC ${claimName} is shared (ReadWriteMany): it was not given (pass it with --with)`);
        continue;
      }
      const modes = (Array.isArray(obj(pvc['spec'])?.['accessModes']) ? (obj(pvc['spec'])!['accessModes'] as Json[]) : []).map(str);
      if (!modes.includes('ReadWriteMany'))
        return `cannot migrate VMI: PVC ${claimName} is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)`;
    } else if (isSet(v['hostDisk']) && obj(v['hostDisk'])?.['shared'] !== true) return 'cannot migrate VMI with non-shared HostDisk';
  }
  return undefined;
}

/** calculateLiveMigrationCondition for `vmi` (as it runs), with the namespace's PVCs given (`claims`). */
export function liveMigratableCondition(vmi: JsonObject, config: ClusterDefaults, claims: readonly JsonObject[]): LiveMigratable {
  const spec = obj(vmi['spec']) ?? {};
  const assumed: string[] = [];
  const no = (reason: string, message: string): LiveMigratable => ({ migratable: false, reason, message, assumed });
  const blockErr = volumeProblem(spec, claims, assumed);
  const iface = interfaceProblem(vmi, config);
  if (iface) return no('InterfaceNotLiveMigratable', iface);
  // isHostModelMigratable reads the node (a node that cannot say its host CPU model refuses a
  // host-model VMI); every node is taken to support it, as nodes with KubeVirt's node labeller do.
  const device = hostDeviceProblem(spec, config);
  if (device) return no('HostDeviceNotLiveMigratable', device);
  const launch = obj(obj(spec['domain'])?.['launchSecurity']);
  if (launch && (isSet(launch['sev']) || isSet(launch['snp']))) return no('SEVNotLiveMigratable', 'VMI uses SEV');
  if (launch && isSet(launch['tdx'])) return no('TDXNotLiveMigratable', 'VMI uses TDX');
  if (launch && spec['architecture'] === 's390x') return no('SecureExecutionNotLiveMigratable', 'VMI uses Secure Execution');
  if (obj(obj(obj(spec['domain'])?.['features'])?.['hypervPassthrough'])?.['enabled'] === true)
    return no('HypervPassthroughNotLiveMigratable', 'VMI uses hyperv passthrough');
  if (blockErr) return no('DisksNotLiveMigratable', blockErr);
  return { migratable: true, assumed };
}
