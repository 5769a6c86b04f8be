import { validateManifests } from '../admission';
import { ownerIntent } from '../admission/intent';
import { admissionPolicyVerdicts } from '../policy/evaluate';
import { diag, hasErrors, strictify, type Diagnostic } from '../diagnostics';
import type { Project } from '../project';
import { NEWEST_RELEASE } from '../kubevirt/releases';
import { isTemplateDocument } from '../kubevirt/template';
import { checkedProject, type CheckedGenerator } from './generate';
import { sweepTemplate, templatesAsVms, withSweepHints, type Sweep, type TemplateVms } from '../expand/templates';
import type { Judging } from '../expand/judging';
import type { ObjectStore } from '../expand/references';
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
  readonly generators: readonly CheckedGenerator[];
}

/**
 * `itgen validate`: without files, every check `generate` runs (the release lock, the removal
 * guard, deploy paths, GitOps syncs, and the VMs of `vms`); with files, their instance types,
 * preferences and VMs judged as KubeVirt's webhooks judge them, against the project's objects and
 * the `--with` files.
 */
export function validate(project: Project, opts: ValidateOptions = {}): ValidateReport {
  const { inputs } = project;
  // A VM repository (no generators/, the platform's objects given): `--vms DIR` is what to judge.
  if ((opts.files ?? []).length === 0 && (opts.vms ?? []).length > 0 && !project.hasGenerators()) return validate(project, { files: opts.vms ?? [] });
  if ((opts.files ?? []).length === 0) {
    const { generators, diagnostics } = checkedProject(project, { allowRemovals: opts.allowRemovals ?? false, vms: opts.vms ?? [] });
    // The platform's admission policies judge the VMs kept in Git too; with no VM to judge, say so.
    const given = (inputs.policies ?? []).length > 0;
    const policies = project.admissionPolicies();
    const vms = given && (opts.vms ?? []).length > 0 ? project.manifests(opts.vms ?? []).docs : [];
    const policyVerdicts = given
      ? vms.length > 0
        ? [...policies.diagnostics, ...admissionPolicyVerdicts(policies.objects, vms)]
        : [
            diag('IT1011', '--policies judges VirtualMachines: give them with --vms DIR, or as files (validate FILE --policies ...)', undefined, {
              severity: 'warning',
            }),
          ]
      : [];
    return { generators, diagnostics: [...diagnostics, ...strictify(policyVerdicts, inputs.strict ?? false)], notes: [] };
  }
  const input = project.manifests(opts.files ?? []);
  const catalogs = project.catalogs('besides');
  const problems: Diagnostic[] = strictify(
    [...(project.hasGenerators() || (inputs.with ?? []).length > 0 ? catalogs.diagnostics : []), ...input.diagnostics],
    inputs.strict ?? false,
  );
  // What the inputs may reference is unsound: judging them would only add errors that follow from it.
  if (catalogs.blocking && (project.hasGenerators() || (inputs.with ?? []).length > 0)) return { generators: [], diagnostics: problems, notes: [] };
  const cr = project.kubevirt();
  if (hasErrors(cr.diagnostics)) return { generators: [], diagnostics: [...problems, ...cr.diagnostics], notes: [] };
  // VirtualMachineTemplates: what the API server and virt-template's webhook say of each as applied,
  // and the VM it makes with its defaults judged like VM files.
  const templated = templatesAsVms(
    input.docs,
    project.configs().map((c) => c.release ?? NEWEST_RELEASE),
    'webhook',
  );
  // The one judge (expand/judge.ts) for each VM, under each configuration the project targets.
  const judging = { configs: project.configs(), defaultsOnly: !cr.config };
  // Only templates, none processed (refused, or waiting for a required parameter): nothing else to judge.
  const onlyTemplates = templated.docs.length === 0 && input.docs.some((d) => isTemplateDocument(d.value));
  const judged = onlyTemplates ? [] : validateManifests(templated.docs, catalogs.store, judging);
  const verdict = [...templated.diagnostics, ...withSweepHints(judged, sweepsOfRefused(templated, judged, catalogs.store, judging))];
  const intent = ownerIntent(
    templated.docs,
    catalogs.store,
    catalogs.sources.flatMap((c) => c.objects),
  );
  // The platform's admission policies (--policies, or among the --with files): applied, never ignored.
  const policies = project.admissionPolicies();
  const policyVerdicts = [...policies.diagnostics, ...admissionPolicyVerdicts(policies.objects, templated.docs)];
  const all = strictify([...problems, ...cr.diagnostics, ...verdict, ...intent, ...policyVerdicts], inputs.strict ?? false);
  return {
    generators: [],
    diagnostics: all,
    notes: [...fromNote(catalogs.from), ...configurationNote(project)],
  };
}

/** `validated 2 generators (default: 35 objects, acme: 208 objects), 3 warnings`: what a silent success checked. */
export function checkedSummary(what: string, generators: readonly CheckedGenerator[], diagnostics: readonly Diagnostic[]): string {
  const each = generators.map((g) => `${g.name}: ${g.objects} objects in ${g.outputDir}`);
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  return `${what} ${each.length} generator${each.length === 1 ? '' : 's'} (${each.join('; ')}), ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

/** Said once: which releases and configuration the VMs were judged under. */
export function configurationNote(project: Project): string[] {
  const releases = project.configs().map((c) => c.release ?? NEWEST_RELEASE);
  const at = `KubeVirt ${releases.join(', ')}`;
  return [
    project.kubevirt().config
      ? `judged at ${at} with the cluster's configuration (--kubevirt)`
      : `judged at ${at} with KubeVirt's default configuration of each (no --kubevirt)`,
  ];
}

/** The sweep of each template whose VM the judge refused: the values its instance type or preference parameter can take. */
function sweepsOfRefused(templated: TemplateVms, judged: readonly Diagnostic[], store: ObjectStore, judging: Judging): { file: string; sweep: Sweep }[] {
  const refused = new Set(judged.filter((d) => d.severity === 'error' && /^IT800[238]$/.test(d.code)).map((d) => d.location?.file));
  return templated.templates
    .filter((t) => t.processed.vm !== undefined && refused.has(t.src.file))
    .flatMap((t) => sweepTemplate(t.src, t.processed, store, judging).map((sweep) => ({ file: t.src.file, sweep })));
}
