/**
 * Kubernetes' ResourceQuota admission for a pod (k8s.io/apiserver admission/plugin/resourcequota
 * `CheckRequest`, with kube-apiserver's pod evaluator, pkg/quota/v1/evaluator/core/pods.go, v1.36):
 * which of the namespace's quotas match the pod (a resource they limit that pods use, their scopes),
 * the constraint that a quota on cpu or memory puts on every container ("must specify"), the usage
 * the pod adds (its requests and limits as quota names them, `pods`, `count/pods`, hugepages,
 * extended resources as `requests.<name>`), and the first quota it exceeds, in the API server's
 * words. Quantities are resource.Quantity's (formats included), so the message prints as Kubernetes
 * prints it. test/quota-corpus.test.ts holds this to kube-apiserver's own CheckRequest.
 */
import { list, obj, type Json, type JsonObject } from '../json';
import { add, cmp, parseQ, q, qString, ZERO, type Quantity } from '../quantity';

export type ResourceList = Map<string, Quantity>;

const POD_RESOURCES = new Set([
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
]);
/** Quota's "it was a mistake" set: a quota on these makes every container state them. */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
const QUALIFIED = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/** helper.IsExtendedResourceName: not native, not `requests.`, and a qualified name once prefixed. */
const isExtended = (name: string): boolean =>
  !isNative(name) && !name.startsWith('requests.') && QUALIFIED.test(`requests.${name}`) && `requests.${name}`.split('/')[1]!.length <= 63;

function resourceList(v: Json | undefined): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, x] of Object.entries(obj(v) ?? {})) {
    const parsed = typeof x === 'string' || typeof x === 'number' ? parseQ(x) : undefined;
    if (parsed) out.set(k, parsed);
  }
  return out;
}

function addInto(a: ResourceList, b: ResourceList): void {
  for (const [k, v] of b) a.set(k, a.has(k) ? add(a.get(k)!, v) : v);
}
function maxInto(a: ResourceList, b: ResourceList): void {
  for (const [k, v] of b) if (!a.has(k) || cmp(v, a.get(k)!) > 0) a.set(k, v);
}

/** A container's requests after API defaulting (a limit with no request requests the limit) and its limits. */
function containerResources(c: JsonObject): { requests: ResourceList; limits: ResourceList } {
  const r = obj(c['resources']);
  const limits = resourceList(r?.['limits']);
  const requests = new Map(limits);
  for (const [k, v] of resourceList(r?.['requests'])) requests.set(k, v);
  return { requests, limits };
}

/** component-helpers PodRequests or PodLimits (no pod-level resources): containers, sidecars, the largest init container, overhead. */
function aggregate(pod: JsonObject, which: 'requests' | 'limits'): ResourceList {
  const spec = obj(pod['spec']) ?? {};
  const total: ResourceList = new Map();
  for (const c of list(spec['containers'])) addInto(total, containerResources(c)[which]);
  const sidecars: ResourceList = new Map();
  const inits: ResourceList = new Map();
  for (const c of list(spec['initContainers'])) {
    const own = containerResources(c)[which];
    if (c['restartPolicy'] === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(inits, new Map(sidecars));
    } else {
      const withSidecars = new Map(own);
      addInto(withSidecars, sidecars);
      maxInto(inits, withSidecars);
    }
  }
  maxInto(total, inits);
  const overhead = resourceList(spec['overhead']);
  for (const [k, v] of overhead) if (which === 'requests' || total.has(k)) total.set(k, total.has(k) ? add(total.get(k)!, v) : v);
  return total;
}

/** podComputeUsageHelper: requests and limits under quota's names. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', q('1')]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [name, req] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, req);
      out.set(`requests.${name}`, req);
    }
    if (isExtended(name)) out.set(`requests.${name}`, req);
  }
  return out;
}

/** PodUsageFunc: what a pod counts for (a finished pod only for `count/pods`). */
export function podQuotaUsage(pod: JsonObject): ResourceList {
  const out: ResourceList = new Map([['count/pods', q('1')]]);
  const phase = obj(pod['status'])?.['phase'];
  if (phase === 'Succeeded' || phase === 'Failed') return out;
  addInto(out, computeUsage(aggregate(pod, 'requests'), aggregate(pod, 'limits')));
  return out;
}

/** The evaluator's MatchingResources: the quota's resources that pods use. */
function matchingResources(names: readonly string[]): string[] {
  const out = names.filter((n) => POD_RESOURCES.has(n));
  for (const n of names) {
    if (n.startsWith('hugepages-') || n.startsWith('requests.hugepages-')) out.push(n);
    if (!isNative(n) && n.startsWith('requests.')) out.push(n);
  }
  return out;
}

function isBestEffort(pod: JsonObject): boolean {
  const spec = obj(pod['spec']) ?? {};
  return [...list(spec['containers']), ...list(spec['initContainers'])].every((c) => {
    const r = obj(c['resources']);
    return ['requests', 'limits'].every((w) => ['cpu', 'memory'].every((k) => !(parseQ(String(obj(r?.[w])?.[k] ?? '0'))?.nano ?? 0n)));
  });
}

/** podMatchesScopeFunc for the scopes a launcher pod can meet. */
function scopeMatches(scope: string, operator: string, pod: JsonObject): boolean {
  const spec = obj(pod['spec']) ?? {};
  const deadline = spec['activeDeadlineSeconds'];
  const terminating = typeof deadline === 'number' && deadline >= 0;
  switch (scope) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass':
      return operator === 'Exists' && typeof spec['priorityClassName'] === 'string' && spec['priorityClassName'] !== '';
    default:
      return false;
  }
}

const sortedNames = (m: ResourceList): string[] => [...m.keys()].sort();
const mask = (m: ResourceList, names: Iterable<string>): ResourceList => {
  const keep = new Set(names);
  return new Map([...m].filter(([k]) => keep.has(k)));
};
const pretty = (m: ResourceList): string =>
  sortedNames(m)
    .map((k) => `${k}=${qString(m.get(k)!)}`)
    .join(',');

export interface QuotaVerdict {
  readonly allowed: boolean;
  /** The API server's words when it refuses the pod. */
  readonly message?: string;
  /** The quota that refused it. */
  readonly quota?: string;
  /** With the pod admitted: each quota's usage after it (the ones it does not match unchanged). */
  readonly used?: ReadonlyMap<string, ResourceList>;
}

/** A quota as admission reads it: its name, hard limits (status, else spec: the quota controller copies them) and usage. */
export interface QuotaState {
  readonly name: string;
  readonly hard: ResourceList;
  used: ResourceList;
  readonly scopes: readonly { readonly scope: string; readonly operator: string }[];
  /** Whether the quota had its usage recorded (`status.used`); without, a matching pod is refused. */
  readonly usedKnown: ReadonlySet<string>;
}

export function quotaState(quota: JsonObject): QuotaState {
  const spec = obj(quota['spec']) ?? {};
  const status = obj(quota['status']) ?? {};
  const hard = resourceList(status['hard'] ?? spec['hard']);
  const used = resourceList(status['used']);
  const scopes = [
    ...(Array.isArray(spec['scopes']) ? spec['scopes'].map((s) => ({ scope: String(s), operator: 'Exists' })) : []),
    ...list(obj(spec['scopeSelector'])?.['matchExpressions']).map((e) => ({ scope: String(e['scopeName'] ?? ''), operator: String(e['operator'] ?? '') })),
  ];
  return { name: String(obj(quota['metadata'])?.['name'] ?? ''), hard, used, scopes, usedKnown: new Set(used.keys()) };
}

/**
 * CheckRequest for a pod being created, against the quotas of its namespace (in order; `states`
 * change: an admitted pod's usage is added to each matching quota, as the admission plugin writes it).
 */
export function admitToQuotas(pod: JsonObject, states: readonly QuotaState[], counted?: QuotaCounting): QuotaVerdict {
  const name = String(obj(pod['metadata'])?.['name'] ?? '');
  const forbidden = (message: string, quota: string): QuotaVerdict => ({ allowed: false, message: `pods "${name}" is forbidden: ${message}`, quota });
  const interesting: QuotaState[] = [];
  for (const s of states) {
    const restricted = counted
      ? [...s.hard.keys()].filter((k) => counted.usage.has(k) || matchingResources([k]).length > 0)
      : matchingResources([...s.hard.keys()]);
    if (restricted.length === 0 || !s.scopes.every((sc) => scopeMatches(sc.scope, sc.operator, pod))) continue;
    const required = counted ? [] : restricted.filter((r) => VALIDATION_SET.has(r));
    const missing = new Map<string, Set<string>>();
    const spec = obj(pod['spec']) ?? {};
    for (const c of [...list(spec['containers']), ...list(spec['initContainers'])]) {
      const { requests, limits } = containerResources(c);
      const has = computeUsage(requests, limits);
      for (const r of required) if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(String(c['name'] ?? '')));
    }
    if (missing.size > 0)
      return forbidden(
        `failed quota: ${s.name}: must specify ${[...missing.keys()]
          .sort()
          .map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`)
          .join('; ')}`,
        s.name,
      );
    const unknown = restricted.filter((r) => s.hard.has(r) && !s.usedKnown.has(r));
    if (unknown.length > 0) return forbidden(`status unknown for quota: ${s.name}, resources: ${[...restricted].sort().join(',')}`, s.name);
    interesting.push(s);
  }
  const usage = counted ? counted.usage : podQuotaUsage(pod);
  const delta = new Map([...usage].filter(([, v]) => v.nano !== 0n));
  const all = (after: ReadonlyMap<string, ResourceList>): Map<string, ResourceList> => new Map(states.map((s) => [s.name, after.get(s.name) ?? s.used]));
  if (interesting.length === 0 || delta.size === 0) return { allowed: true, used: all(new Map()) };
  const after = new Map<string, ResourceList>();
  for (const s of interesting) {
    const requested = mask(delta, s.hard.keys());
    const next = new Map(s.used);
    for (const [k, v] of requested) next.set(k, next.has(k) ? add(next.get(k)!, v) : add(ZERO, v));
    const masked = mask(next, requested.keys());
    const exceeded = [...s.hard].filter(([k, hard]) => masked.has(k) && cmp(masked.get(k)!, hard) > 0).map(([k]) => k);
    if (exceeded.length > 0)
      return forbidden(
        `exceeded quota: ${s.name}, requested: ${pretty(mask(requested, exceeded))}, used: ${pretty(mask(s.used, exceeded))}, limited: ${pretty(mask(s.hard, exceeded))}`,
        s.name,
      );
    after.set(s.name, next);
  }
  for (const s of interesting) s.used = after.get(s.name)!;
  return { allowed: true, used: all(after) };
}

/** A resource list as the API server prints it, by name. */
export function resourceListText(m: ResourceList): Record<string, string> {
  return Object.fromEntries(sortedNames(m).map((k) => [k, qString(m.get(k)!)]));
}

/**
 * How many more such pods the quotas admit, one after another, and the API server's words for the
 * one after them: counted from the room each matching quota has left (the admission is the same for
 * every copy), then that last one admitted for real to get its words. `more` is undefined when no
 * quota limits what the pod uses.
 */
export function quotaRoom(pod: JsonObject, states: readonly QuotaState[], counted?: QuotaCounting): { more?: number; message?: string } {
  const probe = states.map((s) => ({ ...s, used: new Map(s.used) }));
  const first = admitToQuotas(pod, probe, counted);
  if (!first.allowed) return { more: 0, ...(first.message !== undefined ? { message: first.message } : {}) };
  let more: bigint | undefined;
  states.forEach((s, i) => {
    for (const [k, hard] of s.hard) {
      const before = s.used.get(k)?.nano ?? 0n;
      const step = (probe[i]!.used.get(k)?.nano ?? 0n) - before;
      if (step <= 0n) continue;
      const n = (hard.nano - before) / step;
      if (more === undefined || n < more) more = n;
    }
  });
  if (more === undefined) return {};
  const n = more;
  const filled = states.map((s, i) => ({
    ...s,
    used: new Map(
      [...probe[i]!.used].map(([k, v]) => {
        const before = s.used.get(k)?.nano ?? 0n;
        return [k, { nano: before + n * (v.nano - before), format: v.format }] as const;
      }),
    ),
  }));
  const last = admitToQuotas(pod, filled, counted);
  return { more: Number(n), ...(last.message !== undefined ? { message: last.message } : {}) };
}

/**
 * How a quota other than the API server's counts a pod: Application-Aware Quota's usage of a
 * launcher pod (`aaqUsage`), with no must-specify constraint (AAQ gates a pod, it does not refuse it).
 */
export interface QuotaCounting {
  readonly usage: ResourceList;
}

/** Application-Aware Quota's calculator configurations (AAQ CR `spec.configuration.vmiCalculatorConfiguration.configName`). */
export type AaqCalculator = 'VmiPodUsage' | 'VirtualResources' | 'DedicatedVirtualResources' | 'IgnoreVmiCalculator';
export const AAQ_CALCULATORS: readonly AaqCalculator[] = ['VmiPodUsage', 'VirtualResources', 'DedicatedVirtualResources', 'IgnoreVmiCalculator'];

/**
 * What Application-Aware Quota counts for a VM's (single) launcher pod, transcribed from
 * kubevirt/application-aware-quota pkg/aaq-controller/built-in-usage-calculators/
 * virt-launcher-usage-calc.go (`CalculateUsageByConfig`, `CalculateResourceLauncherVMIUsagePodResources`,
 * `GetNumberOfVCPUs`): `VmiPodUsage` (AAQ's default) and `IgnoreVmiCalculator` count the pod as the
 * API server's quota does; `VirtualResources` counts the guest instead of the pod (the VMI's memory
 * and CPU limits, overridden by its requests, the guest memory and the vCPUs of its topology, as
 * both requests and limits, and one pod); `DedicatedVirtualResources` (HCO's default) counts them
 * under their own names, leaving the pod quotas alone.
 */
export function aaqUsage(pod: JsonObject, vmi: JsonObject, calculator: AaqCalculator): ResourceList {
  if (calculator === 'VmiPodUsage' || calculator === 'IgnoreVmiCalculator') return podQuotaUsage(pod);
  const domain = obj(obj(vmi['spec'])?.['domain']) ?? {};
  const resources = obj(domain['resources']) ?? {};
  let memory: Quantity = ZERO;
  let cpu: Quantity = ZERO;
  for (const which of ['limits', 'requests']) {
    const rl = resourceList(obj(resources[which]) ?? {});
    if (rl.has('memory')) memory = rl.get('memory')!;
    if (rl.has('cpu')) cpu = rl.get('cpu')!;
  }
  const guest = obj(domain['memory'])?.['guest'];
  const parsedGuest = typeof guest === 'string' || typeof guest === 'number' ? parseQ(guest) : undefined;
  if (parsedGuest) memory = parsedGuest;
  const topology = obj(domain['cpu']);
  if (topology) {
    const n = (k: string): number => (typeof topology[k] === 'number' ? (topology[k] as number) : 0);
    let vcpus = n('cores');
    for (const k of ['sockets', 'threads']) if (n(k) !== 0) vcpus = vcpus === 0 ? n(k) : vcpus * n(k);
    cpu = { nano: BigInt(vcpus) * 1_000_000_000n, format: 'BinarySI' };
  }
  if (calculator === 'VirtualResources')
    return new Map([
      ['pods', q('1')],
      ['count/pods', q('1')],
      ['requests.memory', memory],
      ['limits.memory', memory],
      ['requests.cpu', cpu],
      ['limits.cpu', cpu],
    ]);
  // DedicatedVirtualResources: the names differ between AAQ releases (`requests.cpu/vmi`, later
  // `cpu/vmi`); both are counted, a quota names one.
  return new Map([
    ['requests.instances/vmi', q('1')],
    ['instances/vmi', q('1')],
    ['requests.cpu/vmi', cpu],
    ['cpu/vmi', cpu],
    ['requests.memory/vmi', memory],
    ['memory/vmi', memory],
  ]);
}
