import { diag, hasErrors, strictify, type Diagnostic } from '../diagnostics';
import { manifestObjects } from '../expand/documents';
import { fitReport, type CapacityScope, type FitReport } from '../expand/fit';
import { placeTogether, type TogetherJson, type TogetherReport } from '../expand/place';
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
  /** Place the VMs together, one after another, as the scheduler would (`--together`). */
  readonly together?: boolean;
  /** Which instance types the capacity table lists (default: cluster-wide ones when there are any). */
  readonly scope?: CapacityScope;
}

export interface FitRun extends Report {
  readonly fit?: FitReport;
  readonly together?: TogetherReport;
}

/**
 * `itgen fit`: kube-scheduler's filters on each VM's launcher pod against a node dump, or every instance
 * type's capacity; with `together`, the VMs placed one after another as the scheduler would, then the
 * capacity on what remains.
 */
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
  const fitInput = {
    docs: input.docs,
    store: catalogs.store,
    config: project.config(),
    nodes: nodes.objects,
    pods,
    podsGiven: opts.pods !== undefined,
    namespace: opts.namespace ?? 'default',
    ...(opts.scope !== undefined ? { scope: opts.scope } : {}),
  };
  if (opts.together) {
    if (!manifestObjects(input.docs).some((f) => f.value['kind'] === 'VirtualMachine'))
      return { diagnostics: [...diagnostics, diag('IT1011', '--together places VMs: name VM files or directories')], notes: [] };
    return { together: placeTogether(fitInput), diagnostics, notes: fromNote(catalogs.from) };
  }
  return { fit: fitReport(fitInput), diagnostics, notes: fromNote(catalogs.from) };
}

export { fitMarkdown, fitText, type CapacityScope } from '../expand/fit';
export { togetherJson, togetherMarkdown, togetherText, type TogetherJson } from '../expand/place';

/** `fit -o json`: each VM's nodes, the capacity table of the instance types, or (`--together`) the VMs placed together. */
export type FitJson = FitReport | TogetherJson;

/** A fit's report as JSON (the capacity table, or each VM's nodes). */
export function fitJson(report: FitReport): string {
  const doc: FitJson = report;
  return JSON.stringify(doc, null, 2);
}
