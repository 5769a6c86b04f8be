/**
 * `itgen generate` and the checks it shares with `validate`: every check of the project, then each
 * base written atomically, only when no check found an error.
 */
import path from 'node:path';
import { diagnosticOf, hasErrors, strictify, type Diagnostic } from '../diagnostics';
import { isPlainObject } from '../json';
import { readCommittedBase, type CommittedBase } from '../emit/committed';
import { diffTrees } from '../emit/drift';
import { cleanLeftovers, writeProblem, writeTree } from '../emit/write';
import type { Judging } from '../expand/judging';
import type { OutputFile } from '../emit/layout';
import { keptResult } from '../load/check-cache';
import { loadProjectManifests } from '../load/manifests';
import { loadGenerator, type CompileResult } from '../pipeline';
import { withPolicyVerdicts } from '../policy/vms';
import { projectGenerators, projectPolicies } from '../project/compile';
import { judgedConfigs, openProject, releaseGiven, type Project } from '../project';
import { deployProblems } from '../release/deploy';
import { generatedObjects, removalsWithoutLock } from '../release/drift';
import { syncWarnings } from '../release/gitops';
import { impactOptions, judgeVms, vmImpact } from '../release/review';
import type { Report } from './report';

export interface CheckOptions {
  /** Let a generate drop objects the committed base has, before the first release (IT7401). */
  readonly allowRemovals?: boolean;
  /** VirtualMachines kept in Git (files or directories): say which of them the change touches (IT8301-IT8303), and judge each. */
  readonly vms?: readonly string[];
}

/** A generator as the project's checks leave it: what `generate` writes and what a summary says. */
export interface CheckedGenerator {
  readonly name: string;
  readonly outputDir: string;
  /** How many objects its base holds. */
  readonly objects: number;
  /** Its output files (none when a check found an error). */
  readonly files: readonly OutputFile[];
}

export interface GenerateReport extends Report {
  readonly generators: readonly CheckedGenerator[];
  /** The output directories written, and those already up to date. */
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
}

/**
 * What the VMs kept in Git are judged under: what the project generates and what the --with files
 * hold, at the releases the generators target (or the one given), with the cluster's configuration
 * when one is given, else each release's defaults.
 */
function judgingOf(project: Project): Judging {
  const withFiles = (project.inputs.with ?? []).length > 0;
  return {
    configs: judgedConfigs(project.config(), releaseGiven(project), project.compiled('files').results),
    defaultsOnly: !project.kubevirt().config,
    ...(withFiles ? { besides: project.catalogs('besides').store } : {}),
  };
}

/**
 * Every check of the project, the same for `validate` and `generate`: the compilation, the
 * removal guard before a first release (IT7401), what the project deploys (IT5012, IT5013) and
 * how its GitOps objects sync the bases (IT5011). `committed` reads each committed base once;
 * `generateProject` passes its own, so that its up-to-date check sees the tree the checks saw.
 */
export function checkProject(
  project: Project,
  opts: CheckOptions = {},
  committed: (outputDir: string) => CommittedBase = committedBases(project.root),
): { results: readonly CompileResult[]; diagnostics: Diagnostic[] } {
  const { root } = project;
  const strict = project.inputs.strict ?? false;
  const compiled = project.compiled('files');
  // The VMs are judged even when the release lock refuses the change: a reviewer wants both.
  const vmDocs = opts.vms && opts.vms.length > 0 ? project.manifests(opts.vms) : undefined;
  const lockOnly = compiled.diagnostics.every((d) => d.severity !== 'error' || /^IT710[1-7]$/.test(d.code));
  let vmProblems: Diagnostic[] = [];
  if (vmDocs && lockOnly && compiled.results.every((r) => r.generator)) {
    // The committed base against what the catalogs generate now: what the VMs will meet.
    const impacts = compiled.results.map((r) => vmImpact(vmDocs.docs, committed(r.generator!.outputDir).objects(), generatedObjects(r), impactOptions(r)));
    vmProblems = [
      ...vmDocs.diagnostics,
      ...impacts.flatMap((i) => i.diagnostics),
      // Then every VM, touched by the change or not, against everything the project generates.
      ...judgeVms(
        vmDocs.docs,
        compiled.results.flatMap((r) => generatedObjects(r)),
        judgingOf(project),
        impacts.flatMap((i) => i.impacts),
        compiled.results.flatMap((r) => r.lock?.lock.objects ?? []),
      ),
    ];
    // And what the admission policies the project writes would do to each of them.
    vmProblems = withPolicyVerdicts(vmDocs.docs, projectPolicies(compiled.results), vmProblems);
  }
  if (hasErrors(compiled.diagnostics)) return { ...compiled, diagnostics: [...compiled.diagnostics, ...strictify(vmProblems, strict)] };
  const { results } = compiled;
  const generators = results.flatMap((r) => (r.generator ? [r.generator] : []));
  const skip = generators.flatMap((g) => [g.outputDir, g.catalogDir]);
  const gitops = loadProjectManifests(root, skip);
  const more = [
    ...vmProblems,
    ...(opts.allowRemovals ? [] : results.flatMap((r) => removalsWithoutLock(r, committed))),
    ...deployProblems(root, generators, gitops, () => otherGeneratorOutputs(root, project.inputs.generators ?? [])),
    ...syncWarnings(results, gitops),
  ];
  return { results, diagnostics: [...compiled.diagnostics, ...strictify(more, strict)] };
}

/** Where the project's generators other than the named ones write (none when none are named). */
function otherGeneratorOutputs(root: string, named: readonly string[]): string[] {
  if (named.length === 0) return [];
  const chosen = new Set(named.map((f) => path.resolve(root, f)));
  return projectGenerators(root)
    .filter((f) => !chosen.has(path.resolve(root, f)))
    .flatMap((f) => loadGenerator(root, f).generator?.outputDir ?? []);
}

/** The committed bases, each read once per command: the checks and the write see the same tree. */
function committedBases(root: string): (outputDir: string) => CommittedBase {
  const read = new Map<string, CommittedBase>();
  return (outputDir) => {
    let base = read.get(outputDir);
    if (base === undefined) read.set(outputDir, (base = readCommittedBase(root, outputDir)));
    return base;
  };
}

/** What the checks leave of each generator compiled. */
export function checkedGenerators(results: readonly CompileResult[]): CheckedGenerator[] {
  return results.flatMap((r) => (r.generator ? [{ name: r.generator.name, outputDir: r.generator.outputDir, objects: r.objects.length, files: r.files }] : []));
}

/**
 * Every check of the project (checkProject), as `generate` and `validate` use them, and the reader
 * of the committed bases they used, so that a write compares with the tree the checks saw, read once.
 * When the checks read only the project (no VMs, no published base or bundles) their answer is kept
 * between runs with the log of what they read (load/check-cache.ts), and taken again while every
 * read gives the same: they run on a project of their own and a reader of the bases first used
 * inside the recording, so that nothing read before (and not recorded) feeds them.
 */
export function checkedProject(
  project: Project,
  opts: CheckOptions = {},
): { generators: CheckedGenerator[]; diagnostics: Diagnostic[]; committed: (outputDir: string) => CommittedBase } {
  const { inputs } = project;
  const committed = committedBases(project.root);
  const run = (p: Project): { generators: CheckedGenerator[]; diagnostics: Diagnostic[] } => {
    const checked = checkProject(p, opts, committed);
    return { generators: checkedGenerators(checked.results), diagnostics: checked.diagnostics };
  };
  if ((opts.vms ?? []).length > 0 || inputs.base !== undefined || inputs.bundles !== undefined) return { ...run(project), committed };
  const checked = keptResult(
    {
      name: 'checks',
      root: project.root,
      key: [
        JSON.stringify({ cwd: project.cwd, generators: inputs.generators ?? [], strict: inputs.strict ?? false, allowRemovals: opts.allowRemovals ?? false }),
      ],
      parse: checkedOf,
      weight: (v) => v.generators.reduce((n, g) => g.files.reduce((m, f) => m + f.content.length, n), 0),
    },
    () => run(openProject({ root: project.root, cwd: project.cwd, generators: inputs.generators ?? [], strict: inputs.strict ?? false })),
  );
  return { ...checked, committed };
}

/** The checks' answer read back from the cache, or undefined when it is not one. */
function checkedOf(v: unknown): { generators: CheckedGenerator[]; diagnostics: Diagnostic[] } | undefined {
  if (!isPlainObject(v) || !Array.isArray(v['generators']) || !Array.isArray(v['diagnostics'])) return undefined;
  const isString = (x: unknown): boolean => typeof x === 'string';
  for (const g of v['generators'] as unknown[]) {
    if (!isPlainObject(g) || !isString(g['name']) || !isString(g['outputDir']) || typeof g['objects'] !== 'number' || !Array.isArray(g['files']))
      return undefined;
    if (!(g['files'] as unknown[]).every((f) => isPlainObject(f) && isString(f['path']) && isString(f['content']))) return undefined;
  }
  if (!(v['diagnostics'] as unknown[]).every((d) => diagnosticOf(d) !== undefined)) return undefined;
  return v as unknown as { generators: CheckedGenerator[]; diagnostics: Diagnostic[] };
}

/**
 * What `itgen generate` does: every check, then, only when none found an error, each base written
 * atomically. A write that fails is a diagnostic (IT1010 for what the project puts in the way).
 */
export function generateProject(project: Project, opts: CheckOptions = {}): GenerateReport {
  const { root } = project;
  const { committed, ...checked } = checkedProject(project, opts);
  const generators = checked.generators;
  if (hasErrors(checked.diagnostics)) return { ...checked, written: [], unchanged: [], notes: [] };
  const written: string[] = [];
  const unchanged: string[] = [];
  for (const g of generators) {
    // A base that already is what the catalog generates, byte for byte and nothing else, stays.
    if (diffTrees(committed(g.outputDir).files, g.files).length === 0) {
      // What a killed run left beside it goes, as a write would have removed it.
      try {
        cleanLeftovers(path.resolve(root, g.outputDir));
      } catch (e) {
        return { ...checked, diagnostics: [...checked.diagnostics, writeProblem(g.outputDir, e)], written, unchanged, notes: [] };
      }
      unchanged.push(g.outputDir);
      continue;
    }
    try {
      writeTree(path.resolve(root, g.outputDir), g.files);
    } catch (e) {
      return { ...checked, diagnostics: [...checked.diagnostics, writeProblem(g.outputDir, e)], written, unchanged, notes: [] };
    }
    written.push(g.outputDir);
  }
  return { ...checked, written, unchanged, notes: [] };
}
