/**
 * `itgen fit --together`: a set of VMs placed one after another as kube-scheduler would place their
 * launcher pods (kubevirt/placement-score.ts: the filters, then the default score plugins), each
 * placed pod counted on its node before the next; then what is left per node and the capacity
 * table on what remains.
 */
import type { JsonObject } from '../json';
import { obj } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { hasPodAffinityTerms, placeInOrder } from '../kubevirt/placement-score';
import { aaqUsage, admitToQuotas, type ResourceList } from '../kubevirt/quota';
import { isScalar, nodeStates, type NodeFit, type Shortfall } from '../kubevirt/scheduler';
import { resourceText } from '../kubevirt/scheduler-filters';
import { md } from '../printable';
import { manifestObjects } from './documents';
import { capacity, capacityName, FIT_NOT_MODELLED, NO_PODS_NOTE, withNodes, type CapacityScope, type InstancetypeCapacity } from './fit';
import { quotasOf, quotaText, withQuota, type QuotaFields, type Quotas } from './fit-quota';
import { previewVm } from './judge';
import type { ObjectStore } from './references';
import type { SourceDoc } from '../load/source';

/** Nodes that reject a VM alike, together. */
export interface BlockedNodes {
  readonly nodes: readonly string[];
  readonly plugin: string;
  readonly reasons: readonly string[];
  readonly details?: readonly string[];
}

export interface VmPlacement {
  readonly name: string;
  readonly namespace: string;
  /** The node its launcher pod goes to, or null. */
  readonly node: string | null;
  /** Why no node takes it: the nodes grouped by what blocks them. */
  readonly reasons: readonly BlockedNodes[];
  /** The scheduler's summary when no node fits; KubeVirt's refusal when the VM does not start at all. */
  readonly message?: string;
}

/** What a node has left once the set is placed: the resources the set asked for, and pod slots. */
export interface NodeLeft {
  readonly name: string;
  readonly free: Readonly<Record<string, string>>;
}

/** A capacity row without the per-node repetition: the nodes that take more, and the others grouped by why not. */
export interface CompactCapacity extends QuotaFields {
  readonly name: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly architecture?: string;
  readonly total: number;
  readonly taking: readonly { readonly name: string; readonly count: number }[];
  readonly full: readonly BlockedNodes[];
  readonly never: readonly BlockedNodes[];
  readonly refused?: string;
}

export interface TogetherReport {
  readonly placements: readonly VmPlacement[];
  readonly placed: number;
  readonly total: number;
  readonly remaining: readonly NodeLeft[];
  readonly capacity: readonly CompactCapacity[];
  readonly notes: readonly string[];
}

export interface TogetherInput {
  readonly docs: readonly SourceDoc[];
  readonly store: ObjectStore;
  readonly config: ClusterDefaults;
  readonly nodes: readonly JsonObject[];
  readonly pods: readonly JsonObject[];
  /** Whether running pods were given (without, every node is counted empty, and the report says so). */
  readonly podsGiven: boolean;
  readonly namespace?: string;
  readonly scope?: CapacityScope;
}

export const ORDER_NOTE =
  'placed in the order given (file by file, document by document), each launcher pod counted on its node before the next; every feasible node scored with the default score plugins of kube-scheduler v1.36 and their weights, ties to the first node by name (the scheduler picks among equal scores at random and samples the nodes it scores past 100)';

type Verdict = {
  readonly name: string;
  readonly plugin?: string;
  readonly reasons: readonly string[];
  readonly details?: readonly string[];
  readonly short?: readonly Shortfall[];
};

/**
 * A verdict's grouping key, kept per verdict object (a placement reuses the verdicts of nodes that
 * did not change). Nodes short of the same resources group together whatever the amounts: the group
 * says the range.
 */
const keys = new WeakMap<Verdict, string>();
function keyOf(n: Verdict): string {
  let k = keys.get(n);
  if (k === undefined) keys.set(n, (k = `${n.plugin ?? ''}\u0000${n.reasons.join('\u0001')}\u0000${(n.details ?? []).join('\u0001')}`));
  return k;
}

const range = (k: string, lo: bigint, hi: bigint): string => (lo === hi ? resourceText(k, lo) : `${resourceText(k, lo)} to ${resourceText(k, hi)}`);

/** The shortfalls of a group of nodes as text: `cpu: needs 17, 2 to 12 free of 32 (short by 5 to 15)`. */
function shortText(all: readonly (readonly Shortfall[])[]): string[] {
  const byResource = new Map<string, Shortfall[]>();
  for (const list of all) for (const s of list) byResource.set(s.resource, [...(byResource.get(s.resource) ?? []), s]);
  return [...byResource].map(([k, xs]) => {
    if (k === 'pods') return `pods: ${range('pods', min(xs.map((x) => x.allocatable)), max(xs.map((x) => x.allocatable)))} already`;
    const needs = xs[0]!.needs;
    const free = xs.map((x) => x.free);
    const short = xs.map((x) => needs - x.free);
    const alloc = xs.map((x) => x.allocatable);
    return `${k}: needs ${resourceText(k, needs)}, ${range(k, min(free), max(free))} free of ${range(k, min(alloc), max(alloc))} (short by ${range(k, min(short), max(short))})`;
  });
}
const min = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => (b < a ? b : a));
const max = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a));

function group(nodes: readonly Verdict[]): BlockedNodes[] {
  const groups = new Map<
    string,
    { plugin: string; reasons: readonly string[]; details?: readonly string[]; short: (readonly Shortfall[])[]; nodes: string[] }
  >();
  for (const n of nodes) {
    const key = keyOf(n);
    const g = groups.get(key);
    if (g) {
      g.nodes.push(n.name);
      if (n.short) g.short.push(n.short);
    } else
      groups.set(key, {
        plugin: n.plugin ?? '',
        reasons: n.reasons,
        ...(n.details ? { details: n.details } : {}),
        short: n.short ? [n.short] : [],
        nodes: [n.name],
      });
  }
  return [...groups.values()]
    .sort((a, b) => b.nodes.length - a.nodes.length)
    .map((g) => {
      const details = g.short.length > 0 ? shortText(g.short) : g.details;
      return { nodes: g.nodes, plugin: g.plugin, reasons: g.reasons, ...(details ? { details } : {}) };
    });
}

/** Unplaced VMs of one kind share their nodes' verdicts until a node changes: grouped once. */
const groupedCache = new WeakMap<readonly NodeFit[], BlockedNodes[]>();
function groupedOf(nodes: readonly NodeFit[]): BlockedNodes[] {
  let g = groupedCache.get(nodes);
  if (!g) groupedCache.set(nodes, (g = group(nodes)));
  return g;
}

function compact(t: InstancetypeCapacity): CompactCapacity {
  return {
    name: t.name,
    kind: t.kind,
    ...(t.namespace !== undefined ? { namespace: t.namespace } : {}),
    ...(t.architecture !== undefined ? { architecture: t.architecture } : {}),
    total: t.total,
    taking: t.nodes.filter((n) => n.count > 0).map((n) => ({ name: n.name, count: n.count })),
    full: group(t.nodes.filter((n) => n.count === 0 && !n.never)),
    never: group(t.nodes.filter((n) => n.never)),
    ...(t.refused !== undefined ? { refused: t.refused } : {}),
    ...(t.quota ? { quota: t.quota } : {}),
    ...(t.aaq ? { aaq: t.aaq } : {}),
    ...(t.binding ? { binding: t.binding } : {}),
  };
}

/**
 * The VMs the namespaces' quotas hold back, with why: a launcher pod is admitted (and counts)
 * before
 * it is scheduled, and one the quota refuses never reaches the scheduler; one admitted but not
 * placed
 * still counts. With Application-Aware Quota, an admitted pod that its
 * ApplicationAwareResourceQuotas
 * cannot hold stays gated (Pending, never scheduled) until they can.
 */
function quotaVerdicts(
  vms: readonly { readonly namespace: string; readonly aaq: ResourceList | undefined; readonly r: { pod: JsonObject } | { error: string } }[],
  quotas: Quotas,
): Map<JsonObject, string> {
  const refusedBy = new Map<JsonObject, string>();
  for (const v of vms)
    if ('pod' in v.r) {
      // The API server names the pod before quota admission (generateName plus five random characters).
      const meta = obj(v.r.pod['metadata']) ?? {};
      const name = typeof meta['name'] === 'string' ? meta['name'] : `${String(meta['generateName'] ?? 'virt-launcher-')}xxxxx`;
      const pod = { ...v.r.pod, metadata: { ...meta, name, namespace: v.namespace } };
      const verdict = admitToQuotas(pod, quotas.resource.get(v.namespace) ?? []);
      if (!verdict.allowed) {
        refusedBy.set(v.r.pod, `refused by the namespace's quota: ${verdict.message!}`);
        continue;
      }
      if (quotas.aaq && v.aaq) {
        const gated = admitToQuotas(pod, quotas.aaq.byNamespace.get(v.namespace) ?? [], { usage: v.aaq });
        if (!gated.allowed)
          refusedBy.set(
            v.r.pod,
            `gated by Application-Aware Quota (${quotas.aaq.calculator}), never scheduled while its quota is full: ${gated.message!.replace(/^pods "[^"]*" is forbidden: /, '')}`,
          );
      }
    }
  return refusedBy;
}

/** Places the VMs of `docs` together on the nodes, then the capacity table on what remains. */
export function placeTogether(input: TogetherInput): TogetherReport {
  const cluster = withNodes(input.store, input.nodes);
  const quotas = quotasOf(input.store);
  const vms = manifestObjects(input.docs)
    .filter((f) => f.value['kind'] === 'VirtualMachine')
    .map((f) => {
      const meta = obj(f.value['metadata']) ?? {};
      const namespace = typeof meta['namespace'] === 'string' ? meta['namespace'] : (input.namespace ?? 'default');
      // Only the launcher pod is kept (a VMI of each of thousands of VMs would be held for nothing),
      // and, with Application-Aware Quota, what it counts for the VM (read off the VMI).
      const r = previewVm(f.value, cluster, input.config, namespace);
      const aaq = quotas.aaq && !('error' in r) ? aaqUsage(r.pod, r.vmi, quotas.aaq.calculator) : undefined;
      return { name: String(meta['name'] ?? '(unnamed)'), namespace, aaq, r: 'error' in r ? { error: r.error } : { pod: r.pod } };
    });
  const states = nodeStates(input.nodes, input.pods);
  const refusedBy = quotaVerdicts(vms, quotas);
  const startable = vms.filter((v) => 'pod' in v.r && !refusedBy.has(v.r.pod));
  const pods = startable.map((v) => (v.r as { pod: JsonObject }).pod);
  const placedOf = new Map<JsonObject, ReturnType<typeof placeInOrder>[number]>();
  placeInOrder(pods, states, input.nodes).forEach((p, i) => placedOf.set(pods[i]!, p));
  const placements: VmPlacement[] = vms.map((v) => {
    if ('error' in v.r) return { name: v.name, namespace: v.namespace, node: null, reasons: [], message: `KubeVirt would not start it: ${v.r.error}` };
    const quota = refusedBy.get(v.r.pod);
    if (quota !== undefined) return { name: v.name, namespace: v.namespace, node: null, reasons: [], message: quota };
    const p = placedOf.get(v.r.pod)!;
    if (p.node !== null) return { name: v.name, namespace: v.namespace, node: p.node, reasons: [] };
    return { name: v.name, namespace: v.namespace, node: null, reasons: groupedOf(p.nodes ?? []), ...(p.message ? { message: p.message } : {}) };
  });
  // What is left: the resources the set asked for (cpu, memory, pods and the scalar ones it requested).
  const asked = new Set(['cpu', 'memory']);
  for (const pod of pods)
    for (const c of [...((obj(pod['spec'])?.['containers'] as JsonObject[] | undefined) ?? [])])
      for (const k of Object.keys(obj(obj(c['resources'])?.['requests']) ?? {})) if (isScalar(k)) asked.add(k);
  const remaining: NodeLeft[] = states.map((n) => {
    const free: Record<string, string> = {};
    for (const k of [...asked].sort()) {
      const alloc = n.allocatable.get(k) ?? 0n;
      if (alloc === 0n && k !== 'cpu' && k !== 'memory') continue;
      const left = alloc - (n.requested.get(k) ?? 0n);
      free[k] = resourceText(k, left < 0n ? 0n : left);
    }
    const slots = (n.allocatable.get('pods') ?? 0n) - BigInt(n.pods);
    free['pods'] = String(slots < 0n ? 0n : slots);
    return { name: n.name, free };
  });
  // The capacity table on what remains: the placed launcher pods run on their nodes.
  const placedPods = startable.flatMap((v) => {
    const pod = (v.r as { pod: JsonObject }).pod;
    const node = placedOf.get(pod)!.node;
    return node === null ? [] : [{ ...pod, spec: { ...(obj(pod['spec']) ?? {}), nodeName: node }, status: { phase: 'Running' } }];
  });
  // The capacity on what remains, in the namespace of the set (its quotas as the set left them).
  const namespace = vms.length > 0 && vms.every((v) => v.namespace === vms[0]!.namespace) ? vms[0]!.namespace : (input.namespace ?? 'default');
  const table = capacity(input.store, input.config, input.nodes, [...input.pods, ...placedPods], input.scope, 'data').map((t) =>
    compact(withQuota(t, quotas, namespace, cluster, input.config)),
  );
  const withAffinity = input.pods.filter(hasPodAffinityTerms).length;
  const notes = [
    ORDER_NOTE,
    ...(input.podsGiven ? [] : [NO_PODS_NOTE]),
    ...(withAffinity > 0 ? [`${withAffinity} running pod(s) carry inter-pod affinity terms: InterPodAffinity's scores are not modelled`] : []),
    FIT_NOT_MODELLED,
  ];
  return { placements, placed: placements.filter((p) => p.node !== null).length, total: placements.length, remaining, capacity: table, notes };
}

const SHOWN = 8;
const blockedText = (b: BlockedNodes): string =>
  `${b.nodes.length === 1 ? b.nodes[0]! : `${b.nodes.length} nodes (${b.nodes.slice(0, 3).join(', ')}${b.nodes.length > 3 ? ', ...' : ''})`}: ${b.reasons.join(', ')}${
    b.details && b.details.length > 0 ? ` (${b.details.join('; ')})` : ''
  }`;

/** The placement as text: each VM's node or its blockers, what is left per node, then the capacity on what remains. */
export function togetherText(r: TogetherReport): string {
  const lines = [`${r.placed} of ${r.total} VMs placed`];
  for (const p of r.placements) {
    lines.push(`${p.name}: ${p.node ?? `no node: ${p.message ?? ''}`}`);
    for (const b of p.reasons) lines.push(`  ${blockedText(b)}`);
  }
  lines.push('', 'left per node:');
  for (const n of r.remaining)
    lines.push(
      `  ${n.name}: ${Object.entries(n.free)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  lines.push('', 'how many more fit, after these:');
  for (const t of r.capacity) {
    if (t.refused !== undefined) {
      lines.push(`${capacityName(t)}: KubeVirt would not start it: ${t.refused}`);
      continue;
    }
    const taking = [...t.taking].sort((a, b) => b.count - a.count);
    lines.push(
      `${capacityName(t)}: ${t.total} more${
        taking.length > 0
          ? ` on ${taking.length} node${taking.length === 1 ? '' : 's'} (${taking
              .slice(0, SHOWN)
              .map((n) => `${n.name} ${n.count}`)
              .join(', ')}${taking.length > SHOWN ? ', ...' : ''})`
          : ''
      }`,
    );
    if (t.quota) lines.push(`  ${quotaText(t)}`);
    for (const b of t.full) lines.push(`  full now: ${blockedText(b)}`);
    for (const b of t.never) lines.push(`  never: ${blockedText(b)}`);
  }
  lines.push(`# ${r.notes.join('; ')}`);
  return lines.join('\n');
}

/**
 * The report as JSON, proportional to the answer: a set of nodes that blocks VMs alike is written
 * once, in `nodeSets`, and each group names it by index (`nodeSet`) instead of repeating the node
 * names for every VM and every instance type.
 */
export function togetherJson(r: TogetherReport): string {
  return JSON.stringify(togetherDocument(r), null, 2);
}

/** A group of nodes blocked alike, naming its set of nodes by index into `nodeSets`. */
export interface BlockedNodeSetJson {
  readonly nodeSet: number;
  readonly plugin: string;
  readonly reasons: readonly string[];
  readonly details?: readonly string[];
}

/** `fit --together -o json`: the VMs placed together, what remains, and the capacity left per instance type. */
export interface TogetherJson {
  readonly placements: readonly (Omit<VmPlacement, 'reasons'> & { readonly reasons: readonly BlockedNodeSetJson[] })[];
  readonly placed: number;
  readonly total: number;
  readonly remaining: readonly NodeLeft[];
  readonly capacity: readonly (Omit<CompactCapacity, 'full' | 'never'> & {
    readonly full: readonly BlockedNodeSetJson[];
    readonly never: readonly BlockedNodeSetJson[];
  })[];
  readonly nodeSets: readonly (readonly string[])[];
  readonly notes: readonly string[];
}

export function togetherDocument(r: TogetherReport): TogetherJson {
  const sets: (readonly string[])[] = [];
  const index = new Map<string, number>();
  const ref = (nodes: readonly string[]): number => {
    const key = nodes.join('\u0000');
    let i = index.get(key);
    if (i === undefined) {
      i = sets.length;
      sets.push(nodes);
      index.set(key, i);
    }
    return i;
  };
  const slim = (b: BlockedNodes): BlockedNodeSetJson => ({
    nodeSet: ref(b.nodes),
    plugin: b.plugin,
    reasons: [...b.reasons],
    ...(b.details ? { details: [...b.details] } : {}),
  });
  const placements = r.placements.map((p) => ({ ...p, reasons: p.reasons.map(slim) }));
  const capacity = r.capacity.map((t) => ({ ...t, full: t.full.map(slim), never: t.never.map(slim) }));
  return { placements, placed: r.placed, total: r.total, remaining: r.remaining, capacity, nodeSets: sets, notes: r.notes };
}

const ROWS = 300;

/** The placement as GitHub-flavoured Markdown, every input text a code span. */
export function togetherMarkdown(r: TogetherReport): string {
  const show = (s: string): string => md(s, { max: 80 });
  const rows = [`**${r.placed} of ${r.total} VMs placed**`, '', '| VM | node | why not |', '| --- | --- | --- |'];
  for (const p of r.placements.slice(0, ROWS))
    rows.push(
      `| ${show(p.name)} | ${p.node !== null ? show(p.node) : '**none**'} | ${p.node !== null ? '' : [md(p.message ?? '', { max: 300 }), ...p.reasons.slice(0, 4).map((b) => md(blockedText(b), { max: 300 }))].join('<br>')} |`,
    );
  if (r.placements.length > ROWS) rows.push('', `(${r.placements.length - ROWS} more VMs)`);
  rows.push('', '| instance type | how many more, after these |', '| --- | ---: |');
  for (const t of r.capacity.slice(0, ROWS)) rows.push(`| ${show(capacityName(t))} | ${t.refused !== undefined ? 'not started' : t.total} |`);
  return [...rows, '', `_${r.notes.join('; ')}_`].join('\n');
}
