/**
 * `itgen select`: the explorer's filters in the terminal. The page (site/page.ts) applies the same
 * filters in the browser; test/site-browser.test.ts holds the two to the same answers.
 */
import { formatBinary, parseQuantity } from '../quantity';
import { pairOutcome, type SiteData, type SiteInstancetype } from './data';

export interface SelectFilter {
  readonly cpu?: readonly [number | undefined, number | undefined];
  /** Bytes. */
  readonly memory?: readonly [number | undefined, number | undefined];
  readonly arch?: string;
  readonly dedicated?: boolean;
  /** A hugepage size (`1Gi`, `2Mi`), or `any`. */
  readonly hugepages?: string;
  /** A GPU or host device name, case-insensitive (`nvidia.com/L4`). */
  readonly gpu?: string;
  /** Only the instance types this preference is admitted with. */
  readonly preference?: string;
  /** Families as users write them (`u1`) or without the version (`u`). */
  readonly families?: readonly string[];
  readonly classes?: readonly string[];
  /** Words that must all appear in the name, display name, description or class. */
  readonly text?: string;
  /** Deprecated ones are left out unless asked for. */
  readonly deprecated?: boolean;
}

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

const within = (v: number, r: readonly [number | undefined, number | undefined] | undefined): boolean =>
  !r || ((r[0] === undefined || v >= r[0]) && (r[1] === undefined || v <= r[1]));

/** The instance types of `data` that pass every filter given, in the data's order. */
export function selectInstancetypes(data: SiteData, f: SelectFilter): SiteInstancetype[] {
  const pref = f.preference !== undefined ? data.preferences.filter((p) => p.name === f.preference) : undefined;
  const words = (f.text ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  return data.instancetypes.filter((it) => {
    if (!f.deprecated && it.deprecated) return false;
    if (!within(it.cpu, f.cpu) || !within(it.memoryBytes, f.memory)) return false;
    if (f.arch !== undefined && it.architectures.length > 0 && !it.architectures.includes(f.arch)) return false;
    if (f.dedicated && !it.dedicatedCpu) return false;
    if (f.hugepages !== undefined && (f.hugepages === 'any' ? it.hugepages === '' : it.hugepages !== f.hugepages)) return false;
    if (f.gpu !== undefined && ![...it.gpus, ...it.hostDevices].some((g) => g.toLowerCase() === f.gpu!.toLowerCase())) return false;
    if (f.families && f.families.length > 0 && !f.families.some((x) => x === it.family || x === it.family.replace(/\d+$/, ''))) return false;
    if (f.classes && f.classes.length > 0 && !f.classes.includes(it.class)) return false;
    if (pref && !pref.some((p) => p.generator === it.generator && pairOutcome(data.pairs[p.pairRow]!, it) === -1)) return false;
    if (words.length > 0) {
      const hay = `${it.name} ${it.displayName} ${it.description} ${it.class}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return false;
    }
    return true;
  });
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
