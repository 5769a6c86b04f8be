import { hasErrors, strictify } from '../diagnostics';
import { objectStore } from '../expand';
import { mergeStores } from '../expand/references';
import { expandDocuments, manifestObjects, type ExpandOutcome } from '../expand/documents';
import { mappingToYaml } from '../emit/serialize';
import { templatesAsVms } from '../expand/templates';
import { NEWEST_RELEASE } from '../kubevirt/releases';
import type { Project } from '../project';
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

/** The VMs (or VMIs, or pods) as YAML with what was applied as comments, or JSON with it beside them. */
export function expandText(r: ExpandVmsReport, output: 'yaml' | 'json'): string | undefined {
  const { as, outcomes } = r;
  if (as !== 'vm') {
    const started = outcomes.filter((o) => (as === 'vmi' ? o.vmi : o.pod));
    const objects = started.map((o) => (as === 'vmi' ? o.vmi! : o.pod!));
    if (output === 'json')
      return JSON.stringify(
        {
          apiVersion: 'v1',
          kind: 'List',
          items: objects,
          notes: started.map((o) => ({ name: o.name, memoryOverhead: o.memoryOverhead, notes: o.notes ?? [] })),
        },
        null,
        2,
      );
    return objects.length > 0 ? started.map((o, i) => `${previewComment(o, as)}${mappingToYaml(objects[i]!)}`).join('---\n') : undefined;
  }
  const done = outcomes.filter((o) => o.vm);
  const vms = done.map((o) => o.vm!);
  if (vms.length === 0) return undefined;
  // What was applied is said beside each VM (a comment, or the List's `references`), never in it.
  if (output === 'json')
    return JSON.stringify(
      vms.length === 1 ? vms[0] : { apiVersion: 'v1', kind: 'List', items: vms, references: done.map((o) => ({ name: o.name, ...o.applied })) },
      null,
      2,
    );
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
