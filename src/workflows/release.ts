/**
 * `itgen release` and `itgen bundle`: a release recorded in each generator's lock (with its
 * CHANGELOG.md section), and a release's bundles written with their CHECKSUMS.sha256.
 */
import path from 'node:path';
import { diag, hasErrors } from '../diagnostics';
import { sha256Hex } from '../digest';
import { writeFilesAtomic, writeProblem } from '../emit/write';
import { readRegularFile } from '../load/limits';
import { loadGenerator } from '../pipeline';
import { printable } from '../printable';
import { projectGenerators } from '../project/compile';
import type { Project } from '../project';
import { buildBundles, bundleOutProblem, CHECKSUMS_FILE, mergedChecksums, withReplacedNames } from '../release/bundle';
import { outputDrift } from '../release/drift';
import { checkBundleAgainstLock, lockFileFor, recordRelease, serializeLock } from '../release/lock';
import { shippedObjects } from './shipped';
import { CHANGELOG_FILE, notesMarkdown, releaseNotes } from '../release/notes';
import { bundleSettings } from '../schema/names';
import type { Report } from './report';

/** One generator's release: the lock file written and what changed. */
export interface ReleaseRecord {
  readonly generator: string;
  readonly lockFile: string;
  readonly summary: { readonly added: number; readonly deprecated: number; readonly removed: number; readonly changed: number };
}

export interface ReleaseReport extends Report {
  readonly released: readonly ReleaseRecord[];
}

export interface BundleReport extends Report {
  /** The generator bundled, and how many bundles were written (CHECKSUMS.sha256 aside). */
  readonly generator?: string;
  readonly bundles: number;
}

/**
 * What `itgen release --version V` does: the project must compile and its committed output be
 * current (a release records what is committed); then each generator's lock gets the release,
 * all lock files written atomically, or none.
 */
export function releaseProject(project: Project, version: string): ReleaseReport {
  const { root } = project;
  const { results, diagnostics } = project.compiled('files');
  const all = [...diagnostics];
  if (!hasErrors(all)) for (const r of results) all.push(...outputDrift(root, r).diagnostics);
  const updates: { record: ReleaseRecord; content: string; changelog: { dir: string; content: string } }[] = [];
  if (!hasErrors(all)) {
    for (const r of results) {
      const g = r.generator!;
      const rec = recordRelease(r.lock, g.name, shippedObjects(r), version, r.packages ?? []);
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
  if (hasErrors(all)) return { diagnostics: all, released: [], notes: [] };
  try {
    writeFilesAtomic(
      root,
      updates.map((u) => ({ path: u.record.lockFile, content: u.content })),
    );
    for (const u of updates) writeFilesAtomic(path.resolve(root, u.changelog.dir), [{ path: CHANGELOG_FILE, content: u.changelog.content }]);
  } catch (e) {
    return { diagnostics: [...all, writeProblem('the release lock', e)], released: [], notes: [] };
  }
  return { diagnostics: all, released: updates.map((u) => u.record), notes: [] };
}

/**
 * What `itgen bundle --version V --out DIR` does: one generator, its lock's record of V (when it
 * has a lock), a bundle directory that is none of the project's own (links resolved), then the
 * bundles and CHECKSUMS.sha256 written atomically. `outDir` is absolute; `shown` how it was named.
 */
export function bundleProject(project: Project, version: string, out: string): BundleReport {
  const { root } = project;
  const outDir = path.resolve(project.cwd, out);
  const shown = out;
  const { results, diagnostics } = project.compiled('files');
  const all = [...diagnostics];
  if (results.length !== 1 && !hasErrors(all))
    all.push(diag('IT1009', `bundle works on one generator at a time; pass -g generators/<name>.yaml (found ${results.length})`));
  const r = results.length === 1 ? results[0]! : undefined;
  if (r && !hasErrors(all) && r.lock) all.push(...checkBundleAgainstLock(r.lock, shippedObjects(r), version));
  if (!r || hasErrors(all)) return { diagnostics: all, bundles: 0, notes: [] };
  const generators = projectGenerators(root).flatMap((f) => loadGenerator(root, f).generator ?? []);
  const misplaced = bundleOutProblem(root, outDir, shown, generators);
  if (misplaced) return { diagnostics: [...all, misplaced], bundles: 0, notes: [] };
  const cfg = bundleSettings(r.generator!.name, r.generator!.config);
  const built = buildBundles(withReplacedNames(r.objects, r.lock), {
    version,
    versionLabel: cfg.versionLabel,
    filePrefix: cfg.filePrefix,
    templates: r.templates ?? [],
  });
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
      notes: [],
    };
  }
  try {
    writeFilesAtomic(outDir, files);
  } catch (e) {
    return { diagnostics: [...all, writeProblem(shown, e)], bundles: 0, notes: [] };
  }
  return { diagnostics: all, generator: r.generator!.name, bundles: built.length - 1, notes: [] };
}

/** The largest file of a bundle directory read to hash it. */
const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

export { RELEASE_VERSION } from '../schema/names';
