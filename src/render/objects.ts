/**
 * Objects read from files (a release bundle, `kubectl get ... -o yaml`) taken as a rendered catalog,
 * so that every command that works on a generator's objects works on them: the instance types and
 * preferences as the cluster has them, their family read off the name (`u1` of `u1.large`), their
 * class, size, display name and deprecation off the labels and annotations a catalog writes.
 */
import type { JsonObject } from '../json';
import { parseQuantity } from '../quantity';
import { isManifestKind, specKindOf } from '../schema/kubevirt-api';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import type { RenderedObject } from './manifests';

/** The annotation itgen writes on a deprecated object naming what replaces it (read back from bundles). */
export const REPLACEMENT_ANNOTATION = 'instancetype.kubevirt.io/replacement';
const DEPRECATED_LABEL = 'instancetype.kubevirt.io/deprecated';
/**
 * The annotation itgen writes on an object that replaces names the release lock records removed:
 * `name@release` of each, comma-separated (`db1.medium@v2.0.0`), so that a VM still naming one is
 * told what to use from a bundle or a cluster's objects alone.
 */
export const REPLACES_ANNOTATION = 'instancetype.kubevirt.io/replaces';

/** Names the objects read from files record as removed and replaced by them (REPLACES_ANNOTATION), as the release lock writes them. */
export function removedNamesOf(objects: readonly JsonObject[]): { kind: string; name: string; removed: string; replacement: string }[] {
  return objects.flatMap((o) => {
    const m = o['metadata'];
    const meta = m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as JsonObject) : {};
    const value = record(meta['annotations'])[REPLACES_ANNOTATION];
    if (value === undefined || typeof meta['name'] !== 'string' || !isManifestKind(o['kind'])) return [];
    return value
      .split(',')
      .slice(0, 1000)
      .flatMap((entry) => {
        const at = /^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)@(v\d+\.\d+\.\d+)$/.exec(entry.trim());
        return at ? [{ kind: String(o['kind']), name: at[1]!, removed: at[3]!, replacement: meta['name'] as string }] : [];
      });
  });
}

const record = (v: unknown): Record<string, string> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
};

/** A catalog of objects read from files: each object once per kind, the first of a name per scope kept. */
export function catalogOfObjects(objects: readonly JsonObject[], name: string): { catalog: ResolvedCatalog; objects: RenderedObject[] } {
  const meta = (o: JsonObject): JsonObject => {
    const m = o['metadata'];
    return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as JsonObject) : {};
  };
  const manifests = objects.filter((o) => isManifestKind(o['kind']) && typeof meta(o)['name'] === 'string');
  const seenKind = new Set<string>();
  const distinct = manifests.filter((o) => {
    const key = `${String(o['kind'])}/${String(meta(o)['name'])}`;
    return seenKind.has(key) ? false : (seenKind.add(key), true);
  });
  const deprecation = (o: JsonObject): { replacement?: string } | undefined => {
    if (record(meta(o)['labels'])[DEPRECATED_LABEL] !== 'true') return undefined;
    const replacement = record(meta(o)['annotations'])[REPLACEMENT_ANNOTATION];
    return replacement !== undefined && replacement !== '' ? { replacement } : {};
  };
  const sources = new Map<string, ResolvedInstancetype | ResolvedPreference>();
  const source = (o: JsonObject): ResolvedInstancetype | ResolvedPreference => {
    const instancetype = isManifestKind(o['kind']) && specKindOf(o['kind']) === 'instancetype';
    const objName = String(meta(o)['name']);
    const key = `${instancetype ? 'i' : 'p'}/${objName}`;
    const known = sources.get(key);
    if (known) return known;
    const made = instancetype ? instancetypeOf(o, objName, meta(o), deprecation(o)) : preferenceOf(o, objName, meta(o), deprecation(o));
    sources.set(key, made);
    return made;
  };
  const rendered = distinct.map((o) => ({
    manifest: o as unknown as RenderedObject['manifest'],
    source: source(o),
    scope: (String(o['kind']).includes('Cluster') ? 'cluster' : 'namespaced') as RenderedObject['scope'],
  }));
  const all = [...sources.values()];
  return {
    catalog: {
      name,
      defaultArchitecture: 'amd64',
      instancetypes: all.filter((s): s is ResolvedInstancetype => s.kind === 'instancetype'),
      preferences: all.filter((s): s is ResolvedPreference => s.kind === 'preference'),
    },
    objects: rendered,
  };
}

function instancetypeOf(o: JsonObject, name: string, meta: JsonObject, deprecated: { replacement?: string } | undefined): ResolvedInstancetype {
  const labels = record(meta['labels']);
  const annotations = record(meta['annotations']);
  const spec = (o['spec'] as JsonObject | undefined) ?? {};
  const guest = (spec['memory'] as JsonObject | undefined)?.['guest'];
  const memory = (typeof guest === 'string' || typeof guest === 'number' ? parseQuantity(guest) : undefined) ?? 0;
  const cpu = Number((spec['cpu'] as JsonObject | undefined)?.['guest'] ?? 0);
  const family = name.includes('.') ? name.slice(0, name.indexOf('.')) : name;
  return {
    kind: 'instancetype',
    name,
    displayName: annotations['instancetype.kubevirt.io/displayName'] ?? name,
    description: annotations['instancetype.kubevirt.io/description'] ?? '',
    icon: undefined,
    spec,
    labels,
    annotations,
    deprecated,
    family,
    version: undefined,
    size: labels['instancetype.kubevirt.io/size'] ?? name.slice(family.length + 1),
    ladderSize: '',
    variant: undefined,
    sizeIndex: 0,
    cpu: Number.isFinite(cpu) ? cpu : 0,
    memoryBytes: memory,
    class: labels['instancetype.kubevirt.io/class'] ?? '',
    memoryPerCPUBytes: cpu > 0 ? memory / cpu : 0,
    memoryOverridden: false,
    architectures: labels['instancetype.kubevirt.io/arch'] !== undefined ? [labels['instancetype.kubevirt.io/arch']] : undefined,
  } as unknown as ResolvedInstancetype;
}

function preferenceOf(o: JsonObject, name: string, meta: JsonObject, deprecated: { replacement?: string } | undefined): ResolvedPreference {
  const spec = (o['spec'] as JsonObject | undefined) ?? {};
  const arch = spec['preferredArchitecture'];
  return {
    kind: 'preference',
    name,
    catalogName: name,
    displayName: record(meta['annotations'])['openshift.io/display-name'] ?? name,
    icon: undefined,
    spec,
    labels: record(meta['labels']),
    annotations: record(meta['annotations']),
    deprecated,
    architecture: typeof arch === 'string' ? arch : undefined,
    variant: undefined,
    inherits: [],
    include: [],
  } as unknown as ResolvedPreference;
}
