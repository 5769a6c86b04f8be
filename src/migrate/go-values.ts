/**
 * How KubeVirt's Go code compares the domain sections presets merge, over their JSON. Two readings
 * matter: `equality.Semantic.DeepEqual` (quantities by value; a zero value of a non-pointer field
 * is the same as the field absent, because decoding JSON into a Go struct cannot tell them apart)
 * and Go's `!=` on two `resource.Quantity` values, which the preset conflict check uses for
 * resource requests and which compares the structs, not the amounts.
 */
import { isPlainObject, type Json, type JsonObject } from '../json';
import { isQuantity, parseQuantity } from '../quantity';

/**
 * Keys of pointer-typed scalars in the merged sections (`*bool`, `*int`, `*uint32`): for them
 * `false` or `0` is a value. Every other scalar of those sections is a Go value type, where the
 * zero value means "not set" (api/core/v1/schema.go: CPU, Firmware, Clock, Features, Watchdog).
 */
const POINTER_SCALARS: ReadonlySet<string> = new Set(['enabled', 'present', 'useSerial', 'secureBoot', 'persistent', 'offsetSeconds', 'spinlocks']);

/** Keys of Go value-typed structs: `features.acpi` is a `FeatureState`, not a pointer, so `{}` is unset. */
const VALUE_STRUCTS: ReadonlySet<string> = new Set(['acpi']);

function isZeroScalar(key: string, v: Json): boolean {
  if (POINTER_SCALARS.has(key)) return false;
  return v === '' || v === 0 || v === false;
}

/**
 * The JSON a Go struct would marshal back after decoding `v`: null and zero scalars of value-typed
 * fields dropped, empty value-typed structs dropped. `inFeatures` marks the `features` object,
 * whose `acpi` is the one value-typed struct of the merged sections.
 */
export function goNormalize(v: Json | undefined, inFeatures = false): Json | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.map((x) => goNormalize(x) ?? null);
  if (!isPlainObject(v)) return v;
  const out: JsonObject = {};
  for (const key of Object.keys(v).sort()) {
    const raw = v[key]!;
    if (raw === null || (typeof raw !== 'object' && isZeroScalar(key, raw))) continue;
    const value = goNormalize(raw, key === 'features');
    if (value === undefined) continue;
    if (inFeatures && VALUE_STRUCTS.has(key) && isPlainObject(value) && Object.keys(value).length === 0) continue;
    out[key] = value;
  }
  return out;
}

/** `v` without its null members: Go decodes JSON null into a pointer as nil, the same as absent. */
export function withoutNulls<T extends Json>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => withoutNulls(x)) as T;
  if (!isPlainObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out as T;
}

/** Paths (dotted, under a domain) whose strings are resource quantities, compared by value. */
function isQuantityKey(path: readonly string[]): boolean {
  const parent = path[path.length - 2];
  const key = path[path.length - 1];
  return parent === 'requests' || parent === 'limits' || key === 'guest' || key === 'maxGuest' || key === 'pageSize';
}

/** Quantities are equal by value (Quantity.Cmp), as `equality.Semantic` compares them. */
function sameQuantity(a: Json, b: Json): boolean {
  if ((typeof a !== 'string' && typeof a !== 'number') || (typeof b !== 'string' && typeof b !== 'number')) return false;
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  return x !== undefined && x === y;
}

/** `equality.Semantic.DeepEqual` over JSON, for the sections presets merge; `section` names the one compared (`features` has a value-typed member). */
export function semanticEqual(a: Json | undefined, b: Json | undefined, section?: string): boolean {
  return equalNormalized(goNormalize(a, section === 'features'), goNormalize(b, section === 'features'), []);
}

function equalNormalized(a: Json | undefined, b: Json | undefined, path: readonly string[]): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (isQuantityKey(path) && typeof a !== 'object' && typeof b !== 'object') return a === b || sameQuantity(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => equalNormalized(x, b[i], [...path, String(i)]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!equalNormalized(a[k], b[k], [...path, k])) return false;
    return true;
  }
  return a === b;
}

/**
 * The identity Go's `!=` sees in a `resource.Quantity` decoded from `text`: ParseQuantity keeps an
 * int64 amount for most values (and caches the string when it is already canonical), but falls
 * back to a big decimal behind a pointer for fractions of binary suffixes, values with too many
 * digits and the like. Two pointers are never `==`, so such a quantity differs even from itself
 * written twice: undefined here. Mirrors k8s.io/apimachinery/pkg/api/resource/quantity.go.
 */
export function goQuantityIdentity(value: Json | undefined): string | undefined {
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') return undefined;
  const str = value.trim();
  if (str === '0') return '0|DecimalSI|0';
  const m = isQuantity(str) ? /^([+-]?)0*([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(str) : null;
  if (!m) return undefined;
  const negative = m[1] === '-';
  // Leading zeros are skipped; a run of zeros alone reads as "0".
  const num = m[2] === '' && m[3] === undefined ? '0' : m[2]!;
  const denom = m[3] ?? '';
  const suffix = m[4]!;
  const binary: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
  const decimal: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  let format: 'BinarySI' | 'DecimalSI' | 'DecimalExponent';
  let exponent: number;
  if (suffix in binary) [format, exponent] = ['BinarySI', binary[suffix]!];
  else if (suffix in decimal) [format, exponent] = ['DecimalSI', decimal[suffix]!];
  else if (/^[eE][+-]?[0-9]+$/.test(suffix)) [format, exponent] = ['DecimalExponent', Number(suffix.slice(1))];
  else return undefined;
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (denom.length > 0) return undefined;
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc(Math.fround((Math.fround(exponent) * 3) / 10)) - 1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision < 0) return undefined;
  scale -= denom.length;
  if (scale < -9) return undefined;
  const shifted = num + denom;
  if (shifted === '') return undefined;
  const amount = BigInt(shifted) * mantissa;
  if (amount > 2n ** 63n - 1n) return undefined;
  const signed = negative ? -amount : amount;
  const canonical =
    format === 'BinarySI' ? exponent % 10 === 0 && (BigInt(shifted) & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  return `${signed}|${scale}|${format}|${canonical ? str : ''}`;
}

/** Go's `presetReq != vmiReq` on two requests decoded from JSON. */
export function quantitiesDiffer(a: Json | undefined, b: Json | undefined): boolean {
  const x = goQuantityIdentity(a);
  const y = goQuantityIdentity(b);
  return x === undefined || y === undefined || x !== y;
}
