/**
 * The project's generators compiled: which generators a run works on, each compiled, and the
 * checks between them and against what the project published (its release lock at the base
 * revision and in the published bundles). Owned by the Project (project/index.ts), which memoises
 * the result per run.
 */
import path from 'node:path';
import { readdirSync } from '../load/reads';
import { diag, strictify, type Diagnostic } from '../diagnostics';
import { compile, outputOverlaps, type CompileMode, type CompileResult } from '../pipeline';
import { bundleSettings } from '../schema/names';
import { bundleHistoryProblems, readPublishedBundles } from '../release/bundle';
import { notesMarkdown, releaseNotes } from '../release/notes';
import { CHANGELOG_FILE } from '../release/notes';
import { lockFileFor } from '../release/lock';
import { lockHistoryProblems } from '../validate/lock-history';
import type { ReleaseLock } from '../schema/lock';
import { parseSource } from '../load/source';
import { checkDocument } from '../schema/lazy';
import type { ProjectPolicy } from '../policy/vms';

/**
 * The release lock as published (the base branch's, in CI): `name` says where it is from, and
 * `read(file)` gives a lock file's text there, `undefined` when it has none (no release yet), or
 * why it cannot be read (an error: the check must not be skipped by accident). IT7109.
 */
export interface PublishedBase {
  readonly name: string;
  readonly read: (lockFile: string) => { text: string } | undefined | { error: string };
  /** The lock file as the release tag `version` holds it, when the repository has that tag. */
  readonly atTag?: (version: string, lockFile: string) => { text: string } | undefined;
}

/** The published bundles (a directory the operator names, with its CHECKSUMS.sha256) the lock is held to (IT7107, IT7109). */
export interface PublishedBundles {
  readonly shown: string;
  readonly files: () => readonly { readonly name: string; readonly bytes: Buffer }[];
}

/** What a compilation of the project's generators takes. */
export interface CompileOptions {
  /** Generator files relative to the root; default: every `generators/*.yaml` (locks excluded). */
  readonly generators?: readonly string[] | undefined;
  /** Warnings become errors. */
  readonly strict?: boolean | undefined;
  readonly base?: PublishedBase | undefined;
  readonly bundles?: PublishedBundles | undefined;
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

/**
 * Every generator of the project compiled (`objects`: to its validated objects; `files`: its output
 * files too), with the checks between generators (overlapping outputs), the release lock held to
 * the
 * published base and bundles when given, and --strict. Project.compiled() is its one caller.
 */
export function compileGenerators(root: string, opts: CompileOptions, mode: CompileMode): { results: CompileResult[]; diagnostics: Diagnostic[] } {
  const files = projectGenerators(root, opts.generators);
  if (files.length === 0) {
    return { results: [], diagnostics: [diag('IT1009', 'no generator found: pass --generator FILE or add generators/*.yaml')] };
  }
  const results = files.map((f) => withChangelog(compile(root, f, mode)));
  const loaded = results.flatMap((r) => (r.generator ? [r.generator] : []));
  const history = [
    ...(opts.base ? results.flatMap((r) => baseLockProblems(r, opts.base!)) : []),
    ...(opts.bundles ? results.flatMap((r) => publishedBundleProblems(r, opts.bundles!)) : []),
  ];
  return { results, diagnostics: strictify([...results.flatMap((r) => r.diagnostics), ...outputOverlaps(loaded), ...history], opts.strict ?? false) };
}

/** The generator's lock held to its published bundles, each verified by its checksum first. */
function publishedBundleProblems(r: CompileResult, bundles: PublishedBundles): Diagnostic[] {
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
function baseLockProblems(r: CompileResult, base: PublishedBase): Diagnostic[] {
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
