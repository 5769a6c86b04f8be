import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { writeFilesAtomic, writeProblem } from '../emit/write';
import { defaultVendor, scaffoldProblem } from '../scaffold';
import { planInit } from '../scaffold/init';
import { planVmGate } from '../scaffold/vms';
import type { Report } from './report';

export interface InitOptions {
  /** The generator and catalog name; default the directory's name, made a name. */
  readonly name?: string;
  /** The vendor label; default `<name>.example.com`. */
  readonly vendor?: string;
  readonly ci?: 'github' | 'gitlab' | 'none';
  readonly gitops?: 'argocd' | 'flux';
  readonly repoUrl?: string;
  readonly pages?: boolean;
  /** A VM owner's repository: only the CI job that validates the VMs under this directory against the bundle. */
  readonly vms?: string;
  /** With `vms`: the platform's bundle (file or directory) and the cluster's KubeVirt CR the job passes. */
  readonly bundle?: string;
  readonly kubevirt?: string;
}

export interface InitReport extends Report {
  /** Files written (new and merged). */
  readonly written: number;
  readonly merged: readonly string[];
  readonly kept: readonly string[];
  readonly name: string;
  readonly vendor: string;
  /** The name was derived from the directory. */
  readonly derivedName: boolean;
}

/**
 * `itgen init [DIR]`: adds itgen to a repository, new or existing (generator, catalog, kustomization,
 * CI, GitOps objects), atomically; what exists is merged into or left as it was, and said.
 * `shown` is how the directory is named in messages.
 */
export function init(dir: string, opts: InitOptions = {}, shown = '.'): InitReport {
  const derived =
    path
      .basename(path.resolve(dir))
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'catalog';
  const name = opts.name ?? derived;
  const vendor = opts.vendor ?? defaultVendor(name);
  const none = { written: 0, merged: [], kept: [], name, vendor, derivedName: opts.name === undefined, notes: [] };
  const fail = (d: Diagnostic): InitReport => ({ ...none, diagnostics: [d] });
  if (opts.vms !== undefined) {
    const plan = planVmGate(path.resolve(dir), {
      vms: opts.vms,
      ...(opts.ci === 'gitlab' ? { ci: 'gitlab' as const } : {}),
      ...(opts.bundle !== undefined ? { bundle: opts.bundle } : {}),
      ...(opts.kubevirt !== undefined ? { kubevirt: opts.kubevirt } : {}),
    });
    try {
      writeFilesAtomic(path.resolve(dir), plan.files);
    } catch (e) {
      return fail(writeProblem(shown, e));
    }
    return { ...none, written: plan.files.length - plan.merged.length, merged: plan.merged, kept: plan.kept, diagnostics: [] };
  }
  const problem = scaffoldProblem({ name, vendor });
  if (problem) return fail(diag('IT1203', problem));
  const plan = planInit(path.resolve(dir), {
    name,
    vendor,
    ...(opts.ci ? { ci: opts.ci } : {}),
    ...(opts.gitops ? { gitops: opts.gitops } : {}),
    ...(opts.repoUrl ? { repoUrl: opts.repoUrl } : {}),
    ...(opts.pages ? { pages: true } : {}),
  });
  if (plan.refused !== undefined) return fail(diag('IT1010', `${plan.refused}; nothing written`));
  try {
    writeFilesAtomic(path.resolve(dir), plan.files);
  } catch (e) {
    return fail(writeProblem(shown, e));
  }
  return { ...none, written: plan.files.length - plan.merged.length, merged: plan.merged, kept: plan.kept, diagnostics: [] };
}
