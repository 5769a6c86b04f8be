/**
 * `itgen select`'s ranges and CSV; the filter itself is site/filter.ts, which the page's script runs too.
 */
import { formatBinary, parseQuantity } from '../quantity';
import type { SiteInstancetype } from './data';

/** `4..16`, `4..`, `..16`, `8`: an inclusive range; undefined ends are open. Quantities for memory. */
export function parseRange(text: string, what: 'count' | 'bytes'): readonly [number | undefined, number | undefined] | { readonly error: string } {
  const parts = text.includes('..') ? text.split('..') : [text, text];
  if (parts.length !== 2) return { error: `\`${text}\` is not a range: write MIN..MAX, MIN.. or ..MAX` };
  const one = (s: string): number | undefined | { error: string } => {
    if (s === '') return undefined;
    if (what === 'count') return /^\d{1,6}$/.test(s) ? Number(s) : { error: `\`${s}\` is not a number of vCPUs` };
    // A bare number is GiB (8 means 8Gi); one that large is bytes written without a unit.
    if (/^\d+(\.\d+)?$/.test(s) && Number(s) > 65536)
      return { error: `\`${s}\`: a bare number is GiB, and ${s} GiB is more than any VM; write the unit (${s} bytes is ${formatBinary(Number(s))})` };
    const bytes = parseQuantity(/^\d+(\.\d+)?$/.test(s) ? `${s}Gi` : s);
    return bytes === undefined ? { error: `\`${s}\` is not a quantity like 8Gi (a bare number is GiB)` } : bytes;
  };
  const [a, b] = [one(parts[0]!), one(parts[1]!)];
  if (typeof a === 'object') return a;
  if (typeof b === 'object') return b;
  if (a !== undefined && b !== undefined && a > b) return { error: `\`${text}\`: the minimum is above the maximum` };
  return [a, b];
}

const CSV_COLUMNS = [
  'name',
  'generator',
  'family',
  'class',
  'cpu',
  'memory',
  'hugepages',
  'dedicatedCpu',
  'gpus',
  'architectures',
  'podCpu',
  'podMemory',
  'deprecated',
  'replacement',
] as const;

/**
 * Rows as CSV (RFC 4180's quoting; lines end in `\n`, as every text itgen prints, whose output guard
 * writes a carriage return as a visible escape). A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab,
 * carriage return at its start) is prefixed with `'`: a catalog is untrusted input.
 */
export function instancetypesCsv(rows: readonly SiteInstancetype[]): string {
  const cell = (v: unknown): string => {
    let s = Array.isArray(v) ? v.join(' ') : String(v);
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}
