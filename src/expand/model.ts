/**
 * The data expand works on: VirtualMachines and instancetype objects as plain JSON, the way the
 * API server would hold them. Only the fields KubeVirt's apply, expand and admission code reads are
 * interpreted; everything else of a VM is carried through untouched.
 */
import { obj, type Json, type JsonObject } from '../json';

/** An instancetype or preference object (either scope) as found in manifests. */
export interface SpecObject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string | undefined;
  readonly spec: JsonObject;
}

/** The instance type and preference a VM resolved to; either may be absent. */
export interface References {
  readonly instancetype?: SpecObject | undefined;
  readonly preference?: SpecObject | undefined;
}

/** What KubeVirt's cluster configuration decides for expansion; KubeVirt's defaults unless given. */
export interface ClusterDefaults {
  /** The architecture a VM gets when it names none (virt-api's own, amd64 on most clusters). */
  readonly architecture: string;
  /** `spec.configuration.machineType`, when the cluster sets one. */
  readonly machineType?: string | undefined;
  /** The default pod network binding: `bridge` (KubeVirt's default) or `masquerade`. */
  readonly podBinding: 'bridge' | 'masquerade';
  /** `spec.configuration.evictionStrategy`; KubeVirt's default configuration says None. */
  readonly evictionStrategy: string;
}

export const KUBEVIRT_DEFAULTS: ClusterDefaults = { architecture: 'amd64', podBinding: 'bridge', evictionStrategy: 'None' };

export { GoPanic } from '../kubevirt/panic';

/** A field KubeVirt reports, with the path it names (`spec.template.spec.domain.cpu.sockets`). */
export interface Cause {
  readonly type: 'FieldValueInvalid' | 'FieldValueNotFound' | 'FieldValueNotSupported' | 'FieldValueRequired' | 'InternalError';
  readonly field: string;
  readonly message: string;
}

/** The object under `key`, created (as `{}`) when absent, as Go code does with `if x == nil { x = &T{} }`. */
export function child(parent: JsonObject, key: string): JsonObject {
  const existing = obj(parent[key]);
  if (existing) return existing;
  const created: JsonObject = {};
  parent[key] = created;
  return created;
}

/** Set in Go terms: not nil (an explicit `{}` or `false` is set). */
export function isSet(v: Json | undefined): boolean {
  return v !== undefined && v !== null;
}

/** A non-empty string, as Go's `!= ""`. */
export function nonEmpty(v: Json | undefined): boolean {
  return typeof v === 'string' && v !== '';
}

/** A number other than Go's zero value. */
export function nonZero(v: Json | undefined): boolean {
  return typeof v === 'number' && v !== 0;
}

/** A deep copy of plain JSON (several times faster than structuredClone, which handles far more). */
export function copy<T extends Json>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => copy(x)) as T;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) {
    // A `__proto__` key is data here; assigning it would change the copy's prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: copy((v as JsonObject)[k]!), enumerable: true, writable: true, configurable: true });
    else out[k] = copy((v as JsonObject)[k]!);
  }
  return out as T;
}

export function at(root: JsonObject, path: readonly string[]): Json | undefined {
  let v: Json | undefined = root;
  for (const seg of path) {
    const o = obj(v);
    if (!o) return undefined;
    v = o[seg];
  }
  return v;
}
