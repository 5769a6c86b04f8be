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
import { mappingToYaml, serializeStream } from '../emit/serialize';
import type { RenderedObject } from '../render/manifests';
import { REPLACES_ANNOTATION } from '../render/objects';
import type { ManifestKind } from '../schema/manifest';
import { sha256Hex, specDigest } from '../digest';
import { byText, compareText } from '../order';
import { objectsInText, type KubeObject } from '../emit/committed';
import { locate } from '../load/source';
import { LABEL_PREFIX } from '../render/manifests';
import type { Json, JsonObject } from '../json';
import type { LockedObject } from '../schema/lock';
import type { LoadedLock } from '../validate/lock';
import { compareVersions } from '../version';
import { KINDS_OF } from '../schema/kubevirt-api';

export const CHECKSUMS_FILE = 'CHECKSUMS.sha256';

/** A `sha256sum` line of a bundle directory: the sum and a plain file name (no directory in it). */
const CHECKSUM_LINE = /^([0-9a-f]{64}) {2}([^/\\\u0000-\u001f\u007f]+)$/;

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
    { name: `${prefix}-clusterinstancetypes-bundle`, kinds: [KINDS_OF.instancetype.cluster] },
    { name: `${prefix}-instancetypes-bundle`, kinds: [KINDS_OF.instancetype.namespaced] },
    { name: `${prefix}-clusterpreferences-bundle`, kinds: [KINDS_OF.preference.cluster] },
    { name: `${prefix}-preferences-bundle`, kinds: [KINDS_OF.preference.namespaced] },
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
export function buildBundles(objects: readonly RenderedObject[], opts: BundleOptions & { readonly templates?: readonly JsonObject[] }): OutputFile[] {
  const docs = serializeObjects(stampVersion(objects, opts.versionLabel, opts.version));
  const files: OutputFile[] = [];
  for (const b of bundleNames(opts.filePrefix)) {
    const selected = docs.filter(([kind]) => b.kinds === 'all' || b.kinds.includes(kind)).map(([, doc]) => doc);
    if (selected.length === 0) continue;
    files.push({ path: `${b.name}-${opts.version}.yaml`, content: serializeStream(selected) });
  }
  // The templates a generator ships: a bundle of their own, stamped like the rest (never in the
  // instance types' bundles, which consumers read as upstream's).
  if ((opts.templates ?? []).length > 0) {
    const stamped = opts.templates!.map((t) => {
      const meta = (t['metadata'] ?? {}) as JsonObject;
      const labels = sortKeysDeep({ ...((meta['labels'] as JsonObject | undefined) ?? {}), [opts.versionLabel]: opts.version }) as JsonObject;
      return mappingToYaml({ ...t, metadata: { ...meta, labels } });
    });
    files.push({ path: `${opts.filePrefix}-templates-bundle-${opts.version}.yaml`, content: serializeStream(stamped) });
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
  const kept = existing.split(/\r?\n/).flatMap((l) => {
    const m = CHECKSUM_LINE.exec(l);
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

/** A published bundle as read back: its version, file name, and objects (or why it cannot be trusted). */
export interface PublishedBundle {
  readonly version: string;
  readonly file: string;
  readonly objects: readonly KubeObject[];
}

/** The digest an entry's spec had in release `version` (before any reviewed change recorded after it). */
function digestAt(e: LockedObject, version: string): string {
  const later = (e.changed ?? []).find((c) => compareVersions(c.release, version) > 0);
  return later ? later.from : e.digest;
}

/**
 * The release lock held to the bundles that were published (IT7109): each object a release's bundle
 * holds is in the lock, released no later, deprecated exactly when the bundle labels it so, with
 * the spec digest the lock says it had then; and every object the lock says that release published
 * is in its bundle. A pull request that rewrites the lock (a deprecation recorded in a release that
 * shipped the object plain) is refused by what was shipped.
 */
export function bundleHistoryProblems(loaded: LoadedLock, bundles: readonly PublishedBundle[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const entries = new Map<string, { o: LockedObject; i: number }>(loaded.lock.objects.map((o, i) => [`${o.kind}/${o.name}`, { o, i }] as const));
  const hint = `the bundles are what was shipped; restore ${loaded.file} as the base branch has it, and record changes with \`itgen release\``;
  for (const b of bundles) {
    const here = new Set<string>();
    for (const obj of b.objects) {
      const k = `${obj.kind}/${obj.metadata.name}`;
      here.add(k);
      const found = entries.get(k);
      const what = `${obj.kind} \`${obj.metadata.name}\``;
      if (!found) {
        out.push(
          diag('IT7109', `${what} is in the published bundle ${b.file} (${b.version}) but not in the release lock`, locate(loaded.src, ['objects']), { hint }),
        );
        continue;
      }
      const { o, i } = found;
      const at = (field: string): ReturnType<typeof locate> => locate(loaded.src, ['objects', i, field]);
      if (compareVersions(o.released, b.version) > 0)
        out.push(
          diag('IT7109', `${what} is recorded as released in ${o.released}, but the ${b.version} bundle ${b.file} already has it`, at('released'), { hint }),
        );
      const labels = (obj.metadata as { labels?: Record<string, unknown> }).labels ?? {};
      const shippedDeprecated = labels[`${LABEL_PREFIX}deprecated`] === 'true';
      const lockDeprecated = o.deprecated !== undefined && compareVersions(o.deprecated, b.version) <= 0;
      if (shippedDeprecated !== lockDeprecated)
        out.push(
          diag(
            'IT7109',
            lockDeprecated
              ? `${what} is recorded as deprecated in ${o.deprecated}, but the ${b.version} bundle ${b.file} shipped it not deprecated`
              : `${what} is recorded as not deprecated in ${b.version}, but the bundle ${b.file} shipped it deprecated`,
            at(lockDeprecated ? 'deprecated' : 'name'),
            { hint },
          ),
        );
      if (specDigest((obj['spec'] ?? {}) as Json) !== digestAt(o, b.version))
        out.push(
          diag('IT7109', `${what}: the spec the ${b.version} bundle ${b.file} shipped is not the one the lock records for that release`, at('digest'), {
            hint,
          }),
        );
    }
    for (const { o, i } of entries.values()) {
      const published = compareVersions(o.released, b.version) <= 0 && (o.removed === undefined || compareVersions(o.removed, b.version) > 0);
      if (published && !here.has(`${o.kind}/${o.name}`) && b.objects.some((x) => x.kind === o.kind))
        out.push(
          diag(
            'IT7109',
            `${o.kind} \`${o.name}\` is recorded as published in ${b.version}, but the bundle ${b.file} does not have it`,
            locate(loaded.src, ['objects', i, 'name']),
            { hint },
          ),
        );
    }
  }
  return out;
}

/**
 * The published bundles of a generator in a directory (the `-all-bundle-` file of each version),
 * each verified against the directory's CHECKSUMS.sha256 first: a bundle whose sum is not the
 * recorded one, or that no CHECKSUMS line covers, is not what was published (IT7107).
 */
export function readPublishedBundles(
  files: readonly { readonly name: string; readonly bytes: Buffer }[],
  prefix: string,
  shown: string,
): { bundles: PublishedBundle[]; diagnostics: Diagnostic[] } {
  const sums = new Map<string, string>();
  const checksums = files.find((f) => f.name === CHECKSUMS_FILE);
  for (const line of checksums?.bytes.toString('utf8').split(/\r?\n/) ?? []) {
    const m = CHECKSUM_LINE.exec(line);
    if (m) sums.set(m[2]!, m[1]!);
  }
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-instancetypes-all-bundle-(v\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?)\\.yaml$`);
  const bundles: PublishedBundle[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const f of files) {
    const m = pattern.exec(f.name);
    if (!m) continue;
    const sum = sums.get(f.name);
    if (sum === undefined || sum !== sha256Hex(f.bytes)) {
      diagnostics.push(
        diag(
          'IT7107',
          `${shown}/${f.name} ${sum === undefined ? `is not listed in ${CHECKSUMS_FILE}` : `does not have the sum ${CHECKSUMS_FILE} records`}: it is not the bundle that was published`,
          undefined,
          {
            hint: 'fetch the published bundles and their checksums again',
          },
        ),
      );
      continue;
    }
    bundles.push({ version: m[1]!, file: f.name, objects: objectsInText(f.name, f.bytes.toString('utf8')) });
  }
  return { bundles: bundles.sort((a, b) => compareVersions(a.version, b.version)), diagnostics };
}

/**
 * Each object of a bundle that replaces names the release lock records removed says so
 * (REPLACES_ANNOTATION, `name@release` of each): a VM owner holding only the bundle is then told
 * what to use for a removed name. Bundles only: the committed base stays what the catalog
 * generates, whatever the lock records since.
 */
export function withReplacedNames(objects: readonly RenderedObject[], lock: LoadedLock | undefined): readonly RenderedObject[] {
  const replaced = new Map<string, string[]>();
  for (const o of lock?.lock.objects ?? [])
    if (o.removed !== undefined && o.replacement !== undefined) {
      const key = `${o.kind}/${o.replacement}`;
      replaced.set(key, [...(replaced.get(key) ?? []), `${o.name}@${o.removed}`]);
    }
  if (replaced.size === 0) return objects;
  return objects.map((o) => {
    const names = replaced.get(`${o.manifest.kind}/${o.manifest.metadata.name}`);
    if (!names) return o;
    const metadata = { ...o.manifest.metadata, annotations: { ...(o.manifest.metadata.annotations ?? {}), [REPLACES_ANNOTATION]: names.sort().join(',') } };
    return { ...o, manifest: { ...o.manifest, metadata } };
  });
}
