import { validateManifests } from '../admission';
import { strictify, type Diagnostic } from '../diagnostics';
import type { Project } from '../project';
import { checkProject, type ProjectOptions } from '../release/project';
import type { CompileResult } from '../pipeline';
import { fromNote, type Report } from './report';

export interface ValidateOptions {
  /** Manifest files to judge as KubeVirt's admission does; none: every check of the project. */
  readonly files?: readonly string[];
  /** VirtualMachines kept in Git, judged against the catalogs (project checks). */
  readonly vms?: readonly string[];
  /** Accept dropping objects the committed base has, before the first release. */
  readonly allowRemovals?: boolean;
}

export interface ValidateReport extends Report {
  /** The generators checked (project checks). */
  readonly results: readonly CompileResult[];
}

/**
 * `itgen validate`: without files, every check `generate` runs (the release lock, the removal
 * guard, deploy paths, GitOps syncs, and the VMs of `vms`); with files, their instance types,
 * preferences and VMs judged as KubeVirt's webhooks judge them, against the project's objects and
 * the `--with` files.
 */
export function validate(project: Project, opts: ValidateOptions = {}): ValidateReport {
  const { inputs } = project;
  if ((opts.files ?? []).length === 0) {
    const options: ProjectOptions = {
      ...(inputs.generators ? { generators: inputs.generators } : {}),
      strict: inputs.strict ?? false,
      allowRemovals: opts.allowRemovals ?? false,
      vms: opts.vms ?? [],
      cwd: project.cwd,
      base: inputs.base,
      bundles: inputs.bundles,
    };
    const { results, diagnostics } = checkProject(project.root, options);
    return { results, diagnostics, notes: [] };
  }
  const input = project.manifests(opts.files ?? []);
  const catalogs = project.catalogs('besides');
  const problems: Diagnostic[] = strictify(
    [...(project.hasGenerators() || (inputs.with ?? []).length > 0 ? catalogs.diagnostics : []), ...input.diagnostics],
    inputs.strict ?? false,
  );
  // What the inputs may reference is unsound: judging them would only add errors that follow from it.
  if (catalogs.blocking && (project.hasGenerators() || (inputs.with ?? []).length > 0)) return { results: [], diagnostics: problems, notes: [] };
  const all = strictify([...problems, ...validateManifests(input.docs, catalogs.store)], inputs.strict ?? false);
  return { results: [], diagnostics: all, notes: fromNote(catalogs.from) };
}

/** `validated 2 generators (default: 35 objects, acme: 208 objects), 3 warnings`: what a silent success checked. */
export function checkedSummary(what: string, results: readonly CompileResult[], diagnostics: readonly Diagnostic[]): string {
  const each = results.flatMap((r) => (r.generator ? [`${r.generator.name}: ${r.objects.length} objects in ${r.generator.outputDir}`] : []));
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  return `${what} ${each.length} generator${each.length === 1 ? '' : 's'} (${each.join('; ')}), ${warnings} warning${warnings === 1 ? '' : 's'}`;
}
