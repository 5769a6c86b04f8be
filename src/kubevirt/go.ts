/**
 * JSON read and written with Go's semantics, as KubeVirt's code sees its structs: a nil pointer is
 * absent, `""` and `0` are unset, and `if x == nil { x = &T{} }` creates what it writes into.
 */
import { obj, type Json, type JsonObject } from '../json';

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
