/**
 * Kubernetes resource quantities, limited to what instance types use: memory sizes.
 * Values are kept as exact integers of bytes (number is exact up to 8 PiB, far beyond any guest).
 */
const QUANTITY_RE = /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

const BINARY: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Readonly<Record<string, number>> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

export function isQuantity(text: string): boolean {
  return QUANTITY_RE.test(text);
}

/**
 * Parsed quantities by text. A catalog writes a few dozen distinct ones and the compatibility grid
 * and the rules ask for them thousands of times; the cache is emptied when it grows past a bound.
 */
const parsed = new Map<string, number | undefined>();
const PARSED_MAX = 4096;

/** Bytes of a quantity, or undefined when the text is not a quantity or not a whole number of bytes. */
export function parseQuantity(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (parsed.has(value)) return parsed.get(value);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  const bytes = parseQuantityText(value);
  parsed.set(value, bytes);
  return bytes;
}

function parseQuantityText(value: string): number | undefined {
  const text = value.trim();
  if (!QUANTITY_RE.test(text)) return undefined;
  const m = /^([+-]?[0-9.]+)(.*)$/.exec(text);
  if (!m) return undefined;
  const num = Number(m[1]);
  const suffix = m[2] ?? '';
  let factor: number | undefined;
  if (suffix in BINARY) factor = BINARY[suffix];
  else if (suffix in DECIMAL) factor = DECIMAL[suffix];
  else if (/^[eE]/.test(suffix)) factor = 10 ** Number(suffix.slice(1));
  if (factor === undefined) return undefined;
  const bytes = num * factor;
  if (!Number.isFinite(bytes) || bytes < 0) return undefined;
  const rounded = Math.round(bytes);
  return Math.abs(rounded - bytes) < 1e-6 && Number.isSafeInteger(rounded) ? rounded : undefined;
}

/** Canonical binary form: the largest power-of-1024 suffix that divides exactly, else plain bytes. */
export function formatBinary(bytes: number): string {
  for (const suffix of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'] as const) {
    const f = BINARY[suffix]!;
    if (bytes >= f && bytes % f === 0) return `${bytes / f}${suffix}`;
  }
  return String(bytes);
}

export const GiB = 2 ** 30;
export const MiB = 2 ** 20;

/** How Kubernetes prints a quantity back: the format follows the suffix it was written with. */
export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

export function quantityFormat(value: string | number): QuantityFormat {
  if (typeof value === 'number') return 'DecimalSI';
  const m = /[0-9.]([A-Za-z]+[+-]?[0-9.]*)$/.exec(value.trim());
  const suffix = m?.[1] ?? '';
  if (/^[KMGTPE]i$/.test(suffix)) return 'BinarySI';
  if (/^[eE]/.test(suffix)) return 'DecimalExponent';
  return 'DecimalSI';
}

const DECIMAL_SUFFIXES: readonly [number, string][] = [
  [18, 'E'],
  [15, 'P'],
  [12, 'T'],
  [9, 'G'],
  [6, 'M'],
  [3, 'k'],
];

/**
 * A whole number of bytes as Kubernetes' Quantity.String() prints it in `format` (CanonicalizeBytes):
 * BinarySI takes the largest power of 1024 that divides the value (below 1024 it prints as
 * DecimalSI), DecimalSI the largest power of 1000, DecimalExponent the largest power of 1000 as `eN`.
 */
export function formatQuantity(bytes: number, format: QuantityFormat): string {
  if (bytes === 0) return '0';
  const negative = bytes < 0 ? '-' : '';
  const abs = Math.abs(bytes);
  if (format === 'BinarySI' && abs >= 1024) return negative + formatBinary(abs);
  for (const [exp, suffix] of DECIMAL_SUFFIXES) {
    const f = 10 ** exp;
    if (abs >= f && abs % f === 0) return `${negative}${abs / f}${format === 'DecimalExponent' ? `e${exp}` : suffix}`;
  }
  return `${negative}${abs}`;
}

/** A memory quantity printed the way the API server stores it (`4096Mi` reads back as `4Gi`). */
export function canonicalQuantity(value: string | number): string | undefined {
  const bytes = parseQuantity(value);
  return bytes === undefined ? undefined : formatQuantity(bytes, quantityFormat(value));
}

/** The value of a CPU quantity rounded up to a whole number, as Quantity.Value() does (`500m` is 1). */
export function quantityCeil(value: string | number): number | undefined {
  if (typeof value === 'number') return Math.ceil(value);
  const text = value.trim();
  if (!QUANTITY_RE.test(text)) return undefined;
  const m = /^([+-]?[0-9.]+)(.*)$/.exec(text);
  if (!m) return undefined;
  const suffix = m[2] ?? '';
  const factor = suffix in BINARY ? BINARY[suffix] : suffix in DECIMAL ? DECIMAL[suffix] : /^[eE]/.test(suffix) ? 10 ** Number(suffix.slice(1)) : undefined;
  return factor === undefined ? undefined : Math.ceil(Number(m[1]) * factor - 1e-9);
}

/**
 * A quantity in thousandths, exact (a CPU quantity in millicores: `650m` is 650, `2` is 2000), rounded
 * up as Quantity.MilliValue() does; undefined when the text is not a quantity.
 */
export function parseMilli(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.ceil(value * 1000 - 1e-9) : undefined;
  const text = value.trim();
  if (!QUANTITY_RE.test(text)) return undefined;
  const m = /^([+-]?[0-9.]+)(.*)$/.exec(text);
  if (!m) return undefined;
  const suffix = m[2] ?? '';
  const factor = suffix in BINARY ? BINARY[suffix] : suffix in DECIMAL ? DECIMAL[suffix] : /^[eE]/.test(suffix) ? 10 ** Number(suffix.slice(1)) : undefined;
  if (factor === undefined) return undefined;
  const milli = Number(m[1]) * factor * 1000;
  return Number.isFinite(milli) ? Math.ceil(milli - 1e-6) : undefined;
}

/** Thousandths printed as Kubernetes prints a DecimalSI CPU quantity: `650m`, `2`, `1500m`. */
export function formatMilli(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
