import { hasErrors, strictify } from '../diagnostics';
import { objectStore, type ObjectStore } from '../expand';
import { expandDocuments, manifestObjects, type ExpandOutcome } from '../expand/documents';
import type { JsonObject } from '../json';
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
  const store =
    nodes.docs.length > 0
      ? withObjects(
          catalogs.store,
          manifestObjects(nodes.docs).map((f) => f.value),
        )
      : catalogs.store;
  const problems = strictify([...catalogs.diagnostics, ...nodes.diagnostics, ...input.diagnostics], project.inputs.strict ?? false);
  // What the inputs may reference is unsound: judging them would only add errors that follow from it.
  if (catalogs.blocking || hasErrors(strictify(nodes.diagnostics, false))) return { as, outcomes: [], diagnostics: problems, notes: [] };
  const cr = project.kubevirt();
  if (hasErrors(cr.diagnostics)) return { as, outcomes: [], diagnostics: [...problems, ...cr.diagnostics], notes: [] };
  const { outcomes, diagnostics } = expandDocuments(input.docs, store, {
    admission: !opts.skipAdmission,
    namespace: opts.namespace ?? 'default',
    mutate: opts.stored ? 'stored' : 'applied',
    as,
    ...(cr.config ? { kubevirt: cr.config, cluster: cr.config } : {}),
  });
  const all = strictify([...problems, ...cr.diagnostics, ...diagnostics, ...outcomes.flatMap((o) => o.diagnostics)], project.inputs.strict ?? false);
  return { as, outcomes, diagnostics: all, notes: [] };
}

/** A store with more objects in it. */
function withObjects(store: ObjectStore, objects: readonly JsonObject[]): ObjectStore {
  const more = objectStore(objects);
  return {
    specObjects: [...store.specObjects, ...more.specObjects],
    volumes: [...store.volumes, ...more.volumes],
    revisions: [...(store.revisions ?? []), ...(more.revisions ?? [])],
    cluster: [...(store.cluster ?? []), ...(more.cluster ?? [])],
  };
}
