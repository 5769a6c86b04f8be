/**
 * R 0.2 and R 0.3: expand-spec and the instancetype part of VM admission on one VM, over plain JSON.
 */
import { obj, type JsonObject } from '../json';
import { checkRequirements, checkSpread } from '../kubevirt/requirements';
import { setDefaultInstanceSpec, setDefaultNetworkInterface, setDefaultVolumeDisks } from '../kubevirt/defaults';
import { applyInstancetype, conflictField, conflictMessage } from './instancetype';
import { child, copy, isSet } from '../kubevirt/go';
import { GoPanic } from '../kubevirt/panic';
import { KUBEVIRT_DEFAULTS, type ClusterDefaults } from '../kubevirt/config';
import { type Cause } from '../kubevirt/cause';
import { type References } from './model';
import { applyPreference } from './preference';

export interface ExpandOptions {
  /** The cluster configuration expansion depends on; KubeVirt's defaults (amd64, bridge, None) otherwise. */
  readonly cluster?: Partial<ClusterDefaults>;
  /**
   * The namespace of the request, which a VM without `metadata.namespace` is looked up in (the
   * expand-spec subresource and admission take it from the request; kubectl sends the current
   * context's, `default` without one). Default `default`.
   */
  readonly namespace?: string;
  /**
   * `applied` (the CLI's default): the VM as `kubectl apply` would store it, through the
   * instancetype mutating webhook first (matchers validated, inferFromVolume resolved, the
   * preference's architecture, machine type and storage class set), then expand-spec. `stored`:
   * a VM as the cluster already holds it (`kubectl get vm -o yaml`): the webhook ran when it was
   * created, so only a matcher that still infers from a volume goes through it.
   */
  readonly mutate?: 'applied' | 'stored';
  /**
   * ControllerRevisions a VM names that the input lacks are in the cluster (VMs kept in Git): the
   * VM is judged against the object its matcher names (`said`: and a warning says so, IT8015).
   * Default: KubeVirt's NotFound.
   */
  readonly revisionsInCluster?: boolean | 'said';
  /** The cluster's release and configuration the VM is judged under (KubeVirt's defaults of the newest release without one). */
  readonly kubevirt?: ClusterDefaults;
}

/** `panic`: KubeVirt's Go code panics on this input (see GoPanic); the error says where. */
export type ExpandResult = { readonly vm: JsonObject } | { readonly error: string; readonly fields: readonly string[]; readonly panic?: boolean };

const PREFIX = 'spec.template.spec';

/** The template of a copy of `vm`, with `spec.template.spec` and `spec.template.metadata` in place. */
function template(vm: JsonObject): { spec: JsonObject; meta: JsonObject } {
  const t = child(child(vm, 'spec'), 'template');
  return { spec: child(t, 'spec'), meta: child(t, 'metadata') };
}

/** Applies both objects to the template (R 0.1); the conflicting paths, or none. */
function applyTo(spec: JsonObject, meta: JsonObject, refs: References, release: string | undefined): string[] {
  if (refs.instancetype) {
    const conflicts = applyInstancetype(spec, meta, refs.instancetype.spec, refs.preference?.spec, release);
    if (conflicts.length > 0) return conflicts.map((p) => conflictField(PREFIX, p));
  }
  if (refs.preference) applyPreference(spec, meta, refs.preference.spec, release);
  return [];
}

/**
 * Go omits an empty annotation map (created for the instancetype's annotations); a template that had
 * no metadata keeps none.
 */
function tidyMetadata(result: JsonObject, input: JsonObject): void {
  const t = obj(obj(result['spec'])?.['template']);
  const meta = obj(t?.['metadata']);
  if (!t || !meta) return;
  if (Object.keys(obj(meta['annotations']) ?? { x: 1 }).length === 0) delete meta['annotations'];
  if (Object.keys(meta).length === 0 && !isSet(obj(obj(input['spec'])?.['template'])?.['metadata'])) delete t['metadata'];
}

/** The cluster configuration of the options: a whole one as given, else KubeVirt's defaults with the parts given. */
export function clusterOf(options: ExpandOptions): ClusterDefaults {
  // A whole configuration (kubevirtConfig's) is taken as it is: no copy per VM.
  const c = options.cluster;
  if (c && c.architecture !== undefined && c.podBinding !== undefined && c.evictionStrategy !== undefined) return c as ClusterDefaults;
  return { ...KUBEVIRT_DEFAULTS, ...c };
}

/**
 * R 0.2: what `virtctl expand` and the expand-spec subresource return: a VM naming neither an
 * instance type nor a preference unchanged; otherwise default disks and the default pod network,
 * the instance type then the preference applied to the template, KubeVirt's defaults, and the
 * references removed. No requirement or spread check: `admit` does those.
 */
export function expand(vm: JsonObject, refs: References, options: ExpandOptions = {}): ExpandResult {
  const result = copy(vm);
  const vmSpec = obj(result['spec']);
  if (!isSet(vmSpec?.['instancetype']) && !isSet(vmSpec?.['preference'])) return { vm: result };
  const cluster = clusterOf(options);
  const { spec, meta } = template(result);
  setDefaultVolumeDisks(spec);
  setDefaultNetworkInterface(spec, cluster);
  let conflicts: string[];
  try {
    conflicts = applyTo(spec, meta, refs, cluster.release);
  } catch (e) {
    if (e instanceof GoPanic) return { error: e.message, fields: [e.field], panic: true };
    throw e;
  }
  if (conflicts.length > 0) return { error: conflictMessage(conflicts), fields: conflicts };
  setDefaultInstanceSpec(spec, cluster);
  delete vmSpec!['instancetype'];
  delete vmSpec!['preference'];
  const status = obj(result['status']);
  if (status) {
    delete status['instancetypeRef'];
    delete status['preferenceRef'];
  }
  tidyMetadata(result, vm);
  return { vm: result };
}

export interface AdmissionResult {
  /** The VM as admission saw it after applying and defaulting (nothing is persisted by KubeVirt). */
  readonly vm?: JsonObject;
  /** One cause per finding, as the webhook's response lists them; empty when admitted. */
  readonly causes: readonly Cause[];
}

/**
 * R 0.3: VM admission's instancetype part. Spread divisibility first, then each conflict as its own
 * cause, then defaults and the preference's requirements (the first that fails).
 */
export function admit(vm: JsonObject, refs: References, options: ExpandOptions = {}): AdmissionResult {
  const result = copy(vm);
  if (!refs.instancetype && !refs.preference) return { vm: result, causes: [] };
  const cluster = clusterOf(options);
  const { spec, meta } = template(result);
  let conflicts: string[];
  try {
    // Spread divisibility before applying (a ratio of 0 panics there already).
    if (refs.instancetype && refs.preference) {
      const spread = checkSpread(refs.instancetype.spec, refs.preference.spec);
      if (spread) return { causes: [spread] };
    }
    conflicts = applyTo(spec, meta, refs, cluster.release);
  } catch (e) {
    if (e instanceof GoPanic) return { causes: [{ type: 'InternalError', field: e.field, message: e.message, reason: 'panic' }] };
    throw e;
  }
  if (conflicts.length > 0)
    return { causes: conflicts.map((field) => ({ type: 'FieldValueInvalid', field, message: conflictMessage([field]), reason: 'conflict' })) };
  setDefaultInstanceSpec(spec, cluster);
  const failed = checkRequirements(refs.instancetype?.spec, refs.preference?.spec, spec);
  return failed ? { vm: result, causes: [failed] } : { vm: result, causes: [] };
}

/** The webhook's response message: the causes' messages joined with `, `. */
export function admissionMessage(causes: readonly Cause[]): string {
  return causes.map((c) => c.message).join(', ');
}
