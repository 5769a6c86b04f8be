/**
 * Finding the objects a VM names (pkg/instancetype/find, preference/find) among manifests given
 * offline, and `inferFromVolume` (pkg/instancetype/infer) from the labels of a PVC, DataVolume or
 * DataSource given with them. KubeVirt's own messages throughout.
 */
import { nearestName, removedNames, removedWords, type RemovedName } from '../suggest';
import { obj, type Json, type JsonObject } from '../json';
import { type References, type SpecObject } from './model';
import { KINDS_OF, MANIFEST_KINDS, matcherKind, type SpecKind } from '../schema/kubevirt-api';
import { canonicalJson } from '../digest';
import { referencesAsRelease } from './release-spec';
import { holds, kubevirtSchemeName } from '../kubevirt/releases';

const GROUP = 'instancetype.kubevirt.io';

/** Manifests by kind; instancetype objects also as SpecObjects. */
export interface ObjectStore {
  readonly specObjects: readonly SpecObject[];
  /**
   * The cluster's StorageClasses are all among `cluster` (none may be, as in a cluster without
   * one): persistent TPM and EFI state then need one marked default. Without it, and without any
   * StorageClass given, the cluster is taken to have a default one (said in the preview's notes).
   */
  readonly storageClassesGiven?: boolean;
  /** The namespace's NetworkAttachmentDefinitions are all given (also when any is among `cluster`). */
  readonly networkAttachmentDefinitionsGiven?: boolean;
  /**
   * The cluster's PersistentVolumeClaims are all among `volumes`: a volume whose claim is not there
   * fails the launcher pod's render (`didn't find PVC`). Set when the objects describe the cluster
   * (any PVC, DataVolume, StorageClass, Namespace or Node among them); without, a claim not given is
   * taken to exist (said in the preview's notes).
   */
  readonly persistentVolumeClaimsGiven?: boolean;
  /** specObjects by `kind/name`, built on first lookup: thousands of VMs look up the same few objects. */
  index?: Map<string, SpecObject[]>;
  /** PVCs, DataVolumes, DataSources and VolumeSnapshots, for inferFromVolume. */
  readonly volumes: readonly JsonObject[];
  /** ControllerRevisions (apps/v1), as `kubectl get controllerrevision -o yaml` exports them: what a VM's revisionName names. */
  readonly revisions?: readonly JsonObject[];
  /** Namespaces, ResourceQuotas, Nodes and StorageClasses (what the launcher pod's render reads of the cluster), and Application-Aware Quota's CR and quotas (what fit counts). */
  readonly cluster?: readonly JsonObject[];
  /** Names the release locks record removed, of each kind, with the replacement their deprecation named (removedNames). */
  readonly removed?: readonly (RemovedName & { readonly kind: string })[];
}

/**
 * `store` with the names the release locks record removed (their replacement among the store's
 * objects of the kind, the name not there again): what suggestionFor tells a VM still naming one.
 */
export function withRemovedNames(store: ObjectStore, locked: Parameters<typeof removedNames>[0]): ObjectStore {
  const removed = MANIFEST_KINDS.flatMap((kind) =>
    removedNames(locked, kind, new Set(store.specObjects.filter((o) => o.kind === kind).map((o) => o.name))).map((r) => ({ ...r, kind })),
  );
  return removed.length > 0 ? { ...store, removed } : store;
}

/**
 * The one suggestion for a VM's name that names nothing of `kind`, in `validate` and `resize` as in
 * the admission policies' messages: a removed name's recorded replacement first ("it was removed in
 * v1.2.0: use `u1.large` instead"), else the nearest name of that kind (nearestName: the name in
 * another case, or one edit away); undefined when there is none.
 */
export function suggestionFor(store: ObjectStore, kind: string, name: string): string | undefined {
  const gone = store.removed?.find((r) => r.kind === kind && r.name === name);
  if (gone) return removedWords(gone, (n) => `\`${n}\``);
  const meant = nearestName(name, [...new Set(store.specObjects.filter((o) => o.kind === kind).map((o) => o.name))]);
  return meant !== '' ? `did you mean \`${meant}\`?` : undefined;
}

const SPEC_KINDS: ReadonlySet<string> = new Set(MANIFEST_KINDS);
/** The label an object carries for the architecture it is meant for (common-instancetypes' name, kept by every bundle). */
export const ARCH_LABEL = 'instancetype.kubevirt.io/arch';
const VOLUME_KINDS = new Set(['PersistentVolumeClaim', 'DataVolume', 'DataSource', 'VolumeSnapshot']);
const CLUSTER_KINDS = new Set(['Namespace', 'ResourceQuota', 'Node', 'StorageClass', 'AAQ', 'HyperConverged', 'ApplicationAwareResourceQuota']);

export function objectStore(objects: readonly JsonObject[]): ObjectStore {
  const specObjects: SpecObject[] = [];
  const volumes: JsonObject[] = [];
  const revisions: JsonObject[] = [];
  const cluster: JsonObject[] = [];
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
    if (SPEC_KINDS.has(kind)) {
      const arch = obj(meta['labels'])?.[ARCH_LABEL];
      specObjects.push({
        kind,
        name: meta['name'],
        namespace: typeof meta['namespace'] === 'string' ? meta['namespace'] : undefined,
        spec: obj(o['spec']) ?? {},
        ...(typeof arch === 'string' && arch !== '' ? { architecture: arch } : {}),
      });
    } else if (VOLUME_KINDS.has(kind)) volumes.push(o);
    else if (kind === 'ControllerRevision') revisions.push(o);
    else if (CLUSTER_KINDS.has(kind)) cluster.push(o);
  }
  // Objects that describe the cluster make its claims and StorageClasses known: what is not among them is not there.
  const describesCluster = flat.some((o) => ['PersistentVolumeClaim', 'DataVolume', 'StorageClass', 'Namespace', 'Node'].includes(String(o['kind'])));
  return { specObjects, volumes, revisions, cluster, ...(describesCluster ? { persistentVolumeClaimsGiven: true, storageClassesGiven: true } : {}) };
}

/** Stores laid one over the other: lookups find the first store's objects first. */
export function mergeStores(...stores: readonly ObjectStore[]): ObjectStore {
  return {
    specObjects: stores.flatMap((s) => s.specObjects),
    volumes: stores.flatMap((s) => s.volumes),
    revisions: stores.flatMap((s) => s.revisions ?? []),
    cluster: stores.flatMap((s) => s.cluster ?? []),
    ...(stores.some((s) => s.storageClassesGiven) ? { storageClassesGiven: true } : {}),
    ...(stores.some((s) => s.networkAttachmentDefinitionsGiven) ? { networkAttachmentDefinitionsGiven: true } : {}),
    ...(stores.some((s) => s.persistentVolumeClaimsGiven) ? { persistentVolumeClaimsGiven: true } : {}),
    ...(stores.some((s) => s.removed !== undefined) ? { removed: stores.flatMap((s) => s.removed ?? []) } : {}),
  };
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
  /** The object the lookup wanted, when the error is the API server's NotFound for it: what hints branch on. */
  readonly notFound?: { readonly kind: string; readonly name: string; readonly namespace?: string | undefined };
}

/** R 1.1: kind empty or cluster -> the cluster object; namespaced -> in the VM's namespace; anything else an error. */
export function findSpecObject(
  store: ObjectStore,
  which: Which,
  name: string,
  kindWritten: Json | undefined,
  namespace: string | undefined,
): SpecObject | ReferenceError {
  const kinds = KINDS[which];
  const named = matcherKind(which, typeof kindWritten === 'string' ? kindWritten : undefined);
  if (named === undefined) return { message: `got unexpected kind in ${kinds.matcher}: ${String(kindWritten)}`, field: `spec.${which}.kind` };
  const cluster = named === kinds.cluster;
  const kind = named;
  // The client refuses a Get without a name before it asks the API server (client-go rest.Request.Name).
  if (name === '') return { message: 'resource name may not be empty', field: `spec.${which}.name` };
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
  return (
    found ?? {
      message: `${kind.toLowerCase()}s.${GROUP} "${name}" not found`,
      field: `spec.${which}.name`,
      notFound: { kind, name, namespace: cluster ? undefined : namespace },
    }
  );
}

const REVISION_KINDS: Readonly<Record<Which, readonly string[]>> = {
  instancetype: [KINDS_OF.instancetype.namespaced, KINDS_OF.instancetype.cluster],
  preference: [KINDS_OF.preference.namespaced, KINDS_OF.preference.cluster],
};

/** The ControllerRevision `name` in `namespace`, or the API server's NotFound. */
function findRevision(store: ObjectStore, name: string, namespace: string): JsonObject | undefined {
  return (store.revisions ?? []).find((r) => obj(r['metadata'])?.['name'] === name && (obj(r['metadata'])?.['namespace'] ?? namespace) === namespace);
}

/**
 * The spec a ControllerRevision stores (compatibility.GetInstancetypeSpec / GetPreferenceSpec): its
 * `data` is the object as it was when the VM started, in any API version KubeVirt still decodes
 * (KubeVirt v1.9 decodes v1beta1 only; v1alpha1 and v1alpha2 revisions fail to decode, as there).
 */
function revisionSpec(revision: JsonObject, which: Which, field: string, release: string | undefined): SpecObject | ReferenceError {
  const data = obj(revision['data']);
  // No data at all: the decoded object is nil, and KubeVirt's type switch says so.
  if (!data) return { message: 'unexpected type in ControllerRevision: <nil>', field };
  const kind = typeof data['kind'] === 'string' ? data['kind'] : '';
  const api = typeof data['apiVersion'] === 'string' ? data['apiVersion'] : '';
  const known = [...REVISION_KINDS.instancetype, ...REVISION_KINDS.preference].includes(kind);
  // KubeVirt v1.9 decodes only v1beta1: v1alpha1 and v1alpha2 left its scheme in v1.7. The
  // decoder checks the kind, then the version, and quotes the data as the API server stores it
  // (keys sorted).
  const decoded = [
    'instancetype.kubevirt.io/v1beta1',
    ...(holds('alphaRevisionsDecoded', release) ? ['instancetype.kubevirt.io/v1alpha1', 'instancetype.kubevirt.io/v1alpha2'] : []),
  ];
  if (!decoded.includes(api) || !known) {
    const why =
      kind === ''
        ? `Object 'Kind' is missing in '${canonicalJson(data)}'`
        : api === ''
          ? `Object 'apiVersion' is missing in '${canonicalJson(data)}'`
          : `no kind "${kind}" is registered for version "${api}" in scheme "${kubevirtSchemeName(release)}"`;
    return { message: `failed to decode object in ControllerRevision: ${why}`, field };
  }
  if (!REVISION_KINDS[which].includes(kind)) return { message: `unexpected type in ControllerRevision: *v1beta1.${kind}`, field };
  return { kind, name: String(obj(revision['metadata'])?.['name'] ?? ''), namespace: undefined, spec: obj(data['spec']) ?? {} };
}

/** The namespace KubeVirt looks a VM's objects up in: its own, else the request's (kubectl's context, `default`). */
export function vmNamespace(vm: JsonObject, requestNamespace: string): string {
  const namespace = obj(vm['metadata'])?.['namespace'];
  return typeof namespace === 'string' && namespace !== '' ? namespace : requestNamespace;
}

/** The ControllerRevision a VM's matcher names (`revisionName`), and the store's object of that name in the VM's namespace, if it has one. */
export function namedRevision(
  store: ObjectStore,
  vm: JsonObject,
  which: Which,
  requestNamespace: string,
): { name: string; namespace: string; revision: JsonObject | undefined } | undefined {
  const name = obj(obj(vm['spec'])?.[which])?.['revisionName'];
  if (typeof name !== 'string' || name === '') return undefined;
  const namespace = vmNamespace(vm, requestNamespace);
  return { name, namespace, revision: findRevision(store, name, namespace) };
}

/**
 * What a matcher resolves to (pkg/instancetype/find spec.go, revision.go; preference/find alike):
 * the ControllerRevision its `revisionName` names, else the one the VM's status records when it
 * was made from an object of the same name, else the object by kind and name. KubeVirt's errors.
 * `inferFromVolume` is resolved before, by the mutating webhook (mutate.ts).
 */
function resolveMatcher(
  store: ObjectStore,
  vm: JsonObject,
  which: Which,
  requestNamespace: string,
  revisionsInCluster: boolean,
  release: string | undefined,
): { object?: SpecObject; error?: ReferenceError } {
  const matcher = obj(obj(vm['spec'])?.[which]);
  if (!matcher) return {};
  const ns = vmNamespace(vm, requestNamespace);
  const named = namedRevision(store, vm, which, requestNamespace);
  if (named) {
    const { name: revisionName, revision } = named;
    if (revision) {
      const found = revisionSpec(revision, which, `spec.${which}.revisionName`, release);
      return 'message' in found ? { error: found } : { object: found };
    }
    if (!revisionsInCluster) return { error: { message: `controllerrevisions.apps "${revisionName}" not found`, field: `spec.${which}.revisionName` } };
  }
  const recorded = obj(obj(obj(vm['status'])?.[`${which}Ref`])?.['controllerRevisionRef'])?.['name'];
  if (typeof recorded === 'string' && recorded !== '') {
    const revision = findRevision(store, recorded, ns);
    if (!revision && !revisionsInCluster)
      return { error: { message: `controllerrevisions.apps "${recorded}" not found`, field: `status.${which}Ref.controllerRevisionRef.name` } };
    if (revision && obj(obj(revision['metadata'])?.['labels'])?.['instancetype.kubevirt.io/object-name'] === matcher['name']) {
      const found = revisionSpec(revision, which, `status.${which}Ref.controllerRevisionRef.name`, release);
      return 'message' in found ? { error: found } : { object: found };
    }
  }
  const name = typeof matcher['name'] === 'string' ? matcher['name'] : '';
  const found = findSpecObject(store, which, name, matcher['kind'], ns);
  return 'message' in found ? { error: found } : { object: found };
}

/**
 * Both matchers of a VM against the store: the objects, or the first error (the instancetype's
 * first). `revisionsInCluster`: a ControllerRevision the VM names but the store lacks lives in the
 * cluster (VMs kept in Git), so the matcher resolves to the object it names, as at a start with the
 * revision cleared; otherwise it is KubeVirt's NotFound. `release`: the cluster's KubeVirt release,
 * whose types decode the objects (release-spec.ts); absent, the newest.
 */
export function resolveReferences(
  vm: JsonObject,
  store: ObjectStore,
  requestNamespace = 'default',
  revisionsInCluster = false,
  release?: string,
): { references: References; errors: ReferenceError[] } {
  const it = resolveMatcher(store, vm, 'instancetype', requestNamespace, revisionsInCluster, release);
  const pref = resolveMatcher(store, vm, 'preference', requestNamespace, revisionsInCluster, release);
  return {
    // The objects as the cluster's release decodes them (a field of a later release is dropped).
    references: referencesAsRelease({ instancetype: it.object, preference: pref.object }, release),
    errors: [it.error, pref.error].filter((e): e is ReferenceError => e !== undefined),
  };
}
