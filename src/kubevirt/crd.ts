/**
 * What the Kubernetes API server says of an instancetype object before any KubeVirt webhook runs,
 * in its words: strict decoding (`kubectl apply`'s default field validation) refuses unknown fields
 * and stops there; then nulls the schema does not allow are pruned; then KubeVirt's CRD schema
 * (crd-schemas.ts) is checked as apiextensions-apiserver and kube-openapi check it (type, required,
 * pattern, minimum, maximum, int-or-string), every error a field error
 * (`spec.memory.guest: Required value`, `... Invalid value: -15: ... in body should be greater than
 * or equal to 0`, `... Invalid value: "number": ... in body must be of type string: "number"`).
 * Then KubeVirt's object webhook decodes the object into its Go types, and a number out of a Go
 * integer's range fails there with encoding/json's words. Proved against the API server's own code
 * (itgen-apiserver) and KubeVirt's webhook (itgen-oracle): test/fixtures/apiserver-corpus/.
 */
import { isPlainObject } from '../json';
import { goJsonKind, unmarshalTypeError } from './go-json';
import { dnsSubdomainErrors } from './spec-resources';
import { CRD_SCHEMAS, type CrdSchema } from './crd-schemas';

export type { CrdSchema };

export type FieldPath = readonly (string | number)[];

/** One finding, with the path it is about (for a location) and the API server's words. */
export interface ApiServerError {
  readonly path: FieldPath;
  readonly message: string;
  /**
   * `metadata`: decoding ObjectMeta failed (the request stops there), or ObjectMeta is invalid (its
   * name, reported with the schema's errors); `strict`: an unknown field
   * (decoding stops there); `field`: the CRD schema; `decode`: KubeVirt's webhook decoding into Go types.
   */
  readonly stage: 'metadata' | 'strict' | 'field' | 'decode';
}

/** `spec.gpus[0].name`, as the API server prints a field path. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out;
}

const isObject = isPlainObject;

/** The JSON type name kube-openapi reports for a value: every number is "number", integral or not. */
function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/**
 * Whether a value has the schema's type: `integer` takes integral numbers in int64's range only
 * (the API server decodes a larger one, or one with a fraction, as a float64).
 */
function typeMatches(expected: string, v: unknown): boolean {
  if (expected === 'integer') return typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 63;
  return typeName(v) === expected;
}

/** The schema of a field below `schema`, undefined when the field is unknown there. */
function childSchema(schema: CrdSchema, key: string): CrdSchema | undefined {
  if (schema.properties && Object.hasOwn(schema.properties, key)) return schema.properties[key];
  if (isObject(schema.additionalProperties)) return schema.additionalProperties;
  return undefined;
}

/** Unknown fields, as strict decoding names them (`unknown field "spec.bogus"`), in document order. */
function unknownFields(schema: CrdSchema, v: unknown, path: FieldPath, out: ApiServerError[]): void {
  if (schema['x-kubernetes-preserve-unknown-fields']) return;
  // An object where the schema has a leaf (an integer, a string, a boolean): decoding it field by
  // field, every key is unknown.
  if (isObject(v)) {
    for (const [k, child] of Object.entries(v)) {
      const s = childSchema(schema, k);
      if (s === undefined && schema.additionalProperties !== true) {
        out.push({ path: [...path, k], message: `unknown field "${formatPath([...path, k])}"`, stage: 'strict' });
        continue;
      }
      if (s) unknownFields(s, child, [...path, k], out);
    }
  } else if (Array.isArray(v)) v.forEach((item, i) => unknownFields(schema.items ?? {}, item, [...path, i], out)); // a list where none belongs: its objects' keys are unknown
}

/** The value with the nulls the schema does not allow removed from objects (the API server prunes them). */
function pruneNulls(schema: CrdSchema, v: unknown): unknown {
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(v)) {
      const s = childSchema(schema, k);
      if (child === null && !s?.nullable) continue;
      out[k] = s ? pruneNulls(s, child) : child;
    }
    return out;
  }
  if (Array.isArray(v) && schema.items) return v.map((item) => pruneNulls(schema.items!, item));
  return v;
}

/**
 * Go's %v of a float64 (strconv 'g', shortest), as kube-openapi prints a value beside a bound:
 * `-15`, `-1.5`, `150`, but `5e+09` and `1.234567e+06` from an exponent of 6 up, `1e-05` below -4.
 */
function goFloat(n: number): string {
  if (n === 0 || !Number.isFinite(n)) return String(n);
  const [mantissa, e] = n.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 21 || (exp >= 6 && exp >= mantissa.replace(/[-.]/g, '').length)) {
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

function validate(schema: CrdSchema, v: unknown, path: FieldPath, out: ApiServerError[]): void {
  const at = formatPath(path);
  const push = (message: string): void => void out.push({ path, message, stage: 'field' });
  if (schema['x-kubernetes-int-or-string']) {
    const t = typeName(v);
    if (!typeMatches('integer', v) && t !== 'string') {
      // The converted schema says integer,string; then anyOf fails, naming its first branch.
      push(`${at}: Invalid value: "${t}": ${at} in body must be of type integer,string: "${t}"`);
      out.push({ path: [], message: `<nil>: Invalid value: "": "${at}" must validate at least one schema (anyOf)`, stage: 'field' });
      push(`${at}: Invalid value: "${t}": ${at} in body must be of type integer: "${t}"`);
      return;
    }
  } else if (schema.type !== undefined && !typeMatches(schema.type, v)) {
    const t = typeName(v);
    push(`${at}: Invalid value: "${t}": ${at} in body must be of type ${schema.type}: "${t}"`);
  }
  if (typeof v === 'number') {
    if (schema.minimum !== undefined && v < schema.minimum)
      push(`${at}: Invalid value: ${goFloat(v)}: ${at} in body should be greater than or equal to ${goFloat(schema.minimum)}`);
    if (schema.maximum !== undefined && v > schema.maximum)
      push(`${at}: Invalid value: ${goFloat(v)}: ${at} in body should be less than or equal to ${goFloat(schema.maximum)}`);
  }
  if (typeof v === 'string' && schema.pattern !== undefined && !new RegExp(schema.pattern).test(v))
    push(`${at}: Invalid value: ${JSON.stringify(v)}: ${at} in body should match '${schema.pattern}'`);
  if (schema.enum !== undefined && !schema.enum.some((e) => e === v))
    push(`${at}: Unsupported value: ${JSON.stringify(v)}: supported values: ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  if (isObject(v) && (schema.type === 'object' || schema.type === undefined)) {
    for (const r of schema.required ?? [])
      if (!Object.hasOwn(v, r)) out.push({ path: [...path, r], message: `${formatPath([...path, r])}: Required value`, stage: 'field' });
    for (const [k, child] of Object.entries(v)) {
      const s = childSchema(schema, k);
      if (s) validate(s, child, [...path, k], out);
    }
  }
  if (Array.isArray(v) && schema.type === 'array' && schema.items) v.forEach((item, i) => validate(schema.items!, item, [...path, i], out));
}

/**
 * Integer fields of the Go types KubeVirt's webhook decodes an object into, with encoding/json's
 * names for them (`staging/src/kubevirt.io/api/instancetype/v1beta1/types.go`): a value out of the
 * Go type's range passes the CRD (which only says integer) and fails the decode.
 */
const GO_INTEGERS: readonly { readonly path: readonly string[]; readonly struct: string; readonly type: 'uint32' | 'uint' | 'int64' | 'int' }[] = [
  { path: ['spec', 'cpu', 'guest'], struct: 'CPUInstancetype', type: 'uint32' },
  { path: ['spec', 'cpu', 'maxSockets'], struct: 'CPUInstancetype', type: 'uint32' },
  { path: ['spec', 'ioThreads', 'supplementalPoolThreadCount'], struct: 'DiskIOThreads', type: 'uint32' },
  { path: ['spec', 'requirements', 'cpu', 'guest'], struct: 'CPUPreferenceRequirement', type: 'uint32' },
  { path: ['spec', 'cpu', 'spreadOptions', 'ratio'], struct: 'SpreadOptions', type: 'uint32' },
  { path: ['spec', 'preferSpreadSocketToCoreRatio'], struct: 'VirtualMachinePreferenceSpec', type: 'uint32' },
  { path: ['spec', 'preferredTerminationGracePeriodSeconds'], struct: 'VirtualMachinePreferenceSpec', type: 'int64' },
  // core/v1 types a preference embeds (schema.go)
  { path: ['spec', 'devices', 'preferredDiskBlockSize', 'custom', 'logical'], struct: 'CustomBlockSize', type: 'uint' },
  { path: ['spec', 'devices', 'preferredDiskBlockSize', 'custom', 'physical'], struct: 'CustomBlockSize', type: 'uint' },
  { path: ['spec', 'devices', 'preferredDiskBlockSize', 'custom', 'discardGranularity'], struct: 'CustomBlockSize', type: 'uint' },
  { path: ['spec', 'features', 'preferredHyperv', 'spinlocks', 'spinlocks'], struct: 'FeatureSpinlocks', type: 'uint32' },
  { path: ['spec', 'clock', 'preferredClockOffset', 'utc', 'offsetSeconds'], struct: 'ClockOffsetUTC', type: 'int' },
];

/** The ranges of Go's integer types, as doubles (2^63 and 2^64 are exact; the bounds differ by one at most from Go's, far below what a double tells apart). */
const RANGES = {
  uint32: [0, 4294967295],
  uint: [0, 2 ** 64 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
  int: [-(2 ** 63), 2 ** 63 - 1],
} as const;

/** encoding/json's error for the first integer (in the sorted-key order the API server sends) out of its Go type's range. */
function decodeError(object: Record<string, unknown>): ApiServerError | undefined {
  const found = GO_INTEGERS.flatMap((f) => {
    let v: unknown = object;
    for (const k of f.path) v = isObject(v) ? v[k] : undefined;
    if (typeof v !== 'number') return [];
    const [lo, hi] = RANGES[f.type];
    return v < lo || v > hi ? [{ f, v }] : [];
  }).sort((a, b) => (a.f.path.join('\u0000') < b.f.path.join('\u0000') ? -1 : 1))[0];
  if (!found) return undefined;
  return {
    path: found.f.path,
    message: unmarshalTypeError(`number ${String(found.v)}`, found.f.type, `${found.f.struct}.${found.f.path.join('.')}`),
    stage: 'decode',
  };
}

/** ObjectMeta's string-valued fields and maps: what the API server's decoding of metadata checks first. */
const META_STRINGS = ['name', 'namespace', 'generateName', 'uid', 'resourceVersion'];

/** ObjectMeta's JSON fields (k8s.io/apimachinery meta/v1 types.go): any other key of `metadata` is an unknown field to strict decoding. */
export const OBJECT_META_FIELDS: readonly string[] = [
  'annotations',
  'creationTimestamp',
  'deletionGracePeriodSeconds',
  'deletionTimestamp',
  'finalizers',
  'generateName',
  'generation',
  'labels',
  'managedFields',
  'name',
  'namespace',
  'ownerReferences',
  'resourceVersion',
  'selfLink',
  'uid',
];
const META_MAPS = ['labels', 'annotations'];

/**
 * The API server decodes `metadata` into ObjectMeta before anything else, and a value of the wrong
 * type fails the whole request with encoding/json's words (`metadata: json: cannot unmarshal number
 * into Go struct field ObjectMeta.annotations of type string`).
 */
function metadataError(meta: unknown): ApiServerError | undefined {
  if (meta === undefined || meta === null) return undefined;
  const fail = (path: FieldPath, what: string, field: string | undefined, type: string): ApiServerError => ({
    path,
    message: `metadata: ${unmarshalTypeError(what, type, field)}`,
    stage: 'metadata',
  });
  if (!isObject(meta)) return fail(['metadata'], goJsonKind(meta), undefined, 'v1.ObjectMeta');
  // The first error in the order the API server re-encodes the object: keys sorted.
  for (const k of Object.keys(meta).sort()) {
    const v = meta[k];
    if (v === null) continue;
    if (META_STRINGS.includes(k) && typeof v !== 'string') return fail(['metadata', k], goJsonKind(v), `ObjectMeta.${k}`, 'string');
    if (META_MAPS.includes(k)) {
      if (!isObject(v)) return fail(['metadata', k], goJsonKind(v), `ObjectMeta.${k}`, 'map[string]string');
      for (const key of Object.keys(v).sort())
        if (v[key] !== null && typeof v[key] !== 'string') return fail(['metadata', k, key], goJsonKind(v[key]), `ObjectMeta.${k}`, 'string');
    }
  }
  return undefined;
}

/** The object as the API server stores it and KubeVirt's webhook decodes it: nulls the schema does not allow pruned. */
export function prunedObject(kind: string, object: unknown): unknown {
  const schema = Object.hasOwn(CRD_SCHEMAS, kind) ? CRD_SCHEMAS[kind] : undefined;
  return schema && isObject(object) ? pruneNulls(schema, object) : object;
}

/**
 * The API server's and the decoding's findings on an object of one of the four instancetype kinds,
 * in order: strict decoding errors alone when there are any (the API server stops there), else the
 * CRD schema's field errors, else the first Go decoding error of KubeVirt's webhook.
 */
export function apiServerErrors(kind: string, object: unknown): ApiServerError[] {
  const schema = Object.hasOwn(CRD_SCHEMAS, kind) ? CRD_SCHEMAS[kind] : undefined;
  if (!schema || !isObject(object)) return [];
  const meta = metadataError(object['metadata']);
  if (meta) return [meta];
  const m = isObject(object['metadata']) ? object['metadata'] : undefined;
  // Strict decoding reads ObjectMeta first (its unknown fields, keys sorted as the API server re-encodes them).
  const strict: ApiServerError[] = Object.keys(m ?? {})
    .filter((k) => !OBJECT_META_FIELDS.includes(k))
    .sort()
    .map((k) => ({ path: ['metadata', k], message: `unknown field "metadata.${k}"`, stage: 'strict' as const }));
  // ObjectMeta and the type fields are the API server's own; the CRD's properties start at spec.
  for (const [k, v] of Object.entries(object)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'metadata' || k === 'status') continue;
    const s = childSchema(schema, k);
    if (!s) strict.push({ path: [k], message: `unknown field "${k}"`, stage: 'strict' });
    else unknownFields(s, v, [k], strict);
  }
  if (strict.length > 0) return strict;
  const pruned = pruneNulls(schema, object) as Record<string, unknown>;
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = pruned;
  // ValidateObjectMeta, then the schema, all errors together: a name (generateName only works for
  // create, not apply) that is a DNS subdomain.
  const fields: ApiServerError[] = [];
  const name = m?.['name'];
  if ((typeof name !== 'string' || name === '') && (typeof m?.['generateName'] !== 'string' || m['generateName'] === ''))
    fields.push({ path: ['metadata'], message: 'metadata.name: Required value: name or generateName is required', stage: 'metadata' });
  else if (typeof name === 'string' && name !== '')
    for (const e of dnsSubdomainErrors(name))
      fields.push({ path: ['metadata', 'name'], message: `metadata.name: Invalid value: ${JSON.stringify(name)}: ${e}`, stage: 'metadata' });
  const body: CrdSchema = {
    ...schema,
    properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => k !== 'metadata' && k !== 'apiVersion' && k !== 'kind')),
  };
  for (const r of body.required ?? []) if (!Object.hasOwn(rest, r)) fields.push({ path: [r], message: `${r}: Required value`, stage: 'field' });
  for (const [k, v] of Object.entries(rest)) {
    const s = childSchema(body, k);
    if (s) validate(s, v, [k], fields);
  }
  if (fields.length > 0) return fields;
  const decode = decodeError(pruned);
  return decode ? [decode] : [];
}

/** The fields a struct of the CRD has at `path` (for a did-you-mean on an unknown field). */
export function crdFieldsAt(kind: string, path: FieldPath): string[] | undefined {
  let s: CrdSchema | undefined = Object.hasOwn(CRD_SCHEMAS, kind) ? CRD_SCHEMAS[kind] : undefined;
  for (const p of path) {
    if (!s) return undefined;
    s = typeof p === 'number' ? s.items : childSchema(s, p);
  }
  return s?.properties ? Object.keys(s.properties) : undefined;
}
