/**
 * Kubernetes' resource.Quantity as KubeVirt's pod render uses it (k8s.io/apimachinery/pkg/api/
 * resource): an exact value (here in nano-units, as a bigint) and the format it prints in, which
 * follows the suffix it was written with and, for a sum, the first non-zero addend. `String()`
 * prints the canonical form: BinarySI with the largest power of 1024 that divides the value
 * (DecimalSI below 1024 or with a fraction), DecimalSI with the largest power of 1000.
 */
export type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in nano-units (10^-9). */
  readonly nano: bigint;
  readonly format: Format;
}

const NANO = 1_000_000_000n;
const BINARY: Readonly<Record<string, bigint>> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL_EXP: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const RE = /^([+-]?)([0-9]+)?(?:\.([0-9]*))?([a-zA-Z]*|[eE][+-]?[0-9]+)$/;

export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };

/** Parsed quantities by text: a pod render parses the same few dozen constants and sizes again and again. */
const parsedCache = new Map<string, Quantity | undefined>();

/** resource.ParseQuantity (rounding up past nano precision), or undefined. */
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
  let scaleNum: bigint;
  let scaleDen = 1n;
  if (Object.hasOwn(BINARY, suffix)) {
    format = 'BinarySI';
    scaleNum = BINARY[suffix]! * NANO;
  } else if (Object.hasOwn(DECIMAL_EXP, suffix)) {
    format = 'DecimalSI';
    const e = DECIMAL_EXP[suffix]! + 9;
    scaleNum = 10n ** BigInt(e);
  } else if (/^[eE]/.test(suffix)) {
    format = 'DecimalExponent';
    const e = Number(suffix.slice(1)) + 9;
    if (e >= 0) scaleNum = 10n ** BigInt(e);
    else {
      scaleNum = 1n;
      scaleDen = 10n ** BigInt(-e);
    }
  } else return undefined;
  const fracDen = 10n ** BigInt(fracText.length);
  const num = (whole * fracDen + BigInt(fracText === '' ? '0' : fracText)) * scaleNum;
  const den = fracDen * scaleDen;
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
