/**
 * What each instance type and preference asks of a cluster, from the same code that starts a VM
 * (expand/preview.ts): the virt-launcher pod's requests (CPU, memory with KubeVirt's overhead,
 * hugepages, devices) and what a node must offer (labels and resources). For an instance type: a
 * VM naming it alone, with a pod network and KubeVirt's graphics device (the defaults); for a
 * preference: a 1-vCPU VM (or the preference's required size) naming it alone, and what the
 * preference adds to the overhead of the same VM without it. Issue 31's "node prerequisites stop
 * being prose": README, `explain` and `itgen facts` print these.
 */
import type { JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { obj } from '../json';
import { add, parseQ, qString, sub, type Quantity } from '../quantity';
import { ARCH_LABEL, objectStore, type ObjectStore } from './references';
import { previewVm } from './judge';
import { KINDS_OF } from '../schema/kubevirt-api';

export interface LauncherFacts {
  readonly kind: string;
  readonly name: string;
  /** What the compute container requests of the scheduler (requests; device plugins as limits = requests). */
  readonly requests?: Readonly<Record<string, string>>;
  /** The memory KubeVirt adds to the guest's (`kubevirt.io/memory-overhead-bytes`). */
  readonly memoryOverhead?: string;
  /** The node labels the pod's node selector requires. */
  readonly nodeLabels?: Readonly<Record<string, string>>;
  /** For a preference: what it adds to (or takes from) the memory overhead of the same VM without it. */
  readonly overheadDelta?: string;
  /** Why KubeVirt would not start such a VM (a webhook's or the render's words). */
  readonly refused?: string;
}

const INSTANCETYPE_KINDS: ReadonlySet<string> = new Set([KINDS_OF.instancetype.cluster, KINDS_OF.instancetype.namespaced]);
const PREFERENCE_KINDS: ReadonlySet<string> = new Set([KINDS_OF.preference.cluster, KINDS_OF.preference.namespaced]);

function vmFor(matchers: JsonObject, domain: JsonObject, namespace: string): JsonObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: 'facts', namespace },
    spec: { runStrategy: 'Always', ...matchers, template: { spec: { domain: { devices: {}, ...domain } } } },
  };
}

/** The compute container's requests and the pod's node selector, or KubeVirt's refusal. */
function podFacts(vm: JsonObject, store: ObjectStore, config: ClusterDefaults): Omit<LauncherFacts, 'kind' | 'name'> & { overhead?: Quantity | undefined } {
  const r = previewVm(vm, store, config, String(obj(vm['metadata'])?.['namespace'] ?? 'default'));
  if ('error' in r) return { refused: r.error };
  const spec = obj(r.pod['spec']) ?? {};
  const compute = obj((spec['containers'] as JsonObject[])[0]) ?? {};
  const requests = obj(obj(compute['resources'])?.['requests']) ?? {};
  const limits = obj(obj(compute['resources'])?.['limits']) ?? {};
  // Extended resources (devices) are requested through limits; show them beside the requests.
  const all: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...limits, ...requests }))
    if (k !== 'ephemeral-storage' && (k in requests || !['cpu', 'memory'].includes(k))) all[k] = String(v);
  const nodeLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(spec['nodeSelector']) ?? {})) nodeLabels[k] = String(v);
  return { requests: all, memoryOverhead: r.memoryOverhead, nodeLabels, overhead: parseQ(r.memoryOverhead) };
}

/**
 * Facts for every instance type and preference among `objects` (cluster-scoped ones and namespaced
 * ones of `namespace`), resolved against `store`.
 */
export function launcherFacts(objects: readonly JsonObject[], store: ObjectStore, config: ClusterDefaults, namespace = 'default'): LauncherFacts[] {
  const out: LauncherFacts[] = [];
  for (const o of objects) {
    const kind = String(o['kind']);
    const name = String(obj(o['metadata'])?.['name'] ?? '');
    if (INSTANCETYPE_KINDS.has(kind)) {
      // A VM of an instance type meant for one architecture runs on it (the object's label).
      const arch = obj(obj(o['metadata'])?.['labels'])?.[ARCH_LABEL];
      const vm = vmFor({ instancetype: { name, kind } }, {}, namespace);
      if (typeof arch === 'string' && arch !== '') obj(obj(obj(vm['spec'])!['template'])!['spec'])!['architecture'] = arch;
      const f = podFacts(vm, store, config);
      out.push({ kind, name, ...withoutOverhead(f) });
    } else if (PREFERENCE_KINDS.has(kind)) {
      const req = obj(obj(o['spec'])?.['requirements']);
      const cpu = Math.max(1, Number(obj(req?.['cpu'])?.['guest'] ?? 1) || 1);
      const memory = String(obj(req?.['memory'])?.['guest'] ?? '1Gi');
      // The vCPUs where the preference's requirements look for them (its preferred topology).
      const topology = String(obj(obj(o['spec'])?.['cpu'])?.['preferredCPUTopology'] ?? 'preferSockets');
      const field = /cores/i.test(topology) ? 'cores' : /threads/i.test(topology) ? 'threads' : 'sockets';
      const domain = { cpu: topology === 'spread' ? { sockets: cpu, cores: 1, threads: 1 } : { [field]: cpu }, memory: { guest: memory } };
      const f = podFacts(vmFor({ preference: { name, kind } }, domain, namespace), store, config);
      const sameWithout = podFacts(vmFor({}, domain, namespace), store, config);
      const delta = f.overhead && sameWithout.overhead ? sub(add({ nano: 0n, format: 'BinarySI' }, f.overhead), sameWithout.overhead) : undefined;
      out.push({ kind, name, ...withoutOverhead(f), ...(delta ? { overheadDelta: qString(delta) } : {}) });
    }
  }
  return out;
}

function withoutOverhead(f: ReturnType<typeof podFacts>): Omit<LauncherFacts, 'kind' | 'name'> {
  const { overhead, ...rest } = f;
  void overhead;
  return rest;
}

const code = (s: string): string => `\`${s.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;

/** The resources a pod asks a node for (CPU, memory, hugepages, devices), in one cell. */
function resourcesCell(f: LauncherFacts): string {
  const r = f.requests ?? {};
  const parts = [
    ...(r['cpu'] !== undefined ? [`CPU ${r['cpu']}`] : []),
    ...(r['memory'] !== undefined ? [`memory ${r['memory']}${f.memoryOverhead !== undefined ? ` (overhead ${f.memoryOverhead})` : ''}`] : []),
    ...Object.keys(r)
      .filter((k) => k.startsWith('hugepages-'))
      .map((k) => `${k} ${r[k]}`),
    ...Object.keys(r)
      .filter((k) => !['cpu', 'memory'].includes(k) && !k.startsWith('hugepages-') && !k.startsWith('devices.kubevirt.io/'))
      .map((k) => `${code(k)} ${r[k]}`),
  ];
  return parts.join(', ');
}

/** The node labels beyond those every launcher pod asks for (schedulable, architecture, machine type). */
function labelsCell(f: LauncherFacts): string {
  const own = Object.keys(f.nodeLabels ?? {}).filter(
    (k) => k !== 'kubevirt.io/schedulable' && k !== 'kubernetes.io/arch' && !k.startsWith('machine-type.node.kubevirt.io/'),
  );
  return own.length > 0 ? own.map(code).join(', ') : '—';
}

/** The README section: what each instance type's launcher pod requests and what a node must offer. */
export function factsMarkdown(facts: readonly LauncherFacts[]): string {
  const its = facts.filter((f) => INSTANCETYPE_KINDS.has(f.kind));
  const seen = new Set<string>();
  const rows = its
    .filter((f) => (seen.has(f.name) ? false : (seen.add(f.name), true)))
    .map(
      (f) =>
        `| ${code(f.name)} | ${f.refused !== undefined ? `not started: ${f.refused.replace(/\|/g, '\\|').slice(0, 200)}` : resourcesCell(f)} | ${f.refused !== undefined ? '' : labelsCell(f)} |`,
    );
  return ['| instance type | the launcher pod requests | the node needs labels |', '| --- | --- | --- |', ...rows].join('\n');
}

/**
 * Facts for a generator's objects: its cluster-scoped instance types and preferences (or, with none,
 * its namespaced ones, in their namespace).
 */
export function catalogFacts(manifests: readonly JsonObject[], config: ClusterDefaults, which: 'all' | 'instancetypes' = 'all'): LauncherFacts[] {
  const cluster = manifests.filter((m) => m['kind'] === KINDS_OF.instancetype.cluster || m['kind'] === KINDS_OF.preference.cluster);
  const chosen = cluster.length > 0 ? cluster : manifests.filter((m) => INSTANCETYPE_KINDS.has(String(m['kind'])) || PREFERENCE_KINDS.has(String(m['kind'])));
  const subjects = which === 'instancetypes' ? chosen.filter((m) => INSTANCETYPE_KINDS.has(String(m['kind']))) : chosen;
  const namespace = String(obj(subjects[0]?.['metadata'])?.['namespace'] ?? 'default');
  return launcherFacts(subjects, objectStore(chosen), config, namespace);
}

/** CSV of the facts: one row per object, quoted as RFC 4180 says. */
export function factsCsv(rows: readonly { generator: string; facts: readonly LauncherFacts[] }[]): string {
  const q = (v: string): string => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [['generator', 'kind', 'name', 'cpu', 'memory', 'memoryOverhead', 'hugepages', 'devices', 'nodeLabels', 'overheadDelta', 'refused'].join(',')];
  for (const { generator, facts } of rows)
    for (const f of facts) {
      const r = f.requests ?? {};
      const hp = Object.keys(r)
        .filter((k) => k.startsWith('hugepages-'))
        .map((k) => `${k}=${r[k]}`)
        .join(' ');
      const devices = Object.keys(r)
        .filter((k) => !['cpu', 'memory'].includes(k) && !k.startsWith('hugepages-'))
        .map((k) => `${k}=${r[k]}`)
        .join(' ');
      const labels = Object.entries(f.nodeLabels ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      lines.push(
        [generator, f.kind, f.name, r['cpu'] ?? '', r['memory'] ?? '', f.memoryOverhead ?? '', hp, devices, labels, f.overheadDelta ?? '', f.refused ?? '']
          .map((v) => q(String(v)))
          .join(','),
      );
    }
  return lines.join('\n');
}

/** `explain`'s trailer: what a VM of the object asks of a node, as YAML comments. */
export function factsComment(f: LauncherFacts): string {
  const subject = INSTANCETYPE_KINDS.has(f.kind) ? 'a VM of this instance type alone' : 'a VM of its required size with this preference';
  if (f.refused !== undefined) return `# launcher pod (itgen expand --as pod) of ${subject}: KubeVirt would not start it: ${f.refused}`;
  const lines = [
    `# launcher pod (itgen expand --as pod) of ${subject}, KubeVirt's default configuration:`,
    `#   requests ${resourcesCell(f).replace(/`/g, '')}`,
    `#   node labels ${Object.keys(f.nodeLabels ?? {}).join(', ')}`,
    ...(f.overheadDelta !== undefined ? [`#   the preference adds ${f.overheadDelta} to the memory overhead`] : []),
  ];
  return lines.join('\n');
}
