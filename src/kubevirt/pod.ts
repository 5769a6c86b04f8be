/**
 * The virt-launcher pod KubeVirt renders for a VMI (pkg/virt-controller/services/template.go
 * `renderLaunchManifest`, renderresources.go, nodeselectorrenderer.go, serialconsolelog.go,
 * pkg/container-disk, pkg/hypervisor/kvm `GetMemoryOverhead`): what the scheduler places. itgen
 * renders the part that decides where and whether the pod fits: every container's and init
 * container's name and resources, the node selector, affinity, tolerations, scheduler, priority and
 * runtime class, topology spread, the grace period, labels, owner and the memory overhead
 * annotation. Images, commands, mounts and volumes are left out (they decide nothing about
 * placement). What KubeVirt reads from the running cluster and itgen cannot know offline (a
 * ResourceQuota with memory or CPU limits, NetworkAttachmentDefinitions' device resources, hook
 * sidecars, virtiofs) is said in `notes`.
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { holds } from './releases';
import { add, cmp, fromInt, parseQ, q, qString, scaledKilo, sub, value, ZERO, type Quantity } from '../quantity';
import { dedicated, permittedHostDevicesError, nodeSelector, rejectLabel, tscHint } from './pod-placement';

type Resources = Map<string, Quantity>;

const num = (v: Json | undefined): number => (typeof v === 'number' ? v : 0);

function quantities(o: Json | undefined): Resources {
  const out: Resources = new Map();
  for (const [k, v] of Object.entries(obj(o) ?? {})) {
    const parsed = typeof v === 'string' || typeof v === 'number' ? parseQ(v) : undefined;
    if (parsed) out.set(k, parsed);
  }
  return out;
}

/** A string map with its keys sorted, as encoding/json writes a Go map. */
function sortedMap(m: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k]!;
  return out;
}

function asJson(r: Resources): JsonObject {
  const out: JsonObject = {};
  for (const k of [...r.keys()].sort()) out[k] = qString(r.get(k)!);
  return out;
}

/** hardware.GetNumberOfVCPUs */
function vcpus(cpu: JsonObject | undefined): number {
  if (!cpu) return 1;
  let n = num(cpu['cores']);
  for (const k of ['sockets', 'threads']) if (num(cpu[k]) !== 0) n = n === 0 ? num(cpu[k]) : n * num(cpu[k]);
  return n;
}

/** VirtualMachineInstance.WantsToHaveQOSGuaranteed */
function wantsGuaranteed(spec: JsonObject): boolean {
  const resources = obj(obj(spec['domain'])?.['resources']);
  const requests = quantities(resources?.['requests']);
  const limits = quantities(resources?.['limits']);
  const reqMem = requests.get('memory') ?? ZERO;
  const limMem = limits.get('memory') ?? ZERO;
  const memory = (reqMem.nano === 0n && limMem.nano !== 0n) || (reqMem.nano !== 0n && cmp(reqMem, limMem) === 0);
  const reqCpu = requests.get('cpu') ?? ZERO;
  const cpu = reqCpu.nano !== 0n && cmp(reqCpu, limits.get('cpu') ?? ZERO) === 0;
  return memory && cpu;
}

/** GetSupportContainerRequest / GetSupportContainerLimit: a configured, non-zero quantity. */
function supportResource(config: ClusterDefaults, type: string, side: 'requests' | 'limits', name: string): Quantity | undefined {
  for (const r of config.supportContainerResources ?? []) {
    if (r['type'] !== type) continue;
    const found = quantities(obj(obj(r['resources'])?.[side])).get(name);
    if (found && found.nano !== 0n) return found;
  }
  return undefined;
}

/** The memory overhead of the VMI's pod (KvmHypervisorBackend.GetMemoryOverhead). */
export function memoryOverhead(spec: JsonObject, config: ClusterDefaults): Quantity {
  const domain = obj(spec['domain']) ?? {};
  const devices = obj(domain['devices']) ?? {};
  const request = quantities(obj(domain['resources'])?.['requests']).get('memory') ?? ZERO;
  // Page tables: one bit for every 512 bytes of requested memory.
  let overhead: Quantity = { nano: 0n, format: 'DecimalSI' };
  overhead = add(overhead, fromInt((scaledKilo(request) * 1000n) / 512n, 'DecimalSI'));
  // virt-launcher-monitor, virt-launcher, virtlogd, virtqemud, QEMU.
  for (const fixed of ['25Mi', '100Mi', '25Mi', '40Mi', holds('qemuOverhead50Mi', config.release) ? '50Mi' : '30Mi']) overhead = add(overhead, q(fixed));
  let n = isSet(domain['cpu']) ? vcpus(obj(domain['cpu'])) : 0;
  if (!isSet(domain['cpu'])) {
    const resources = obj(domain['resources']);
    const limit = quantities(resources?.['limits']).get('cpu');
    const req = quantities(resources?.['requests']).get('cpu');
    n = limit ? Number(value(limit)) : req ? Number(value(req)) : 0;
  }
  if (n < 1) n = 1;
  overhead = add(overhead, fromInt(BigInt(8 * 1024 * 1024 * n), 'BinarySI'));
  overhead = add(overhead, q('8Mi'));
  if (devices['autoattachGraphicsDevice'] !== false) overhead = add(overhead, q('32Mi'));
  if (spec['architecture'] === 'arm64') overhead = add(overhead, q('128Mi'));
  const vfio = list(devices['hostDevices']).length > 0 || list(devices['gpus']).length > 0 || list(devices['interfaces']).some((i) => isSet(i['sriov']));
  if (vfio) overhead = add(overhead, q('1Gi'));
  if (list(spec['volumes']).some((v) => isSet(v['downwardMetrics']))) overhead = add(overhead, q('1Mi'));
  const exec = (p: string): boolean => isSet(obj(obj(spec[p])?.['exec']));
  if (exec('livenessProbe')) overhead = add(overhead, q('10Mi'));
  if (exec('readinessProbe')) overhead = add(overhead, q('10Mi'));
  if (exec('livenessProbe') || exec('readinessProbe')) overhead = add(overhead, q('100Mi'));
  const sev = obj(obj(domain['launchSecurity'])?.['sev']);
  if (sev || isSet(obj(domain['launchSecurity'])?.['snp'])) overhead = add(overhead, q('256Mi'));
  const tpm = obj(devices['tpm']);
  if (tpm && (!isSet(tpm['enabled']) || tpm['enabled'] === true)) overhead = add(overhead, q('53Mi'));
  if (dedicated(spec) || wantsGuaranteed(spec)) overhead = add(overhead, q('100Mi'));
  const added = parseQ(str(obj(obj(domain['memory'])?.['reservedOverhead'])?.['addedOverhead']));
  if (added && isSet(obj(obj(domain['memory'])?.['reservedOverhead'])?.['memLock']) && holds('reservedOverheadCounted', config.release))
    overhead = add(overhead, added);
  const ratio = config.additionalGuestMemoryOverheadRatio;
  if (ratio !== undefined && ratio !== '') {
    const r = Number(ratio);
    if (Number.isFinite(r))
      overhead = add(overhead, { nano: BigInt(Math.trunc(Number(scaledKilo(overhead)) * (r - 1))) * 1000n * 1_000_000_000n, format: 'DecimalSI' });
  }
  return overhead;
}

export type PodResult = { readonly pod: JsonObject; readonly memoryOverhead: string; readonly notes: readonly string[] } | { readonly error: string };

/** The compute container's resources (ResourceRenderer with KubeVirt's rules, in its order). */
interface AutoLimits {
  readonly autoMemory: boolean;
  readonly autoCpu: boolean;
  readonly memoryLimitRatio: number;
}

/** Over 80 lines: a transcription of renderresources.go's resource rendering, kept in its order to be read beside it. */
function computeResources(
  vmi: JsonObject,
  spec: JsonObject,
  config: ClusterDefaults,
  overhead: Quantity,
  auto: AutoLimits,
): { limits: Resources; requests: Resources } {
  const domain = obj(spec['domain']) ?? {};
  const devices = obj(domain['devices']) ?? {};
  const resources = obj(domain['resources']);
  const vmLimits = quantities(resources?.['limits']);
  const vmRequests = quantities(resources?.['requests']);
  const calcLimits: Resources = new Map();
  const calcRequests: Resources = new Map();
  // WithEphemeralStorageRequest
  vmRequests.set('ephemeral-storage', add(vmRequests.get('ephemeral-storage') ?? ZERO, q('50M')));
  if (vmLimits.has('ephemeral-storage')) vmLimits.set('ephemeral-storage', add(vmLimits.get('ephemeral-storage')!, q('50M')));
  // WithVirtualizationResources(getRequiredResources)
  const interfaces = list(devices['interfaces']);
  if (interfaces.length > 0 || devices['autoattachPodInterface'] !== false) vmLimits.set('devices.kubevirt.io/tun', q('1'));
  if (interfaces.some((i) => str(i['model']) === '' || i['model'] === 'virtio')) vmLimits.set('devices.kubevirt.io/vhost-net', q('1'));
  vmLimits.set('devices.kubevirt.io/kvm', q('1'));
  if (devices['autoattachVSOCK'] === true) vmLimits.set('devices.kubevirt.io/vhost-vsock', q('1'));
  // WithMemoryRequests, when the VMI requests no memory
  const memory = obj(domain['memory']);
  if (!vmRequests.has('memory') || vmRequests.get('memory')!.nano === 0n) {
    const limit = vmLimits.get('memory');
    if (limit && limit.nano !== 0n) vmRequests.set('memory', limit);
    if (!vmRequests.has('memory')) {
      let guest = parseQ(str(memory?.['guest']));
      if (!guest && isSet(obj(memory?.['hugepages']))) guest = parseQ(str(obj(memory?.['hugepages'])?.['pageSize']));
      if (guest && guest.nano > 0n) {
        const overcommit = config.memoryOvercommit ?? 100;
        vmRequests.set('memory', overcommit === 100 ? guest : fromInt((value(guest) * 100n) / BigInt(overcommit), guest.format));
      }
    }
  }
  const cpu = obj(domain['cpu']);
  const ioThreads = BigInt(num(obj(domain['ioThreads'])?.['supplementalPoolThreadCount']));
  if (dedicated(spec)) {
    // WithCPUPinning
    const n = BigInt(vcpus(cpu));
    if (n !== 0n) {
      vmLimits.set('cpu', fromInt(n + ioThreads, 'BinarySI'));
      vmRequests.set('cpu', fromInt(n + ioThreads, 'BinarySI'));
    } else {
      if (vmLimits.has('cpu')) vmLimits.set('cpu', add(vmLimits.get('cpu')!, fromInt(ioThreads, 'BinarySI')));
      if (vmRequests.has('cpu')) vmRequests.set('cpu', add(vmRequests.get('cpu')!, fromInt(ioThreads, 'BinarySI')));
    }
    if (cpu?.['isolateEmulatorThread'] === true) {
      const limits = vmLimits.get('cpu') ?? ZERO;
      const additional =
        str(domain['ioThreadsPolicy']) === 'supplementalPool' && isSet(obj(domain['ioThreads'])?.['supplementalPoolThreadCount']) ? ioThreads : 0n;
      const parity = Object.hasOwn(obj(obj(vmi['metadata'])?.['annotations']) ?? {}, 'kubevirt.io/emulator-thread-complete-to-even-parity');
      const emulator = fromInt(parity && (value(limits) + additional) % 2n === 0n ? 2n : 1n, 'BinarySI');
      vmLimits.set('cpu', add(limits, emulator));
      if (vmRequests.has('cpu')) vmRequests.set('cpu', add(vmRequests.get('cpu')!, emulator));
    }
    if (vmRequests.has('memory')) vmLimits.set('memory', vmRequests.get('memory')!);
  } else {
    // WithoutDedicatedCPU: vCPUs (and IO threads) over the allocation ratio.
    const total = BigInt(cpu ? vcpus(cpu) : 1) + ioThreads;
    const ratio = BigInt(config.cpuAllocationRatio ?? 10);
    if (total !== 0n && ratio > 0n) {
      const nano = (total * 1_000_000_000n + ratio - 1n) / ratio;
      calcRequests.set('cpu', { nano, format: 'DecimalSI' });
      if (auto.autoCpu) calcLimits.set('cpu', fromInt(total, 'DecimalSI'));
    }
  }
  const hugepages = obj(memory?.['hugepages']);
  if (hugepages) {
    // WithHugePages: the guest memory in hugepages, the overhead (and any request above the guest) in memory.
    const type = `hugepages-${str(hugepages['pageSize'])}`;
    let hp = vmRequests.get('memory') ?? ZERO;
    const guest = parseQ(str(memory?.['guest']));
    if (guest && value(hp) > value(guest)) hp = guest;
    calcRequests.set(type, hp);
    calcLimits.set(type, hp);
    let reqDiff: Quantity = { nano: 0n, format: 'DecimalSI' };
    let limDiff: Quantity = { nano: 0n, format: 'DecimalSI' };
    if (guest) {
      const req = vmRequests.get('memory') ?? ZERO;
      const lim = vmLimits.get('memory') ?? ZERO;
      if (value(req) > value(guest)) reqDiff = sub(add(reqDiff, req), guest);
      if (value(lim) > value(guest)) limDiff = sub(add(limDiff, lim), guest);
    }
    vmRequests.set('memory', add(reqDiff, overhead));
    if (vmLimits.has('memory')) vmLimits.set('memory', add(limDiff, overhead));
  } else {
    // WithMemoryOverhead
    let request = vmRequests.get('memory') ?? { nano: 0n, format: 'DecimalSI' as const };
    if (obj(domain['resources'])?.['overcommitGuestOverhead'] !== true) request = add(request, overhead);
    vmRequests.set('memory', request);
    if (vmLimits.has('memory')) vmLimits.set('memory', add(vmLimits.get('memory')!, overhead));
  }
  // WithAutoMemoryLimits: the request times the namespace's ratio (2 by default).
  if (auto.autoMemory) {
    const request = vmRequests.get('memory') ?? ZERO;
    calcLimits.set('memory', fromInt(BigInt(Math.trunc(Number(value(request)) * auto.memoryLimitRatio)), request.format));
  }
  // Device plugins: each GPU and host device is one of its resource, in limits and requests.
  const bump = (name: string): void => {
    const merged = (side: Resources, calc: Resources): void => {
      calc.set(name, add(calc.get(name) ?? side.get(name) ?? ZERO, fromInt(1n, 'DecimalSI')));
    };
    merged(vmLimits, calcLimits);
    merged(vmRequests, calcRequests);
  };
  for (const g of list(devices['gpus'])) if (str(g['deviceName']) !== '' && !isSet(g['claimRequest'])) bump(str(g['deviceName']));
  for (const h of list(devices['hostDevices'])) if (str(h['deviceName']) !== '' && !isSet(h['claimRequest'])) bump(str(h['deviceName']));
  if (isSet(obj(obj(domain['launchSecurity'])?.['sev']))) bump('devices.kubevirt.io/sev');
  if (isSet(obj(obj(domain['launchSecurity'])?.['tdx']))) bump('devices.kubevirt.io/tdx');
  const limits: Resources = new Map([...calcLimits, ...vmLimits]);
  const requests: Resources = new Map([...calcRequests, ...vmRequests]);
  return { limits, requests };
}

function resourcesJson(limits: Resources, requests: Resources): JsonObject {
  return { limits: asJson(limits), requests: asJson(requests) };
}

/**
 * The virt-launcher pod for a VMI as the API server stored it (kubevirt/vmi.ts), or KubeVirt's
 * render error ("GPU ... is not permitted in permittedHostDevices configuration").
 *
 * Over 80 lines: a transcription of renderLaunchManifest, kept in its order to be read beside template.go.
 */
export function renderLauncherPod(vmi: JsonObject, config: ClusterDefaults, cluster: readonly JsonObject[] = []): PodResult {
  const spec = obj(vmi['spec']) ?? {};
  const meta = obj(vmi['metadata']) ?? {};
  const name = str(meta['name']);
  const notes: string[] = [];
  const permitted = permittedHostDevicesError(spec, config);
  if (permitted) return { error: permitted };
  // The network binding plugins' sidecar creator (pkg/network/netbinding): each plugin an interface
  // names must be registered in the cluster's network configuration. (A registered plugin's sidecar
  // and memory overhead are not modelled.)
  const plugin = list(obj(obj(spec['domain'])?.['devices'])?.['interfaces'])
    .map((i) => obj(i['binding']))
    .find((b) => b !== undefined && !(config.networkBindings ?? []).includes(str(b['name'])));
  if (plugin)
    return {
      error: `couldn't find configuration for network ${holds('bindingPluginWords', config.release) ? 'binding' : 'bindining'}: ${str(plugin['name'])}`,
    };
  const overhead = memoryOverhead(spec, config);
  const domain = obj(spec['domain']) ?? {};
  const devices = obj(domain['devices']) ?? {};
  const namespace = str(meta['namespace']);
  const quotaHard = (resource: string): boolean =>
    cluster.some(
      (o) =>
        o['kind'] === 'ResourceQuota' && str(obj(o['metadata'])?.['namespace']) === namespace && isSet(obj(obj(o['spec'])?.['hard'])?.[`limits.${resource}`]),
    );
  const vmiLimits = obj(obj(obj(spec['domain'])?.['resources'])?.['limits']) ?? {};
  // doesVMIRequireAutoResourceLimits: a ResourceQuota of the namespace with limits.<resource>, and no VMI limit.
  const autoMemory = !Object.hasOwn(vmiLimits, 'memory') && quotaHard('memory');
  const autoCpu = !Object.hasOwn(vmiLimits, 'cpu') && quotaHard('cpu');
  const nsObject = cluster.find((o) => o['kind'] === 'Namespace' && str(obj(o['metadata'])?.['name']) === namespace);
  const ratioLabel = Number(str(obj(obj(nsObject?.['metadata'])?.['labels'])?.['alpha.kubevirt.io/auto-memory-limits-ratio']) || 'x');
  const memoryLimitRatio = Number.isFinite(ratioLabel) && ratioLabel >= 1 ? ratioLabel : 2;
  const compute = computeResources(vmi, spec, config, overhead, { autoMemory, autoCpu, memoryLimitRatio });
  const guaranteed = dedicated(spec) || wantsGuaranteed(spec);
  const supportOr = (type: string, side: 'requests' | 'limits', res: string, dflt: string): Quantity => supportResource(config, type, side, res) ?? q(dflt);
  const containers: JsonObject[] = [{ name: 'compute', resources: resourcesJson(compute.limits, compute.requests) }];
  const initContainers: JsonObject[] = [];
  // Serial console log (an init container that keeps running).
  const consoleLog =
    devices['autoattachSerialConsole'] !== false &&
    (isSet(devices['logSerialConsole']) ? devices['logSerialConsole'] === true : !config.serialConsoleLogDisabled);
  if (consoleLog) {
    const limits: Resources = new Map([
      ['cpu', supportOr('guest-console-log', 'limits', 'cpu', '15m')],
      ['memory', supportOr('guest-console-log', 'limits', 'memory', '60M')],
    ]);
    const requests: Resources = guaranteed
      ? new Map(limits)
      : new Map([
          ['cpu', supportOr('guest-console-log', 'requests', 'cpu', '5m')],
          ['memory', supportOr('guest-console-log', 'requests', 'memory', '35M')],
        ]);
    initContainers.push({ name: 'guest-console-log', resources: resourcesJson(limits, requests) });
  }
  const containerDisks = list(spec['volumes']).filter((v) => isSet(v['containerDisk']));
  const diskResources = (): JsonObject => {
    const limits: Resources = new Map([
      ['cpu', supportOr('container-disk', 'limits', 'cpu', '10m')],
      ['memory', supportOr('container-disk', 'limits', 'memory', '40M')],
    ]);
    const requests: Resources = new Map([
      ['cpu', guaranteed ? limits.get('cpu')! : supportOr('container-disk', 'requests', 'cpu', '1m')],
      ['memory', guaranteed ? limits.get('memory')! : supportOr('container-disk', 'requests', 'memory', '1M')],
      ['ephemeral-storage', q('50M')],
    ]);
    return resourcesJson(limits, requests);
  };
  const imageVolume = gateEnabled(config, 'ImageVolume');
  if (imageVolume) {
    // Container disks are image volumes; an init container per disk resolves the image's digest.
    if (obj(meta['annotations'])?.['kubevirt.io/image-volume-skip-digest-resolution'] !== 'true')
      for (const v of containerDisks) initContainers.push({ name: `volume${str(v['name'])}`, resources: diskResources() });
  } else for (const v of containerDisks) containers.push({ name: `volume${str(v['name'])}`, resources: diskResources() });
  if (containerDisks.length > 0 && !imageVolume) {
    const limits: Resources = new Map([
      ['cpu', supportOr('container-disk', 'limits', 'cpu', guaranteed ? '10m' : '100m')],
      ['memory', supportOr('container-disk', 'limits', 'memory', '40M')],
    ]);
    const requests: Resources = guaranteed
      ? new Map(limits)
      : new Map([
          ['cpu', supportOr('container-disk', 'requests', 'cpu', '10m')],
          ['memory', supportOr('container-disk', 'requests', 'memory', '1M')],
        ]);
    initContainers.push({ name: 'container-disk-binary', resources: resourcesJson(limits, requests) });
    for (const v of containerDisks) initContainers.push({ name: `volume${str(v['name'])}-init`, resources: diskResources() });
  }
  const tsc = tscHint(spec, config, cluster);
  if (tsc.note) notes.push(tsc.note);
  if (list(devices['filesystems']).length > 0) notes.push('virtiofs containers of filesystems are not rendered');
  if (isSet(obj(meta['annotations'])?.['hooks.kubevirt.io/hookSidecars'])) notes.push('hook sidecar containers are not rendered');
  if (list(spec['networks']).some((n) => isSet(n['multus'])))
    notes.push("a Multus network's device resources (from its NetworkAttachmentDefinition) are not added");
  if (!cluster.some((o) => o['kind'] === 'ResourceQuota'))
    notes.push(
      `no ResourceQuota given for namespace ${namespace}: with one that sets limits.memory or limits.cpu, KubeVirt also sets those limits on the compute container`,
    );
  // Affinity: the VMI's, plus a node whose host-model CPU is obsolete rejected, and forbidden CPU features.
  const cpu = obj(domain['cpu']);
  let affinity: JsonObject | undefined = obj(spec['affinity']) ? structuredClone(obj(spec['affinity'])!) : undefined;
  if (!cpu || str(cpu['model']) === '' || cpu['model'] === 'host-model') affinity = rejectLabel(affinity, 'node-labeller.kubevirt.io/obsolete-host-model');
  for (const f of list(cpu?.['features'])) if (f['policy'] === 'forbid') affinity = rejectLabel(affinity, `cpu-feature.node.kubevirt.io/${str(f['name'])}`);
  const grace = (typeof spec['terminationGracePeriodSeconds'] === 'number' ? spec['terminationGracePeriodSeconds'] : 30) + 15 + 15;
  const labels: JsonObject = {
    ...(obj(meta['labels']) ?? {}),
    'kubevirt.io': 'virt-launcher',
    'kubevirt.io/created-by': str(meta['uid']),
    'vm.kubevirt.io/name': str(spec['hostname']) !== '' ? str(spec['hostname']) : name,
    ...(holds('prefixedNames', config.release) ? { 'vmi.kubevirt.io/id': name } : {}),
  };
  const podSpec: JsonObject = {
    containers,
    ...(initContainers.length > 0 ? { initContainers } : {}),
    nodeSelector: sortedMap(nodeSelector(spec, config, tsc.frequency)),
    ...(affinity ? { affinity } : {}),
    ...(isSet(spec['tolerations']) ? { tolerations: structuredClone(spec['tolerations']!) } : {}),
    ...(str(spec['schedulerName']) !== '' ? { schedulerName: str(spec['schedulerName']) } : {}),
    ...(str(spec['priorityClassName']) !== '' ? { priorityClassName: str(spec['priorityClassName']) } : {}),
    ...(isSet(spec['topologySpreadConstraints']) ? { topologySpreadConstraints: structuredClone(spec['topologySpreadConstraints']!) } : {}),
    terminationGracePeriodSeconds: grace,
    ...(config.defaultRuntimeClass !== undefined ? { runtimeClassName: config.defaultRuntimeClass } : {}),
  };
  const pod: JsonObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `virt-launcher-${name}-`,
      labels: sortedMap(labels),
      annotations: holds('memoryOverheadAnnotation', config.release) ? { 'kubevirt.io/memory-overhead-bytes': String(value(overhead)) } : {},
      ownerReferences: [
        { apiVersion: 'kubevirt.io/v1', blockOwnerDeletion: true, controller: true, kind: 'VirtualMachineInstance', name, uid: str(meta['uid']) },
      ],
    },
    spec: podSpec,
  };
  return { pod, memoryOverhead: qString(overhead), notes };
}
