/**
 * Where VMs run and how many fit: each VM's launcher pod (expand/preview.ts, rendered
 * with the given nodes as the cluster, so a TSC frequency selector comes from their labels) through
 * kube-scheduler's filters (kubevirt/scheduler.ts) against a node dump and the pods already
 * running.
 */
import type { JsonObject } from '../json';
import { list, obj } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { capacityVm, quotasOf, quotaText, withQuota, type QuotaFields } from './fit-quota';
import { type NodeFit, type Shortfall } from '../kubevirt/scheduler';
import { fitPod, resourceText } from '../kubevirt/scheduler-filters';
import { md } from '../printable';
import { manifestObjects } from './documents';
import { previewVm } from './judge';
import type { ObjectStore } from './references';
import type { SourceDoc } from '../load/source';
import { KINDS_OF } from '../schema/kubevirt-api';

/** The empty pod list, one array, so that the node states of empty nodes are computed once. */
const NO_PODS: readonly JsonObject[] = [];

/** Said whenever running pods were not given. */
export const NO_PODS_NOTE = 'running pods not given (--pods): every node is counted empty';

/** What the fit answer leaves out, said in every output. */
export const FIT_NOT_MODELLED =
  "not modelled: host ports, volume topology and binding, topology spread, inter-pod affinity, DRA, kubelet's CPU and topology managers, preemption";

export interface VmFit {
  readonly name: string;
  /** The nodes the launcher pod fits on. */
  readonly fits: readonly string[];
  readonly nodes: readonly NodeFit[];
  /** The scheduler's summary when no node fits; KubeVirt's refusal when the VM does not start at all. */
  readonly message?: string;
  /** What the pod asks of a node. */
  readonly needs?: NodeNeeds;
}

/** What a node must offer a launcher pod: labels (selector and required affinity), tolerations, free resources. */
export interface NodeNeeds {
  readonly labels: readonly string[];
  readonly tolerates: readonly string[];
  readonly resources: Readonly<Record<string, string>>;
}

export interface NodeCapacity {
  readonly name: string;
  readonly count: number;
  readonly reasons: readonly string[];
  /** The filter that rejects the node. */
  readonly plugin?: string;
  /** The blockers named: untolerated taints, labels wanted, resources short. */
  readonly details?: readonly string[];
  /** With details asked as data (a table that summarizes nodes): each resource short, as numbers; never serialized. */
  readonly short?: readonly Shortfall[];
  /** The node could not take one even with none of the given pods on it. */
  readonly never?: true;
}

export interface InstancetypeCapacity extends QuotaFields {
  readonly name: string;
  readonly kind: string;
  readonly namespace?: string;
  /** With nodes of several architectures: the architecture this row's VM asks for. */
  readonly architecture?: string;
  /** How many more VMs of it fit in the cluster, node by node added up. */
  readonly total: number;
  readonly nodes: readonly NodeCapacity[];
  readonly needs?: NodeNeeds;
  /** KubeVirt's refusal when such a VM does not start at all. */
  readonly refused?: string;
}

export type FitReport =
  | { readonly vms: readonly VmFit[]; readonly notes: readonly string[] }
  | { readonly instancetypes: readonly InstancetypeCapacity[]; readonly notes: readonly string[] };

export interface FitInput {
  /** VM files; without a VirtualMachine among them, the capacity of every instance type of `store`. */
  readonly docs: readonly SourceDoc[];
  readonly store: ObjectStore;
  readonly config: ClusterDefaults;
  readonly nodes: readonly JsonObject[];
  readonly pods: readonly JsonObject[];
  /** Whether running pods were given (without, every node is counted empty, and the report says so). */
  readonly podsGiven?: boolean;
  readonly namespace?: string;
  readonly scope?: CapacityScope;
}

/** `itgen fit`: the VMs of `docs` placed, or the capacity table of the instance types. */
export function fitReport(input: FitInput): FitReport {
  const hasVms = manifestObjects(input.docs).some((f) => f.value['kind'] === 'VirtualMachine');
  const notes = [...(input.podsGiven === false ? [NO_PODS_NOTE] : []), FIT_NOT_MODELLED];
  if (hasVms) return { vms: fitVms(input.docs, input.store, input.config, input.nodes, input.pods, input.namespace), notes };
  const quotas = quotasOf(input.store);
  const cluster = withNodes(input.store, input.nodes);
  return {
    instancetypes: capacity(input.store, input.config, input.nodes, input.pods, input.scope).map((t) =>
      withQuota(t, quotas, input.namespace ?? 'default', cluster, input.config),
    ),
    notes,
  };
}

export function withNodes(store: ObjectStore, nodes: readonly JsonObject[]): ObjectStore {
  return { ...store, cluster: [...(store.cluster ?? []).filter((o) => o['kind'] !== 'Node'), ...nodes] };
}

/** What the pod asks of a node, read off the pod itself. */
export function nodeNeeds(pod: JsonObject, requests: ReadonlyMap<string, bigint>): NodeNeeds {
  const spec = obj(pod['spec']) ?? {};
  const labels = Object.entries(obj(spec['nodeSelector']) ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  const terms = list(obj(obj(obj(spec['affinity'])?.['nodeAffinity'])?.['requiredDuringSchedulingIgnoredDuringExecution'])?.['nodeSelectorTerms']);
  const expr = (r: JsonObject): string => {
    const values = Array.isArray(r['values']) ? r['values'].map(String) : [];
    return `${String(r['key'])} ${String(r['operator'])}${values.length > 0 ? ` (${values.join(', ')})` : ''}`;
  };
  const affinity = terms.map((t) => list(t['matchExpressions']).map(expr).join(' and ')).filter((s) => s !== '');
  if (affinity.length > 0) labels.push(affinity.length === 1 ? affinity[0]! : affinity.map((a) => `(${a})`).join(' or '));
  const tolerates = list(spec['tolerations']).map(
    (t) => `${String(t['key'] ?? '*')}${t['value'] !== undefined ? `=${String(t['value'])}` : ''}${t['effect'] !== undefined ? `:${String(t['effect'])}` : ''}`,
  );
  const resources: Record<string, string> = {};
  for (const [k, v] of [...requests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (v > 0n) resources[k] = resourceText(k, v);
  return { labels, tolerates, resources };
}

/** For each VM of `docs`: the nodes its launcher pod fits on, and why not the others. */
export function fitVms(
  docs: readonly SourceDoc[],
  store: ObjectStore,
  config: ClusterDefaults,
  nodes: readonly JsonObject[],
  pods: readonly JsonObject[],
  namespace = 'default',
): VmFit[] {
  const cluster = withNodes(store, nodes);
  return manifestObjects(docs)
    .filter((f) => f.value['kind'] === 'VirtualMachine')
    .map((f) => {
      const name = String(obj(f.value['metadata'])?.['name'] ?? '(unnamed)');
      const r = previewVm(f.value, cluster, config, String(obj(f.value['metadata'])?.['namespace'] ?? namespace));
      if ('error' in r) return { name, fits: [], nodes: [], message: `KubeVirt would not start it: ${r.error}` };
      const fit = fitPod(r.pod, nodes, pods);
      return {
        name,
        fits: fit.nodes.filter((n) => n.fits).map((n) => n.name),
        nodes: fit.nodes,
        ...(fit.message !== undefined ? { message: fit.message } : {}),
        needs: nodeNeeds(r.pod, fit.requests),
      };
    });
}

/** Which instance types a capacity table lists: cluster-wide, namespaced, or both. */
export type CapacityScope = 'cluster' | 'namespaced' | 'all';

/** The scope a table lists by default: cluster-wide when the catalog has any, else namespaced (one row per object, never both copies). */
export function defaultScope(store: ObjectStore): CapacityScope {
  return store.specObjects.some((o) => o.kind === KINDS_OF.instancetype.cluster) ? 'cluster' : 'namespaced';
}

/** The architectures the nodes have (`kubernetes.io/arch`), sorted. */
export function nodeArchitectures(nodes: readonly JsonObject[]): string[] {
  const archs = new Set<string>();
  for (const n of nodes) {
    const a = obj(obj(n['metadata'])?.['labels'])?.['kubernetes.io/arch'];
    if (typeof a === 'string' && a !== '') archs.add(a);
  }
  return [...archs].sort();
}

/**
 * For every instance type of `store` in `scope`: how many more VMs of it alone (with a container
 * disk) fit on each node and in total, and why a node cannot take one, now or ever. An instance
 * type
 * is architecture-neutral (KubeVirt's preference, not the type, names an architecture): with nodes
 * of several architectures it gets a row per architecture, its VM asking for that one.
 */
export function capacity(
  store: ObjectStore,
  config: ClusterDefaults,
  nodes: readonly JsonObject[],
  pods: readonly JsonObject[],
  scope: CapacityScope = defaultScope(store),
  details: true | 'data' = true,
): InstancetypeCapacity[] {
  const cluster = withNodes(store, nodes);
  const seen = new Set<string>();
  const archs = nodeArchitectures(nodes);
  const kinds =
    scope === 'cluster'
      ? [KINDS_OF.instancetype.cluster]
      : scope === 'namespaced'
        ? [KINDS_OF.instancetype.namespaced]
        : [KINDS_OF.instancetype.cluster, KINDS_OF.instancetype.namespaced];
  return store.specObjects
    .filter((o) => (kinds as string[]).includes(o.kind))
    .filter((o) => {
      const key = `${o.kind}/${o.namespace ?? ''}/${o.name}`;
      return seen.has(key) ? false : (seen.add(key), true);
    })
    .flatMap((o) =>
      // An instance type meant for one architecture is tried on its nodes only.
      (o.architecture !== undefined ? [o.architecture] : archs.length > 0 ? archs : [undefined]).map((arch) =>
        capacityOf(o, arch, archs.length > 1, cluster, config, nodes, pods, details),
      ),
    );
}

function capacityOf(
  o: ObjectStore['specObjects'][number],
  arch: string | undefined,
  perArch: boolean,
  cluster: ObjectStore,
  config: ClusterDefaults,
  nodes: readonly JsonObject[],
  pods: readonly JsonObject[],
  details: true | 'data',
): InstancetypeCapacity {
  const namespace = o.namespace ?? 'default';
  const vm = capacityVm(o.name, o.kind, arch, namespace);
  const id = {
    name: o.name,
    kind: o.kind,
    ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
    ...(perArch && arch !== undefined ? { architecture: arch } : {}),
  };
  const r = previewVm(vm, cluster, config, namespace);
  if ('error' in r) return { ...id, total: 0, nodes: [], refused: r.error };
  const now = fitPod(r.pod, nodes, pods, details);
  // Which of the nodes that cannot take one now never could: the same filters on an empty node.
  const empty = pods.length > 0 && now.nodes.some((n) => !n.fits) ? fitPod(r.pod, nodes, NO_PODS, details) : now;
  // A node that never could says why it never could (a lack of hugepages, not the CPU others use).
  const perNode: NodeCapacity[] = now.nodes.map((n, i) =>
    empty.nodes[i]!.fits
      ? {
          name: n.name,
          count: n.count ?? 0,
          reasons: n.reasons,
          ...(n.plugin ? { plugin: n.plugin } : {}),
          ...(n.details ? { details: n.details } : {}),
          ...(n.short ? { short: n.short } : {}),
        }
      : {
          name: n.name,
          count: 0,
          reasons: empty.nodes[i]!.reasons,
          ...(empty.nodes[i]!.plugin ? { plugin: empty.nodes[i]!.plugin } : {}),
          ...(empty.nodes[i]!.details ? { details: empty.nodes[i]!.details } : {}),
          ...(empty.nodes[i]!.short ? { short: empty.nodes[i]!.short } : {}),
          never: true as const,
        },
  );
  return { ...id, total: perNode.reduce((a, n) => a + n.count, 0), nodes: perNode, needs: nodeNeeds(r.pod, now.requests) };
}

/** Nodes with the same reasons together, most first: `12 nodes (n1, n2, n3, ...): Insufficient memory`. */
function grouped(
  nodes: readonly { readonly name: string; readonly reasons: readonly string[]; readonly details?: readonly string[] }[],
  show: (s: string) => string,
): string[] {
  const groups = new Map<string, string[]>();
  for (const n of nodes) {
    const key = n.reasons.join(', ') + (n.details && n.details.length > 0 ? ` (${n.details.join('; ')})` : '');
    groups.set(key, [...(groups.get(key) ?? []), n.name]);
  }
  return [...groups]
    .sort((a, b) => b[1].length - a[1].length)
    .map(
      ([reasons, names]) =>
        `${names.length === 1 ? show(names[0]!) : `${names.length} nodes (${names.slice(0, 3).map(show).join(', ')}${names.length > 3 ? ', ...' : ''})`}: ${show(reasons)}`,
    );
}

function needsText(n: NodeNeeds, show: (s: string) => string): string {
  const parts = [
    n.labels.length > 0 ? `labels ${n.labels.map(show).join(', ')}` : '',
    n.tolerates.length > 0 ? `taints it tolerates only: ${n.tolerates.map(show).join(', ')}` : '',
    `free ${Object.entries(n.resources)
      .map(([k, v]) => `${show(k)} ${v}`)
      .join(', ')}`,
  ];
  return parts.filter((p) => p !== '').join('; ');
}

const NAMES_SHOWN = 8;

/** A row's instance type as people name it: `ns/name` when namespaced, the architecture when the nodes have several. */
export function capacityName(t: { readonly name: string; readonly namespace?: string; readonly architecture?: string }): string {
  return `${t.namespace !== undefined ? `${t.namespace}/${t.name}` : t.name}${t.architecture !== undefined ? ` (${t.architecture})` : ''}`;
}

/** The report as text: for a terminal or a CI log (the output guard escapes what a dump may hold). */
export function fitText(report: FitReport): string {
  const show = (s: string): string => s;
  const lines: string[] = [];
  if ('vms' in report)
    for (const v of report.vms) {
      const fits =
        v.fits.length > 0
          ? `fits on ${v.fits.slice(0, NAMES_SHOWN).join(', ')}${v.fits.length > NAMES_SHOWN ? ` and ${v.fits.length - NAMES_SHOWN} more` : ''}`
          : (v.message ?? 'fits on no node');
      lines.push(`${v.name}: ${fits}`);
      lines.push(
        ...grouped(
          v.nodes.filter((n) => !n.fits),
          show,
        ).map((l) => `  ${l}`),
      );
      if (v.fits.length === 0 && v.needs) lines.push(`  needs a node with ${needsText(v.needs, show)}`);
    }
  else
    for (const t of report.instancetypes) {
      const name = capacityName(t);
      if (t.refused !== undefined) {
        lines.push(`${name}: KubeVirt would not start it: ${t.refused}`);
        continue;
      }
      const taking = t.nodes.filter((n) => n.count > 0).sort((a, b) => b.count - a.count);
      lines.push(
        `${name}: ${t.total} more${
          taking.length > 0
            ? ` on ${taking.length} node${taking.length === 1 ? '' : 's'} (${taking
                .slice(0, NAMES_SHOWN)
                .map((n) => `${n.name} ${n.count}`)
                .join(', ')}${taking.length > NAMES_SHOWN ? ', ...' : ''})`
            : ''
        }`,
      );
      if (t.quota) lines.push(`  ${quotaText(t)}`);
      const never = t.nodes.filter((n) => n.never);
      const full = t.nodes.filter((n) => n.count === 0 && !n.never);
      if (full.length > 0) lines.push(...grouped(full, show).map((l) => `  full now: ${l}`));
      if (never.length > 0) lines.push(...grouped(never, show).map((l) => `  never: ${l}`));
      if (never.length === t.nodes.length && t.needs) lines.push(`  needs a node with ${needsText(t.needs, show)}`);
    }
  lines.push(`# ${report.notes.join('; ')}`);
  return lines.join('\n');
}

const ROWS_SHOWN = 300;

/** The report as GitHub-flavoured Markdown, every input text a code span (`md`). */
export function fitMarkdown(report: FitReport): string {
  const show = (s: string): string => md(s, { max: 80 });
  const rows: string[] = [];
  if ('vms' in report) {
    rows.push('| VM | fits on | why not elsewhere |', '| --- | --- | --- |');
    for (const v of report.vms.slice(0, ROWS_SHOWN)) {
      const fits =
        v.fits.length > 0
          ? `${v.fits.slice(0, NAMES_SHOWN).map(show).join(', ')}${v.fits.length > NAMES_SHOWN ? ` and ${v.fits.length - NAMES_SHOWN} more` : ''}`
          : `**no node**: ${md(v.message ?? '', { max: 300 })}`;
      rows.push(
        `| ${show(v.name)} | ${fits} | ${grouped(
          v.nodes.filter((n) => !n.fits),
          show,
        )
          .slice(0, 4)
          .join('<br>')} |`,
      );
    }
    if (report.vms.length > ROWS_SHOWN) rows.push('', `(${report.vms.length - ROWS_SHOWN} more VMs)`);
  } else {
    rows.push('| instance type | how many more | on nodes | never on |', '| --- | ---: | --- | --- |');
    for (const t of report.instancetypes.slice(0, ROWS_SHOWN)) {
      const name = show(capacityName(t));
      if (t.refused !== undefined) {
        rows.push(`| ${name} | not started | | ${md(t.refused, { max: 200 })} |`);
        continue;
      }
      const taking = t.nodes.filter((n) => n.count > 0).sort((a, b) => b.count - a.count);
      const never = t.nodes.filter((n) => n.never);
      rows.push(
        `| ${name} | ${t.total} | ${taking
          .slice(0, 4)
          .map((n) => `${show(n.name)} ${n.count}`)
          .join(', ')}${taking.length > 4 ? ` and ${taking.length - 4} more` : ''} | ${grouped(never, show).slice(0, 3).join('<br>')} |`,
      );
    }
    if (report.instancetypes.length > ROWS_SHOWN) rows.push('', `(${report.instancetypes.length - ROWS_SHOWN} more instance types)`);
  }
  return [...rows, '', `_${report.notes.join('; ')}_`].join('\n');
}
