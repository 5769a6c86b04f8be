/**
 * The explorer's filter, run in two places: by `itgen select` in Node and by the page's script in
 * the browser (src/site/explorer.ts bundles this module into the page, with KubeVirt's pairing
 * checks from kubevirt/pairing.ts); test/site-browser.test.ts holds the two to the same answers.
 */
import { pairOutcome } from '../kubevirt/pairing';
import type { SiteData, SiteInstancetype, SitePreference } from './types';

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

export interface SitePairOutcome {
  readonly admitted: boolean;
  /** KubeVirt's words when it refuses the pair. */
  readonly reason?: string;
}

/** Outcomes computed so far, per data: a pair is decided once per (pairing class, deciding spec). */
const decided = new WeakMap<SiteData, Map<number, SitePairOutcome>>();

/**
 * What KubeVirt answers for a VM naming `it` and a preference of `p`'s pairing class, or undefined
 * when they are not paired (another generator, or an architecture `it` is not meant for).
 */
export function pairOf(data: SiteData, p: SitePreference, it: SiteInstancetype): SitePairOutcome | undefined {
  const row = data.pairs[p.pairRow];
  if (row === undefined || it.generator !== p.generator) return undefined;
  if (it.architectures.length > 0 && !it.architectures.includes(row.architecture)) return undefined;
  let cache = decided.get(data);
  if (cache === undefined) decided.set(data, (cache = new Map()));
  const key = p.pairRow * data.pairSpecs.length + it.pairKey;
  let o = cache.get(key);
  if (o === undefined) cache.set(key, (o = pairOutcome(data.pairSpecs[it.pairKey]!, row.spec, row.architecture as 'amd64', row.clusterArchitecture)));
  // What the sizes admit, the judge may still refuse: the preference's refusals by kind.
  const judged = o.admitted && Object.hasOwn(p.refusedKinds, String(it.kind)) ? p.refusedKinds[String(it.kind)] : undefined;
  return judged !== undefined ? { admitted: false, reason: judged } : o;
}

/** How many instance types KubeVirt admits `p` with, computed once per pairing class. */
const counted = new WeakMap<SiteData, Map<number, number>>();
export function admittedCount(data: SiteData, p: SitePreference): number {
  let cache = counted.get(data);
  if (cache === undefined) counted.set(data, (cache = new Map()));
  // Preferences of one pairing class share the count unless the judge refuses kinds of one of them.
  const shared = Object.keys(p.refusedKinds).length === 0;
  if (!shared) return data.instancetypes.filter((it) => pairOf(data, p, it)?.admitted === true).length;
  let n = cache.get(p.pairRow);
  if (n === undefined) cache.set(p.pairRow, (n = data.instancetypes.filter((it) => pairOf(data, p, it)?.admitted === true).length));
  return n;
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
  const gpu = f.gpu?.toLowerCase();
  return data.instancetypes.filter((it) => {
    if (!f.deprecated && it.deprecated) return false;
    if (!within(it.cpu, f.cpu) || !within(it.memoryBytes, f.memory)) return false;
    if (f.arch !== undefined && it.architectures.length > 0 && !it.architectures.includes(f.arch)) return false;
    if (f.dedicated && !it.dedicatedCpu) return false;
    if (f.hugepages !== undefined && (f.hugepages === 'any' ? it.hugepages === '' : it.hugepages !== f.hugepages)) return false;
    if (gpu !== undefined && ![...it.gpus, ...it.hostDevices].some((g) => g.toLowerCase() === gpu)) return false;
    if (f.families && f.families.length > 0 && !f.families.some((x) => x === it.family || x === it.family.replace(/\d+$/, ''))) return false;
    if (f.classes && f.classes.length > 0 && !f.classes.includes(it.class)) return false;
    if (pref && !pref.some((p) => pairOf(data, p, it)?.admitted === true)) return false;
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
 * Rows as CSV (RFC 4180's quoting), lines ending in `eol`: `\n` for `itgen select`, `\r\n` for the
 * page's download. A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage
 * return at its start) is prefixed with `'`: a catalog is untrusted input.
 */
export function rowsCsv(rows: readonly SiteInstancetype[], eol: '\n' | '\r\n'): string {
  const cell = (v: unknown): string => {
    let s = Array.isArray(v) ? v.join(' ') : String(v);
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((c) => cell(r[c])).join(','))].join(eol) + eol;
}
