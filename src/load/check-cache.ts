/**
 * A result kept between runs with the log of every read that made it (load/reads.ts), so that a
 * run whose reads all give the same outcomes again takes the result instead of redoing the work.
 * `generate` and `validate` keep the project's checks this way (workflows/generate.ts checkedProject):
 * on an unchanged project they are most of a run (issue 51: a generate within 3x of a bare
 * `node -e 0`).
 *
 * Why a kept result is the right one: the work is deterministic (no clock, no randomness, no
 * environment: eslint.config.mjs and test/check-cache.test.ts hold the modules to it) and reads the
 * file system only through load/reads.ts, which records each read with its outcome; anything it
 * cannot record (a write, standard input, git) taints the log, and a tainted result is not kept. A
 * later run replays the log in order (each stat, listing, link and read of bytes, compared by
 * digest) and takes the result only when every outcome is the same: the work, given the same
 * inputs, would answer the same. The key adds what is not read (this build, node's version, the
 * options the caller names); the file lives with the judge's answers (load/judged-cache.ts), one per
 * project and key, replaced atomically, read bounded, checked in shape, and anything else reads as
 * no cache. Only the bundle keeps results (the CLI, `require('itgen')`); `ITGEN_NO_CACHE=1` turns it
 * off.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../digest';
import { cacheLocation, readCacheFile } from './judged-cache';
import { recordingReads, replayReads, withoutRepeats, type ReadEntry } from './reads';

/**
 * Larger results are not kept: writing one costs the run that keeps it about 8 ms a MiB here (a
 * 10,000-object base is 8 MiB: 65 ms on a 550 ms compile), more than a catalog that large gains.
 */
const MAX_BYTES = 4 * 1024 * 1024;
/** Kept results beyond this many (one per project and key) go, the least recently written first. */
const MAX_FILES = 64;

function readEntriesOf(v: unknown): ReadEntry[] | undefined {
  if (!Array.isArray(v)) return undefined;
  for (const e of v) {
    if (!Array.isArray(e) || e.length !== 3 || typeof e[0] !== 'string' || typeof e[2] !== 'string' || !Array.isArray(e[1])) return undefined;
    if (!(e[1] as unknown[]).every((a) => a === null || typeof a === 'string' || typeof a === 'number')) return undefined;
  }
  return v as ReadEntry[];
}

/** How a result is kept: `key` (what decides it besides its reads), its shape checked when read back, its size before it is written. */
export interface KeptResult<T> {
  readonly name: string;
  readonly root: string;
  readonly key: readonly string[];
  /** The value read back (written as JSON), or undefined when it is not one. */
  readonly parse: (value: unknown) => T | undefined;
  /** About how many characters the kept value is (its larger strings), counted before it is written out. */
  readonly weight: (value: T) => number;
}

/**
 * How the last keptResult call went: taken from the cache, done and kept, done and not kept (tainted,
 * too large), done without recording (a note says the result is too large to keep), or no cache.
 */
let last: 'taken' | 'kept' | 'not kept' | 'unrecorded' | 'off' = 'off';
export function lastKeptResult(): typeof last {
  return last;
}

/** Writes `data` as the kept file, atomically; false when it cannot. */
function write(where: { dir: string }, file: string, data: string): boolean {
  try {
    mkdirSync(where.dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, file);
    return true;
  } catch {
    return false; // a cache that cannot be written is no cache
  }
}

/**
 * `work()`'s result, from the last run with the same key when every read it made gives the same
 * outcome now. A result too large to keep leaves a note instead, so that later runs of the same key
 * do the work without recording it (recording digests every byte read: 20 ms of a 10,000-object
 * project's run).
 */
export function keptResult<T>(how: KeptResult<T>, work: () => T): T {
  const where = cacheLocation();
  last = 'off';
  if (!where) return work();
  last = 'not kept';
  const key = sha256Hex(JSON.stringify([where.build, process.version, path.resolve(how.root), ...how.key]));
  const file = path.join(where.dir, `${how.name}-${key}.json`);
  const text = readCacheFile(file, MAX_BYTES);
  if (text !== undefined) {
    try {
      const data = JSON.parse(text) as { key?: unknown; reads?: unknown; value?: unknown; tooLarge?: unknown };
      if (data.key === key && data.tooLarge === true) {
        last = 'unrecorded';
        return work();
      }
      const reads = data.key === key ? readEntriesOf(data.reads) : undefined;
      const value = reads ? how.parse(data.value) : undefined;
      if (reads && value !== undefined && replayReads(reads)) {
        last = 'taken';
        return value;
      }
    } catch {
      /* not a result: the work is done again */
    }
  }
  const { value, log } = recordingReads(work);
  if (log.tainted !== undefined) return value;
  // Sized before it is written out: a large result is not turned into text only to be dropped.
  const out = how.weight(value) > MAX_BYTES ? undefined : JSON.stringify({ key, reads: withoutRepeats(log.entries), value });
  if (out === undefined || out.length > MAX_BYTES) {
    write(where, file, JSON.stringify({ key, tooLarge: true }));
    return value;
  }
  if (write(where, file, out)) {
    last = 'kept';
    prune(where.dir, how.name);
  }
  return value;
}

/** At most MAX_FILES kept results of `name` in `dir`: the oldest written go. Best effort. */
function prune(dir: string, name: string): void {
  try {
    const files = readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.json'));
    if (files.length <= MAX_FILES) return;
    const byAge = files.map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { f } of byAge.slice(0, files.length - MAX_FILES)) rmSync(path.join(dir, f), { force: true });
  } catch {
    /* another run pruned first, or the directory went: nothing to do */
  }
}
