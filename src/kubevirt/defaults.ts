/**
 * The defaults expansion adds: a disk for every volume and the default pod network first (R 0.2
 * steps 3-4), then SetDefaultVirtualMachineInstanceSpec after the instancetype and preference
 * (R 6.1, pkg/defaults/defaults.go), with the cluster configuration given.
 */
import { list, obj, type JsonObject } from '../json';
import { canonicalQuantity, parseMilli, quantityCeil } from '../quantity';
import type { ClusterDefaults } from './config';
import { child, isSet, nonEmpty, nonZero } from './go';

/** util.SetDefaultVolumeDisk: a volume without a disk or filesystem of its name gets `{name}`. */
export function setDefaultVolumeDisks(spec: JsonObject): void {
  const volumes = list(spec['volumes']);
  if (volumes.length === 0) return;
  const devices = child(child(spec, 'domain'), 'devices');
  const named = new Set([...list(devices['disks']), ...list(devices['filesystems'])].map((d) => d['name']));
  const added = volumes.filter((v) => !named.has(v['name'])).map((v) => ({ name: v['name']! }));
  if (added.length > 0) devices['disks'] = [...list(devices['disks']), ...added];
}

/** vmispec.SetDefaultNetworkInterface: no networks and no interfaces get the pod network, unless autoattachPodInterface is false. */
export function setDefaultNetworkInterface(spec: JsonObject, cluster: ClusterDefaults): void {
  const devices = obj(obj(spec['domain'])?.['devices']);
  if (devices?.['autoattachPodInterface'] === false) return;
  if (list(spec['networks']).length > 0 || list(devices?.['interfaces']).length > 0) return;
  child(child(spec, 'domain'), 'devices')['interfaces'] = [{ name: 'default', [cluster.podBinding]: {} }];
  spec['networks'] = [{ name: 'default', pod: {} }];
}

const MACHINE_TYPES: Readonly<Record<string, string>> = { amd64: 'q35', arm64: 'virt', s390x: 's390-ccw-virtio' };

/** ClusterConfig.GetMachineType: the cluster's machine type, else its architecture's, else KubeVirt's default for it. */
export function clusterMachineType(cluster: ClusterDefaults, arch: string): string | undefined {
  // An own key only: an architecture named `constructor` has no machine type.
  const own = (m: Readonly<Record<string, string>> | undefined): string | undefined => (m && Object.hasOwn(m, arch) ? m[arch] : undefined);
  return cluster.machineType ?? own(cluster.machineTypes) ?? own(MACHINE_TYPES);
}

/** R 6.1, in KubeVirt's order. */
export function setDefaultInstanceSpec(spec: JsonObject, cluster: ClusterDefaults): void {
  if (!nonEmpty(spec['architecture'])) spec['architecture'] = cluster.architecture;
  const domain = child(spec, 'domain');
  const machine = child(domain, 'machine');
  const machineType = clusterMachineType(cluster, String(spec['architecture']));
  if (!nonEmpty(machine['type']) && machineType !== undefined) machine['type'] = machineType;
  // Go's Resources is a struct, not a pointer: it is always there, `{}` when empty.
  const resources = child(domain, 'resources');
  const limits = obj(resources['limits']);
  const requests = obj(resources['requests']);
  if (isSet(limits?.['cpu']) && !isSet(requests?.['cpu'])) child(resources, 'requests')['cpu'] = limits!['cpu']!;
  // setDefaultResourceRequests: a cluster CPU request other than KubeVirt's 100m goes to every VMI
  // without one, but those with dedicated CPUs.
  const cpuRequest = cluster.cpuRequest;
  if (cpuRequest !== undefined && parseMilli(cpuRequest) !== 100 && !Object.hasOwn(obj(resources['requests']) ?? {}, 'cpu')) {
    if (obj(domain['cpu'])?.['dedicatedCpuPlacement'] !== true) child(resources, 'requests')['cpu'] = cpuRequest;
  }
  const memory = child(domain, 'memory');
  if (!isSet(memory['guest'])) {
    const from = [requests?.['memory'], limits?.['memory'], obj(memory['hugepages'])?.['pageSize']].find(
      (q) => (typeof q === 'string' || typeof q === 'number') && canonicalQuantity(q) !== undefined && canonicalQuantity(q) !== '0',
    );
    if (from !== undefined) memory['guest'] = canonicalQuantity(from as string | number)!;
  }
  const cpu = child(domain, 'cpu');
  if (!nonZero(cpu['sockets']) && !nonZero(cpu['cores']) && !nonZero(cpu['threads'])) {
    const limit = obj(resources['limits'])?.['cpu'];
    const request = obj(resources['requests'])?.['cpu'];
    const sockets = isSet(limit) ? quantityCeil(limit as string | number) : isSet(request) ? quantityCeil(request as string | number) : 1;
    Object.assign(cpu, { sockets: sockets ?? 1, cores: 1, threads: 1 });
  }
  for (const volume of list(spec['volumes'])) {
    const disk = obj(volume['containerDisk']);
    if (disk && !nonEmpty(disk['imagePullPolicy'])) {
      const image = typeof disk['image'] === 'string' ? disk['image'] : '';
      disk['imagePullPolicy'] = image.endsWith(':latest') || !/[:@]/.test(image) ? 'Always' : 'IfNotPresent';
    }
  }
  if (!isSet(spec['evictionStrategy'])) spec['evictionStrategy'] = cluster.evictionStrategy;
  setDefaultNetworkInterface(spec, cluster);
  setDefaultVolumeDisks(spec);
}
