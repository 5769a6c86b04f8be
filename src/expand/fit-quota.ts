/**
 * The namespace's ResourceQuotas in `itgen fit`: how many more VMs of an instance type a namespace's
 * quotas admit (kubevirt/quota.ts, held to kube-apiserver's ResourceQuota admission), beside how many
 * the nodes take, and which of the two binds.
 */
import { obj, type JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { AAQ_CALCULATORS, aaqUsage, quotaRoom, quotaState, type AaqCalculator, type QuotaState } from '../kubevirt/quota';
import { previewVm } from './judge';
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
  /** How many more its ApplicationAwareResourceQuotas admit (with AAQ enabled), as AAQ counts a VM, and what gates the next. */
  readonly aaq?: { readonly namespace: string; readonly calculator: AaqCalculator; readonly more: number; readonly message?: string };
  /** What limits the count: the nodes, the namespace's quota, or Application-Aware Quota. */
  readonly binding?: 'nodes' | 'quota' | 'aaq';
}

/** The namespaces' quotas a run counts: ResourceQuotas, and ApplicationAwareResourceQuotas with the calculator AAQ uses. */
export interface Quotas {
  readonly resource: Map<string, QuotaState[]>;
  readonly aaq?: { readonly calculator: AaqCalculator; readonly byNamespace: Map<string, QuotaState[]> };
}

/**
 * The quotas among the objects given: ResourceQuotas; and, where an AAQ CR (or a HyperConverged CR
 * with `enableApplicationAwareQuota`) enables Application-Aware Quota, the ApplicationAwareResourceQuotas
 * and the calculator it counts VMs with (AAQ's default VmiPodUsage; HyperConverged's default
 * DedicatedVirtualResources).
 */
export function quotasOf(store: ObjectStore): Quotas {
  const group = (kind: string): Map<string, QuotaState[]> => {
    const out = new Map<string, QuotaState[]>();
    for (const o of store.cluster ?? []) {
      if (o['kind'] !== kind) continue;
      const ns = String(obj(o['metadata'])?.['namespace'] ?? 'default');
      out.set(ns, [...(out.get(ns) ?? []), quotaState(o)]);
    }
    return out;
  };
  const named = (v: unknown, fallback: AaqCalculator): AaqCalculator => ((AAQ_CALCULATORS as readonly unknown[]).includes(v) ? (v as AaqCalculator) : fallback);
  let calculator: AaqCalculator | undefined;
  for (const o of store.cluster ?? []) {
    const spec = obj(o['spec']);
    if (o['kind'] === 'AAQ') calculator = named(obj(obj(spec?.['configuration'])?.['vmiCalculatorConfiguration'])?.['configName'], 'VmiPodUsage');
    else if (o['kind'] === 'HyperConverged' && spec?.['enableApplicationAwareQuota'] === true)
      calculator = named(obj(spec['applicationAwareConfig'])?.['vmiCalcConfigName'], 'DedicatedVirtualResources');
  }
  return { resource: group('ResourceQuota'), ...(calculator ? { aaq: { calculator, byNamespace: group('ApplicationAwareResourceQuota') } } : {}) };
}

/** The VM a capacity row asks about: one of the instance type alone, with a container disk, in `namespace`. */
export function capacityVm(name: string, kind: string, architecture: string | undefined, namespace: string): JsonObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: 'capacity', namespace },
    spec: {
      runStrategy: 'Always',
      instancetype: { name, kind },
      template: {
        spec: {
          ...(architecture !== undefined ? { architecture } : {}),
          domain: { devices: {} },
          volumes: [{ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }],
        },
      },
    },
  };
}

/**
 * How many more VMs of a row's instance type the namespace's quotas admit (kubevirt/quota.ts's
 * `quotaRoom`: the room each quota has left, then the refusal after it), and which of nodes or quota binds.
 */
export function withQuota<T extends CapacityRow>(t: T, quotas: Quotas, namespace: string, cluster: ObjectStore, config: ClusterDefaults): T & QuotaFields {
  const resource = quotas.resource.get(namespace) ?? [];
  const arqs = quotas.aaq?.byNamespace.get(namespace) ?? [];
  if ((resource.length === 0 && arqs.length === 0) || t.refused !== undefined) return t;
  const vm = capacityVm(t.name, t.kind, t.architecture, namespace);
  const r = previewVm(vm, cluster, config, namespace);
  if ('error' in r) return t;
  const pod = { ...r.pod, metadata: { ...(obj(r.pod['metadata']) ?? {}), name: 'virt-launcher-capacity', namespace } };
  const room = resource.length > 0 ? quotaRoom(pod, resource) : {};
  const aaqRoom = quotas.aaq && arqs.length > 0 ? quotaRoom(pod, arqs, { usage: aaqUsage(pod, r.vmi, quotas.aaq.calculator) }) : {};
  const fields: { quota?: NonNullable<QuotaFields['quota']>; aaq?: NonNullable<QuotaFields['aaq']> } = {
    ...(room.more !== undefined ? { quota: { namespace, more: room.more, ...(room.message !== undefined ? { message: room.message } : {}) } } : {}),
    ...(aaqRoom.more !== undefined && quotas.aaq
      ? { aaq: { namespace, calculator: quotas.aaq.calculator, more: aaqRoom.more, ...(aaqRoom.message !== undefined ? { message: aaqRoom.message } : {}) } }
      : {}),
  };
  if (!fields.quota && !fields.aaq) return t;
  const least = Math.min(fields.quota?.more ?? Infinity, fields.aaq?.more ?? Infinity);
  const binding: QuotaFields['binding'] = least >= t.total ? 'nodes' : fields.quota && fields.quota.more === least ? 'quota' : 'aaq';
  return { ...t, ...fields, binding };
}

/** A row's quota lines: `the quota of NS admits N more (the quota binds, not the nodes): then <the refusal>`, and AAQ's. */
export function quotaText(t: QuotaFields): string {
  const lines: string[] = [];
  if (t.quota)
    lines.push(
      `the quota of ${t.quota.namespace} admits ${t.quota.more} more${t.binding === 'quota' ? ' (the quota binds, not the nodes)' : ''}${t.quota.message ? `: then ${t.quota.message}` : ''}`,
    );
  if (t.aaq)
    lines.push(
      `Application-Aware Quota (${t.aaq.calculator}) of ${t.aaq.namespace} admits ${t.aaq.more} more${t.binding === 'aaq' ? ' (it binds, not the nodes)' : ''}${t.aaq.message ? `: then the next is gated: ${t.aaq.message.replace(/^pods "[^"]*" is forbidden: /, '')}` : ''}`,
    );
  return lines.join('\n  ');
}
