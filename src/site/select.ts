/**
 * `itgen select`'s ranges and CSV; the filter itself is site/filter.ts, which the page's script runs too.
 */
import { formatBinary, parseQuantity } from '../quantity';
import type { SiteInstancetype } from './data';
import { rowsCsv } from './filter';

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

/**
 * Rows as CSV with lines ending in `\n`, as every text itgen prints (its output guard writes a carriage
 * return as a visible escape); the quoting and the formula guard are `rowsCsv`'s (site/filter.ts), which
 * the page's download uses too.
 */
export function instancetypesCsv(rows: readonly SiteInstancetype[]): string {
  return rowsCsv(rows, '\n');
}
