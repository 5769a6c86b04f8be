/**
 * Kubernetes' resource.Quantity (k8s.io/apimachinery/pkg/api/resource), the one quantity model of
 * itgen: an exact value (in nano-units, as a bigint) and the format it prints in, which follows the
 * suffix it was written with and, for a sum, the first non-zero addend. `qString` prints the
 * canonical form: BinarySI with the largest power of 1024 that divides the value (DecimalSI below
 * 1024 or with a fraction), DecimalSI with the largest power of 1000.
 *
 * The byte and millicore helpers below (`parseQuantity`, `parseMilli`, `formatBinary`, ...) are views
 * of the same model for the places that hold sizes as JavaScript numbers (a catalog's memory, a
 * node's allocatable): they parse with `parseQ` and print with `qString`, so there is one grammar
 * and one rounding.
 */
export type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
/** How Kubernetes prints a quantity back: the format follows the suffix it was written with. */
export type QuantityFormat = Format;

export interface Quantity {
  /** The value in nano-units (10^-9). */
  readonly nano: bigint;
  readonly format: Format;
}

const NANO = 1_000_000_000n;
const BINARY: Readonly<Record<string, bigint>> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL_EXP: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const RE = /^([+-]?)([0-9]+)?(?:\.([0-9]*))?([a-zA-Z]*|[eE][+-]?[0-9]+)$/;
const EXPONENT_RE = /^[eE][+-]?[0-9]+$/;
/**
 * Exponents are clamped to this magnitude before the value is computed: `1e999999999` is a valid
 * quantity (Go keeps the exponent as an int32 scale), and computing 10^999999999 exactly would not
 * finish. A value of 10^400 or more compares larger than anything a cluster holds either way; one
 * below 10^-400 rounds up to one nano-unit, as ParseQuantity rounds it.
 */
const MAX_EXPONENT = 400;

export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };
export const GiB = 2 ** 30;
export const MiB = 2 ** 20;

/** Parsed quantities by text: a pod render or a catalog's rules parse the same few dozen again and again. */
const parsedCache = new Map<string, Quantity | undefined>();

/** resource.ParseQuantity (surrounding blanks trimmed, rounding up past nano precision), or undefined. */
export function parseQ(text: string | number): Quantity | undefined {
  const key = String(text);
  if (parsedCache.has(key)) return parsedCache.get(key);
  if (parsedCache.size > 4096) parsedCache.clear();
  const parsed = parseText(key);
  parsedCache.set(key, parsed);
  return parsed;
}

function parseText(text: string): Quantity | undefined {
  const s = text.trim();
  const m = RE.exec(s);
  if (!m || (m[2] === undefined && (m[3] === undefined || m[3] === ''))) return undefined;
  const sign = m[1] === '-' ? -1n : 1n;
  const whole = BigInt(m[2] ?? '0');
  const fracText = m[3] ?? '';
  const suffix = m[4] ?? '';
  let format: Format;
  let exponent: number;
  let binary = 1n;
  if (Object.hasOwn(BINARY, suffix)) {
    format = 'BinarySI';
    binary = BINARY[suffix]!;
    exponent = 0;
  } else if (Object.hasOwn(DECIMAL_EXP, suffix)) {
    format = 'DecimalSI';
    exponent = DECIMAL_EXP[suffix]!;
  } else if (EXPONENT_RE.test(suffix)) {
    format = 'DecimalExponent';
    exponent = Math.max(-MAX_EXPONENT, Math.min(MAX_EXPONENT, Number(suffix.slice(1))));
  } else return undefined;
  const e = exponent + 9 - fracText.length;
  let num = (whole * 10n ** BigInt(fracText.length) + BigInt(fracText === '' ? '0' : fracText)) * binary;
  let den = 1n;
  if (e >= 0) num *= 10n ** BigInt(e);
  else den = 10n ** BigInt(-e);
  // Round up (away from zero) past nano precision, as ParseQuantity does.
  const nano = (num + den - 1n) / den;
  return { nano: sign * nano, format };
}

/** `resource.MustParse` for constants known good. */
export function q(text: string): Quantity {
  return parseQ(text)!;
}

/** Quantity.Add: the sum, in the receiver's format unless the receiver is zero. */
export function add(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.nano === 0n ? b.format : a.format };
}

export function sub(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano - b.nano, format: a.nano === 0n ? b.format : a.format };
}

/** Quantity.Value(): the value rounded up to an integer. */
export function value(a: Quantity): bigint {
  return a.nano >= 0n ? (a.nano + NANO - 1n) / NANO : a.nano / NANO;
}

/** resource.NewQuantity(v, format). */
export function fromInt(v: bigint, format: Format): Quantity {
  return { nano: v * NANO, format };
}

/** ScaledValue(Kilo): the value in thousands, rounded up. */
export function scaledKilo(a: Quantity): bigint {
  const k = 1000n * NANO;
  return a.nano >= 0n ? (a.nano + k - 1n) / k : a.nano / k;
}

/** MilliValue(): the value in thousandths, rounded up. */
export function milliValue(a: Quantity): bigint {
  const m = 1_000_000n;
  return a.nano >= 0n ? (a.nano + m - 1n) / m : a.nano / m;
}

export function cmp(a: Quantity, b: Quantity): number {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

const DEC_SUFFIX: readonly [number, string][] = [
  [18, 'E'],
  [15, 'P'],
  [12, 'T'],
  [9, 'G'],
  [6, 'M'],
  [3, 'k'],
  [0, ''],
  [-3, 'm'],
  [-6, 'u'],
  [-9, 'n'],
];

const printed: Record<Format, Map<bigint, string>> = { DecimalSI: new Map(), BinarySI: new Map(), DecimalExponent: new Map() };

/** Quantity.String(): the canonical form. */
export function qString(a: Quantity): string {
  const cache = printed[a.format];
  const hit = cache.get(a.nano);
  if (hit !== undefined) return hit;
  if (cache.size > 4096) cache.clear();
  const text = canonicalText(a);
  cache.set(a.nano, text);
  return text;
}

function canonicalText(a: Quantity): string {
  if (a.nano === 0n) return '0';
  const neg = a.nano < 0n ? '-' : '';
  const abs = a.nano < 0n ? -a.nano : a.nano;
  let format = a.format;
  if (format === 'BinarySI') {
    // Below 1024, or with a fraction, BinarySI prints as DecimalSI.
    if (abs < 1024n * NANO || abs % NANO !== 0n) format = 'DecimalSI';
    else {
      let v = abs / NANO;
      let i = 0;
      const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
      while (v % 1024n === 0n && i < suffixes.length - 1) {
        v /= 1024n;
        i++;
      }
      return `${neg}${v}${suffixes[i]}`;
    }
  }
  for (const [exp, suffix] of DEC_SUFFIX) {
    const unit = 10n ** BigInt(exp + 9);
    if (abs % unit === 0n) return `${neg}${abs / unit}${format === 'DecimalExponent' ? (exp === 0 ? '' : `e${exp}`) : suffix}`;
  }
  return `${neg}${abs}n`;
}

// ---- Views for values held as JavaScript numbers ----

/** Whether a text is a quantity as written (no surrounding blanks). */
export function isQuantity(text: string): boolean {
  return text === text.trim() && parseQ(text) !== undefined;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Bytes of a quantity, or undefined when it is not a quantity, negative, or not a whole number of bytes. */
export function parseQuantity(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isSafeInteger(text) && text >= 0 ? text : undefined;
  if (bytesCache.has(text)) return bytesCache.get(text);
  const parsed = parseQ(text);
  const bytes =
    parsed === undefined || parsed.nano < 0n || parsed.nano % NANO !== 0n ? undefined : parsed.nano / NANO <= MAX_SAFE ? Number(parsed.nano / NANO) : undefined;
  if (bytesCache.size > 4096) bytesCache.clear();
  bytesCache.set(text, bytes);
  return bytes;
}

/**
 * Why `parseQuantity` has no bytes for `text`: a quantity past what itgen counts exactly (2^53 bytes,
 * 8 PiB: `1Ei` is a quantity), or not a whole number of bytes (`positive`: nor above zero).
 */
export function bytesProblem(text: string | number, positive = false): string {
  const parsed = typeof text === 'number' ? undefined : parseQ(text);
  if (parsed !== undefined && parsed.nano > 0n && parsed.nano % NANO === 0n && parsed.nano / NANO > MAX_SAFE)
    return 'is more than itgen counts exactly (8Pi, 2^53 bytes): a quantity, but no VM or node has that much';
  return positive ? 'is not a positive whole number of bytes' : 'is not a whole number of bytes';
}

/** Bytes by text: the rules and the pod render ask for the same few dozen sizes thousands of times. */
const bytesCache = new Map<string, number | undefined>();

/** The format a quantity prints back in (a number is DecimalSI). */
export function quantityFormat(text: string | number): QuantityFormat {
  return typeof text === 'number' ? 'DecimalSI' : (parseQ(text)?.format ?? 'DecimalSI');
}

/** A whole number as Quantity.String() prints it in `format` (non-integers print as JavaScript does). */
export function formatQuantity(n: number, format: QuantityFormat): string {
  return Number.isInteger(n) ? qString(fromInt(BigInt(n), format)) : String(n);
}

/**
 * itgen's own print of a size (not Quantity.String()): the largest power-of-1024 suffix that divides
 * exactly, else plain bytes (`1000`, where Kubernetes would print `1k`).
 */
export function formatBinary(bytes: number): string {
  return Number.isInteger(bytes) && bytes >= 1024 ? qString(fromInt(BigInt(bytes), 'BinarySI')) : String(bytes);
}

/** A memory quantity printed the way the API server stores it (`4096Mi` reads back as `4Gi`); whole bytes only. */
export function canonicalQuantity(text: string | number): string | undefined {
  const bytes = parseQuantity(text);
  return bytes === undefined ? undefined : formatQuantity(bytes, quantityFormat(text));
}

/** The value rounded up to a whole number, as Quantity.Value() does (`500m` is 1). */
export function quantityCeil(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? Math.ceil(text) : undefined;
  const parsed = parseQ(text);
  return parsed === undefined ? undefined : Number(value(parsed));
}

/** A quantity in thousandths, rounded up as Quantity.MilliValue() does (`650m` is 650, `2` is 2000). */
export function parseMilli(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? Math.ceil(text * 1000 - 1e-9) : undefined;
  const parsed = parseQ(text);
  return parsed === undefined ? undefined : Number(milliValue(parsed));
}

/** Thousandths printed as Kubernetes prints a DecimalSI CPU quantity: `650m`, `2`, `1500m`. */
export function formatMilli(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
