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

/** Bytes of a quantity, or undefined when the text is not a quantity or not a whole number of bytes. */
export function parseQuantity(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
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
