/**
 * The namespace's ResourceQuotas in `itgen fit`: how many more VMs of an instance type a namespace's
 * quotas admit (kubevirt/quota.ts, held to kube-apiserver's ResourceQuota admission), beside how many
 * the nodes take, and which of the two binds.
 */
import { obj, type JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { quotaRoom, quotaState, type QuotaState } from '../kubevirt/quota';
import { previewVm } from './preview';
import type { ObjectStore } from './references';

/** What a capacity row needs for its quota: the instance type, the architecture asked for, the nodes' count. */
interface CapacityRow {
  readonly name: string;
  readonly kind: string;
  readonly architecture?: string;
  readonly total: number;
  readonly refused?: string;
}

export interface QuotaFields {
  /** How many more the namespace's quotas admit (with ResourceQuotas given), and the words of the refusal after them. */
  readonly quota?: { readonly namespace: string; readonly more: number; readonly message?: string };
  /** What limits the count: the nodes, or the namespace's quota. */
  readonly binding?: 'nodes' | 'quota';
}

/** The ResourceQuotas of the objects given, by namespace, as quota admission reads them. */
export function quotasByNamespace(store: ObjectStore): Map<string, QuotaState[]> {
  const out = new Map<string, QuotaState[]>();
  for (const o of store.cluster ?? []) {
    if (o['kind'] !== 'ResourceQuota') continue;
    const ns = String(obj(o['metadata'])?.['namespace'] ?? 'default');
    out.set(ns, [...(out.get(ns) ?? []), quotaState(o)]);
  }
  return out;
}

/**
 * How many more VMs of a row's instance type the namespace's quotas admit (kubevirt/quota.ts's
 * `quotaRoom`: the room each quota has left, then the refusal after it), and which of nodes or quota binds.
 */
export function withQuota<T extends CapacityRow>(
  t: T,
  quotas: readonly QuotaState[] | undefined,
  namespace: string,
  cluster: ObjectStore,
  config: ClusterDefaults,
): T & QuotaFields {
  if (!quotas || quotas.length === 0 || t.refused !== undefined) return t;
  const vm: JsonObject = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: 'capacity', namespace },
    spec: {
      runStrategy: 'Always',
      instancetype: { name: t.name, kind: t.kind },
      template: {
        spec: {
          ...(t.architecture !== undefined ? { architecture: t.architecture } : {}),
          domain: { devices: {} },
          volumes: [{ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }],
        },
      },
    },
  };
  const r = previewVm(vm, cluster, config, namespace);
  if ('error' in r) return t;
  const pod = { ...r.pod, metadata: { ...(obj(r.pod['metadata']) ?? {}), name: 'virt-launcher-capacity', namespace } };
  const room = quotaRoom(pod, quotas);
  if (room.more === undefined) return t;
  const more = room.more;
  const message = room.message;
  return { ...t, quota: { namespace, more, ...(message !== undefined ? { message } : {}) }, binding: more < t.total ? 'quota' : 'nodes' };
}

/** A row's quota line: `the quota of NS admits N more (the quota binds, not the nodes): then <the refusal>`. */
export function quotaText(t: QuotaFields): string {
  if (!t.quota) return '';
  return `the quota of ${t.quota.namespace} admits ${t.quota.more} more${t.binding === 'quota' ? ' (the quota binds, not the nodes)' : ''}${t.quota.message ? `: then ${t.quota.message}` : ''}`;
}
