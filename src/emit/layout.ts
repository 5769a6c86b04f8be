import { type RenderedObject } from '../render/manifests';
import { KIND_ORDER, type ManifestKind } from '../schema/kubevirt-api';
import { mappingToYaml, serializeBody, serializeManifest, serializeStream } from './serialize';
import { byText, compareText } from '../order';

export interface OutputFile {
  /** Relative to the output directory, POSIX separators. */
  readonly path: string;
  readonly content: string;
}

export const KIND_DIRS: Readonly<Record<ManifestKind, string>> = {
  VirtualMachineClusterInstancetype: 'VirtualMachineClusterInstancetypes',
  VirtualMachineInstancetype: 'VirtualMachineInstancetypes',
  VirtualMachineClusterPreference: 'VirtualMachineClusterPreferences',
  VirtualMachinePreference: 'VirtualMachinePreferences',
};

export function kustomization(resources: readonly string[], extra: Record<string, unknown> = {}): string {
  // Starts with `---` like every generated YAML file (yamllint's document-start rule).
  return (
    '---\n' +
    mappingToYaml({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      ...extra,
      resources: [...resources].sort(),
    })
  );
}

/**
 * Each object as one YAML document, in the given order. Cluster and namespaced twins share their
 * metadata and spec objects (unless a target namespace set the namespaced twin apart), so the
 * body is serialized once per pair.
 */
export function serializeObjects(objects: readonly RenderedObject[]): [ManifestKind, string][] {
  const bodies = new Map<object, Map<object, string>>();
  return objects.map((o) => {
    let bySpec = bodies.get(o.manifest.metadata);
    if (bySpec === undefined) {
      bySpec = new Map();
      bodies.set(o.manifest.metadata, bySpec);
    }
    let body = bySpec.get(o.manifest.spec);
    if (body === undefined) {
      body = serializeBody(o.manifest);
      bySpec.set(o.manifest.spec, body);
    }
    return [o.manifest.kind, serializeManifest(o.manifest, body)];
  });
}

/** How large one file of a base may grow before the next part starts. */
export interface PartLimits {
  readonly bytes: number;
  readonly documents: number;
}

/**
 * Every file itgen writes, it must read back: `check`, `diff` and the next `generate` read the base
 * under load/limits.ts's bounds (8 MiB, 50,000 documents per file). A kind with more than fits in
 * one file (a 40,000-object catalog writes 9 MB for one kind) is split at document boundaries into
 * `<kind>s.yaml`, `<kind>s-2.yaml`, ..., each well inside the bounds, all listed by the kind's
 * kustomization. A catalog of ordinary size keeps one file per kind.
 */
export const PART_LIMITS: PartLimits = { bytes: 4 * 1024 * 1024, documents: 20_000 };

function splitParts(docs: readonly string[], limits: PartLimits): string[][] {
  const parts: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const d of docs) {
    const size = Buffer.byteLength(d) + 5;
    if (current.length > 0 && (bytes + size > limits.bytes || current.length >= limits.documents)) {
      parts.push(current);
      current = [];
      bytes = 0;
    }
    current.push(d);
    bytes += size;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/**
 * The kustomize base: one directory per kind, each a kustomization of its own so a consumer can
 * take cluster-scoped or namespaced objects alone (and a `namespace:` overlay on the namespaced
 * ones never touches cluster-scoped kinds), plus a kustomization over the four.
 */
export function layoutBase(
  objects: readonly RenderedObject[],
  kinds: readonly ManifestKind[] = KIND_ORDER,
  extra: readonly OutputFile[] = [],
  part: PartLimits = PART_LIMITS,
): OutputFile[] {
  const byKind = new Map<ManifestKind, string[]>();
  for (const k of kinds) byKind.set(k, []);
  for (const [kind, doc] of serializeObjects(objects)) byKind.get(kind)?.push(doc);
  const files: OutputFile[] = [];
  const dirs: string[] = [];
  for (const kind of kinds) {
    const dir = KIND_DIRS[kind];
    const parts = splitParts(byKind.get(kind)!, part);
    const names = parts.map((_, i) => `${kind.toLowerCase()}s${i === 0 ? '' : `-${i + 1}`}.yaml`);
    dirs.push(dir);
    files.push({ path: `${dir}/kustomization.yaml`, content: kustomization(names) });
    parts.forEach((docs, i) => files.push({ path: `${dir}/${names[i]!}`, content: serializeStream(docs) }));
  }
  files.push({ path: 'kustomization.yaml', content: kustomization(dirs) });
  files.push(...extra);
  return files.sort(byText((x) => x.path));
}

/**
 * A generator's objects as one YAML stream, in the order the base lists them (kinds in `kindOrder`,
 * names sorted), every document starting with `---`: what `kustomize build` of the base prints,
 * for pipes and config-management plugins.
 */
export function objectStream(objects: readonly RenderedObject[], kindOrder: readonly ManifestKind[]): string {
  const rank = new Map(kindOrder.map((k, i) => [k, i] as const));
  const docs = serializeObjects(objects)
    .map(([kind, doc], i) => ({ kind, doc, name: objects[i]!.manifest.metadata.name }))
    .sort((a, b) => rank.get(a.kind)! - rank.get(b.kind)! || compareText(a.name, b.name));
  return serializeStream(docs.map((d) => d.doc));
}
