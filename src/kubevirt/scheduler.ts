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
 *
 * The filters on one node and the scheduler's words for them are scheduler-filters.ts.
 */
import { isPlainObject, list, obj, str, type Json, type JsonObject } from '../json';
import { milliValue, parseQ, value as qValue } from '../quantity';

/** Resources in the scheduler's units: milli-CPU, bytes, counts. */
export type ResourceMap = Map<string, bigint>;

/** A quantity as the scheduler counts it: milli-units for CPU, the value (rounded up) for the rest. */
function amount(name: string, v: Json | undefined): bigint {
  const q = typeof v === 'string' || typeof v === 'number' ? parseQ(v) : undefined;
  if (!q) return 0n;
  if (name === 'cpu') return milliValue(q);
  return qValue(q);
}

/**
 * A container's requests after API defaulting: a resource with a limit and no request requests its
 * limit. `nonMissing` (PodResourcesOptions.NonMissingContainerRequests) fills in what it leaves
 * unset.
 */
function containerRequests(c: JsonObject, nonMissing?: ReadonlyMap<string, bigint>): ResourceMap {
  const resources = obj(c['resources']);
  const out: ResourceMap = new Map();
  for (const [k, v] of Object.entries(obj(resources?.['limits']) ?? {})) out.set(k, amount(k, v));
  for (const [k, v] of Object.entries(obj(resources?.['requests']) ?? {})) out.set(k, amount(k, v));
  if (nonMissing) for (const [k, v] of nonMissing) if (!out.has(k)) out.set(k, v);
  return out;
}

const addInto = (a: ResourceMap, b: ResourceMap): void => {
  for (const [k, v] of b) a.set(k, (a.get(k) ?? 0n) + v);
};
const maxInto = (a: ResourceMap, b: ResourceMap): void => {
  for (const [k, v] of b) if (!a.has(k) || v > a.get(k)!) a.set(k, v);
};

/** resource.PodRequests (no pod-level resources): what the pod asks of a node. */
export function podRequests(pod: JsonObject, nonMissing?: ReadonlyMap<string, bigint>): ResourceMap {
  const spec = obj(pod['spec']) ?? {};
  const reqs: ResourceMap = new Map();
  for (const c of list(spec['containers'])) addInto(reqs, containerRequests(c, nonMissing));
  const sidecars: ResourceMap = new Map();
  const inits: ResourceMap = new Map();
  for (const c of list(spec['initContainers'])) {
    let r = containerRequests(c, nonMissing);
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
const scalarCache = new Map<string, boolean>();
export function isScalar(name: string): boolean {
  let v = scalarCache.get(name);
  if (v === undefined) {
    v = isScalarName(name);
    if (scalarCache.size < 4096) scalarCache.set(name, v);
  }
  return v;
}

function isScalarName(name: string): boolean {
  if (name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')) return true;
  if (name.includes('kubernetes.io/')) return true;
  return (
    name.includes('/') &&
    !name.startsWith('requests.') &&
    /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(name)
  );
}

export interface Taint {
  readonly key: string;
  readonly value: string;
  readonly effect: string;
}

/** A toleration tolerates a taint (v1.Toleration.ToleratesTaint, comparison operators off). */
export function tolerates(t: JsonObject, taint: Taint): boolean {
  if (str(t['effect']) !== '' && t['effect'] !== taint.effect) return false;
  if (str(t['key']) !== taint.key && !(str(t['key']) === '' && t['operator'] === 'Exists')) return false;
  const op = str(t['operator']) || 'Equal';
  if (op === 'Exists') return true;
  return op === 'Equal' && str(t['value']) === taint.value;
}

/** NodeSelectorRequirement matching (labels or fields). */
export function requirementMatches(r: JsonObject, get: (key: string) => string | undefined): boolean {
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
  /**
   * What blocks the node, named (the scheduler's words name none): the untolerated taints as
   * `key=value:Effect`, the label wanted and what the node has, each resource short and by how much.
   */
  readonly details?: readonly string[];
  /** With details asked as data: each resource short, as numbers. */
  readonly short?: readonly Shortfall[];
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

export const REASON = {
  unschedulable: 'node(s) were unschedulable',
  untolerated: 'node(s) had untolerated taint(s)',
  affinity: "node(s) didn't match Pod's node affinity/selector",
  conflict: 'pod affinity terms conflict',
  notInPrefilter: "node(s) didn't satisfy plugin(s) [NodeAffinity]",
} as const;

/** What the filters read of a pod, read once: its requests, tolerations and required node affinity. */
export interface PodInfo {
  readonly requests: ResourceMap;
  readonly tolerations: readonly JsonObject[];
  readonly nodeSelector: JsonObject | undefined;
  readonly terms: readonly JsonObject[] | undefined;
  /** NodeAffinity's PreFilter: skipped without a selector and a required affinity. */
  readonly skipAffinity: boolean;
  /** The node names a `matchFields metadata.name In` affinity allows (PreFilterResult). */
  readonly prefilterNames?: ReadonlySet<string>;
  /** The PreFilter rejects every node: its terms name no node in common. */
  readonly conflict: boolean;
  /** What NodeResourcesFit compares, in its order. */
  readonly checked: readonly (readonly [string, bigint])[];
  /** The nodeSelector's pairs. */
  readonly selector: readonly (readonly [string, Json])[];
}

export function podInfo(pod: JsonObject): PodInfo {
  const spec = obj(pod['spec']) ?? {};
  const required = obj(obj(obj(spec['affinity'])?.['nodeAffinity'])?.['requiredDuringSchedulingIgnoredDuringExecution']);
  const terms = required ? list(required['nodeSelectorTerms']) : undefined;
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
  const requests = podRequests(pod);
  return {
    requests,
    checked: checkedResources(requests),
    selector: Object.entries(obj(spec['nodeSelector']) ?? {}),
    tolerations: list(spec['tolerations']),
    nodeSelector: obj(spec['nodeSelector']),
    terms,
    skipAffinity: !required && !isPlainObject(spec['nodeSelector']),
    ...(prefilterNames ? { prefilterNames } : {}),
    conflict,
  };
}

/** A node as the scheduler's NodeInfo holds it: what it offers, and what its pods request (changed as pods are placed). */
export interface NodeState {
  readonly name: string;
  readonly labels: Readonly<Record<string, Json>>;
  /** Every taint, PreferNoSchedule too (the filter reads NoSchedule and NoExecute, scoring PreferNoSchedule). */
  readonly taints: readonly Taint[];
  readonly unschedulable: boolean;
  readonly allocatable: ReadonlyMap<string, bigint>;
  readonly requested: ResourceMap;
  /** CPU and memory requested with a pod that requests none counted at the scheduler's defaults (100m, 200Mi). */
  nonZeroCpu: bigint;
  nonZeroMemory: bigint;
  pods: number;
}

/** The scheduler's defaults for a pod that requests no CPU or memory (schedutil.DefaultMilliCPURequest, DefaultMemoryRequest). */
export const NON_ZERO_DEFAULTS: ReadonlyMap<string, bigint> = new Map([
  ['cpu', 100n],
  ['memory', 200n * 1024n * 1024n],
]);

/** PodInfo.CalculateResource: the non-zero CPU and memory a placed pod counts for in scoring. */
export function nonZeroRequests(pod: JsonObject, requests: ResourceMap): { cpu: bigint; memory: bigint } {
  const missing = new Map([...NON_ZERO_DEFAULTS].filter(([k]) => (requests.get(k) ?? 0n) === 0n));
  const non0 = missing.size > 0 ? podRequests(pod, missing) : requests;
  return { cpu: non0.get('cpu') ?? 0n, memory: non0.get('memory') ?? 0n };
}

/** Adds a placed pod's requests to its node (NodeInfo.AddPod). */
export function addPod(n: NodeState, requests: ResourceMap, nonZero: { cpu: bigint; memory: bigint }): void {
  addInto(n.requested, requests);
  n.nonZeroCpu += nonZero.cpu;
  n.nonZeroMemory += nonZero.memory;
  n.pods++;
}

/**
 * The nodes with the pods already placed on them (`kubectl get pods -A -o yaml`: a pod counts on
 * its
 * `spec.nodeName` unless Succeeded or Failed), in the nodes' order.
 */
export function nodeStates(nodes: readonly JsonObject[], placed: readonly JsonObject[]): NodeState[] {
  const states = nodes.map((node): NodeState => {
    const meta = obj(node['metadata']) ?? {};
    const nodeSpec = obj(node['spec']) ?? {};
    const status = obj(node['status']) ?? {};
    const allocatable = new Map<string, bigint>();
    for (const [k, v] of Object.entries(obj(status['allocatable']) ?? obj(status['capacity']) ?? {})) allocatable.set(k, amount(k, v));
    return {
      name: str(meta['name']),
      labels: obj(meta['labels']) ?? {},
      taints: list(nodeSpec['taints']).map((t) => ({ key: str(t['key']), value: str(t['value']), effect: str(t['effect']) })),
      unschedulable: nodeSpec['unschedulable'] === true,
      allocatable,
      requested: new Map(),
      nonZeroCpu: 0n,
      nonZeroMemory: 0n,
      pods: 0,
    };
  });
  const byName = new Map(states.map((n) => [n.name, n]));
  for (const p of placed) {
    const node = byName.get(str(obj(p['spec'])?.['nodeName']));
    const phase = obj(p['status'])?.['phase'];
    if (!node || phase === 'Succeeded' || phase === 'Failed') continue;
    const requests = podRequests(p);
    addPod(node, requests, nonZeroRequests(p, requests));
  }
  return states;
}

/** What a node is short of, as numbers (pod slots as `pods`): for callers that summarize many nodes. */
export interface Shortfall {
  readonly resource: string;
  readonly needs: bigint;
  readonly free: bigint;
  readonly allocatable: bigint;
}

export const RESOURCE_ORDER = ['cpu', 'memory', 'ephemeral-storage'];

/**
 * What NodeResourcesFit compares for a pod, in fitsRequest's order: CPU, memory, ephemeral storage
 * (when requested), then scalar resources by name (when not zero); none when the pod requests
 * nothing
 * it checks. Computed once per pod.
 */
function checkedResources(requests: ResourceMap): readonly (readonly [string, bigint])[] {
  const scalars = [...requests.keys()].filter((k) => !RESOURCE_ORDER.includes(k) && k !== 'pods' && isScalar(k)).sort();
  if ([...requests.entries()].every(([k, v]) => v === 0n || !(RESOURCE_ORDER.includes(k) || scalars.includes(k)))) return [];
  const out: (readonly [string, bigint])[] = [];
  for (const k of RESOURCE_ORDER) {
    const want = requests.get(k) ?? 0n;
    if (want > 0n) out.push([k, want]);
  }
  for (const k of scalars) {
    const want = requests.get(k) ?? 0n;
    if (want !== 0n) out.push([k, want]);
  }
  return out;
}
