/**
 * What the launcher pod asks of the nodes beside its resources, as RenderLaunchManifest writes it: the node selector and its labels, the TSC frequency hint, backend storage, network attachment definitions, permitted host devices.
 */
import { list, obj, str, type JsonObject } from '../json';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { holds } from './releases';

/** The VMI asks for dedicated CPUs. */
export const dedicated = (spec: JsonObject): boolean => obj(obj(spec['domain'])?.['cpu'])?.['dedicatedCpuPlacement'] === true;

/** validatePermittedHostDevices: with `permittedHostDevices` configured, every GPU and host device must be listed. */
export function permittedHostDevicesError(spec: JsonObject, config: ClusterDefaults): string | undefined {
  const permitted = config.permittedHostDevices;
  if (!permitted) return undefined;
  const names = new Set<string>();
  for (const k of ['pciHostDevices', 'mediatedDevices', 'usb']) for (const d of list(permitted[k])) names.add(str(d['resourceName']));
  const devices = obj(obj(spec['domain'])?.['devices']) ?? {};
  const errors = [
    ...list(devices['gpus']).flatMap((g) =>
      names.has(str(g['deviceName'])) ? [] : [`GPU ${str(g['deviceName'])} is not permitted in permittedHostDevices configuration`],
    ),
    ...list(devices['hostDevices']).flatMap((h) =>
      names.has(str(h['deviceName'])) ? [] : [`HostDevice ${str(h['deviceName'])} is not permitted in permittedHostDevices configuration`],
    ),
  ];
  return errors.length > 0 ? errors.join(' ') : undefined;
}

/** The node selector (NodeSelectorRenderer.Render). */
export function nodeSelector(spec: JsonObject, config: ClusterDefaults, tscFrequency: number | undefined): JsonObject {
  const out: Record<string, string> = { 'kubevirt.io/schedulable': 'true' };
  const arch = str(spec['architecture']);
  if (arch !== '') out['kubernetes.io/arch'] = arch.toLowerCase();
  Object.assign(out, config.nodeSelectors ?? {});
  for (const [k, v] of Object.entries(obj(spec['nodeSelector']) ?? {})) if (typeof v === 'string') out[k] = v;
  const domain = obj(spec['domain']) ?? {};
  const cpu = obj(domain['cpu']);
  if (dedicated(spec)) out[holds('cpuManagerLabelPrefixed', config.release) ? 'kubevirt.io/cpumanager' : 'cpumanager'] = 'true';
  const model = str(cpu?.['model']);
  if (model !== '' && model !== 'host-model' && model !== 'host-passthrough') out[`cpu-model.node.kubevirt.io/${model}`] = 'true';
  const machineType = str(obj(domain['machine'])?.['type']);
  if (machineType !== '') out[`machine-type.node.kubevirt.io/${machineType}`] = 'true';
  for (const f of list(cpu?.['features']))
    if (str(f['policy']) === '' || f['policy'] === 'require') out[`cpu-feature.node.kubevirt.io/${str(f['name'])}`] = 'true';
  if (isSet(cpu?.['realtime'])) out['kubevirt.io/realtime'] = 'true';
  const ls = obj(domain['launchSecurity']);
  if (isSet(ls?.['sev'])) out['kubevirt.io/sev'] = 'true';
  if (isSet(ls?.['tdx'])) out['kubevirt.io/tdx'] = 'true';
  if (ls && arch === 's390x') out['kubevirt.io/s390-pv'] = 'true';
  if (tscFrequency !== undefined) out[`scheduling.node.kubevirt.io/tsc-frequency-${tscFrequency}`] = 'true';
  return out;
}

/** modifyNodeAffintyToRejectLabel: the label must not exist on the node, in every required term. */
export function rejectLabel(affinity: JsonObject | undefined, label: string): JsonObject {
  const out: JsonObject = affinity ? structuredClone(affinity) : {};
  const requirement = { key: label, operator: 'DoesNotExist' };
  const node = obj(out['nodeAffinity']);
  if (!node) {
    out['nodeAffinity'] = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [requirement] }] } };
    return out;
  }
  const required = obj(node['requiredDuringSchedulingIgnoredDuringExecution']);
  if (!required) node['requiredDuringSchedulingIgnoredDuringExecution'] = { nodeSelectorTerms: [{ matchExpressions: [requirement] }] };
  else
    for (const term of list(required['nodeSelectorTerms']))
      term['matchExpressions'] = [...(Array.isArray(term['matchExpressions']) ? term['matchExpressions'] : []), requirement];
  return out;
}

/**
 * The TSC frequency hint (pkg/virt-controller/watch/topology): a VMI with the invtsc CPU feature or
 * Hyper-V reenlightenment on amd64 is pinned to nodes of the cluster's lowest TSC frequency, from
 * `minimumClusterTSCFrequency` or the schedulable Node objects given.
 */
export function tscHint(spec: JsonObject, config: ClusterDefaults, cluster: readonly JsonObject[]): { frequency?: number; note?: string } {
  const domain = obj(spec['domain']) ?? {};
  const invtsc = list(obj(domain['cpu'])?.['features']).some((f) => f['name'] === 'invtsc');
  const reenlightenment = obj(obj(obj(domain['features'])?.['hyperv'])?.['reenlightenment'])?.['enabled'] === true;
  if (!(invtsc || reenlightenment) || spec['architecture'] !== 'amd64') return {};
  if (config.minimumClusterTSCFrequency !== undefined && config.minimumClusterTSCFrequency > 0) return { frequency: config.minimumClusterTSCFrequency };
  let lowest = 0;
  let first = true;
  for (const node of cluster) {
    if (node['kind'] !== 'Node') continue;
    const labels = obj(obj(node['metadata'])?.['labels']) ?? {};
    const freq = Number(str(labels['cpu-timer.node.kubevirt.io/tsc-frequency']) || '0');
    if (!(Number.isSafeInteger(freq) && freq > 0) || labels['kubevirt.io/schedulable'] !== 'true') continue;
    if (first || freq < lowest) lowest = freq;
    first = false;
  }
  if (lowest > 0) return { frequency: lowest };
  return {
    note: `the VMI needs the cluster's lowest TSC frequency (${invtsc ? 'the invtsc CPU feature' : 'Hyper-V reenlightenment'}): KubeVirt adds the node selector scheduling.node.kubevirt.io/tsc-frequency-<Hz> from the nodes' cpu-timer.node.kubevirt.io/tsc-frequency labels; give the Node objects (--with) or minimumClusterTSCFrequency in --kubevirt`,
  };
}

/**
 * backendstorage.getStorageClass, which the VMI controller runs before the render for a VMI whose
 * TPM or EFI state is persistent: `vmStateStorageClass`, else a StorageClass marked KubeVirt's or
 * Kubernetes' default; none is the render's error. Without the cluster's StorageClasses (none given,
 * and `given` not saying the cluster has none), a default one is assumed, as most clusters have:
 * `assumed` says so. Undefined when the VMI needs no backend storage.
 */
export function backendStorage(
  vmiSpec: JsonObject,
  config: ClusterDefaults,
  cluster: readonly JsonObject[],
  given = false,
): { readonly error?: string; readonly assumed?: true } | undefined {
  const domain = obj(vmiSpec['domain']) ?? {};
  const persistentTpm = obj(obj(domain['devices'])?.['tpm'])?.['persistent'] === true;
  const persistentEfi = obj(obj(obj(domain['firmware'])?.['bootloader'])?.['efi'])?.['persistent'] === true;
  if (!persistentTpm && !persistentEfi) return undefined;
  if (config.vmStateStorageClass !== undefined) return {};
  const classes = cluster.filter((o) => o['kind'] === 'StorageClass');
  if (!given && classes.length === 0) return { assumed: true };
  const isDefault = (o: JsonObject): boolean => {
    const a = obj(obj(o['metadata'])?.['annotations']) ?? {};
    return a['storageclass.kubevirt.io/is-default-virt-class'] === 'true' || a['storageclass.kubernetes.io/is-default-class'] === 'true';
  };
  return classes.some(isDefault) ? {} : { error: 'no default storage class found' };
}

/**
 * multus.NetworkToResource, which the render runs unless ExternalNetResourceInjection is on (on by
 * default from v1.9, releases.ts): every Multus network's NetworkAttachmentDefinition
 * (`name` in the VMI's namespace, or `namespace/name`) must exist, or KubeVirt's words. Judged when
 * the definitions are known: `given`, or any is among `cluster`.
 */
export function missingAttachmentDefinition(
  spec: JsonObject,
  config: ClusterDefaults,
  cluster: readonly JsonObject[],
  namespace: string,
  given: boolean,
): string | undefined {
  if (gateEnabled(config, 'ExternalNetResourceInjection')) return undefined;
  const nads = cluster.filter((o) => o['kind'] === 'NetworkAttachmentDefinition');
  if (!given && nads.length === 0) return undefined;
  for (const n of list(spec['networks'])) {
    const full = str(obj(n['multus'])?.['networkName']);
    if (full === '') continue;
    const [ns, name] = full.includes('/') ? [full.slice(0, full.indexOf('/')), full.slice(full.indexOf('/') + 1)] : [namespace, full];
    if (!nads.some((o) => obj(o['metadata'])?.['name'] === name && (str(obj(o['metadata'])?.['namespace']) || namespace) === ns))
      return `failed to locate network attachment definition ${ns}/${name}`;
  }
  return undefined;
}
