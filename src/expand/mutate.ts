/**
 * The instancetype mutating webhook on CREATE (pkg/instancetype/webhooks/vm/mutator.go `Mutate`):
 * what happens to a VirtualMachine between `kubectl apply` and the API server storing it. In
 * KubeVirt's order: the matchers are validated (`validateInstancetypeMatcher`,
 * `validatePreferenceMatcher`, every cause), `inferFromVolume` is resolved to a name and kind
 * (pkg/instancetype/infer, instance type first), then the preference found (lookup errors ignored)
 * sets the template's architecture and machine type and the DataVolumeTemplates' storage class.
 * A refusal means the VM is never stored: neither expand-spec nor admission runs.
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import { copy, nonEmpty } from '../kubevirt/go';
import { holds } from '../kubevirt/releases';
import { findSpecObject, type ObjectStore } from './references';
import type { SpecKind } from '../schema/manifest';

export interface MutationRefusal {
  /** The webhook's causes, in its order; the response message joins them with `, `. */
  readonly causes: readonly { readonly message: string; readonly field: string; readonly reason?: 'infer' }[];
}

const MATCHER: Readonly<Record<SpecKind, string>> = { instancetype: 'InstancetypeMatcher', preference: 'PreferenceMatcher' };
const LABEL: Readonly<Record<SpecKind, string>> = {
  instancetype: 'instancetype.kubevirt.io/default-instancetype',
  preference: 'instancetype.kubevirt.io/default-preference',
};

/** validateInstancetypeMatcher / validatePreferenceMatcher: the causes for one matcher. */
export function matcherCauses(vm: JsonObject, which: SpecKind): { message: string; field: string }[] {
  const m = obj(obj(vm['spec'])?.[which]);
  if (!m) return [];
  const out: { message: string; field: string }[] = [];
  const infer = str(m['inferFromVolume']);
  if (str(m['name']) === '' && infer === '')
    out.push({ message: `Either Name or InferFromVolume should be provided within the ${MATCHER[which]}`, field: `spec.${which}` });
  if (infer !== '') {
    if (str(m['name']) !== '') out.push({ message: 'Name already set, should be cleared before setting inferFromVolume', field: `spec.${which}.name` });
    if (str(m['kind']) !== '') out.push({ message: 'Kind already set, should be cleared before setting inferFromVolume', field: `spec.${which}.kind` });
  }
  const policy = m['inferFromVolumeFailurePolicy'];
  if (policy !== undefined && policy !== null && policy !== 'Ignore' && policy !== 'Reject')
    out.push({ message: `Invalid value '${String(policy)}' for InferFromVolumeFailurePolicy`, field: `spec.${which}.inferFromVolumeFailurePolicy` });
  return out;
}

/** An inference error; `ignorable` ones clear the matcher under the Ignore policy (infer/errors.go). */
type Inferred = { name: string; kind: string; from: string } | { error: string; ignorable: boolean };

const notFound = (resource: string, name: Json | undefined): Inferred => ({ error: `${resource} "${str(name)}" not found`, ignorable: false });

/** pkg/instancetype/infer/volume.go `fromVolumes` and what it calls, over the objects given offline. */
function inferFromVolumes(store: ObjectStore, vm: JsonObject, which: SpecKind, volumeName: string, namespace: string): Inferred {
  const lookup = (kind: string, name: Json | undefined, ns: Json | undefined): JsonObject | undefined =>
    store.volumes.find(
      (o) => o['kind'] === kind && obj(o['metadata'])?.['name'] === name && (str(obj(o['metadata'])?.['namespace']) || namespace) === (str(ns) || namespace),
    );
  const fromLabels = (o: JsonObject): Inferred => {
    const labels = obj(obj(o['metadata'])?.['labels']) ?? {};
    if (!Object.hasOwn(labels, LABEL[which])) return { error: `unable to find required ${LABEL[which]} label on the volume`, ignorable: true };
    return { name: str(labels[LABEL[which]]), kind: str(labels[`${LABEL[which]}-kind`]), from: `${str(o['kind'])} ${str(obj(o['metadata'])?.['name'])}` };
  };
  const fromPVC = (name: Json | undefined, ns: Json | undefined): Inferred => {
    const pvc = lookup('PersistentVolumeClaim', name, ns);
    return pvc ? fromLabels(pvc) : notFound('persistentvolumeclaims', name);
  };
  const fromSnapshot = (name: Json | undefined, ns: Json | undefined): Inferred => {
    const snap = lookup('VolumeSnapshot', name, ns);
    return snap ? fromLabels(snap) : notFound('volumesnapshots.snapshot.storage.k8s.io', name);
  };
  const fromDataSource = (name: Json | undefined, ns: Json | undefined): Inferred => {
    const ds = lookup('DataSource', name, ns);
    if (!ds) return notFound('datasources.cdi.kubevirt.io', name);
    const labelled = fromLabels(ds);
    if (!('error' in labelled)) return labelled;
    const source = obj(obj(ds['spec'])?.['source']);
    if (obj(source?.['pvc'])) return fromPVC(obj(source!['pvc'])!['name'], obj(source!['pvc'])!['namespace']);
    if (obj(source?.['snapshot'])) return fromSnapshot(obj(source!['snapshot'])!['name'], obj(source!['snapshot'])!['namespace']);
    return { error: "unable to infer defaults from DataSource that doesn't provide DataVolumeSourcePVC or DataVolumeSourceSnapshot", ignorable: true };
  };
  const fromDataVolumeSpec = (spec: JsonObject | undefined): Inferred => {
    const source = obj(spec?.['source']);
    if (obj(source?.['pvc'])) return fromPVC(obj(source!['pvc'])!['name'], obj(source!['pvc'])!['namespace']);
    if (obj(source?.['snapshot'])) return fromSnapshot(obj(source!['snapshot'])!['name'], obj(source!['snapshot'])!['namespace']);
    const ref = obj(spec?.['sourceRef']);
    if (ref) {
      if (ref['kind'] === 'DataSource') return fromDataSource(ref['name'], ref['namespace'] ?? namespace);
      return { error: `unable to infer defaults from DataVolumeSourceRef as Kind ${str(ref['kind'])} is not supported`, ignorable: true };
    }
    return { error: 'unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported', ignorable: true };
  };
  const spec = obj(vm['spec']) ?? {};
  for (const volume of list(obj(obj(spec['template'])?.['spec'])?.['volumes'])) {
    if (volume['name'] !== volumeName) continue;
    const claim = obj(volume['persistentVolumeClaim']);
    if (claim) return fromPVC(claim['claimName'], namespace);
    const dv = obj(volume['dataVolume']);
    if (dv) {
      const template = list(spec['dataVolumeTemplates']).find((t) => obj(t['metadata'])?.['name'] === dv['name']);
      if (template) return fromDataVolumeSpec(obj(template['spec']));
      const live = lookup('DataVolume', dv['name'], namespace);
      // A DataVolume that does not exist may have been garbage collected: its PVC carries on.
      if (!live) return fromPVC(dv['name'], namespace);
      const labelled = fromLabels(live);
      return 'error' in labelled ? fromDataVolumeSpec(obj(live['spec'])) : labelled;
    }
    return { error: `unable to infer defaults from volume ${volumeName} as type is not supported`, ignorable: true };
  }
  return { error: `unable to find volume ${volumeName} to infer defaults`, ignorable: false };
}

/** Where an inferred matcher came from: the volume, and the object whose labels named it. */
export interface Inference {
  readonly which: SpecKind;
  readonly volume: string;
  readonly from: string;
}

/** infer/handler.go `Instancetype` / `Preference`: the matcher replaced by what the volume names, or the error. Mutates `vm`. */
function inferMatcher(store: ObjectStore, vm: JsonObject, which: SpecKind, namespace: string, inferred: Inference[]): string | undefined {
  const spec = obj(vm['spec']);
  const m = obj(spec?.[which]);
  if (!m || !nonEmpty(m['inferFromVolume'])) return undefined;
  const ignore = m['inferFromVolumeFailurePolicy'] === 'Ignore';
  const found = inferFromVolumes(store, vm, which, m['inferFromVolume'] as string, namespace);
  if ('error' in found) {
    if (found.ignorable && ignore) {
      delete spec![which];
      return undefined;
    }
    return found.error;
  }
  // With the Ignore policy an inferred instance type replaces the VM's own guest memory.
  if (which === 'instancetype' && ignore) {
    const domain = obj(obj(obj(spec!['template'])?.['spec'])?.['domain']);
    if (domain) delete domain['memory'];
  }
  spec![which] = { name: found.name, ...(found.kind !== '' ? { kind: found.kind } : {}) };
  inferred.push({ which, volume: m['inferFromVolume'] as string, from: found.from });
  return undefined;
}

/**
 * The VM as the API server stores it after the instancetype mutating webhook (CREATE), or the
 * webhook's refusal. `namespace`: the request's, for a VM without one.
 */
export function mutateOnCreate(
  vm: JsonObject,
  store: ObjectStore,
  namespace: string,
  release?: string,
): { vm: JsonObject; inferred: Inference[] } | MutationRefusal {
  const causes = [...matcherCauses(vm, 'instancetype'), ...matcherCauses(vm, 'preference')];
  // The instance type's causes make one response, the preference's only when it has none.
  const first = matcherCauses(vm, 'instancetype');
  if (first.length > 0) return { causes: first };
  if (causes.length > 0) return { causes };
  const out = copy(vm);
  const ns = str(obj(out['metadata'])?.['namespace']) || namespace;
  const inferred: Inference[] = [];
  for (const which of ['instancetype', 'preference'] as const) {
    const error = inferMatcher(store, out, which, ns, inferred);
    if (error !== undefined) return { causes: [{ message: error, field: `spec.${which}.inferFromVolume`, reason: 'infer' }] };
  }
  const pm = obj(obj(out['spec'])?.['preference']);
  const found = pm && nonEmpty(pm['name']) ? findSpecObject(store, 'preference', pm['name'] as string, pm['kind'], ns) : undefined;
  // Before v1.7 the webhook applied nothing of the preference (releases.ts).
  const pref = found && !('message' in found) && holds('vmMutatorAppliesPreference', release) ? found.spec : undefined;
  const templateSpec = obj(obj(obj(out['spec'])?.['template'])?.['spec']);
  if (pref && templateSpec) {
    if (nonEmpty(pref['preferredArchitecture']) && !nonEmpty(templateSpec['architecture'])) templateSpec['architecture'] = pref['preferredArchitecture']!;
    const machineType = obj(pref['machine'])?.['preferredMachineType'];
    const domain = obj(templateSpec['domain']);
    if (domain && nonEmpty(machineType) && !nonEmpty(obj(domain['machine'])?.['type']))
      domain['machine'] = { ...(obj(domain['machine']) ?? {}), type: machineType! };
  }
  const storageClass = obj(pref?.['volumes'])?.['preferredStorageClassName'];
  if (nonEmpty(storageClass)) {
    for (const dvt of list(obj(out['spec'])?.['dataVolumeTemplates'])) {
      const spec = obj(dvt['spec']);
      for (const k of ['pvc', 'storage']) {
        const target = obj(spec?.[k]);
        if (target && (target['storageClassName'] === undefined || target['storageClassName'] === null)) target['storageClassName'] = storageClass!;
      }
    }
  }
  return { vm: out, inferred };
}

/** Whether a VM infers a matcher from a volume: only then does a stored VM still need the webhook. */
export function infersFromVolume(vm: JsonObject): boolean {
  return (['instancetype', 'preference'] as const).some((w) => nonEmpty(obj(obj(vm['spec'])?.[w])?.['inferFromVolume']));
}
