/**
 * virt-template-engine's substitution (template.go substituteParameters, visit.go): `${KEY}`
 * replaced inside every string of the VM, keys too, and a string that is exactly `${{KEY}}`
 * replaced by the value decoded as JSON (kept as a string when it is not JSON).
 */
import { isPlainObject, type Json, type JsonObject } from '../../json';
import { goTypeOf } from './go-values';
import type { Path } from './convert';

/** `${KEY}` anywhere in a string. */
export const STRING_PARAM = /\$\{([a-zA-Z0-9_]+)\}/g;
/** `${{KEY}}` as the whole string. */
export const NON_STRING_PARAM = /^\$\{\{([a-zA-Z0-9_]+)\}\}$/;

/** substituteParameters: `[result, asString]`, or the engine's error for an undeclared name. */
export function substitute(s: string, values: ReadonlyMap<string, string>): [string, boolean] {
  const whole = NON_STRING_PARAM.exec(s);
  if (whole) {
    const v = values.get(whole[1]!);
    if (v === undefined) throw new Error(`found parameter '${whole[1]}' but it was not defined`);
    return [v, false];
  }
  // Each match of the string as written replaces the first occurrence of its text in the string
  // as it is by then (a value holding `${Y}` can be replaced in turn): strings.Replace(out, m, v, 1).
  let out = s;
  for (const m of [...s.matchAll(STRING_PARAM)]) {
    const v = values.get(m[1]!);
    if (v === undefined) throw new Error(`found parameter '${m[1]}' but it was not defined`);
    const at = out.indexOf(m[0]);
    if (at >= 0) out = out.slice(0, at) + v + out.slice(at + m[0].length);
  }
  return [out, true];
}

/** json.Unmarshal of a `${{X}}` value into `interface{}`: the value, or undefined where Go would fail to decode it. */
function decodeJsonValue(s: string): { value: Json } | undefined {
  try {
    const value = JSON.parse(s) as Json;
    return holdsNonFinite(value) ? undefined : { value };
  } catch {
    return undefined;
  }
}

const holdsNonFinite = (v: Json): boolean =>
  typeof v === 'number' ? !Number.isFinite(v) : Array.isArray(v) ? v.some(holdsNonFinite) : isPlainObject(v) ? Object.values(v).some(holdsNonFinite) : false;

export class SubstitutionError extends Error {
  constructor(
    message: string,
    readonly path: Path,
  ) {
    super(message);
  }
}

/** visitUnsettableValues for a value of type `interface{}` (an unstructured map's value or a list's element). */
function visitElement(v: Json, values: ReadonlyMap<string, string>, path: Path): Json {
  if (typeof v !== 'string') return visit(v, values, path);
  const [s, asString] = wrap(() => substitute(v, values), path);
  if (asString) return s;
  const decoded = decodeJsonValue(s);
  if (decoded === undefined) return s;
  if (decoded.value === null) throw new SubstitutionError('cannot assign nil value to target type interface {}', path);
  return decoded.value;
}

/** A map key (type string): a `${{X}}` whose JSON is not a string cannot be a key. */
function visitKey(k: string, values: ReadonlyMap<string, string>, path: Path): string {
  const [s, asString] = wrap(() => substitute(k, values), path);
  if (asString) return s;
  const decoded = decodeJsonValue(s);
  if (decoded === undefined) return s;
  if (decoded.value === null) throw new SubstitutionError('cannot assign nil value to target type string', path);
  if (typeof decoded.value !== 'string')
    throw new SubstitutionError(`substituted value type ${goTypeOf(decoded.value)} is not assignable to target type string`, path);
  return decoded.value;
}

function wrap<T>(f: () => T, path: Path): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof SubstitutionError || !(e instanceof Error)) throw e;
    throw new SubstitutionError(e.message, path);
  }
}

export function visit(v: Json, values: ReadonlyMap<string, string>, path: Path): Json {
  if (Array.isArray(v)) return v.map((x, i) => visitElement(x, values, [...path, i]));
  if (!isPlainObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    const key = visitKey(k, values, [...path, k]);
    Object.defineProperty(out, key, { value: visitElement(x, values, [...path, k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
