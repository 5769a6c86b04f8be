import { getPath, type Json, type JsonObject } from '../json';
import { sortKeysDeep } from '../resolve/leaves';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import { formatBinary, parseQuantity } from '../quantity';
import type { Scope } from '../schema/generator';
import { INSTANCETYPE_API_VERSION, KIND_ORDER, KINDS_OF, type ManifestKind } from '../schema/kubevirt-api';
import { compareText } from '../order';

export const LABEL_PREFIX = 'instancetype.kubevirt.io/';

/** An object as rendered: the API model's shape (schema/manifest.ts) with its spec as plain JSON. */
export interface RenderedManifest {
  readonly apiVersion: typeof INSTANCETYPE_API_VERSION;
  readonly kind: ManifestKind;
  readonly metadata: {
    readonly name: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly spec: JsonObject;
}

/** A rendered object and the resolved object it came from (for diagnostics). */
export interface RenderedObject {
  readonly manifest: RenderedManifest;
  readonly source: ResolvedInstancetype | ResolvedPreference;
  readonly scope: Scope;
}

export interface RenderOptions {
  /** The vendor label; none when the generator names no vendor. */
  readonly vendor?: string | undefined;
  readonly scopes: readonly Scope[];
  readonly labels?: Readonly<Record<string, string>> | undefined;
  readonly annotations?: Readonly<Record<string, string>> | undefined;
}

const get = getPath;

/**
 * A memory label says what the spec says, as written (`1.5Gi` stays `1.5Gi`), so that the label
 * people select on reads like the spec beside it; only a bare number of bytes is given a unit.
 */
function memoryLabel(q: Json | undefined): string | undefined {
  if (typeof q === 'string') return q.trim();
  if (typeof q !== 'number') return undefined;
  const bytes = parseQuantity(q);
  return bytes === undefined ? String(q) : formatBinary(bytes);
}

/** Every label computable from an instance type's spec. Never authored in the catalog. */
export function instancetypeSpecLabels(spec: JsonObject): Record<string, string> {
  const labels: Record<string, string> = {};
  const guest = get(spec, ['cpu', 'guest']);
  if (typeof guest === 'number') labels[`${LABEL_PREFIX}cpu`] = String(guest);
  const mem = memoryLabel(get(spec, ['memory', 'guest']));
  if (mem !== undefined) labels[`${LABEL_PREFIX}memory`] = mem;
  const pageSize = get(spec, ['memory', 'hugepages', 'pageSize']);
  if (typeof pageSize === 'string') labels[`${LABEL_PREFIX}hugepages`] = pageSize;
  if (get(spec, ['cpu', 'dedicatedCPUPlacement']) === true) labels[`${LABEL_PREFIX}dedicatedCPUPlacement`] = 'true';
  if (get(spec, ['cpu', 'isolateEmulatorThread']) === true) labels[`${LABEL_PREFIX}isolateEmulatorThread`] = 'true';
  if (get(spec, ['cpu', 'numa', 'guestMappingPassthrough']) !== undefined) labels[`${LABEL_PREFIX}numa`] = 'true';
  if (get(spec, ['cpu', 'realtime']) !== undefined) labels[`${LABEL_PREFIX}realtime`] = 'true';
  const gpus = get(spec, ['gpus']);
  if (Array.isArray(gpus) && gpus.length > 0) labels[`${LABEL_PREFIX}gpus`] = 'true';
  return labels;
}

/** Every label computable from a preference's spec. */
export function preferenceSpecLabels(spec: JsonObject): Record<string, string> {
  const labels: Record<string, string> = {};
  const os = get(spec, ['annotations', 'vm.kubevirt.io/os']);
  if (typeof os === 'string') labels[`${LABEL_PREFIX}os-type`] = os;
  const preferredArch = get(spec, ['preferredArchitecture']);
  if (typeof preferredArch === 'string') {
    labels[`${LABEL_PREFIX}arch`] = preferredArch;
    labels[`${LABEL_PREFIX}preferred-architecture`] = preferredArch;
  }
  const requiredArch = get(spec, ['requirements', 'architecture']);
  if (typeof requiredArch === 'string') labels[`${LABEL_PREFIX}required-architecture`] = requiredArch;
  const reqCpu = get(spec, ['requirements', 'cpu', 'guest']);
  if (typeof reqCpu === 'number') labels[`${LABEL_PREFIX}required-cpu`] = String(reqCpu);
  const reqMem = memoryLabel(get(spec, ['requirements', 'memory', 'guest']));
  if (reqMem !== undefined) labels[`${LABEL_PREFIX}required-memory`] = reqMem;
  return labels;
}

function metadata(name: string, labels: Record<string, string>, annotations: Record<string, string>): RenderedManifest['metadata'] {
  const sortedLabels = sortKeysDeep(labels) as Record<string, string>;
  const sortedAnnotations = sortKeysDeep(annotations) as Record<string, string>;
  return {
    ...(Object.keys(annotations).length > 0 ? { annotations: sortedAnnotations } : {}),
    ...(Object.keys(labels).length > 0 ? { labels: sortedLabels } : {}),
    name,
  };
}

export function renderInstancetype(it: ResolvedInstancetype, opts: RenderOptions): { labels: Record<string, string>; annotations: Record<string, string> } {
  // Order of precedence, lowest first: generator extras, catalog extras, derived. Derived labels
  // always win so that a label can never disagree with the spec.
  const labels: Record<string, string> = { ...(opts.labels ?? {}), ...it.labels };
  if (opts.vendor !== undefined) labels[`${LABEL_PREFIX}vendor`] = opts.vendor;
  labels[`${LABEL_PREFIX}class`] = it.class;
  if (it.version !== undefined) labels[`${LABEL_PREFIX}version`] = it.version;
  if (it.icon !== undefined) labels[`${LABEL_PREFIX}icon-pf`] = it.icon;
  labels[`${LABEL_PREFIX}size`] = it.size;
  if (it.deprecated) labels[`${LABEL_PREFIX}deprecated`] = 'true';
  Object.assign(labels, instancetypeSpecLabels(it.spec));
  // A family of one architecture says so on its objects, in common-instancetypes' label: a bundle
  // keeps it, and every answer about a VM of it (node labels, fit, pairing) reads it.
  if (it.architectures?.length === 1) labels[`${LABEL_PREFIX}arch`] = it.architectures[0]!;
  const annotations: Record<string, string> = { ...(opts.annotations ?? {}), ...it.annotations };
  annotations[`${LABEL_PREFIX}displayName`] = it.displayName;
  annotations[`${LABEL_PREFIX}description`] = it.description;
  // A deprecated object names its replacement on itself, so that a bundle or a cluster's objects
  // tell a VM owner what to use instead (render/objects.ts reads it back).
  if (it.deprecated?.replacement !== undefined) annotations[`${LABEL_PREFIX}replacement`] = it.deprecated.replacement;
  return { labels, annotations };
}

export function renderPreference(p: ResolvedPreference, opts: RenderOptions): { labels: Record<string, string>; annotations: Record<string, string> } {
  const labels: Record<string, string> = { ...(opts.labels ?? {}), ...p.labels };
  if (opts.vendor !== undefined) labels[`${LABEL_PREFIX}vendor`] = opts.vendor;
  if (p.deprecated) labels[`${LABEL_PREFIX}deprecated`] = 'true';
  Object.assign(labels, preferenceSpecLabels(p.spec));
  const annotations: Record<string, string> = { ...(opts.annotations ?? {}), ...p.annotations };
  annotations['openshift.io/display-name'] = p.displayName;
  if (p.icon !== undefined) annotations['iconClass'] = p.icon;
  if (p.deprecated?.replacement !== undefined) annotations[`${LABEL_PREFIX}replacement`] = p.deprecated.replacement;
  return { labels, annotations };
}

/**
 * Cluster and namespaced objects come from one model: the namespaced kind is the cluster kind
 * with another `kind`, never a separate declaration.
 */
export function renderCatalog(catalog: ResolvedCatalog, opts: RenderOptions): RenderedObject[] {
  const out: RenderedObject[] = [];
  const scopes = (['cluster', 'namespaced'] as const).filter((scope) => opts.scopes.includes(scope));
  const emit = (source: ResolvedInstancetype | ResolvedPreference, metadata: RenderedManifest['metadata']): void => {
    for (const scope of scopes) {
      out.push({ manifest: { apiVersion: INSTANCETYPE_API_VERSION, kind: KINDS_OF[source.kind][scope], metadata, spec: source.spec }, source, scope });
    }
  };
  for (const it of catalog.instancetypes) {
    const { labels, annotations } = renderInstancetype(it, opts);
    emit(it, metadata(it.name, labels, annotations));
  }
  for (const p of catalog.preferences) {
    const { labels, annotations } = renderPreference(p, opts);
    emit(p, metadata(p.name, labels, annotations));
  }
  return sortManifests(out);
}

/**
 * One rendering of each resolved object: the cluster and namespaced twins share name, metadata and
 * spec, so checks and explanations look at the first of them only.
 */
export function onePerSource<T extends { readonly source: object }>(objects: readonly T[]): T[] {
  const seen = new Set<object>();
  return objects.filter((o) => {
    if (seen.has(o.source)) return false;
    seen.add(o.source);
    return true;
  });
}

export function sortManifests<T extends { manifest: RenderedManifest }>(objects: readonly T[]): T[] {
  const rank = new Map(KIND_ORDER.map((k, i) => [k, i] as const));
  return [...objects].sort((a, b) => {
    const ka = rank.get(a.manifest.kind)!;
    const kb = rank.get(b.manifest.kind)!;
    if (ka !== kb) return ka - kb;
    const na = a.manifest.metadata.name;
    const nb = b.manifest.metadata.name;
    return compareText(na, nb);
  });
}
