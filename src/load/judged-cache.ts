/**
 * A cache of the judge's catalog-level answers (matrix/index.ts: one per preference and kind of
 * instance type), kept between runs so that `generate` and `validate` of an unchanged catalog do not
 * judge its few hundred representative VMs again (about 0.35 s for common-instancetypes; issue 51's
 * target for generate is 3x a bare `node -e 0`).
 *
 * Only the bundle caches (the CLI, and `require('itgen')`, which loads it): its build id (a digest
 * of the compiled sources, set by tools/bundle.mjs) is part of every entry's file, so an answer
 * from other code is never read. One file per project and generator under `$XDG_CACHE_HOME/itgen` (or `~/.cache/itgen`), replaced
 * atomically, read bounded and checked entry by entry: anything else reads as empty. Entries are
 * keyed by a digest of what decides them (the two specs, the architecture, the configuration).
 * `ITGEN_NO_CACHE=1` turns it off. Best effort: a cache that cannot be read or written is no cache.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256Hex } from '../digest';

declare const ITGEN_BUILD: string | undefined;

export interface JudgedOutcome {
  readonly admitted: boolean;
  readonly reason?: string;
}

/** Outcomes by key, remembered across runs; `flush` writes what was added. */
export interface JudgedMemo {
  get(key: string): JudgedOutcome | undefined;
  set(key: string, outcome: JudgedOutcome): void;
  /**
   * The README's launcher facts of the catalog (expand/facts.ts), by a digest of what decides them
   * (the instance types' manifests and the configuration): each a record of strings, checked when read.
   */
  facts(key: string): readonly Record<string, unknown>[] | undefined;
  setFacts(key: string, facts: readonly Record<string, unknown>[]): void;
  flush(): void;
}

/** Facts as read back: objects whose values are strings or records of strings, nothing else. */
function factsOf(v: unknown): Record<string, unknown>[] | undefined {
  if (!Array.isArray(v) || v.length > 100_000) return undefined;
  const isStrings = (x: unknown): boolean =>
    x !== null && typeof x === 'object' && !Array.isArray(x) && Object.values(x as Record<string, unknown>).every((s) => typeof s === 'string');
  for (const f of v) {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) return undefined;
    for (const x of Object.values(f as Record<string, unknown>)) if (typeof x !== 'string' && !isStrings(x)) return undefined;
  }
  return v as Record<string, unknown>[];
}

/** Beyond this the file is not read (thousands of entries of a few hundred bytes). */
const MAX_BYTES = 8 * 1024 * 1024;
const MAX_REASON = 2000;

/** The bundle's build id (a digest of the compiled sources); none when itgen runs unbundled (tests, the library). */
function buildId(): string | undefined {
  return typeof ITGEN_BUILD === 'string' && ITGEN_BUILD !== '' ? ITGEN_BUILD : undefined;
}

/** Where itgen keeps its caches: `$XDG_CACHE_HOME/itgen`, else `~/.cache/itgen`. */
function cacheDir(): string | undefined {
  const xdg = process.env['XDG_CACHE_HOME'];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'itgen');
  const home = os.homedir();
  return home !== '' ? path.join(home, '.cache', 'itgen') : undefined;
}

/** Where caches (the judge's answers, the checks' kept results) are kept instead, and under which build id (the snapshot's warm-up, tests). */
let override: { readonly dir: string; readonly build: string } | undefined;
export function keepCachesIn(where: { readonly dir: string; readonly build: string } | undefined): void {
  override = where;
}

/** Where this run keeps its caches and the build they are valid for; none when it keeps none (unbundled, or ITGEN_NO_CACHE=1). */
export function cacheLocation(): { readonly dir: string; readonly build: string } | undefined {
  if (process.env['ITGEN_NO_CACHE'] === '1') return undefined;
  if (override) return override;
  const build = buildId();
  const dir = cacheDir();
  return build !== undefined && dir !== undefined ? { dir, build } : undefined;
}

/** A cache file's text, or undefined when it is absent, unreadable or larger than `max`. */
export function readCacheFile(file: string, max = MAX_BYTES): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size > max) return undefined;
    const buf = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, buf, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return buf.subarray(0, at).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The entries of a cache file written by this build, and its facts; none for anything else. */
function readEntries(file: string, build: string): Map<string, JudgedOutcome> & { facts?: { key: string; value: Record<string, unknown>[] } } {
  const out: Map<string, JudgedOutcome> & { facts?: { key: string; value: Record<string, unknown>[] } } = new Map<string, JudgedOutcome>();
  const text = readCacheFile(file);
  if (text === undefined) return out;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return out;
  }
  if (data === null || typeof data !== 'object' || (data as Record<string, unknown>)['build'] !== build) return out;
  const facts = (data as Record<string, unknown>)['facts'];
  if (facts !== null && typeof facts === 'object' && !Array.isArray(facts)) {
    const key = (facts as Record<string, unknown>)['key'];
    const value = factsOf((facts as Record<string, unknown>)['value']);
    if (typeof key === 'string' && /^[0-9a-f]{64}$/.test(key) && value) out.facts = { key, value };
  }
  const entries = (data as Record<string, unknown>)['entries'];
  if (entries === null || typeof entries !== 'object' || Array.isArray(entries)) return out;
  for (const [k, v] of Object.entries(entries as Record<string, unknown>)) {
    if (!/^[0-9a-f]{64}$/.test(k) || !Array.isArray(v) || (v[0] !== 0 && v[0] !== 1)) continue;
    const reason = v[1];
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_REASON)) continue;
    out.set(k, v[0] === 1 ? { admitted: true } : { admitted: false, ...(reason !== undefined ? { reason } : {}) });
  }
  return out;
}

/** The memo of the generator `generatorFile` of the project at `root`, or none when this build does not cache. */
export function openJudgedMemo(root: string, generatorFile: string): JudgedMemo | undefined {
  const where = cacheLocation();
  if (!where) return undefined;
  const { build, dir } = where;
  const file = path.join(dir, `judged-${sha256Hex(`${path.resolve(root)}\u0000${generatorFile}`)}.json`);
  const entries = readEntries(file, build);
  const used = new Map<string, JudgedOutcome>();
  let added = false;
  let facts = entries.facts;
  let factsUsed = false;
  return {
    facts(key) {
      const k = sha256Hex(key);
      if (facts?.key !== k) return undefined;
      factsUsed = true;
      return facts.value;
    },
    setFacts(key, value) {
      facts = { key: sha256Hex(key), value: [...value] };
      factsUsed = true;
      added = true;
    },
    get(key) {
      const k = sha256Hex(key);
      const o = entries.get(k);
      if (o) used.set(k, o);
      return o;
    },
    set(key, outcome) {
      used.set(sha256Hex(key), outcome);
      added = true;
    },
    flush() {
      // Only what this run used is kept, so the file follows the catalog instead of growing with its history.
      if (!added && used.size === entries.size && (factsUsed || facts === undefined)) return;
      const data = {
        build,
        ...(factsUsed && facts ? { facts } : {}),
        entries: Object.fromEntries(
          [...used].map(([k, o]) => [k, o.admitted ? [1] : o.reason !== undefined ? [0, o.reason.slice(0, MAX_REASON)] : [0]] as const),
        ),
      };
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
        renameSync(tmp, file);
        added = false;
      } catch {
        // A cache that cannot be written is no cache.
      }
    },
  };
}
