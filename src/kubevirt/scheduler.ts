/**
 * Where a launcher pod fits: kube-scheduler v1.36's filters in its default order, on the
 * pod KubeVirt renders (kubevirt/pod.ts). The pod's effective requests are Kubernetes'
 * (k8s.io/component-helpers resource.PodRequests: containers, restartable init containers as
 * sidecars, the largest init container, overhead; requests defaulted from limits), then per node:
 * NodeUnschedulable, TaintToleration (NoSchedule and NoExecute taints), NodeAffinity (nodeSelector
 * and required node affinity, with the PreFilter's `metadata.name` fields), NodeResourcesFit (the
 * pod count, CPU, memory, ephemeral storage, hugepages and extended resources such as
 * `devices.kubevirt.io/kvm` and GPUs, against allocatable minus the requests of the node's
 * non-terminated pods). The first filter that rejects a node gives its reasons, in the scheduler's
 * words, and `FitError`'s summary when none fits. Not modelled: host ports, volume topology and
 * binding, topology spread, inter-pod affinity, DRA, kubelet's CPU and topology managers.
 */
import { isPlainObject, list, obj, type Json, type JsonObject } from '../json';
import { milliValue, parseQ, value as qValue } from '../quantity';

/** Resources in the scheduler's units: milli-CPU, bytes, counts. */
export type ResourceMap = Map<string, bigint>;

const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

/** A quantity as the scheduler counts it: milli-units for CPU, the value (rounded up) for the rest. */
function amount(name: string, v: Json | undefined): bigint {
  const q = typeof v === 'string' || typeof v === 'number' ? parseQ(v) : undefined;
  if (!q) return 0n;
  if (name === 'cpu') return milliValue(q);
  return qValue(q);
}

/** A container's requests after API defaulting: a resource with a limit and no request requests its limit. */
function containerRequests(c: JsonObject): ResourceMap {
  const resources = obj(c['resources']);
  const out: ResourceMap = new Map();
  for (const [k, v] of Object.entries(obj(resources?.['limits']) ?? {})) out.set(k, amount(k, v));
  for (const [k, v] of Object.entries(obj(resources?.['requests']) ?? {})) out.set(k, amount(k, v));
  return out;
}

const addInto = (a: ResourceMap, b: ResourceMap): void => {
  for (const [k, v] of b) a.set(k, (a.get(k) ?? 0n) + v);
};
const maxInto = (a: ResourceMap, b: ResourceMap): void => {
  for (const [k, v] of b) if (!a.has(k) || v > a.get(k)!) a.set(k, v);
};

/** resource.PodRequests (no pod-level resources): what the pod asks of a node. */
export function podRequests(pod: JsonObject): ResourceMap {
  const spec = obj(pod['spec']) ?? {};
  const reqs: ResourceMap = new Map();
  for (const c of list(spec['containers'])) addInto(reqs, containerRequests(c));
  const sidecars: ResourceMap = new Map();
  const inits: ResourceMap = new Map();
  for (const c of list(spec['initContainers'])) {
    let r = containerRequests(c);
    if (c['restartPolicy'] === 'Always') {
      addInto(reqs, r);
      addInto(sidecars, r);
      r = new Map(sidecars);
    } else {
      const tmp = new Map(r);
      addInto(tmp, sidecars);
      r = tmp;
    }
    maxInto(inits, r);
  }
  maxInto(reqs, inits);
  const overhead = obj(spec['overhead']);
  if (overhead) addInto(reqs, new Map(Object.entries(overhead).map(([k, v]) => [k, amount(k, v)])));
  return reqs;
}

/** IsScalarResourceName: hugepages, extended (domain-prefixed, not kubernetes.io) and prefixed native resources. */
function isScalar(name: string): boolean {
  if (name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')) return true;
  if (name.includes('kubernetes.io/')) return true;
  return (
    name.includes('/') &&
    !name.startsWith('requests.') &&
    /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(name)
  );
}

interface Taint {
  readonly key: string;
  readonly value: string;
  readonly effect: string;
}

/** A toleration tolerates a taint (v1.Toleration.ToleratesTaint, comparison operators off). */
function tolerates(t: JsonObject, taint: Taint): boolean {
  if (str(t['effect']) !== '' && t['effect'] !== taint.effect) return false;
  if (str(t['key']) !== taint.key && !(str(t['key']) === '' && t['operator'] === 'Exists')) return false;
  const op = str(t['operator']) || 'Equal';
  if (op === 'Exists') return true;
  return op === 'Equal' && str(t['value']) === taint.value;
}

/** NodeSelectorRequirement matching (labels or fields). */
function requirementMatches(r: JsonObject, get: (key: string) => string | undefined): boolean {
  const v = get(str(r['key']));
  const values = Array.isArray(r['values']) ? r['values'].map(String) : [];
  switch (r['operator']) {
    case 'In':
      return v !== undefined && values.includes(v);
    case 'NotIn':
      return v === undefined || !values.includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    case 'Gt':
    case 'Lt': {
      if (v === undefined || values.length !== 1 || !/^-?\d+$/.test(v) || !/^-?\d+$/.test(values[0]!)) return false;
      return r['operator'] === 'Gt' ? BigInt(v) > BigInt(values[0]!) : BigInt(v) < BigInt(values[0]!);
    }
    default:
      return false;
  }
}

export interface NodeFit {
  readonly name: string;
  readonly fits: boolean;
  /** The plugin that rejected the node, and its reasons in the scheduler's words. */
  readonly plugin?: string;
  readonly reasons: readonly string[];
  /** How many such pods the node still takes, when it takes one (the same filters, resources counted down). */
  readonly count?: number;
}

export interface FitResult {
  readonly requests: ReadonlyMap<string, bigint>;
  readonly nodes: readonly NodeFit[];
  readonly schedulable: boolean;
  /** FitError's summary, when no node fits. */
  readonly message?: string;
}

const REASON = {
  unschedulable: 'node(s) were unschedulable',
  untolerated: 'node(s) had untolerated taint(s)',
  affinity: "node(s) didn't match Pod's node affinity/selector",
  conflict: 'pod affinity terms conflict',
  notInPrefilter: "node(s) didn't satisfy plugin(s) [NodeAffinity]",
} as const;

/**
 * Whether `pod` fits each of `nodes`, given the pods already placed (`kubectl get pods -A -o yaml`:
 * a pod counts on its `spec.nodeName` unless Succeeded or Failed).
 */
export function fitPod(pod: JsonObject, nodes: readonly JsonObject[], placed: readonly JsonObject[] = []): FitResult {
  const spec = obj(pod['spec']) ?? {};
  const requests = podRequests(pod);
  const tolerations = list(spec['tolerations']);
  const nodeSelector = obj(spec['nodeSelector']);
  const required = obj(obj(obj(spec['affinity'])?.['nodeAffinity'])?.['requiredDuringSchedulingIgnoredDuringExecution']);
  const terms = required ? list(required['nodeSelectorTerms']) : undefined;
  // NodeAffinity PreFilter: skipped without a selector and a required affinity; node names from matchFields.
  const skip = !required && !isPlainObject(spec['nodeSelector']);
  let prefilterNames: Set<string> | undefined;
  let conflict = false;
  if (terms && terms.length > 0) {
    let names: Set<string> | undefined = new Set();
    for (const t of terms) {
      let termNames: Set<string> | undefined;
      for (const r of list(t['matchFields']))
        if (r['key'] === 'metadata.name' && r['operator'] === 'In') {
          const s = new Set((Array.isArray(r['values']) ? r['values'] : []).map(String));
          termNames = termNames === undefined ? s : new Set([...termNames].filter((x) => s.has(x)));
        }
      if (termNames === undefined) {
        names = undefined;
        break;
      }
      for (const n of termNames) names!.add(n);
    }
    if (names !== undefined && names.size === 0) conflict = true;
    else if (names !== undefined) prefilterNames = names;
  }
  const byNode = usageByNode(placed);
  const results: NodeFit[] = nodes.map((node) => {
    const meta = obj(node['metadata']) ?? {};
    const name = str(meta['name']);
    const labels = (obj(meta['labels']) ?? {}) as Record<string, Json>;
    const nodeSpec = obj(node['spec']) ?? {};
    const status = obj(node['status']) ?? {};
    const reject = (plugin: string, reasons: string[]): NodeFit => ({ name, fits: false, plugin, reasons });
    if (conflict) return reject('NodeAffinity', [REASON.conflict]);
    if (prefilterNames && !prefilterNames.has(name)) return reject('NodeAffinity', [REASON.notInPrefilter]);
    if (
      nodeSpec['unschedulable'] === true &&
      !tolerations.some((t) => tolerates(t, { key: 'node.kubernetes.io/unschedulable', value: '', effect: 'NoSchedule' }))
    )
      return reject('NodeUnschedulable', [REASON.unschedulable]);
    const taints = list(nodeSpec['taints'])
      .map((t) => ({ key: str(t['key']), value: str(t['value']), effect: str(t['effect']) }))
      .filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
    if (taints.some((t) => !tolerations.some((tol) => tolerates(tol, t)))) return reject('TaintToleration', [REASON.untolerated]);
    if (!skip) {
      const label = (k: string): string | undefined => (typeof labels[k] === 'string' ? (labels[k] as string) : undefined);
      const selectorOk = Object.entries(nodeSelector ?? {}).every(([k, v]) => label(k) === v);
      const field = (k: string): string | undefined => (k === 'metadata.name' ? name : undefined);
      const affinityOk =
        !terms ||
        terms.length === 0 ||
        terms.some(
          (t) =>
            (list(t['matchExpressions']).length > 0 || list(t['matchFields']).length > 0) &&
            list(t['matchExpressions']).every((r) => requirementMatches(r, label)) &&
            list(t['matchFields']).every((r) => requirementMatches(r, field)),
        );
      if (!selectorOk || !affinityOk) return reject('NodeAffinity', [REASON.affinity]);
    }
    // NodeResourcesFit
    const allocatable = new Map<string, bigint>();
    for (const [k, v] of Object.entries(obj(status['allocatable']) ?? obj(status['capacity']) ?? {})) allocatable.set(k, amount(k, v));
    const usage = byNode.get(name) ?? { used: new Map<string, bigint>(), pods: 0 };
    const free = (k: string): bigint => (allocatable.get(k) ?? 0n) - (usage.used.get(k) ?? 0n);
    const reasons = fitsRequest(requests, free, BigInt(usage.pods), allocatable.get('pods') ?? 0n);
    if (reasons.length > 0) return reject('NodeResourcesFit', reasons);
    return { name, fits: true, reasons: [], count: howMany(requests, free, allocatable.get('pods') ?? 0n, BigInt(usage.pods)) };
  });
  const schedulable = results.some((r) => r.fits);
  return { requests, nodes: results, schedulable, ...(schedulable ? {} : { message: fitErrorMessage(results, conflict ? REASON.conflict : undefined) }) };
}

/**
 * The requests of the pods on each node (the scheduler's NodeInfo), computed once per list of
 * placed pods: a capacity table asks it for every instance type against the same thousands of pods.
 */
const usageCache = new WeakMap<readonly JsonObject[], Map<string, { used: ResourceMap; pods: number }>>();
function usageByNode(placed: readonly JsonObject[]): Map<string, { used: ResourceMap; pods: number }> {
  const cached = usageCache.get(placed);
  if (cached) return cached;
  const out = new Map<string, { used: ResourceMap; pods: number }>();
  for (const p of placed) {
    const nodeName = str(obj(p['spec'])?.['nodeName']);
    const phase = obj(p['status'])?.['phase'];
    if (nodeName === '' || phase === 'Succeeded' || phase === 'Failed') continue;
    const u = out.get(nodeName) ?? { used: new Map<string, bigint>(), pods: 0 };
    addInto(u.used, podRequests(p));
    u.pods++;
    out.set(nodeName, u);
  }
  usageCache.set(placed, out);
  return out;
}

const RESOURCE_ORDER = ['cpu', 'memory', 'ephemeral-storage'];

/** noderesources fitsRequest: the pod count, then CPU, memory, ephemeral storage, then scalar resources by name. */
function fitsRequest(requests: ResourceMap, free: (k: string) => bigint, podCount: bigint, allowedPods: bigint): string[] {
  const reasons: string[] = [];
  if (podCount + 1n > allowedPods) reasons.push('Too many pods');
  const scalars = [...requests.keys()].filter((k) => !RESOURCE_ORDER.includes(k) && k !== 'pods' && isScalar(k)).sort();
  if ([...requests.entries()].every(([k, v]) => v === 0n || !(RESOURCE_ORDER.includes(k) || scalars.includes(k)))) return reasons;
  for (const k of RESOURCE_ORDER) {
    const want = requests.get(k) ?? 0n;
    if (want > 0n && want > free(k)) reasons.push(`Insufficient ${k}`);
  }
  for (const k of scalars) {
    const want = requests.get(k) ?? 0n;
    if (want !== 0n && want > free(k)) reasons.push(`Insufficient ${k}`);
  }
  return reasons;
}

/** How many such pods still fit on a node that takes one: the scarcest of its resources and pod slots. */
function howMany(requests: ResourceMap, free: (k: string) => bigint, allowedPods: bigint, podCount: bigint): number {
  let n = allowedPods - podCount;
  for (const [k, want] of requests) {
    if (want <= 0n || !(RESOURCE_ORDER.includes(k) || isScalar(k))) continue;
    const f = free(k) / want;
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
