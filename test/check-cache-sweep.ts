/**
 * The sweep that holds the checks' cache to its promise (src/load/check-cache.ts): for a project,
 * one change at a time (every file truncated, edited in place to the same size, or deleted; every
 * directory given a new file; every file itgen looks for by name made where it is absent), the
 * checks answered with a cache primed on the unchanged project must equal the checks answered
 * without one. A read the log missed shows as a kept answer that an uncached run does not give.
 * Used by test/check-cache.test.ts (a project of its own) and test/check-cache-corpus.test.ts
 * (every fixture project).
 */
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keepCachesIn } from '../src/load/judged-cache';
import { lastKeptResult } from '../src/load/check-cache';
import { openProject } from '../src/project';
import { checkedProject } from '../src/workflows/generate';
import { removeDir } from './helpers';

export interface SweepCount {
  /** Changes made. */
  changes: number;
  /** Changes whose cached answer was taken (the change touched nothing the checks read). */
  taken: number;
  /** Changes after which the cached answer and an uncached one differ: must stay empty. */
  wrong: string[];
}

/** Every path under `dir` (files and directories), relative, sorted. */
function pathsOf(dir: string, rel = ''): { path: string; dir: boolean }[] {
  const out: { path: string; dir: boolean }[] = [];
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const p = rel === '' ? name : `${rel}/${name}`;
    const st = lstatSync(path.join(dir, p));
    if (st.isDirectory()) out.push({ path: p, dir: true }, ...pathsOf(dir, p));
    else if (st.isFile()) out.push({ path: p, dir: false });
  }
  return out;
}

/** A Family document: what a new file in a catalog directory would most likely change. */
const NEW_FILE = 'kind: Family\nname: zz\nversion: 1\ndisplayName: ZZ\ndescription: ZZ\nclass: zz\nmemoryPerCPU: 2Gi\n';

/** The sweep over a copy of `source` (a project directory); `generators` as `--generator` names them. */
export function sweepProject(source: string, generators: readonly string[] = []): SweepCount {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-sweep-'));
  const cache = mkdtempSync(path.join(os.tmpdir(), 'itgen-sweep-cache-'));
  const count: SweepCount = { changes: 0, taken: 0, wrong: [] };
  try {
    cpSync(source, dir, { recursive: true });
    const checks = (): unknown => checkedProject(openProject({ root: dir, generators: [...generators] }));
    const uncached = (): unknown => {
      keepCachesIn(undefined);
      return checks();
    };
    const cached = (): unknown => {
      keepCachesIn({ dir: cache, build: 'sweep' });
      try {
        return checks();
      } finally {
        keepCachesIn(undefined);
      }
    };
    // The cache primed on the unchanged project, kept to be put back before each change.
    cached();
    const files = readdirSync(cache);
    const primed = files.map((f) => ({ f, text: readFileSync(path.join(cache, f), 'utf8') }));
    const change = (what: string, apply: () => () => void): void => {
      for (const f of readdirSync(cache)) rmSync(path.join(cache, f));
      for (const { f, text } of primed) writeFileSync(path.join(cache, f), text);
      const undo = apply();
      try {
        count.changes++;
        const a = cached();
        if (lastKeptResult() === 'taken') count.taken++;
        const b = uncached();
        if (JSON.stringify(a) !== JSON.stringify(b)) count.wrong.push(what);
      } finally {
        undo();
      }
    };
    for (const p of pathsOf(dir)) {
      const abs = path.join(dir, p.path);
      if (p.dir) {
        const added = path.join(abs, 'zz-added.yaml');
        if (existsSync(added)) continue;
        change(`${p.path}/ given a file`, () => {
          writeFileSync(added, NEW_FILE);
          return () => rmSync(added);
        });
        continue;
      }
      const bytes = readFileSync(abs);
      change(`${p.path} truncated`, () => {
        writeFileSync(abs, bytes.subarray(0, Math.floor(bytes.length / 2)));
        return () => writeFileSync(abs, bytes);
      });
      // The same size, other bytes: digits 1 and 2 swapped (sizes, versions, counts).
      const swapped = Buffer.from(bytes.map((b) => (b === 0x31 ? 0x32 : b === 0x32 ? 0x31 : b)));
      if (!swapped.equals(bytes))
        change(`${p.path} edited in place`, () => {
          writeFileSync(abs, swapped);
          return () => writeFileSync(abs, bytes);
        });
      change(`${p.path} deleted`, () => {
        rmSync(abs);
        return () => writeFileSync(abs, bytes);
      });
    }
    // Files itgen looks for by name, made where they are absent: a release lock beside each
    // generator, and in every directory a kustomization, a catalog, a package manifest, a repository.
    const generatorNames = existsSync(path.join(dir, 'generators'))
      ? readdirSync(path.join(dir, 'generators')).flatMap((f) => (/\.ya?ml$/.test(f) && !/\.lock\./.test(f) ? [f.replace(/\.ya?ml$/, '')] : []))
      : [];
    const sought = [
      ...generatorNames.map((g) => `generators/${g}.lock.yaml`),
      ...['', ...pathsOf(dir).flatMap((p) => (p.dir ? [`${p.path}/`] : []))].flatMap((d) =>
        ['kustomization.yaml', 'catalog.yaml', 'package.json', '.git'].map((n) => `${d}${n}`),
      ),
    ];
    for (const rel of sought) {
      const abs = path.join(dir, rel);
      if (existsSync(abs) || !existsSync(path.dirname(abs))) continue;
      change(`${rel} made`, () => {
        if (rel.endsWith('.git')) mkdirSync(abs);
        else writeFileSync(abs, rel.endsWith('.json') ? '{"name": "zz", "version": "1.0.0"}\n' : 'kind: Catalog\nname: zz\n');
        return () => rmSync(abs, { recursive: true });
      });
    }
    return count;
  } finally {
    keepCachesIn(undefined);
    removeDir(dir);
    removeDir(cache);
  }
}
