/**
 * Release bundles as upstream common-instancetypes publishes them: five multi-document files
 * (everything, and each kind alone) named with the version, every object stamped with the
 * version label, and a CHECKSUMS.sha256 in `sha256sum` format.
 */
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { realLocation, within } from '../load/files';
import type { LoadedGenerator } from '../pipeline';
import { sortKeysDeep } from '../resolve/leaves';
import type { OutputFile } from '../emit/layout';
import { serializeObjects } from '../emit/layout';
import { serializeStream } from '../emit/serialize';
import type { RenderedObject } from '../render/manifests';
import type { ManifestKind } from '../schema/manifest';
import { sha256Hex } from '../digest';
import { byText, compareText } from '../order';

export const CHECKSUMS_FILE = 'CHECKSUMS.sha256';

export interface BundleOptions {
  readonly version: string;
  readonly versionLabel: string;
  /** `common` gives upstream's names. */
  readonly filePrefix: string;
}

/** Upstream's bundle names with the prefix in place of `common`, without version and extension. */
export function bundleNames(prefix: string): readonly { readonly name: string; readonly kinds: readonly ManifestKind[] | 'all' }[] {
  return [
    { name: `${prefix}-instancetypes-all-bundle`, kinds: 'all' },
    { name: `${prefix}-clusterinstancetypes-bundle`, kinds: ['VirtualMachineClusterInstancetype'] },
    { name: `${prefix}-instancetypes-bundle`, kinds: ['VirtualMachineInstancetype'] },
    { name: `${prefix}-clusterpreferences-bundle`, kinds: ['VirtualMachineClusterPreference'] },
    { name: `${prefix}-preferences-bundle`, kinds: ['VirtualMachinePreference'] },
  ];
}

/** Each object with the version label added (labels stay sorted). */
export function stampVersion(objects: readonly RenderedObject[], label: string, version: string): RenderedObject[] {
  const stamped = new Map<object, RenderedObject['manifest']['metadata']>();
  return objects.map((o) => {
    // Twins share metadata; stamp it once so they keep sharing one serialization.
    let metadata = stamped.get(o.manifest.metadata);
    if (metadata === undefined) {
      const labels = sortKeysDeep({ ...(o.manifest.metadata.labels ?? {}), [label]: version }) as Record<string, string>;
      metadata = { ...o.manifest.metadata, labels };
      stamped.set(o.manifest.metadata, metadata);
    }
    return { ...o, manifest: { ...o.manifest, metadata } };
  });
}

/**
 * The bundle files and their checksums. A bundle whose kinds this generator does not emit (a
 * cluster-only vendor has no namespaced bundles) is left out rather than shipped empty.
 */
export function buildBundles(objects: readonly RenderedObject[], opts: BundleOptions): OutputFile[] {
  const docs = serializeObjects(stampVersion(objects, opts.versionLabel, opts.version));
  const files: OutputFile[] = [];
  for (const b of bundleNames(opts.filePrefix)) {
    const selected = docs.filter(([kind]) => b.kinds === 'all' || b.kinds.includes(kind)).map(([, doc]) => doc);
    if (selected.length === 0) continue;
    files.push({ path: `${b.name}-${opts.version}.yaml`, content: serializeStream(selected) });
  }
  const sorted = [...files].sort(byText((x) => x.path));
  const checksums = sorted.map((f) => `${sha256Hex(f.content)}  ${f.path}\n`).join('');
  return [...sorted, { path: CHECKSUMS_FILE, content: checksums }];
}

/**
 * Bundles are written beside what is there, so the bundle directory must not be one itgen replaces
 * (a generator's output: the next generate would drop them) or reads (a catalog would take them for
 * catalog files), nor the generators directory or `.git`. `outDir` is absolute; `written` is how
 * the user named it.
 */
export function bundleOutProblem(root: string, outDir: string, written: string, generators: readonly LoadedGenerator[]): Diagnostic | undefined {
  const absRoot = path.resolve(root);
  const places: [string, string][] = [
    [path.join(absRoot, 'generators'), 'the generators directory'],
    [path.join(absRoot, '.git'), 'the Git repository'],
  ];
  for (const g of generators) {
    places.push(
      [path.resolve(absRoot, g.outputDir), `the output of generator \`${g.name}\``],
      [path.resolve(absRoot, g.catalogDir), `the catalog of generator \`${g.name}\``],
    );
  }
  // Compared where the paths really lead: a committed link (`_build -> output/default`) must not
  // carry bundles into a directory that the check above would refuse by name.
  const real = realLocation(outDir);
  for (const [dir, what] of places) {
    const realDir = realLocation(dir);
    for (const [target, base] of [
      [outDir, dir],
      [real, realDir],
    ] as const) {
      if (target === base || within(base, target)) {
        const through = target === real && real !== outDir ? ' (through a symbolic link)' : '';
        return diag('IT1010', `--out ${written} is ${target === base ? '' : 'inside '}${what}${through}`, undefined, {
          hint: 'write bundles to a directory of their own, such as dist/release or _build/bundles',
        });
      }
    }
  }
  return undefined;
}

/**
 * The CHECKSUMS.sha256 of a bundle directory after writing `files` into it: the fresh sums, and the
 * line of each other bundle an existing CHECKSUMS lists that is still there (a second release's
 * bundles written into the same directory), so that `sha256sum --check` covers every bundle, not
 * only the last ones. The existing file is untrusted (a pull request can commit it): a line is kept
 * only for a name `currentSum` can hash (a regular file in the directory, not a link, `.` or `..`)
 * whose sum is the one the line records; a file whose sum differs changed since it was bundled and
 * is returned in `changed` (never re-blessed with its new sum).
 */
export function mergedChecksums(
  existing: string | undefined,
  files: readonly OutputFile[],
  currentSum: (name: string) => string | undefined,
): { files: OutputFile[]; changed: string[] } {
  const fresh = files.find((f) => f.path === CHECKSUMS_FILE);
  if (!fresh || existing === undefined) return { files: [...files], changed: [] };
  const written = new Set(files.map((f) => f.path));
  const changed: string[] = [];
  const kept = existing.split('\n').flatMap((l) => {
    const m = /^([0-9a-f]{64}) {2}([^/\\\n]+)$/.exec(l);
    const name = m?.[2];
    if (name === undefined || name === '.' || name === '..' || written.has(name)) return [];
    const sum = currentSum(name);
    if (sum === undefined) return [];
    if (sum !== m![1]) {
      changed.push(name);
      return [];
    }
    return [l];
  });
  const lines = [...new Set([...kept, ...fresh.content.split('\n').filter((l) => l !== '')])].sort((a, b) => compareText(a.slice(66), b.slice(66)));
  return { files: files.map((f) => (f.path === CHECKSUMS_FILE ? { path: f.path, content: `${lines.join('\n')}\n` } : f)), changed: changed.sort(compareText) };
}
