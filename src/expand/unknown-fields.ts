/**
 * What the API server refuses of a VirtualMachine before any webhook, from KubeVirt's OpenAPI
 * schema of the type (vm-fields.ts, generated): a field KubeVirt's types do not have (`kubectl
 * apply` asks for strict field validation: "strict decoding error: unknown field ..."; Go's lenient
 * decoding would drop it in silence, or take `dedicatedCPUPlacement` for `dedicatedCpuPlacement`),
 * a value of the wrong type (`cores: two`), and a field the CRD requires (`spec.template`, a disk's
 * `name`; null counts as absent, the API server drops it), in the API server's words.
 */
import { isPlainObject, type Json, type JsonObject } from '../json';
import { closest } from '../diagnostics';
import { isQuantity } from '../quantity';

import { VM_FIELD_NODES, VM_REQUIRED, VM_SPEC_ROOT } from './vm-fields';
import { VM_FIELD_SINCE } from './vm-fields-since';
import { hasSince } from '../kubevirt/releases';
import { OBJECT_META_FIELDS } from '../kubevirt/crd';

export interface UnknownField {
  /** The path from the VM's root, e.g. ['spec', 'template', 'spec', 'domain', 'cpu', 'dedicatedCPUPlacement']. */
  readonly path: readonly (string | number)[];
  /** The known field of that place it probably meant. */
  readonly meant?: string;
  /** Set for a value of the wrong type: the API server's message. */
  readonly invalid?: string;
  /** A field of a later KubeVirt release than the cluster's: the release that has it. */
  readonly since?: string;
  /**
   * A value outside the list Kubernetes' type allows (`dnsPolicy`, a toleration's operator...):
   * KubeVirt's CRD has no enum there, so the API server stores the VM and KubeVirt's validating
   * webhook refuses it in its schema check, in kube-openapi's words (the path without indices).
   */
  readonly outOfEnum?: string;
}

const jsonType = (v: Json): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

/** `spec.template.spec.domain.cpu.dedicatedCPUPlacement` */
export function fieldPath(path: readonly (string | number)[]): string {
  return path
    .map((k) => (typeof k === 'number' ? `[${k}]` : k))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** What the type at `expected` says of `v`, or undefined when it fits (null always fits: the API server drops it). */
function typeProblem(v: Json, expected: string, at: string): string | undefined {
  if (v === null) return undefined;
  // An enum's value of the wrong type: the CRD says string (the value itself is the webhook's, unknownFieldsAt).
  if (expected.startsWith('enum:')) return typeof v === 'string' ? undefined : typeProblem(v, 'string', at);
  const found = jsonType(v);
  const fits =
    expected === 'object'
      ? found === 'object'
      : expected === 'number'
        ? found === 'number' || found === 'integer'
        : expected === 'quantity'
          ? found === 'string' || found === 'number' || found === 'integer'
          : found === expected;
  if (!fits) return `${at}: Invalid value: "${found}": ${at} in body must be of type ${expected === 'quantity' ? 'string or number' : expected}: "${found}"`;
  if (expected === 'quantity' && typeof v === 'string' && !isQuantity(v))
    return `${at}: Invalid value: "${v.slice(0, 40)}": ${at} in body should be a quantity (like 4Gi)`;
  return undefined;
}

/**
 * Unknown fields and wrongly typed values under `value`, of the type at node `node` (VM_FIELD_NODES),
 * and, with `required`, absent fields the type requires (VM_REQUIRED); at most `limit`.
 */
export function unknownFieldsAt(value: Json | undefined, node: number, at: readonly (string | number)[], limit = 20, required = false): UnknownField[] {
  const out: UnknownField[] = [];
  const stack: [Json | undefined, number, readonly (string | number)[]][] = [[value, node, at]];
  while (stack.length > 0 && out.length < limit) {
    const [v, n, p] = stack.pop()!;
    const shape = VM_FIELD_NODES[n];
    if (shape === undefined || shape === 0 || v === undefined) continue;
    if (typeof shape === 'string') {
      if (shape.startsWith('enum:') && typeof v === 'string') {
        const values = shape.slice(5).split('|');
        if (!values.includes(v))
          out.push({ path: p, outOfEnum: `${p.filter((k) => typeof k === 'string').join('.')} in body should be one of [${values.join(' ')}]` });
        continue;
      }
      const problem = typeProblem(v, shape, fieldPath(p));
      if (problem) out.push({ path: p, invalid: problem });
      continue;
    }
    if (Array.isArray(shape)) {
      const [container, child] = shape;
      if (v === null) continue;
      if (container === '[]' && !Array.isArray(v)) {
        out.push({ path: p, invalid: typeProblem(v, 'array', fieldPath(p)) ?? `${fieldPath(p)}: must be a list` });
        continue;
      }
      if (container === '{}' && !isPlainObject(v)) {
        out.push({ path: p, invalid: typeProblem(v, 'object', fieldPath(p)) ?? `${fieldPath(p)}: must be a mapping` });
        continue;
      }
      if (Array.isArray(v)) v.forEach((item, i) => stack.push([item, child, [...p, i]]));
      else for (const [k, item] of Object.entries(v as Record<string, Json>)) stack.push([item, child, [...p, k]]);
      continue;
    }
    if (v === null) continue;
    if (!isPlainObject(v)) {
      out.push({ path: p, invalid: typeProblem(v, 'object', fieldPath(p)) ?? `${fieldPath(p)}: must be a mapping` });
      continue;
    }
    const fields = shape as Readonly<Record<string, number>>;
    for (const [k, item] of Object.entries(v)) {
      // An embedded ObjectMeta (template.metadata, dataVolumeTemplates[].metadata): KubeVirt's CRD
      // keeps it as it comes (x-kubernetes-preserve-unknown-fields), so the API server refuses nothing there.
      if (k === 'metadata' && p.length > 0 && Object.hasOwn(fields, k)) continue;
      if (Object.hasOwn(fields, k)) stack.push([item, fields[k]!, [...p, k]]);
      else {
        const meant = closest(k, Object.keys(fields));
        out.push({ path: [...p, k], ...(meant !== undefined ? { meant } : {}) });
      }
    }
    if (required) {
      for (const k of VM_REQUIRED[n] ?? []) {
        const present = Object.hasOwn(v, k) ? (v as Record<string, Json>)[k] : undefined;
        if (present === undefined || present === null) out.push({ path: [...p, k], invalid: `${fieldPath([...p, k])}: Required value` });
      }
    }
  }
  return out;
}

/**
 * Unknown fields and wrongly typed values of a VirtualMachine's `spec`; with `required`, also the
 * fields KubeVirt's CRD requires (`spec` itself, `spec.template`, a disk's `name`...).
 */
export function unknownVmFields(vm: Readonly<Record<string, Json>>, required = false, release?: string): UnknownField[] {
  // Strict decoding of the object itself and of its ObjectMeta, as the API server reports them
  // (itgen-apiserver: `unknown field "metadata.foo"`, `unknown field "extra"`).
  const outer: UnknownField[] = [];
  const meta = vm['metadata'];
  if (isPlainObject(meta))
    for (const k of Object.keys(meta)) if (!OBJECT_META_FIELDS.includes(k)) outer.push({ path: ['metadata', k], ...withMeant(k, OBJECT_META_FIELDS) });
  for (const k of Object.keys(vm)) if (!TOP_LEVEL.includes(k)) outer.push({ path: [k], ...withMeant(k, TOP_LEVEL) });
  const spec = Object.hasOwn(vm, 'spec') ? vm['spec'] : undefined;
  if (spec === undefined || spec === null) return [...outer, ...(required ? [{ path: ['spec'], invalid: 'spec: Required value' }] : [])];
  return [...outer, ...unknownFieldsAt(spec, VM_SPEC_ROOT, ['spec'], 20, required), ...laterFields(vm, release)];
}

/** The fields of `vm` that the types of KubeVirt `release` lack (VM_FIELD_SINCE); none for the newest. */
/** The fields of `vm` that arrived after `release` (KubeVirt's types of that release lack them). */
export function laterFields(vm: Readonly<Record<string, Json>>, release: string | undefined): UnknownField[] {
  if (release === undefined) return [];
  const out: UnknownField[] = [];
  for (const [field, since] of Object.entries(VM_FIELD_SINCE)) {
    if (hasSince(since, release)) continue;
    // `a.b[].c{}.d`: walk every item of a list and every value of a map.
    let at: { value: Json; path: (string | number)[] }[] = [{ value: vm as Json, path: [] }];
    for (const part of field.split('.')) {
      const m = /^([^[{]+)((?:\[\]|\{\})*)$/.exec(part);
      if (!m) break;
      at = at.flatMap(({ value, path }) => {
        if (!isPlainObject(value) || !Object.hasOwn(value, m[1]!)) return [];
        let here: { value: Json; path: (string | number)[] }[] = [{ value: value[m[1]!]!, path: [...path, m[1]!] }];
        for (const step of m[2]!.match(/\[\]|\{\}/g) ?? [])
          here = here.flatMap((h) =>
            step === '[]'
              ? Array.isArray(h.value)
                ? h.value.map((v, i) => ({ value: v, path: [...h.path, i] }))
                : []
              : isPlainObject(h.value)
                ? Object.entries(h.value).map(([k, v]) => ({ value: v, path: [...h.path, k] }))
                : [],
          );
        return here;
      });
    }
    for (const { path, value } of at) if (value !== null) out.push({ path, since });
  }
  return out;
}

/** The fields of a Kubernetes object (its ObjectMeta's: kubevirt/crd.ts). */
const TOP_LEVEL = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];

function withMeant(k: string, known: readonly string[]): { meant?: string } {
  const meant = closest(k, known);
  return meant !== undefined ? { meant } : {};
}

/** The node of the VM's `spec.template.spec.domain` (a preset's `spec.domain` is the same type). */
export function domainNode(): number | undefined {
  let n = VM_SPEC_ROOT;
  for (const k of ['template', 'spec', 'domain']) {
    const shape = VM_FIELD_NODES[n];
    if (!shape || typeof shape !== 'object' || Array.isArray(shape) || !Object.hasOwn(shape, k)) return undefined;
    n = (shape as Record<string, number>)[k]!;
  }
  return n;
}

/**
 * The VM's spec as Go's encoding/json decodes it into KubeVirt's types (what the webhooks see of a
 * VM sent without strict field validation): a key that is not a field's name but equals one ignoring
 * case fills that field (an exact name wins), and other unknown keys are dropped. Embedded
 * ObjectMetas are kept as they are. `vm` is not changed.
 */
export function goDecodedVm(input: JsonObject, release?: string): JsonObject {
  // The release's own types lack what arrived later: Go drops it.
  const vm = withoutPaths(
    input,
    laterFields(input, release).map((u) => u.path),
  );
  const spec = vm['spec'];
  if (!isPlainObject(spec)) return vm;
  const decode = (v: Json, n: number, depth: number): Json => {
    const shape = VM_FIELD_NODES[n];
    if (depth > 100 || shape === undefined || shape === 0 || typeof shape === 'string' || v === null) return v;
    if (Array.isArray(shape)) {
      const child = shape[1];
      if (Array.isArray(v)) return v.map((x) => decode(x, child, depth + 1));
      if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x, child, depth + 1)]));
      return v;
    }
    if (!isPlainObject(v)) return v;
    const fields = shape as Readonly<Record<string, number>>;
    const out: JsonObject = {};
    const names = Object.keys(fields);
    // Exact names first, then the rest matched ignoring case (Go fills a field from the last key naming it).
    for (const [k, x] of Object.entries(v)) if (Object.hasOwn(fields, k)) out[k] = k === 'metadata' ? x : decode(x, fields[k]!, depth + 1);
    for (const [k, x] of Object.entries(v)) {
      if (Object.hasOwn(fields, k)) continue;
      const name = names.find((f) => f.toLowerCase() === k.toLowerCase());
      if (name !== undefined && !Object.hasOwn(v, name)) out[name] = name === 'metadata' ? x : decode(x, fields[name]!, depth + 1);
    }
    return out;
  };
  return { ...vm, spec: decode(spec, VM_SPEC_ROOT, 0) };
}

/** A copy of `v` without the values at `paths` (the copy shares what no path passes through). */
function withoutPaths(v: JsonObject, paths: readonly (readonly (string | number)[])[]): JsonObject {
  if (paths.length === 0) return v;
  const copyOf = (x: Json): Json => (Array.isArray(x) ? [...x] : isPlainObject(x) ? { ...x } : x);
  const root = copyOf(v) as JsonObject;
  for (const path of paths) {
    let at: Json | undefined = root;
    for (let i = 0; i < path.length - 1 && at !== undefined; i++) {
      const k = path[i]!;
      const next: Json | undefined = Array.isArray(at) ? at[k as number] : isPlainObject(at) ? at[k as string] : undefined;
      if (next === undefined || next === null || typeof next !== 'object') {
        at = undefined;
        break;
      }
      const copy = copyOf(next);
      if (Array.isArray(at)) at[k as number] = copy;
      else (at as JsonObject)[k as string] = copy;
      at = copy;
    }
    const last = path[path.length - 1]!;
    if (at !== undefined && isPlainObject(at)) delete (at as JsonObject)[last as string];
  }
  return root;
}
