/**
 * kube-scheduler's filters on one node and its words: the default profile's filters in order
 * (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit), each rejection's reasons,
 * how many more such pods a node takes, and the summary a pod that fits nowhere gets (`0/5 nodes
 * are available: ...`).
 */
import { list, str, type JsonObject } from '../json';
import {
  type ResourceMap,
  isScalar,
  type Taint,
  tolerates,
  requirementMatches,
  type NodeFit,
  type FitResult,
  REASON,
  type PodInfo,
  podInfo,
  type NodeState,
  nodeStates,
  type Shortfall,
  RESOURCE_ORDER,
} from './scheduler';

/**
 * The filters on one node, in the default profile's order; the first that rejects it gives its
 * reasons. With `count`, how many such pods the node takes.
 */
export function filterNode(p: PodInfo, n: NodeState, count = true, details: boolean | 'data' = true): NodeFit {
  return placementVerdict(p, n, details !== false) ?? resourceVerdict(p, n, count, details);
}

/**
 * The filters before NodeResourcesFit (the PreFilter's verdicts, NodeUnschedulable,
 * TaintToleration,
 * NodeAffinity): what depends only on the pod's tolerations and affinity and the node's labels,
 * taints and cordon, never on what runs there. Undefined when they all pass.
 */
export function placementVerdict(p: PodInfo, n: NodeState, details = true): NodeFit | undefined {
  const name = n.name;
  if (p.conflict) return rejected(name, 'NodeAffinity', [REASON.conflict]);
  if (p.prefilterNames && !p.prefilterNames.has(name))
    return rejected(name, 'NodeAffinity', [REASON.notInPrefilter], details ? [`the pod's affinity names other nodes`] : undefined);
  if (n.unschedulable && !p.tolerations.some((t) => tolerates(t, UNSCHEDULABLE_TAINT)))
    return rejected(name, 'NodeUnschedulable', [REASON.unschedulable], details ? ['spec.unschedulable: cordoned'] : undefined);
  for (const t of n.taints)
    if ((t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !p.tolerations.some((tol) => tolerates(tol, t)))
      return rejected(name, 'TaintToleration', [REASON.untolerated], details ? untoleratedTaints(p, n).map(taintText) : undefined);
  if (!p.skipAffinity && !affinityMatches(p, n)) return rejected(name, 'NodeAffinity', [REASON.affinity], details ? affinityDetails(p, n) : undefined);
  return undefined;
}

/** NodeResourcesFit on a node the other filters pass: what the node has free against what the pod requests. */
export function resourceVerdict(p: PodInfo, n: NodeState, count = true, details: boolean | 'data' = true): NodeFit {
  const name = n.name;
  const allowedPods = n.allocatable.get('pods') ?? 0n;
  const reasons = fitsRequest(p.checked, n, BigInt(n.pods), allowedPods);
  if (reasons.length > 0) {
    if (details === 'data') return { name, fits: false, plugin: 'NodeResourcesFit', reasons, short: shortfalls(p, n, reasons, allowedPods) };
    return rejected(name, 'NodeResourcesFit', reasons, details ? resourceDetails(p, n, reasons, allowedPods) : undefined);
  }
  return count ? { name, fits: true, reasons: [], count: howMany(p.requests, n, allowedPods, BigInt(n.pods)) } : { name, fits: true, reasons: [] };
}

export const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', value: '', effect: 'NoSchedule' };

export function rejected(name: string, plugin: string, reasons: string[], details?: string[]): NodeFit {
  return details && details.length > 0 ? { name, fits: false, plugin, reasons, details } : { name, fits: false, plugin, reasons };
}

/** What the node has free of a resource: allocatable less what its pods request. */
export function freeOf(n: NodeState, k: string): bigint {
  return (n.allocatable.get(k) ?? 0n) - (n.requested.get(k) ?? 0n);
}

export function untoleratedTaints(p: PodInfo, n: NodeState): Taint[] {
  return n.taints.filter((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !p.tolerations.some((tol) => tolerates(tol, t)));
}

export function shortfalls(p: PodInfo, n: NodeState, reasons: readonly string[], allowedPods: bigint): Shortfall[] {
  return reasons.map((r) => {
    if (r === 'Too many pods')
      return { resource: 'pods', needs: 1n, free: allowedPods - BigInt(n.pods) < 0n ? 0n : allowedPods - BigInt(n.pods), allocatable: allowedPods };
    const k = r.slice('Insufficient '.length);
    const f = freeOf(n, k);
    return { resource: k, needs: p.requests.get(k) ?? 0n, free: f < 0n ? 0n : f, allocatable: n.allocatable.get(k) ?? 0n };
  });
}

/** Each resource short: what the pod needs, what the node has free of its allocatable, and by how much it falls short. */
export function resourceDetails(p: PodInfo, n: NodeState, reasons: readonly string[], allowedPods: bigint): string[] {
  return reasons.map((r) => {
    if (r === 'Too many pods') return `pods: ${n.pods} of ${allowedPods} already`;
    const k = r.slice('Insufficient '.length);
    const want = p.requests.get(k) ?? 0n;
    const f = freeOf(n, k) < 0n ? 0n : freeOf(n, k);
    return `${k}: needs ${resourceText(k, want)}, ${resourceText(k, f)} free of ${resourceText(k, n.allocatable.get(k) ?? 0n)} (short by ${resourceText(k, want - f)})`;
  });
}

/** A taint as kubectl writes it: `key=value:Effect`. */
export function taintText(t: Taint): string {
  return `${t.key}${t.value !== '' ? `=${t.value}` : ''}:${t.effect}`;
}

/** The labels a node lacks for the pod's selector, and each required term's first requirement it fails. */
export function affinityDetails(p: PodInfo, n: NodeState): string[] {
  const label = (k: string): string | undefined => (typeof n.labels[k] === 'string' ? (n.labels[k] as string) : undefined);
  const has = (k: string): string => (label(k) === undefined ? `the node has no ${k}` : `the node has ${k}=${label(k)}`);
  const out: string[] = [];
  for (const [k, v] of Object.entries(p.nodeSelector ?? {})) if (label(k) !== v) out.push(`label ${k}=${String(v)} wanted, ${has(k)}`);
  if (out.length === 0 && p.terms && p.terms.length > 0)
    for (const t of p.terms) {
      const failed = list(t['matchExpressions']).find((r) => !requirementMatches(r, label));
      if (failed) {
        const values = Array.isArray(failed['values']) ? failed['values'].map(String) : [];
        out.push(`${str(failed['key'])} ${str(failed['operator'])}${values.length > 0 ? ` (${values.join(', ')})` : ''} wanted, ${has(str(failed['key']))}`);
      }
    }
  return out;
}

/** A resource amount as people write it: cores or millicores, bytes in the largest binary unit that divides them. */
export function resourceText(name: string, v: bigint): string {
  if (name === 'cpu') return v % 1000n === 0n ? String(v / 1000n) : `${v}m`;
  if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-'))
    for (const [unit, size] of [
      ['Ti', 1n << 40n],
      ['Gi', 1n << 30n],
      ['Mi', 1n << 20n],
      ['Ki', 1n << 10n],
    ] as const)
      if (v >= size && v % size === 0n) return `${v / size}${unit}`;
  for (const [unit, size] of [
    ['T', 10n ** 12n],
    ['G', 10n ** 9n],
    ['M', 10n ** 6n],
    ['k', 10n ** 3n],
  ] as const)
    if (v >= size && v % size === 0n) return `${v / size}${unit}`;
  return String(v);
}

/** The pod's nodeSelector and required node affinity against the node's labels (and its name for matchFields). */
export function affinityMatches(p: PodInfo, n: NodeState): boolean {
  for (const [k, v] of p.selector) if (n.labels[k] !== v) return false;
  return !p.terms || p.terms.length === 0 || p.terms.some((t) => termMatches(t, n));
}

/** A NodeSelectorTerm: every expression and field requirement holds (an empty term matches nothing). */
export function termMatches(t: JsonObject, n: NodeState): boolean {
  const label = (k: string): string | undefined => (typeof n.labels[k] === 'string' ? (n.labels[k] as string) : undefined);
  const field = (k: string): string | undefined => (k === 'metadata.name' ? n.name : undefined);
  return (
    (list(t['matchExpressions']).length > 0 || list(t['matchFields']).length > 0) &&
    list(t['matchExpressions']).every((r) => requirementMatches(r, label)) &&
    list(t['matchFields']).every((r) => requirementMatches(r, field))
  );
}

/** Whether `pod` fits each of `nodes`, given the pods already placed on them. */
export function fitPod(pod: JsonObject, nodes: readonly JsonObject[], placed: readonly JsonObject[] = [], details: boolean | 'data' = true): FitResult {
  const p = podInfo(pod);
  const results = cachedStates(nodes, placed).map((n) => filterNode(p, n, true, details));
  const schedulable = results.some((r) => r.fits);
  return {
    requests: p.requests,
    nodes: results,
    schedulable,
    ...(schedulable ? {} : { message: fitErrorMessage(results, p.conflict ? REASON.conflict : undefined) }),
  };
}

/**
 * The node states for a node list and a pod list, computed once per pair of lists: a capacity table
 * asks for every instance type against the same thousands of pods. fitPod never changes them.
 */
export const stateCache = new WeakMap<readonly JsonObject[], WeakMap<readonly JsonObject[], NodeState[]>>();

export function cachedStates(nodes: readonly JsonObject[], placed: readonly JsonObject[]): NodeState[] {
  let byPods = stateCache.get(nodes);
  if (!byPods) stateCache.set(nodes, (byPods = new WeakMap()));
  let states = byPods.get(placed);
  if (!states) byPods.set(placed, (states = nodeStates(nodes, placed)));
  return states;
}

/** noderesources fitsRequest: the pod count, then the checked resources against what the node has free. */
export function fitsRequest(checked: readonly (readonly [string, bigint])[], n: NodeState, podCount: bigint, allowedPods: bigint): string[] {
  const reasons: string[] = [];
  if (podCount + 1n > allowedPods) reasons.push('Too many pods');
  for (const [k, want] of checked) if (want > freeOf(n, k)) reasons.push(`Insufficient ${k}`);
  return reasons;
}

/** How many such pods still fit on a node that takes one: the scarcest of its resources and pod slots. */
export function howMany(requests: ResourceMap, node: NodeState, allowedPods: bigint, podCount: bigint): number {
  let n = allowedPods - podCount;
  for (const [k, want] of requests) {
    if (want <= 0n || !(RESOURCE_ORDER.includes(k) || isScalar(k))) continue;
    const f = freeOf(node, k) / want;
    if (f < n) n = f;
  }
  return Number(n < 0n ? 0n : n);
}

/** FitError.Error(): `0/N nodes are available: <count reason>, ... .` (reasons sorted as text). */
export function fitErrorMessage(results: readonly NodeFit[], preFilter?: string): string {
  if (results.length === 0) return 'no nodes available to schedule pods';
  const head = `0/${results.length} nodes are available:`;
  if (preFilter !== undefined) return `${head} ${preFilter}.`;
  const counts = new Map<string, number>();
  for (const r of results) for (const reason of r.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return parts.length > 0 ? `${head} ${parts.join(', ')}.` : head;
}
