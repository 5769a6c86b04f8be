import { hasErrors, strictify } from '../diagnostics';
import { objectStore } from '../expand';
import { mergeStores } from '../expand/references';
import { expandDocuments, manifestObjects, type ExpandOutcome } from '../expand/documents';
import { mappingToYaml } from '../emit/serialize';
import { templatesAsVms } from '../expand/templates';
import { NEWEST_RELEASE } from '../kubevirt/releases';
import type { Project } from '../project';
import { kubeObject, type KubeObjectJson } from '../json';
import type { Inference } from '../expand/mutate';
import { type Report } from './report';

export interface ExpandVmsOptions {
  /** VM files, directories, or `-`. */
  readonly files: readonly string[];
  /** What to print each VM as: expanded (default), the VMI it starts as, or its virt-launcher pod. */
  readonly as?: 'vm' | 'vmi' | 'pod';
  readonly namespace?: string;
  /** VMs as the cluster stores them (the mutating webhook already ran). */
  readonly stored?: boolean;
  /** Only expand, as the expand-spec subresource does. */
  readonly skipAdmission?: boolean;
  /** Node dumps the launcher pod's render reads (TSC), besides the `--with` files. */
  readonly nodes?: readonly string[];
}

export interface ExpandVmsReport extends Report {
  readonly as: 'vm' | 'vmi' | 'pod';
  readonly outcomes: readonly ExpandOutcome[];
}

/**
 * `itgen expand`: each VirtualMachine of the files as KubeVirt expands it (or the VMI and pod it
 * starts as), against the instance types and preferences of the project and of the `--with` files.
 */
export function expandVms(project: Project, opts: ExpandVmsOptions): ExpandVmsReport {
  const as = opts.as ?? 'vm';
  const input = project.manifests(opts.files);
  const catalogs = project.catalogs('besides');
  const nodes = project.manifests(opts.nodes ?? []);
  const store = nodes.docs.length > 0 ? mergeStores(catalogs.store, objectStore(manifestObjects(nodes.docs).map((f) => f.value))) : catalogs.store;
  const problems = strictify([...catalogs.diagnostics, ...nodes.diagnostics, ...input.diagnostics], project.inputs.strict ?? false);
  // What the inputs may reference is unsound: judging them would only add errors that follow from it.
  if (catalogs.blocking || hasErrors(strictify(nodes.diagnostics, false))) return { as, outcomes: [], diagnostics: problems, notes: [] };
  const cr = project.kubevirt();
  if (hasErrors(cr.diagnostics)) return { as, outcomes: [], diagnostics: [...problems, ...cr.diagnostics], notes: [] };
  // A VirtualMachineTemplate expands as the VM its defaults make (virt-template-engine's processing).
  const templated = templatesAsVms(input.docs, [project.config().release ?? NEWEST_RELEASE]);
  const { outcomes, diagnostics } = expandDocuments(templated.docs, store, {
    admission: !opts.skipAdmission,
    namespace: opts.namespace ?? 'default',
    mutate: opts.stored ? 'stored' : 'applied',
    kubevirt: project.config(),
  });
  const all = strictify(
    [...problems, ...cr.diagnostics, ...templated.diagnostics, ...diagnostics, ...outcomes.flatMap((o) => o.diagnostics)],
    project.inputs.strict ?? false,
  );
  return { as, outcomes, diagnostics: all, notes: [] };
}

/** What was applied to a VM of a List: the instance type and preference, and what was inferred from volumes. */
export interface AppliedJson {
  readonly name: string;
  readonly instancetype?: string;
  readonly preference?: string;
  readonly inferred: readonly Inference[];
}

/** `expand -o json` of several VMs: a List, and beside it what was applied to each. */
export interface ExpandedListJson {
  readonly apiVersion: 'v1';
  readonly kind: 'List';
  readonly items: readonly KubeObjectJson[];
  readonly references: readonly AppliedJson[];
}

/** `expand --as vmi|pod -o json`: a List of the VMIs (or launcher pods), and what each preview assumed. */
export interface PreviewListJson {
  readonly apiVersion: 'v1';
  readonly kind: 'List';
  readonly items: readonly KubeObjectJson[];
  readonly notes: readonly { readonly name: string; readonly memoryOverhead?: string; readonly notes: readonly string[] }[];
}

/** `expand -o json`: the one VirtualMachine, or a List of them (or of VMIs, or launcher pods). */
export type ExpandJson = KubeObjectJson | ExpandedListJson | PreviewListJson;

/** The JSON document of an expansion, or undefined when nothing was expanded. */
export function expandJson(r: ExpandVmsReport): ExpandJson | undefined {
  const { as, outcomes } = r;
  if (as !== 'vm') {
    const started = outcomes.filter((o) => (as === 'vmi' ? o.vmi : o.pod));
    return {
      apiVersion: 'v1',
      kind: 'List',
      items: started.map((o) => kubeObject(as === 'vmi' ? o.vmi! : o.pod!)),
      notes: started.map((o) => ({ name: o.name, ...(o.memoryOverhead !== undefined ? { memoryOverhead: o.memoryOverhead } : {}), notes: o.notes ?? [] })),
    };
  }
  const done = outcomes.filter((o) => o.vm);
  if (done.length === 0) return undefined;
  if (done.length === 1) return kubeObject(done[0]!.vm!);
  // What was applied is said beside each VM (the List's `references`), never in it.
  return {
    apiVersion: 'v1',
    kind: 'List',
    items: done.map((o) => kubeObject(o.vm!)),
    references: done.map((o) => ({ name: o.name, inferred: [], ...o.applied })),
  };
}

/** The VMs (or VMIs, or pods) as YAML with what was applied as comments, or JSON with it beside them. */
export function expandText(r: ExpandVmsReport, output: 'yaml' | 'json'): string | undefined {
  if (output === 'json') {
    const doc = expandJson(r);
    return doc === undefined ? undefined : JSON.stringify(doc, null, 2);
  }
  const { as, outcomes } = r;
  if (as !== 'vm') {
    const started = outcomes.filter((o) => (as === 'vmi' ? o.vmi : o.pod));
    return started.length > 0 ? started.map((o) => `${previewComment(o, as)}${mappingToYaml(as === 'vmi' ? o.vmi! : o.pod!)}`).join('---\n') : undefined;
  }
  const done = outcomes.filter((o) => o.vm);
  if (done.length === 0) return undefined;
  return done.map((o) => `${appliedComment(o)}${mappingToYaml(o.vm!)}`).join('---\n');
}

/** What a preview assumed, as comments above the object (the memory overhead for a pod). */
function previewComment(o: ExpandOutcome, as: 'vmi' | 'pod'): string {
  const lines = [
    `# ${o.name}: the ${as === 'vmi' ? 'VirtualMachineInstance it starts as' : `virt-launcher pod KubeVirt renders for it (memory overhead ${o.memoryOverhead ?? '?'})`}`,
    ...(o.notes ?? []).map((n) => `# note: ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `# expanded with VirtualMachineClusterInstancetype u1.medium and VirtualMachineClusterPreference fedora (preference inferred from volume rootdisk: DataSource fedora)` */
function appliedComment(o: ExpandOutcome): string {
  const a = o.applied;
  if (!a || (!a.instancetype && !a.preference)) return '';
  const parts = [a.instancetype, a.preference].filter((x): x is string => x !== undefined);
  const inferred = a.inferred.map((i) => `${i.which} inferred from volume ${i.volume}: ${i.from}`);
  return `# ${o.name}: expanded with ${parts.join(' and ')}${inferred.length > 0 ? ` (${inferred.join('; ')})` : ''}\n`;
}
