import { hasErrors, strictify, type Diagnostic } from '../diagnostics';
import { fitReport, type FitReport } from '../expand/fit';
import type { JsonObject } from '../json';
import type { Project } from '../project';
import { fromNote, type Report } from './report';

export interface FitOptions {
  /** VM files or directories; none: every instance type's capacity. */
  readonly vms?: readonly string[];
  /** `kubectl get nodes -o yaml`. */
  readonly nodes: string;
  /** `kubectl get pods -A -o yaml`: what already runs. */
  readonly pods?: string;
  /** The namespace of VMs that name none. */
  readonly namespace?: string;
}

export interface FitRun extends Report {
  readonly fit?: FitReport;
}

/** `itgen fit`: kube-scheduler's filters on each VM's launcher pod against a node dump, or every instance type's capacity. */
export function fit(project: Project, opts: FitOptions): FitRun {
  const input = project.manifests(opts.vms ?? []);
  const catalogs = project.catalogs('besides');
  const diagnostics: Diagnostic[] = [...strictify([...catalogs.diagnostics, ...input.diagnostics], project.inputs.strict ?? false)];
  const nodes = project.clusterDump(opts.nodes, 'Node');
  diagnostics.push(...nodes.diagnostics);
  let pods: JsonObject[] = [];
  if (opts.pods !== undefined) {
    const read = project.clusterDump(opts.pods, 'Pod');
    diagnostics.push(...read.diagnostics);
    pods = read.objects;
  }
  const cr = project.kubevirt();
  diagnostics.push(...cr.diagnostics);
  if (catalogs.blocking || hasErrors(diagnostics)) return { diagnostics, notes: [] };
  const result = fitReport({
    docs: input.docs,
    store: catalogs.store,
    config: project.config(),
    nodes: nodes.objects,
    pods,
    namespace: opts.namespace ?? 'default',
  });
  return { fit: result, diagnostics, notes: fromNote(catalogs.from) };
}
