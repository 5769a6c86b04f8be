/** JSON data as the stages pass it around: what YAML documents and manifests are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A Kubernetes object in a command's JSON output: its apiVersion and kind, and what else it holds. */
export interface KubeObjectJson {
  readonly apiVersion: string;
  readonly kind: string;
  readonly [key: string]: Json;
}

/** `o` as an object of the output: every object itgen prints was read (or made) with its apiVersion and kind. */
export function kubeObject(o: JsonObject): KubeObjectJson {
  return o as KubeObjectJson;
}

/** A mapping: not null, not a list. The one plain-object test of src/ (house style 34). */
export function isPlainObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `v` when it is a mapping, else undefined. */
export function obj(v: unknown): JsonObject | undefined {
  return isPlainObject(v) ? v : undefined;
}

/** `v` when it is a string, else `''` (a Go string field's zero value). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The mappings of a list (anything else: none). */
export function list(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter((x): x is JsonObject => isPlainObject(x)) : [];
}

/**
 * The value at `path` in a JSON object, or undefined when any step is missing. Indexed loops here
 * and in the other helpers every rule calls: most of a run is code not yet optimised, where a
 * for-of loop allocates an iterator result per step.
 */
export function getPath(o: JsonObject, path: readonly string[]): Json | undefined {
  let v: Json | undefined = o;
  for (let i = 0; i < path.length; i++) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = v[path[i]!];
  }
  return v;
}
