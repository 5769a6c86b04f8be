/**
 * How Go prints the values in the engine's field errors (apimachinery's field.Error.ErrorBody): a
 * string with %q, a number or bool with %v, anything else as encoding/json marshals it (map keys
 * sorted, `<`, `>` and `&` escaped, U+2028 and U+2029 escaped). And the Go type names json
 * decoding into `interface{}` gives a JSON value, which the engine's substitution errors name.
 */
import type { Json } from '../../json';
import { goQuote } from './generator';
export { goJsonKind as jsonKind, unmarshalTypeError } from '../go-json';

/** encoding/json's string encoding (HTML-safe, as json.Marshal does). */
function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** strconv.FormatFloat(f, 'g'-like, -1, 64) as encoding/json writes a float64. */
function goJsonNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    // Go writes 1e-07 and cleans it to 1e-7: JavaScript's exponent form.
    return n.toExponential();
  }
  return String(n);
}

/** json.Marshal of a decoded JSON value (maps sorted by key). */
export function goJson(v: Json | undefined): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return goJsonNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${goJsonString(k)}:${goJson(v[k])}`).join(',')}}`;
}

/** field.Error's rendering of a bad value. */
export function badValue(v: Json | undefined): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return goJson(v);
}

/** The Go type json.Unmarshal into `interface{}` gives a value (the engine names it in a substitution error). */
export function goTypeOf(v: Json): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

/**
 * sigs.k8s.io/yaml's text for a YAML number or bool read into a Go string (yamlToJSONTarget): an
 * integer in decimal, a float as strconv.FormatFloat(f, 'g', -1, 32), a bool as true or false.
 */
export function yamlScalarAsString(v: number | boolean): string {
  if (typeof v === 'boolean') return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) return BigInt(v).toString();
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
  const f = Math.fround(v);
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // The shortest digits that read back as the same float32.
  let digits = '';
  let exp = 0;
  for (let p = 1; p <= 9; p++) {
    const e = f.toExponential(p - 1);
    if (Math.fround(Number(e)) === f) {
      const [m, x] = e.split('e');
      digits = m!.replace('.', '').replace('-', '');
      exp = Number(x);
      break;
    }
  }
  const sign = f < 0 ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/** sigs.k8s.io/yaml's words around encoding/json's error for a YAML document. */
export const yamlDecodingError = (message: string): string => `error unmarshaling JSON: while decoding JSON: ${message}`;
