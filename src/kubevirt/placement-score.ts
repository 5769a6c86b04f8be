/**
 * Placing pods one after another as kube-scheduler v1.36 would: for each pod, the filters of
 * kubevirt/scheduler.ts on every node, then the default profile's score plugins on the nodes that
 * pass, with their default weights, and the pod's requests added to the chosen node before the
 * next (NodeInfo.AddPod). Transcribed from kubernetes/kubernetes v1.36
 * pkg/scheduler/framework/plugins: NodeResourcesFit's LeastAllocated strategy (weight 1; cpu and
 * memory weighted 1, with the scheduler's non-zero defaults for what a container leaves unset),
 * NodeResourcesBalancedAllocation (weight 1; the standard deviation of the cpu and memory
 * fractions), TaintToleration (weight 3; PreferNoSchedule taints not tolerated, normalized and
 * reversed), NodeAffinity (weight 2; the weights of the preferred terms a node matches,
 * normalized), ImageLocality (weight 1; the sizes of the pod's images the node holds, scaled by how
 * many nodes hold them). PodTopologySpread and InterPodAffinity score nothing for a launcher pod
 * no Service selects and no running pod names in an affinity term (their PreScore skips); when a
 * running pod carries affinity terms the report says their scores are not modelled.
 *
 * Two departures, both said in every answer: every feasible node is scored
 * (percentageOfNodesToScore
 * 100; the scheduler's default samples once there are more than 100 nodes), and among nodes with
 * the highest score the first by name wins (the scheduler picks one of them at random).
 */
import { list, obj, type JsonObject } from '../json';
import {
  addPod,
  NON_ZERO_DEFAULTS,
  nonZeroRequests,
  podInfo,
  podRequests,
  tolerates,
  type NodeFit,
  type NodeState,
  type PodInfo,
  type ResourceMap,
} from './scheduler';
import { placementVerdict, resourceVerdict, fitErrorMessage, termMatches } from './scheduler-filters';

const MAX_SCORE = 100n;
const MB = 1024n * 1024n;
const IMAGE_MIN = 23n * MB;
const IMAGE_MAX_PER_CONTAINER = 1000n * MB;

/** What scoring reads of a pod besides its filter information. */
interface ScoredPod {
  readonly info: PodInfo;
  /** Requests with the scheduler's non-zero defaults for what a container leaves unset (LeastAllocated). */
  readonly nonMissing: ResourceMap;
  /** What the pod adds to its node's non-zero CPU and memory once placed. */
  readonly nonZero: { readonly cpu: bigint; readonly memory: bigint };
  readonly preferred: readonly { readonly weight: bigint; readonly term: JsonObject }[];
  readonly preferNoScheduleTolerations: readonly JsonObject[];
  readonly images: readonly string[];
}

function scoredPod(pod: JsonObject): ScoredPod {
  const info = podInfo(pod);
  const spec = obj(pod['spec']) ?? {};
  const preferred = list(obj(obj(spec['affinity'])?.['nodeAffinity'])?.['preferredDuringSchedulingIgnoredDuringExecution'])
    .map((t) => ({ weight: typeof t['weight'] === 'number' ? BigInt(Math.trunc(t['weight'])) : 0n, term: obj(t['preference']) ?? {} }))
    .filter((t) => t.weight !== 0n);
  const images = [...list(spec['initContainers']), ...list(spec['containers'])].map((c) => (typeof c['image'] === 'string' ? c['image'] : ''));
  return {
    info,
    nonMissing: podRequests(pod, NON_ZERO_DEFAULTS),
    nonZero: nonZeroRequests(pod, info.requests),
    preferred,
    preferNoScheduleTolerations: info.tolerations.filter((t) => t['effect'] === undefined || t['effect'] === '' || t['effect'] === 'PreferNoSchedule'),
    images,
  };
}

/** normalizedImageName: a name with no tag is the `:latest` one. */
function normalizedImage(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/** The images nodes hold (`status.images`), by name: size and how many nodes hold it (ImageStateSummary). */
export function imageStates(nodes: readonly JsonObject[]): Map<string, Map<string, { size: bigint; nodes: number }>> {
  const perNode = new Map<string, Map<string, { size: bigint; nodes: number }>>();
  const count = new Map<string, number>();
  const sizes: [string, Map<string, bigint>][] = nodes.map((node) => {
    const m = new Map<string, bigint>();
    for (const img of list(obj(node['status'])?.['images'])) {
      const size = typeof img['sizeBytes'] === 'number' && Number.isSafeInteger(img['sizeBytes']) ? BigInt(img['sizeBytes']) : 0n;
      for (const n of Array.isArray(img['names']) ? img['names'] : []) if (typeof n === 'string') m.set(n, size);
    }
    for (const n of m.keys()) count.set(n, (count.get(n) ?? 0) + 1);
    return [String(obj(node['metadata'])?.['name'] ?? ''), m];
  });
  for (const [name, m] of sizes) perNode.set(name, new Map([...m].map(([img, size]) => [img, { size, nodes: count.get(img) ?? 0 }])));
  return perNode;
}

/** DefaultNormalizeScore: scaled to the highest score, reversed for TaintToleration. */
function normalize(scores: bigint[], reverse: boolean): bigint[] {
  const max = scores.reduce((a, b) => (b > a ? b : a), 0n);
  if (max === 0n) return scores.map(() => (reverse ? MAX_SCORE : 0n));
  return scores.map((s) => {
    const v = (MAX_SCORE * s) / max;
    return reverse ? MAX_SCORE - v : v;
  });
}

/** leastResourceScorer over cpu and memory, each weighted 1. */
function leastAllocated(p: ScoredPod, n: NodeState): bigint {
  let score = 0n;
  let weights = 0n;
  for (const [k, used] of [
    ['cpu', n.nonZeroCpu],
    ['memory', n.nonZeroMemory],
  ] as const) {
    const capacity = n.allocatable.get(k) ?? 0n;
    if (capacity === 0n) continue;
    const requested = used + (p.nonMissing.get(k) ?? 0n);
    score += requested > capacity ? 0n : ((capacity - requested) * MAX_SCORE) / capacity;
    weights += 1n;
  }
  return weights === 0n ? 0n : score / weights;
}

/** balancedResourceScorer over cpu and memory (what the pods request, no defaults). */
function balancedAllocation(p: ScoredPod, n: NodeState): bigint {
  const fractions: number[] = [];
  for (const k of ['cpu', 'memory']) {
    const capacity = n.allocatable.get(k) ?? 0n;
    if (capacity === 0n) continue;
    const requested = (n.requested.get(k) ?? 0n) + (p.info.requests.get(k) ?? 0n);
    fractions.push(Math.min(1, Number(requested) / Number(capacity)));
  }
  let std = 0;
  if (fractions.length === 2) std = Math.abs((fractions[0]! - fractions[1]!) / 2);
  return BigInt(Math.trunc((1 - std) * Number(MAX_SCORE)));
}

function imageLocality(p: ScoredPod, images: ReadonlyMap<string, { size: bigint; nodes: number }> | undefined, totalNodes: number): bigint {
  let sum = 0n;
  if (images)
    for (const image of p.images) {
      const s = images.get(normalizedImage(image));
      if (s) sum += BigInt(Math.trunc(Number(s.size) * (s.nodes / totalNodes)));
    }
  const max = IMAGE_MAX_PER_CONTAINER * BigInt(p.images.length);
  const clamped = sum < IMAGE_MIN ? IMAGE_MIN : sum > max ? max : sum;
  return (MAX_SCORE * (clamped - IMAGE_MIN)) / (max - IMAGE_MIN);
}

/** A node's raw score parts for a pod: what does not depend on the other feasible nodes. */
interface RawScore {
  readonly taints: bigint;
  readonly affinity: bigint;
  /** LeastAllocated + BalancedAllocation + ImageLocality, weighted (1 each). */
  readonly resources: bigint;
}

function rawScore(p: ScoredPod, n: NodeState, images: ReadonlyMap<string, { size: bigint; nodes: number }> | undefined, totalNodes: number): RawScore {
  const bestEffort = (p.info.requests.get('cpu') ?? 0n) === 0n && (p.info.requests.get('memory') ?? 0n) === 0n;
  return {
    taints: BigInt(n.taints.filter((t) => t.effect === 'PreferNoSchedule' && !p.preferNoScheduleTolerations.some((tol) => tolerates(tol, t))).length),
    affinity: p.preferred.reduce((a, t) => (termMatches(t.term, n) ? a + t.weight : a), 0n),
    resources: leastAllocated(p, n) + (bestEffort ? 0n : balancedAllocation(p, n)) + imageLocality(p, images, totalNodes),
  };
}

/** The feasible nodes' weighted scores: TaintToleration and NodeAffinity normalized over them (NodeAffinity only with preferred terms). */
function scores(p: ScoredPod, raw: readonly RawScore[]): bigint[] {
  const taint = normalize(
    raw.map((r) => r.taints),
    true,
  );
  const affinity =
    p.preferred.length > 0
      ? normalize(
          raw.map((r) => r.affinity),
          false,
        )
      : raw.map(() => 0n);
  return raw.map((r, i) => 3n * taint[i]! + 2n * affinity[i]! + r.resources);
}

export interface PodPlacement {
  /** The node the pod goes to, or null. */
  readonly node: string | null;
  /** The chosen node's score, when there was a choice. */
  readonly score?: number;
  /** For an unplaced pod: each node's verdict (the filter that rejects it and its reasons). */
  readonly nodes?: readonly NodeFit[];
  /** FitError's summary when no node fits. */
  readonly message?: string;
}

/** What the filters before NodeResourcesFit read of a pod: its selector, affinity and tolerations. */
function placementKey(pod: JsonObject): string {
  const spec = obj(pod['spec']) ?? {};
  return JSON.stringify([spec['nodeSelector'], spec['affinity'], spec['tolerations']]);
}

/** What a pod's filters and scores read of it, as a key: pods of one instance type and preference share it. */
function podKey(pod: JsonObject): string {
  const spec = obj(pod['spec']) ?? {};
  return JSON.stringify([spec['nodeSelector'], spec['affinity'], spec['tolerations'], spec['containers'], spec['initContainers'], spec['overhead']]);
}

/**
 * Places `pods` in their order on `states` (changed: each placed pod's requests are added to its
 * node). `nodes` are the node objects the states were made from (their images, in their order).
 *
 * A node's verdict and raw score for a pod change only when a pod is placed on that node, so they
 * are
 * kept per kind of pod (`podKey`) and node, with the node's version: 2,000 VMs of a few kinds on
 * 500
 * nodes filter and score each node again only where something landed (bench/expand.mjs measures
 * it).
 *
 * Over 80 lines: one scheduling cycle per pod (filter, name the blockers of an unplaced pod, score,
 * bind) over the caches above, which the steps share.
 */
export function placeInOrder(pods: readonly JsonObject[], states: NodeState[], nodes: readonly JsonObject[]): PodPlacement[] {
  const images = imageStates(nodes);
  const versions = states.map(() => 0);
  interface Kept {
    readonly p: ScoredPod;
    /** The filters before NodeResourcesFit, per node: they never change (shared by pods with the same placement rules). */
    readonly placement: readonly (NodeFit | undefined)[];
    readonly fits: (NodeFit | undefined)[];
    readonly raw: (RawScore | undefined)[];
    readonly seen: number[];
    /** Each node's NodeResourcesFit verdict with its shortfalls, and the node version it was made at. */
    readonly named: (NodeFit | undefined)[];
    readonly namedSeen: number[];
    last?: { readonly at: number[]; readonly placement: PodPlacement };
  }
  const kinds = new Map<string, Kept>();
  const placementRules = new Map<string, readonly (NodeFit | undefined)[]>();
  return pods.map((pod) => {
    const key = podKey(pod);
    let k = kinds.get(key);
    if (!k) {
      const p = scoredPod(pod);
      const rulesKey = placementKey(pod);
      let placement = placementRules.get(rulesKey);
      if (!placement) placementRules.set(rulesKey, (placement = states.map((n) => placementVerdict(p.info, n))));
      kinds.set(
        key,
        (k = {
          p,
          placement,
          fits: states.map(() => undefined),
          raw: states.map(() => undefined),
          seen: states.map(() => -1),
          named: states.map(() => undefined),
          namedSeen: states.map(() => -1),
        }),
      );
    }
    const kept = k;
    const p = kept.p;
    const feasible: number[] = [];
    states.forEach((n, i) => {
      if (kept.placement[i] !== undefined) return;
      if (kept.seen[i] !== versions[i]) {
        kept.fits[i] = resourceVerdict(p.info, n, false, false);
        kept.raw[i] = undefined;
        kept.seen[i] = versions[i]!;
      }
      if (kept.fits[i]!.fits) feasible.push(i);
    });
    if (feasible.length === 0) {
      // Unplaced: every node's blockers named (computed only here, where they are reported, and
      // again only when a node changed since the last pod of this kind).
      if (kept.last && kept.last.at.every((v, i) => v === versions[i])) return kept.last.placement;
      const named = states.map((n, i) => {
        const ruled = kept.placement[i];
        if (ruled !== undefined) return ruled;
        if (kept.namedSeen[i] !== versions[i]) {
          kept.named[i] = resourceVerdict(p.info, n, false, 'data');
          kept.namedSeen[i] = versions[i]!;
        }
        return kept.named[i]!;
      });
      const placement: PodPlacement = {
        node: null,
        nodes: named,
        message: fitErrorMessage(named, p.info.conflict ? 'pod affinity terms conflict' : undefined),
      };
      kept.last = { at: [...versions], placement };
      return placement;
    }
    let best = 0;
    let s: bigint[] = [0n];
    if (feasible.length > 1) {
      const raw = feasible.map((i) => (kept.raw[i] ??= rawScore(p, states[i]!, images.get(states[i]!.name), states.length)));
      s = scores(p, raw);
      for (let j = 1; j < feasible.length; j++)
        if (s[j]! > s[best]! || (s[j] === s[best] && states[feasible[j]!]!.name < states[feasible[best]!]!.name)) best = j;
    }
    const index = feasible[best]!;
    const chosen = states[index]!;
    addPod(chosen, p.info.requests, p.nonZero);
    versions[index]!++;
    return { node: chosen.name, ...(feasible.length > 1 ? { score: Number(s[best]) } : {}) };
  });
}

/** Whether a running pod carries inter-pod affinity terms (whose scores are not modelled). */
export function hasPodAffinityTerms(pod: JsonObject): boolean {
  const a = obj(obj(pod['spec'])?.['affinity']);
  return (a?.['podAffinity'] ?? null) !== null || (a?.['podAntiAffinity'] ?? null) !== null;
}
