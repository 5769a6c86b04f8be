import { existsSync, statSync } from '../load/reads';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { committedObjects, readCommittedBase } from '../emit/committed';
import type { OutputFile } from '../emit/layout';
import { readNamedFile, relativePath } from '../load/files';
import { parseSource, type SourceDoc } from '../load/source';
import type { CompileResult } from '../pipeline';
import { withPolicyVerdicts } from '../policy/vms';
import type { Project } from '../project';
import { readTreeAt } from '../project/git';
import { diffObjects, formatDiff, parseObjects, type KubeObject, type ObjectDiff } from '../release/diff';
import { generatedObjects } from '../release/drift';
import { projectPolicies } from '../project/compile';
import {
  boundedComment,
  diffMarkdown,
  impactMarkdown,
  impactOptions,
  judgeVms,
  problemsMarkdown,
  reviewedChanges,
  vmImpact,
  type ReviewedChange,
  type VmImpact,
} from '../release/review';
import { resizeMarkdown, vmResizes, type VmResize } from '../release/review-resize';
import { bundleSettings } from '../schema/names';
import { type Report } from './report';

/** Reads a directory of files as committed at a Git revision (the CLI's `git` reader). */
export type TreeAt = (ref: string, dir: string) => { files: readonly OutputFile[] } | { error: string };

export interface DiffOptions {
  /** A Git revision, or a bundle file; default the committed output in the working tree. */
  readonly against?: string;
  /** VM files or directories: which the change touches, and how. */
  readonly vms?: readonly string[];
  /** How to read a tree at a revision (default: git in the project). */
  readonly treeAt?: TreeAt;
}

export interface DiffSection {
  readonly generator: string;
  readonly against: string;
  readonly diffs: readonly ObjectDiff[];
  readonly before: readonly KubeObject[];
  readonly after: readonly KubeObject[];
  readonly impact?: { readonly impacts: readonly VmImpact[]; readonly unaffected: number };
}

export interface DiffReport extends Report {
  readonly sections: readonly DiffSection[];
  readonly resizes: readonly VmResize[];
  /** Some object was added, removed or changed. */
  readonly changed: boolean;
  /** The catalogs could not be compiled: no sections. */
  readonly failed: boolean;
}

/**
 * `itgen diff`: the objects added, removed and changed, field by field, since the committed output
 * (or a revision, or a bundle), and with `vms` what the change does to each VM.
 */
export function diff(project: Project, opts: DiffOptions = {}): DiffReport {
  const root = project.root;
  // The release lock's refusals are part of what a reviewer needs beside the diff: they do not stop it.
  const { results, diagnostics } = project.compiled();
  const empty = { sections: [], resizes: [], changed: false, notes: [] };
  if (diagnostics.some((d) => d.severity === 'error' && !/^IT710[1-7]$/.test(d.code))) return { ...empty, diagnostics, failed: true };
  const against = opts.against;
  const treeAt: TreeAt = opts.treeAt ?? ((ref, dir) => readTreeAt(root, ref, dir));
  const candidate = against === undefined ? undefined : path.resolve(project.cwd, against);
  const bundleFile = candidate !== undefined && existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
  let problems: Diagnostic[] = [...diagnostics];
  const read = bundleFile !== undefined ? bundleSection(root, results, bundleFile) : revisionSections(root, results, against, treeAt);
  if ('failure' in read) return { ...empty, failed: true, diagnostics: [read.failure] };
  const sections = read.sections;
  problems.push(...read.problems);
  // The VMs a team keeps in Git, judged against the objects before and after.
  const vmDirs = opts.vms ?? [];
  const vms = vmDirs.length > 0 ? project.manifests(vmDirs) : undefined;
  if (vms) problems.push(...vms.diagnostics);
  const withImpact = sections.map((s) => {
    const i = vms ? vmImpact(vms.docs, s.before, s.after, impactOptions(s.result)) : undefined;
    if (i) problems.push(...i.diagnostics);
    return i ? { ...s, impact: { impacts: i.impacts, unaffected: i.unaffected } } : s;
  });
  // The VMs the change moves to another instance type or preference: what applying each does,
  // from the base revision's VM files (--against a Git revision only).
  const baseVms: SourceDoc[] = [];
  if (vms && against !== undefined && bundleFile === undefined)
    for (const d of vmDirs) {
      const rel = relativePath(root, path.resolve(project.cwd, d));
      const t = treeAt(against, rel);
      if ('error' in t) continue;
      for (const f of t.files) if (/\.(ya?ml|json)$/.test(f.path)) baseVms.push(...parseSource(`${rel}/${f.path}`, Buffer.from(f.content, 'utf8')).docs);
    }
  const before = sections.flatMap((s) => s.before);
  const after = sections.flatMap((s) => s.after);
  const resizes = vms && baseVms.length > 0 ? vmResizes(baseVms, vms.docs, before, after, project.config()) : [];
  if (vms) {
    // Every VM, touched or not, judged against everything the change generates; then what the
    // admission policies the project writes would do to them.
    problems.push(
      ...judgeVms(
        vms.docs,
        after,
        { configs: project.configs(), defaultsOnly: !project.kubevirt().config },
        withImpact.flatMap((s) => s.impact?.impacts ?? []),
      ),
    );
    problems = withPolicyVerdicts(vms.docs, projectPolicies(results), problems);
  }
  const out = withImpact.map(({ result: _r, ...s }) => s);
  return { sections: out, resizes, changed: out.some((s) => s.diffs.length > 0), failed: false, diagnostics: problems, notes: [] };
}

/** `diff -o json`: per generator what changed since the committed output (a revision, a bundle), reviewed, and what it does to the VMs. */
export interface DiffJson {
  readonly diagnostics: readonly Diagnostic[];
  readonly generators: readonly {
    readonly generator: string;
    readonly against: string;
    readonly summary: { readonly added: number; readonly removed: number; readonly changed: number };
    readonly diffs: readonly ReviewedChange[];
    /** With `--vms`: the VMs the change touches, and how many it leaves alone. */
    readonly vms?: { readonly touched: readonly VmImpact[]; readonly unaffected: number };
  }[];
  /** With `--vms`: what a resize of each VM to the changed objects does. */
  readonly resizes?: readonly VmResize[];
}

/** `-o json`: per generator its summary, reviewed changes and VMs. */
export function diffJson(report: DiffReport): string {
  const doc: DiffJson = {
    diagnostics: report.diagnostics,
    generators: report.sections.map((s) => ({
      generator: s.generator,
      against: s.against,
      summary: {
        added: s.diffs.filter((d) => d.change === 'added').length,
        removed: s.diffs.filter((d) => d.change === 'removed').length,
        changed: s.diffs.filter((d) => d.change === 'changed').length,
      },
      diffs: reviewedChanges(s.diffs, s.before, s.after),
      ...(s.impact ? { vms: { touched: s.impact.impacts, unaffected: s.impact.unaffected } } : {}),
    })),
    ...(report.resizes.length > 0 ? { resizes: report.resizes } : {}),
  };
  return JSON.stringify(doc, null, 2);
}

/** `-o markdown`: the pull-request comment, cut to what a comment may hold. */
export function diffMarkdownComment(report: DiffReport): string {
  const problems = report.diagnostics;
  const parts = report.sections.map((s) => {
    const table = diffMarkdown(`${s.generator}: ${s.against} → the catalogs`, reviewedChanges(s.diffs, s.before, s.after));
    return s.impact ? `${table}\n${impactMarkdown(s.impact.impacts, s.impact.unaffected)}` : table;
  });
  return boundedComment(
    `### itgen: what this change does to the instance types and preferences\n\n${problemsMarkdown(problems)}${problems.length > 0 ? '\n' : ''}${parts.join('\n')}${resizeMarkdown(report.resizes)}`,
  );
}

/** Text: each generator's changes, then the VMs the change resizes. */
export function diffText(report: DiffReport): string {
  const sections = report.sections;
  return [
    ...sections.map((s) => `${sections.length > 1 ? `# ${s.generator}: from ${s.against} to the catalogs\n` : ''}${formatDiff(s.diffs)}`),
    ...report.resizes.map(
      (r) =>
        `VirtualMachine ${r.name} (${r.file}): ${r.from} -> ${r.to}: ${r.plan.outcome}${r.plan.restartRequired ? ` (RestartRequired: ${r.plan.restartRequired.message}; ${r.plan.restartRequired.fields.slice(0, 4).join(', ')})` : ''}`,
    ),
  ]
    .filter((t) => t !== '')
    .join('\n');
}

type Section = DiffSection & { readonly result: CompileResult };
type Read = { sections: Section[]; problems: Diagnostic[] } | { failure: Diagnostic };

/** `--against FILE`: the one generator's objects against a bundle's. */
function bundleSection(root: string, results: readonly CompileResult[], bundleFile: string): Read {
  if (results.length !== 1)
    return { failure: diag('IT1009', `diff --against FILE works on one generator at a time; pass -g generators/<name>.yaml (found ${results.length})`) };
  const r = results[0]!;
  const shown = relativePath(root, bundleFile);
  // The file the operator names, read bounded like every input (load/files.ts readNamedFile).
  const read = readNamedFile(bundleFile);
  if ('error' in read) return { failure: diag('IT7301', `cannot read ${shown}: ${read.error}`) };
  const parsed = parseObjects(read.bytes.toString('utf8'));
  if (parsed.error !== undefined) return { failure: diag('IT7301', `cannot read ${shown}: ${parsed.error}`) };
  // Comparing with a file that holds no instance types or preferences would list every object as added.
  if (parsed.objects.length === 0)
    return {
      failure: diag('IT7301', `${shown} holds no instance types or preferences (instancetype.kubevirt.io objects)`, undefined, {
        hint: 'pass a release bundle, such as common-instancetypes-all-bundle-<version>.yaml, or a commit',
      }),
    };
  // A bundle carries the version label; the base does not.
  const ignore = [bundleSettings(r.generator!.name, r.generator!.config).versionLabel];
  const after = generatedObjects(r);
  return {
    problems: [],
    sections: [
      {
        generator: r.generator!.name,
        against: shown,
        diffs: diffObjects(parsed.objects, after, ignore),
        before: parsed.objects,
        after,
        result: r,
      },
    ],
  };
}

/** Each generator's objects against its committed base, in the working tree or at a revision. */
function revisionSections(root: string, results: readonly CompileResult[], against: string | undefined, treeAt: TreeAt): Read {
  const sections: Section[] = [];
  const problems: Diagnostic[] = [];
  for (const r of results) {
    const dir = r.generator!.outputDir;
    let before: readonly OutputFile[];
    if (against === undefined) before = readCommittedBase(root, dir).files;
    else {
      const t = treeAt(against, dir);
      if ('error' in t) {
        problems.push(
          diag('IT7301', `cannot read ${dir} at ${against}: ${t.error}`, undefined, { hint: 'pass a commit, branch or tag, or an existing YAML file' }),
        );
        continue;
      }
      before = t.files;
    }
    const old = committedObjects(before);
    const after = generatedObjects(r);
    sections.push({
      generator: r.generator!.name,
      against: against === undefined ? `${dir} (working tree)` : `${dir} at ${against}`,
      diffs: diffObjects(old, after),
      before: old,
      after,
      result: r,
    });
  }
  return { sections, problems };
}
