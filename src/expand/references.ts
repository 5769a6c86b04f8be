/**
 * Finding the objects a VM names (pkg/instancetype/find, preference/find) among manifests given
 * offline, and `inferFromVolume` (pkg/instancetype/infer) from the labels of a PVC, DataVolume or
 * DataSource given with them. KubeVirt's own messages throughout.
 */
import { list, nonEmpty, obj, type Json, type JsonObject, type References, type SpecObject } from './model';
import { KINDS_OF, MANIFEST_KINDS, type SpecKind } from '../schema/manifest';

const GROUP = 'instancetype.kubevirt.io';

/** Manifests by kind; instancetype objects also as SpecObjects. */
export interface ObjectStore {
  readonly specObjects: readonly SpecObject[];
  /** specObjects by `kind/name`, built on first lookup: thousands of VMs look up the same few objects. */
  index?: Map<string, SpecObject[]>;
  /** PVCs, DataVolumes and DataSources, for inferFromVolume. */
  readonly volumes: readonly JsonObject[];
}

const SPEC_KINDS: ReadonlySet<string> = new Set(MANIFEST_KINDS);
const VOLUME_KINDS = new Set(['PersistentVolumeClaim', 'DataVolume', 'DataSource']);

export function objectStore(objects: readonly JsonObject[]): ObjectStore {
  const specObjects: SpecObject[] = [];
  const volumes: JsonObject[] = [];
  // `kubectl get -o yaml` prints a List: its items are the objects.
  const flat = objects.flatMap((o) =>
    o['kind'] === 'List' && Array.isArray(o['items'])
      ? o['items'].filter((i): i is JsonObject => i !== null && typeof i === 'object' && !Array.isArray(i))
      : [o],
  );
  for (const o of flat) {
    const kind = o['kind'];
    const meta = obj(o['metadata']);
    if (typeof kind !== 'string' || typeof meta?.['name'] !== 'string') continue;
    if (SPEC_KINDS.has(kind))
      specObjects.push({
        kind,
        name: meta['name'],
        namespace: typeof meta['namespace'] === 'string' ? meta['namespace'] : undefined,
        spec: obj(o['spec']) ?? {},
      });
    else if (VOLUME_KINDS.has(kind)) volumes.push(o);
  }
  return { specObjects, volumes };
}

type Which = SpecKind;
const KINDS: Readonly<Record<Which, { cluster: string; namespaced: string; matcher: string }>> = {
  instancetype: { ...KINDS_OF.instancetype, matcher: 'InstancetypeMatcher' },
  preference: { ...KINDS_OF.preference, matcher: 'PreferenceMatcher' },
};

export interface ReferenceError {
  readonly message: string;
  /** The VM field the error is about (`spec.instancetype.name`). */
  readonly field: string;
}

/** R 1.1: kind empty or cluster -> the cluster object; namespaced -> in the VM's namespace; anything else an error. */
function find(store: ObjectStore, which: Which, name: string, kindWritten: Json | undefined, namespace: string | undefined): SpecObject | ReferenceError {
  const kinds = KINDS[which];
  const lower = typeof kindWritten === 'string' ? kindWritten.toLowerCase() : '';
  const cluster = lower === '' || lower === kinds.cluster.toLowerCase() || lower === `${kinds.cluster.toLowerCase()}s`;
  const namespaced = lower === kinds.namespaced.toLowerCase() || lower === `${kinds.namespaced.toLowerCase()}s`;
  if (!cluster && !namespaced) return { message: `got unexpected kind in ${kinds.matcher}: ${String(kindWritten)}`, field: `spec.${which}.kind` };
  const kind = cluster ? kinds.cluster : kinds.namespaced;
  // A namespaced object given without a namespace stands for the VM's namespace, whichever it is.
  if (!store.index) {
    store.index = new Map();
    for (const o of store.specObjects) {
      const key = `${o.kind}/${o.name}`;
      const same = store.index.get(key);
      if (same) same.push(o);
      else store.index.set(key, [o]);
    }
  }
  const found = store.index.get(`${kind}/${name}`)?.find((o) => cluster || o.namespace === undefined || o.namespace === namespace);
  return found ?? { message: `${kind.toLowerCase()}s.${GROUP} "${name}" not found`, field: `spec.${which}.name` };
}

const LABEL: Readonly<Record<Which, string>> = {
  instancetype: 'instancetype.kubevirt.io/default-instancetype',
  preference: 'instancetype.kubevirt.io/default-preference',
};

function labelsOf(o: JsonObject | undefined): JsonObject | undefined {
  return obj(obj(o?.['metadata'])?.['labels']);
}

/** The object whose labels carry the defaults of a VM volume, as pkg/instancetype/infer/volume.go walks to it. */
function labelSource(
  store: ObjectStore,
  vm: JsonObject,
  volumeName: string,
  namespace: string | undefined,
): { labels: JsonObject } | { error: string; ignorable: boolean } {
  const spec = obj(vm['spec']) ?? {};
  const volume = list(obj(obj(spec['template'])?.['spec'])?.['volumes']).find((v) => v['name'] === volumeName);
  if (!volume) return { error: `unable to find volume ${volumeName} to infer defaults`, ignorable: false };
  const lookup = (kind: string, name: Json | undefined, ns: Json | undefined): JsonObject | undefined =>
    store.volumes.find(
      (o) => o['kind'] === kind && obj(o['metadata'])?.['name'] === name && (obj(o['metadata'])?.['namespace'] ?? namespace) === (ns ?? namespace),
    );
  const offline = (what: string): { error: string; ignorable: boolean } => ({
    error: `cannot infer defaults from volume ${volumeName} offline: ${what} is not among the manifests given (pass it with --with)`,
    ignorable: false,
  });
  const fromDataVolumeSpec = (dvSpec: JsonObject | undefined): { labels: JsonObject } | { error: string; ignorable: boolean } => {
    const ref = obj(dvSpec?.['sourceRef']);
    const source = obj(dvSpec?.['source']);
    if (ref) {
      if (ref['kind'] !== 'DataSource')
        return { error: `unable to infer defaults from DataVolumeSourceRef as Kind ${String(ref['kind'])} is not supported`, ignorable: true };
      const ds = lookup('DataSource', ref['name'], ref['namespace']);
      if (!ds) return offline(`DataSource ${String(ref['name'])}`);
      const labels = labelsOf(ds);
      if (labels) return { labels };
      const pvc = obj(obj(obj(ds['spec'])?.['source'])?.['pvc']);
      if (!pvc)
        return { error: "unable to infer defaults from DataSource that doesn't provide DataVolumeSourcePVC or DataVolumeSourceSnapshot", ignorable: true };
      const claim = lookup('PersistentVolumeClaim', pvc['name'], pvc['namespace']);
      return claim ? { labels: labelsOf(claim) ?? {} } : offline(`PersistentVolumeClaim ${String(pvc['name'])}`);
    }
    const pvc = obj(source?.['pvc']);
    if (pvc) {
      const claim = lookup('PersistentVolumeClaim', pvc['name'], pvc['namespace']);
      return claim ? { labels: labelsOf(claim) ?? {} } : offline(`PersistentVolumeClaim ${String(pvc['name'])}`);
    }
    return { error: 'unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported', ignorable: true };
  };
  const claim = obj(volume['persistentVolumeClaim']);
  if (claim) {
    const pvc = lookup('PersistentVolumeClaim', claim['claimName'], undefined);
    return pvc ? { labels: labelsOf(pvc) ?? {} } : offline(`PersistentVolumeClaim ${String(claim['claimName'])}`);
  }
  const dv = obj(volume['dataVolume']);
  if (dv) {
    const template = list(spec['dataVolumeTemplates']).find((t) => obj(t['metadata'])?.['name'] === dv['name']);
    if (template) return fromDataVolumeSpec(obj(template['spec']));
    const live = lookup('DataVolume', dv['name'], undefined);
    if (!live) return offline(`DataVolume ${String(dv['name'])}`);
    const labels = labelsOf(live);
    return labels && nonEmpty(labels['instancetype.kubevirt.io/default-instancetype'] ?? labels['instancetype.kubevirt.io/default-preference'])
      ? { labels }
      : fromDataVolumeSpec(obj(live['spec']));
  }
  return { error: `unable to infer defaults from volume ${volumeName} as type is not supported`, ignorable: true };
}

/** What a matcher resolves to: the object, nothing (no matcher, or inference ignored), or KubeVirt's error. */
function resolveMatcher(store: ObjectStore, vm: JsonObject, which: Which): { object?: SpecObject; error?: ReferenceError } {
  const matcher = obj(obj(vm['spec'])?.[which]);
  if (!matcher) return {};
  const namespace = obj(vm['metadata'])?.['namespace'];
  const ns = typeof namespace === 'string' ? namespace : undefined;
  const volume = matcher['inferFromVolume'];
  if (nonEmpty(volume)) {
    const source = labelSource(store, vm, volume as string, ns);
    const policy = matcher['inferFromVolumeFailurePolicy'] ?? 'Reject';
    if ('error' in source) return source.ignorable && policy === 'Ignore' ? {} : { error: { message: source.error, field: `spec.${which}.inferFromVolume` } };
    const name = source.labels[LABEL[which]];
    if (!nonEmpty(name)) {
      const missing = `unable to find required ${LABEL[which]} label on the volume`;
      return policy === 'Ignore' ? {} : { error: { message: missing, field: `spec.${which}.inferFromVolume` } };
    }
    const found = find(store, which, name as string, source.labels[`${LABEL[which]}-kind`], ns);
    return 'message' in found ? { error: found } : { object: found };
  }
  if (!nonEmpty(matcher['name']))
    return { error: { message: `Either Name or InferFromVolume should be provided within the ${KINDS[which].matcher}`, field: `spec.${which}` } };
  const found = find(store, which, matcher['name'] as string, matcher['kind'], ns);
  return 'message' in found ? { error: found } : { object: found };
}

/** Both matchers of a VM against the store: the objects, or the first error (the instancetype's first). */
export function resolveReferences(vm: JsonObject, store: ObjectStore): { references: References; errors: ReferenceError[] } {
  const it = resolveMatcher(store, vm, 'instancetype');
  const pref = resolveMatcher(store, vm, 'preference');
  return {
    references: { instancetype: it.object, preference: pref.object },
    errors: [it.error, pref.error].filter((e): e is ReferenceError => e !== undefined),
  };
}
