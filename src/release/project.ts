/**
 * The project workflows as library functions: what `itgen validate`, `generate` and `check` do,
 * with every guard, so that the library and the CLI are one product. The CLI commands call these
 * and print; `generate()` of the package is `generateProject`.
 *
 * Over 400 lines: The release workflows (generate, check, release, bundle, notes) share the project
 * checks and the lock's history checks.
 */
import { withPolicyVerdicts, type ProjectPolicy } from '../policy/vms';
import path from 'node:path';
import { diag, hasErrors, strictify, type Diagnostic } from '../diagnostics';
import { readCommittedBase, type CommittedBase } from '../emit/committed';
import { diffTrees } from '../emit/drift';
import { cleanLeftovers, writeFilesAtomic, writeProblem, writeTree } from '../emit/write';
import { loadManifests, loadProjectManifests } from '../load/manifests';
import { impactOptions, judgeVms, vmImpact } from './review';
import type { Judging } from '../expand/judging';
import { KUBEVIRT_DEFAULTS, type ClusterDefaults } from '../kubevirt/config';
import { compile, loadGenerator, outputOverlaps, type CompileMode, type CompileResult } from '../pipeline';
import { bundleSettings } from '../schema/names';
import { buildBundles, bundleHistoryProblems, bundleOutProblem, CHECKSUMS_FILE, mergedChecksums, readPublishedBundles } from './bundle';
import { CHANGELOG_FILE, notesMarkdown, releaseNotes, type ReleaseSection } from './notes';
import { readdirSync } from 'node:fs';
import { sha256Hex } from '../digest';
import { printable } from '../printable';
import { readRegularFile } from '../load/limits';
import { checkBundleAgainstLock, currentObjects, lockFileFor, recordRelease, serializeLock } from './lock';
import { lockHistoryProblems } from '../validate/lock';
import type { ReleaseLock } from '../schema/lock';
import { parseSource } from '../load/source';
import { checkDocument } from '../schema/lazy';
import { deployProblems } from './deploy';
import { generatedObjects, outputDrift, removalsWithoutLock } from './drift';
import { syncWarnings } from './gitops';
import type { ObjectDiff } from './diff';

export interface ProjectOptions {
  /** Generator files relative to the root; default: every `generators/*.yaml` (locks excluded). */
  readonly generators?: readonly string[];
  /** Warnings become errors. */
  readonly strict?: boolean;
  /** Let a generate drop objects the committed base has, before the first release (IT7401). */
  readonly allowRemovals?: boolean;
  /** VirtualMachines kept in Git (files or directories): say which of them the change touches (IT8301-IT8303). */
  readonly vms?: readonly string[];
  /** Where relative `vms` paths were typed. */
  readonly cwd?: string;
  /**
   * What the `vms` are judged under; `configs` may be asked of the compiled generators (their
   * targetKubevirt: judgedConfigs), so that the project is compiled once. KubeVirt's defaults of
   * the newest release without.
   */
  readonly judging?: Omit<Judging, 'configs'> & { readonly configs: Judging['configs'] | ((results: readonly CompileResult[]) => readonly ClusterDefaults[]) };
  /**
   * The release lock as published (the base branch's, in CI): `name` says where it is from, and
   * `read(file)` gives a lock file's text there, `undefined` when it has none (no release yet), or
   * why it cannot be read (an error: the check must not be skipped by accident). IT7109.
   */
  readonly base?:
    | {
        readonly name: string;
        readonly read: (lockFile: string) => { text: string } | undefined | { error: string };
        /** The lock file as the release tag `version` holds it, when the repository has that tag. */
        readonly atTag?: (version: string, lockFile: string) => { text: string } | undefined;
      }
    | undefined;
  /** The published bundles (a directory the operator names, with its CHECKSUMS.sha256) the lock is held to (IT7107, IT7109). */
  readonly bundles?: { readonly shown: string; readonly files: () => readonly { readonly name: string; readonly bytes: Buffer }[] } | undefined;
  /** `objects`: compile to the validated objects only, no output files (commands that only read objects). */
  readonly mode?: CompileMode;
}

/** The generators named, or else every generator of the project. */
export function projectGenerators(root: string, named: readonly string[] = []): string[] {
  if (named.length > 0) return [...named];
  let names: string[];
  try {
    names = readdirSync(path.join(root, 'generators'));
  } catch {
    return [];
  }
  // As a shell glob `generators/*.{yaml,yml}` lists them: hidden names left out; lock files are not generators.
  return names
    .filter((n) => !n.startsWith('.') && /\.ya?ml$/.test(n) && !/\.lock\.ya?ml$/.test(n))
    .map((n) => `generators/${n}`)
    .sort();
}

/**
 * A generator with a release lock ships its release notes in its base: CHANGELOG.md, rendered from
 * the lock (and the catalog, for specs and replacements), so it is always what the lock says and
 * `check` holds it to that like every other file.
 */
function withChangelog(r: CompileResult): CompileResult {
  if (!r.lock || !r.generator || r.files.length === 0) return r;
  const content = notesMarkdown(r.generator.name, releaseNotes(r.lock.lock, r.objects));
  return { ...r, files: [...r.files, { path: CHANGELOG_FILE, content }].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/** Every generator compiled, with the checks between generators (overlapping outputs) and --strict. */
export function compileProject(root: string, opts: ProjectOptions = {}): { results: CompileResult[]; diagnostics: Diagnostic[] } {
  const files = projectGenerators(root, opts.generators);
  if (files.length === 0) {
    return { results: [], diagnostics: [diag('IT1009', 'no generator found: pass --generator FILE or add generators/*.yaml')] };
  }
  const results = files.map((f) => withChangelog(compile(root, f, opts.mode ?? 'files')));
  const loaded = results.flatMap((r) => (r.generator ? [r.generator] : []));
  const history = [
    ...(opts.base ? results.flatMap((r) => baseLockProblems(r, opts.base!)) : []),
    ...(opts.bundles ? results.flatMap((r) => publishedBundleProblems(r, opts.bundles!)) : []),
  ];
  return { results, diagnostics: strictify([...results.flatMap((r) => r.diagnostics), ...outputOverlaps(loaded), ...history], opts.strict ?? false) };
}

/** The generator's lock held to its published bundles, each verified by its checksum first. */
function publishedBundleProblems(r: CompileResult, bundles: NonNullable<ProjectOptions['bundles']>): Diagnostic[] {
  if (!r.generator || !r.lock) return [];
  const { filePrefix } = bundleSettings(r.generator.name, r.generator.config);
  const read = readPublishedBundles(bundles.files(), filePrefix, bundles.shown);
  return [...read.diagnostics, ...bundleHistoryProblems(r.lock, read.bundles)];
}

/** A release lock as another revision holds it, read like the working tree's (the schema's own parse), or undefined when it is not one. */
function lockFromText(name: string, text: string): { data: ReleaseLock } | undefined {
  const doc = parseSource(name, Buffer.from(text)).docs[0];
  const checked = doc ? checkDocument('lock', doc, (zod) => zod.lockSchema) : undefined;
  return checked?.ok ? { data: checked.data } : undefined;
}

/** The generator's lock held to the one `base` published (IT7109); nothing when the base has none. */
function baseLockProblems(r: CompileResult, base: NonNullable<ProjectOptions['base']>): Diagnostic[] {
  if (!r.generator) return [];
  const file = r.lock?.file ?? lockFileFor(r.generator.file, r.generator.name);
  const read = base.read(file);
  if (read === undefined) return [];
  if ('error' in read)
    return [
      diag('IT7109', `cannot read the release lock ${file} at ${base.name}: ${read.error}`, undefined, {
        hint: 'fetch the base branch (git fetch origin <branch>) so the lock can be held to what it published',
      }),
    ];
  const checked = lockFromText(`${file} at ${base.name}`, read.text);
  if (!checked) return [diag('IT7109', `the release lock ${file} at ${base.name} is not a release lock itgen can read`, undefined, {})];
  if (!r.lock)
    return [
      diag('IT7109', `${file} is gone, where ${base.name} has published releases ${checked.data.releases.join(', ')}`, undefined, {
        hint: `restore it: git checkout <base> -- ${file}`,
      }),
    ];
  const found: { d: Diagnostic; source: string }[] = lockHistoryProblems(r.lock, checked.data, base.name).map((d) => ({ d, source: base.name }));
  // Each release the repository tagged is published too: the lock the tag holds is history as well.
  for (const version of r.lock.lock.releases) {
    const tagged = base.atTag?.(version, file);
    const lock = tagged ? lockFromText(`${file} at tag ${version}`, tagged.text) : undefined;
    if (lock) found.push(...lockHistoryProblems(r.lock, lock.data, `tag ${version}`).map((d) => ({ d, source: `tag ${version}` })));
  }
  // One mistake, one report: a finding against the base and the same against a tag is said once.
  const seen = new Set<string>();
  return found
    .filter(({ d, source }) => {
      const k = `${d.location?.line}:${d.location?.col}:${d.message.split(source).join('\u0000')}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .map(({ d }) => d);
}

/** The admission policies the generators write (their `policy:`). */
export function projectPolicies(results: readonly CompileResult[]): ProjectPolicy[] {
  return results.flatMap((r) => (r.policy && r.generator ? [{ generator: r.generator.name, catalog: r.policy.catalog, options: r.policy.options }] : []));
}

/**
 * Every check of the project, the same for `validate` and `generate`: the compilation, the
 * removal guard before a first release (IT7401), what the project deploys (IT5012, IT5013) and
 * how its GitOps objects sync the bases (IT5011). `committed` reads each committed base once;
 * `generateProject` passes its own, so that its up-to-date check sees the tree the checks saw.
 */
export function checkProject(
  root: string,
  opts: ProjectOptions = {},
  committed: (outputDir: string) => CommittedBase = committedBases(root),
): { results: CompileResult[]; diagnostics: Diagnostic[] } {
  const compiled = compileProject(root, opts);
  // The VMs are judged even when the release lock refuses the change: a reviewer wants both.
  const vmDocs = opts.vms && opts.vms.length > 0 ? loadManifests(root, opts.vms, () => '', opts.cwd) : undefined;
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
        opts.judging
          ? { ...opts.judging, configs: typeof opts.judging.configs === 'function' ? opts.judging.configs(compiled.results) : opts.judging.configs }
          : { configs: [KUBEVIRT_DEFAULTS], defaultsOnly: true },
        impacts.flatMap((i) => i.impacts),
        compiled.results.flatMap((r) => r.lock?.lock.objects ?? []),
      ),
    ];
    // And what the admission policies the project writes would do to each of them.
    vmProblems = withPolicyVerdicts(vmDocs.docs, projectPolicies(compiled.results), vmProblems);
  }
  if (hasErrors(compiled.diagnostics)) return { ...compiled, diagnostics: [...compiled.diagnostics, ...strictify(vmProblems, opts.strict ?? false)] };
  const { results } = compiled;
  const generators = results.flatMap((r) => (r.generator ? [r.generator] : []));
  const skip = generators.flatMap((g) => [g.outputDir, g.catalogDir]);
  const gitops = loadProjectManifests(root, skip);
  const more = [
    ...vmProblems,
    ...(opts.allowRemovals ? [] : results.flatMap((r) => removalsWithoutLock(r, committed))),
    ...deployProblems(root, generators, gitops, () => otherGeneratorOutputs(root, opts.generators ?? [])),
    ...syncWarnings(results, gitops),
  ];
  return { results, diagnostics: [...compiled.diagnostics, ...strictify(more, opts.strict ?? false)] };
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

/**
 * What `itgen generate` does: every check, then, only when none found an error, each base written
 * atomically. A write that fails is a diagnostic (IT1010 for what the project puts in the way).
 */
export function generateProject(
  root: string,
  opts: ProjectOptions = {},
): { results: CompileResult[]; diagnostics: Diagnostic[]; written: string[]; unchanged: string[] } {
  const committed = committedBases(root);
  const checked = checkProject(root, opts, committed);
  if (hasErrors(checked.diagnostics)) return { ...checked, written: [], unchanged: [] };
  const written: string[] = [];
  const unchanged: string[] = [];
  for (const r of checked.results) {
    // A base that already is what the catalog generates, byte for byte and nothing else, stays.
    if (diffTrees(committed(r.generator!.outputDir).files, r.files).length === 0) {
      // What a killed run left beside it goes, as a write would have removed it.
      try {
        cleanLeftovers(path.resolve(root, r.generator!.outputDir));
      } catch (e) {
        return { ...checked, diagnostics: [...checked.diagnostics, writeProblem(r.generator!.outputDir, e)], written, unchanged };
      }
      unchanged.push(r.generator!.outputDir);
      continue;
    }
    try {
      writeTree(path.resolve(root, r.generator!.outputDir), r.files);
    } catch (e) {
      return { ...checked, diagnostics: [...checked.diagnostics, writeProblem(r.generator!.outputDir, e)], written, unchanged };
    }
    written.push(r.generator!.outputDir);
  }
  return { ...checked, written, unchanged };
}

/** What `itgen check` does: the compilation, then each base's drift from what its catalog generates. */
export function checkOutputs(
  root: string,
  opts: ProjectOptions = {},
): { results: CompileResult[]; diagnostics: Diagnostic[]; drift: { outputDir: string; objects: ObjectDiff[] }[] } {
  const { results, diagnostics } = compileProject(root, opts);
  if (hasErrors(diagnostics)) return { results, diagnostics, drift: [] };
  const all = [...diagnostics];
  const drift: { outputDir: string; objects: ObjectDiff[] }[] = [];
  for (const r of results) {
    const d = outputDrift(root, r);
    all.push(...d.diagnostics);
    if (d.objects.length > 0) drift.push({ outputDir: r.generator!.outputDir, objects: d.objects });
  }
  return { results, diagnostics: all, drift };
}

/** One generator's release: the lock file written and what changed. */
export interface ReleaseRecord {
  readonly generator: string;
  readonly lockFile: string;
  readonly summary: { readonly added: number; readonly deprecated: number; readonly removed: number; readonly changed: number };
}

/**
 * What `itgen release --version V` does: the project must compile and its committed output be
 * current (a release records what is committed); then each generator's lock gets the release,
 * all lock files written atomically, or none.
 */
export function releaseProject(root: string, version: string, opts: ProjectOptions = {}): { diagnostics: Diagnostic[]; released: ReleaseRecord[] } {
  const { results, diagnostics } = compileProject(root, opts);
  const all = [...diagnostics];
  if (!hasErrors(all)) for (const r of results) all.push(...outputDrift(root, r).diagnostics);
  const updates: { record: ReleaseRecord; content: string; changelog: { dir: string; content: string } }[] = [];
  if (!hasErrors(all)) {
    for (const r of results) {
      const g = r.generator!;
      const rec = recordRelease(r.lock, g.name, currentObjects(r.objects), version, r.packages ?? []);
      all.push(...rec.diagnostics);
      if (rec.lock)
        updates.push({
          record: { generator: g.name, lockFile: lockFileFor(g.file, g.name), summary: rec.summary! },
          content: serializeLock(rec.lock),
          // The base's CHANGELOG.md gets the new release's section with the lock, so that the base
          // stays what generate writes.
          changelog: { dir: g.outputDir, content: notesMarkdown(g.name, releaseNotes(rec.lock, r.objects)) },
        });
    }
  }
  if (hasErrors(all)) return { diagnostics: all, released: [] };
  try {
    writeFilesAtomic(
      root,
      updates.map((u) => ({ path: u.record.lockFile, content: u.content })),
    );
    for (const u of updates) writeFilesAtomic(path.resolve(root, u.changelog.dir), [{ path: CHANGELOG_FILE, content: u.changelog.content }]);
  } catch (e) {
    return { diagnostics: [...all, writeProblem('the release lock', e)], released: [] };
  }
  return { diagnostics: all, released: updates.map((u) => u.record) };
}

/**
 * What `itgen bundle --version V --out DIR` does: one generator, its lock's record of V (when it
 * has a lock), a bundle directory that is none of the project's own (links resolved), then the
 * bundles and CHECKSUMS.sha256 written atomically. `outDir` is absolute; `shown` how it was named.
 */
export function bundleProject(
  root: string,
  version: string,
  outDir: string,
  shown: string,
  opts: ProjectOptions = {},
): { diagnostics: Diagnostic[]; generator?: string; bundles: number } {
  const { results, diagnostics } = compileProject(root, opts);
  const all = [...diagnostics];
  if (results.length !== 1 && !hasErrors(all))
    all.push(diag('IT1009', `bundle works on one generator at a time; pass -g generators/<name>.yaml (found ${results.length})`));
  const r = results.length === 1 ? results[0]! : undefined;
  if (r && !hasErrors(all) && r.lock) all.push(...checkBundleAgainstLock(r.lock, currentObjects(r.objects), version));
  if (!r || hasErrors(all)) return { diagnostics: all, bundles: 0 };
  const generators = projectGenerators(root).flatMap((f) => loadGenerator(root, f).generator ?? []);
  const misplaced = bundleOutProblem(root, outDir, shown, generators);
  if (misplaced) return { diagnostics: [...all, misplaced], bundles: 0 };
  const cfg = bundleSettings(r.generator!.name, r.generator!.config);
  const built = buildBundles(r.objects, { version, versionLabel: cfg.versionLabel, filePrefix: cfg.filePrefix });
  // Bundles of earlier releases in the same directory stay covered by CHECKSUMS.sha256.
  const { files, changed } = mergedChecksums(readRegularFile(path.join(outDir, CHECKSUMS_FILE), MAX_BUNDLE_BYTES)?.toString('utf8'), built, (name) => {
    const bytes = readRegularFile(path.join(outDir, name), MAX_BUNDLE_BYTES);
    return bytes === undefined ? undefined : sha256Hex(bytes);
  });
  if (changed.length > 0) {
    const named = changed.slice(0, 8).map((n) => `\`${printable(n, true)}\``);
    return {
      diagnostics: [
        ...all,
        diag(
          'IT7107',
          `${shown}/${CHECKSUMS_FILE} records other sums than ${named.join(', ')}${changed.length > 8 ? ` and ${changed.length - 8} more` : ''} now ha${changed.length === 1 ? 's' : 've'}: changed since bundled`,
          undefined,
          {
            hint: 'restore the published bundles (or remove them from the directory) before bundling another release: itgen never re-records a changed file',
          },
        ),
      ],
      bundles: 0,
    };
  }
  try {
    writeFilesAtomic(outDir, files);
  } catch (e) {
    return { diagnostics: [...all, writeProblem(shown, e)], bundles: 0 };
  }
  return { diagnostics: all, generator: r.generator!.name, bundles: built.length - 1 };
}

/** What `itgen notes` prints: each generator's release notes from its lock, newest first (after `since`). */
export function notesProject(
  root: string,
  opts: ProjectOptions & { readonly since?: string; readonly unreleased?: boolean } = {},
): { diagnostics: Diagnostic[]; notes: { generator: string; sections: ReleaseSection[] }[] } {
  const { results, diagnostics } = compileProject(root, opts);
  const notes = results.flatMap((r) => {
    if (!r.generator || (!r.lock && !opts.unreleased)) return [];
    // What the next `itgen release` would record, as a section named `unreleased` above the rest.
    const next =
      opts.unreleased && r.files.length > 0 ? recordRelease(r.lock, r.generator.name, currentObjects(r.objects), UNRELEASED, r.packages ?? []) : undefined;
    const last = r.lock?.lock.releases[r.lock.lock.releases.length - 1];
    const preview = next?.lock ? releaseNotes(next.lock, r.objects, last).map((x) => (x.version === UNRELEASED ? { ...x, version: 'unreleased' } : x)) : [];
    const past = r.lock ? releaseNotes(r.lock.lock, r.objects, opts.since) : [];
    return [{ generator: r.generator.name, sections: [...preview.filter((x) => x.version === 'unreleased'), ...past] }];
  });
  if (!hasErrors(diagnostics) && notes.length === 0)
    return {
      diagnostics: [
        ...diagnostics,
        diag('IT7301', 'no release lock: nothing released yet', undefined, { hint: 'record a release with `itgen release --version v1.0.0`' }),
      ],
      notes,
    };
  return { diagnostics, notes };
}

/** The version the preview of the next release is recorded under; shown as `unreleased`. */
const UNRELEASED = 'v999999999.0.0';

/** The largest file of a bundle directory read to hash it. */
const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;
