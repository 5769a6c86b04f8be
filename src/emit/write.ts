/**
 * The one writer of the tree (house rule 3): temporary directory, rename, and every refusal to
 * replace what itgen did not write; the output lock it writes under is output-lock.ts.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { existsSync, lstatSync, readdirEntries, readdirSync, readlinkSync, taint } from '../load/reads';
import path from 'node:path';
import { realLocation, within } from '../load/files';
import { MAX_DIRECTORY_DEPTH, readFileBounded } from '../load/limits';
import type { OutputFile } from './layout';
import { diag, type Diagnostic } from '../diagnostics';
import { OutputLockError, withOutputLock } from './output-lock';
export { OutputLockError, withOutputLock } from './output-lock';

/** Reject paths that could escape the output directory. Throws: callers validate first. */
export function assertSafeRelative(p: string): void {
  if (p === '' || path.isAbsolute(p) || p.split('/').some((s) => s === '..' || s === '.' || s === '') || p.includes('\\') || p.includes('\0')) {
    throw new Error(`unsafe output path: ${JSON.stringify(p)}`);
  }
}

export function findDuplicatePaths(files: readonly OutputFile[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) dups.add(f.path);
    seen.add(f.path);
  }
  return [...dups].sort();
}

/** A name beside the output directory `base` that a killed writer left: its new tree, its old one, or the scratch of removing either (removeTree). */
function isLeftover(name: string, base: string): boolean {
  const prefix = `.${base}.itgen-`;
  return name.startsWith(`${prefix}old-`) || name.startsWith(`${prefix}new-`) || (name.startsWith(`.${prefix}`) && name.includes('.itgen-rm-'));
}

/**
 * Leftovers of a run that was killed while writing: a fresh tree not yet moved into place (dropped),
 * the previous tree set aside just before the swap (moved back when nothing replaced it) and the
 * scratch directory of a removal cut short (dropped). Called under the output lock.
 */
export function recoverInterruptedWrite(outDir: string): void {
  taint('a write');
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  if (!existsSync(parent)) return;
  const prefix = `.${path.basename(abs)}.itgen-`;
  const leftovers = readdirSync(parent)
    .filter((n) => isLeftover(n, path.basename(abs)))
    .sort();
  for (const name of leftovers) {
    const p = path.join(parent, name);
    if (name.startsWith(`${prefix}old-`) && !existsSync(abs)) renameSync(p, abs);
    else removeTree(p);
  }
}

/**
 * What a killed run left beside an output directory that is otherwise up to date (a tree it was
 * writing, one it had set aside, its lock): removed or put back under the lock, so that no live
 * writer's tree is touched. Nothing is read or locked when nothing was left.
 */
export function cleanLeftovers(outDir: string): void {
  taint('a write');
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  if (!existsSync(parent)) return;
  const prefix = `.${path.basename(abs)}.itgen-`;
  const left = readdirSync(parent).some((n) => isLeftover(n, path.basename(abs)) || n === `${prefix}lock`);
  if (left) withOutputLock(abs, () => recoverInterruptedWrite(abs));
}

/**
 * Removes a file or a directory tree of any depth. `rmSync` addresses every entry by its full path
 * and fails (ENAMETOOLONG) on a chain deeper than PATH_MAX, which a pull request can commit under
 * output/. Here the tree is first moved into a scratch directory beside it, then each subdirectory
 * is moved up into the scratch directory before it is emptied, so no path is ever longer than two
 * names below the parent.
 */
export function removeTree(target: string): void {
  taint('a write');
  const abs = path.resolve(target);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return;
  }
  if (!st.isDirectory()) {
    rmSync(abs, { force: true });
    return;
  }
  const parent = path.dirname(abs);
  const scratch = path.join(parent, `.${path.basename(abs).slice(0, 100)}.itgen-rm-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(scratch);
  renameSync(abs, path.join(scratch, '0'));
  let next = 1;
  const queue = ['0'];
  while (queue.length > 0) {
    const dir = path.join(scratch, queue.pop()!);
    for (const entry of readdirEntries(dir)) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const id = String(next++);
        renameSync(p, path.join(scratch, id));
        queue.push(id);
      } else unlinkSync(p);
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}

/**
 * The one function that writes the tree: everything goes to a fresh sibling directory first, then
 * replaces the output directory by two renames (set the old tree aside, move the new one in). A
 * crash leaves the old tree, the new one, or, between the two renames, the old one set aside,
 * which the next run moves back (`recoverInterruptedWrite`) before it starts; never a mix, and no
 * stale file survives.
 */
export function writeTree(outDir: string, files: readonly OutputFile[]): void {
  taint('a write');
  withOutputLock(outDir, () => replaceTree(outDir, files));
}

function replaceTree(outDir: string, files: readonly OutputFile[]): void {
  const dups = findDuplicatePaths(files);
  if (dups.length > 0) throw new Error(`two outputs claim ${dups.join(', ')}`);
  for (const f of files) assertSafeRelative(f.path);
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  mkdirSync(parent, { recursive: true });
  recoverInterruptedWrite(abs);
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const tmp = path.join(parent, `.${path.basename(abs)}.itgen-new-${tag}`);
  const old = path.join(parent, `.${path.basename(abs)}.itgen-old-${tag}`);
  try {
    mkdirSync(tmp);
    const made = new Set<string>();
    for (const f of files) {
      const target = path.join(tmp, f.path);
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      writeFileSync(target, f.content);
    }
    if (existsSync(abs)) renameSync(abs, old);
    renameSync(tmp, abs);
  } catch (e) {
    removeTree(tmp);
    if (existsSync(old) && !existsSync(abs)) renameSync(old, abs);
    throw e;
  }
  removeTree(old);
}

/** Paths longer than this are not walked into (Linux refuses paths over 4,096 bytes). */
const MAX_WALKED_PATH = 3000;

/**
 * Read a tree as OutputFiles (for drift checks); missing directory reads as empty. The tree may be
 * anything a pull request committed, so what is not an itgen file reads as a description of what
 * it is (a link, a special file, a directory nested too deep, a file too large): it differs from
 * what itgen generates, is reported as such, and the next `generate` replaces it.
 */
export function readTree(outDir: string): OutputFile[] {
  const abs = path.resolve(outDir);
  if (!existsSync(abs)) return [];
  const out: OutputFile[] = [];
  const walk = (dir: string, rel: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      // An unreadable directory is something itgen did not write: drift, never an internal error.
      out.push({ path: rel || '.', content: 'a directory that cannot be read' });
      return;
    }
    for (const name of names) {
      const p = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      // Links are not followed (no loops, nothing outside the tree); they read as what they are.
      let st;
      try {
        st = lstatSync(p);
      } catch {
        out.push({ path: r, content: 'an entry that cannot be read' });
        continue;
      }
      if (st.isDirectory()) {
        if (depth + 1 >= MAX_DIRECTORY_DEPTH || p.length > MAX_WALKED_PATH) out.push({ path: r, content: 'a directory nested too deep to read' });
        else walk(p, r, depth + 1);
      } else if (st.isSymbolicLink()) out.push({ path: r, content: `symbolic link to ${readlinkSync(p)}` });
      else if (st.isFile()) {
        let content: string;
        try {
          content = readFileBounded(p).toString('utf8');
        } catch {
          content = 'a file too large to read';
        }
        out.push({ path: r, content });
      } else out.push({ path: r, content: 'not a regular file' });
    }
  };
  walk(abs, '', 0);
  return out;
}

/**
 * Write single files into a directory that itgen does not own (a release directory, the
 * generators directory): each file goes to a temporary sibling and is renamed over the target,
 * so a reader sees the old content or the new one; other files in the directory are untouched.
 */
export function writeFilesAtomic(dir: string, files: readonly OutputFile[]): void {
  taint('a write');
  const dups = findDuplicatePaths(files);
  if (dups.length > 0) throw new Error(`two outputs claim ${dups.join(', ')}`);
  for (const f of files) assertSafeRelative(f.path);
  const abs = path.resolve(dir);
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const written: string[] = [];
  // Directories this call made (the first of each chain), removed again when it fails.
  const made: string[] = [];
  try {
    for (const f of files) {
      const target = path.join(abs, f.path);
      const first = mkdirSync(path.dirname(target), { recursive: true });
      if (first !== undefined) made.push(first);
      const tmp = path.join(path.dirname(target), `.${path.basename(target)}.itgen-new-${tag}`);
      written.push(tmp);
      writeFileSync(tmp, f.content);
    }
    files.forEach((f, i) => renameSync(written[i]!, path.join(abs, f.path)));
  } catch (e) {
    for (const t of written) rmSync(t, { force: true });
    for (const d of made.reverse()) removeEmptyDirs(d);
    throw e;
  }
}

/** Removes `dir` and the directories under it when they hold nothing else (what a failed write made). */
function removeEmptyDirs(dir: string): void {
  let entries;
  try {
    entries = readdirEntries(dir);
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) removeEmptyDirs(path.join(dir, e.name));
  try {
    rmdirSync(dir);
  } catch {
    // not empty: something else is there, keep it
  }
}

const ERRNO_WORDS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a parent of it is a file, not a directory',
  EISDIR: 'a directory stands where a file should be written',
  EEXIST: 'something already exists there',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  ENAMETOOLONG: 'a path is too long',
  ELOOP: 'too many symbolic links',
  EBUSY: 'the directory is in use',
  ENOTEMPTY: 'a directory that should be empty is not',
  EXDEV: 'the output and its parent are on different file systems',
};

/**
 * Why a write failed, in words and without paths: a system error's message holds absolute and
 * temporary paths and a raw code, which say nothing useful in a CI log and reveal the runner's layout.
 */
export function writeFailure(e: unknown): string {
  if (e instanceof OutputLockError) return e.message;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return ERRNO_WORDS[code] ?? `the operating system refused it (${code})`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * The files of `files` that writing into `dir` must not touch: any that exists (unless `replace`),
 * and any whose path leads out of `dir` through a link. For writers into directories itgen does
 * not own (`init`, `migrate presets`): nothing is overwritten unasked, nothing written elsewhere.
 */
export function filesInTheWay(dir: string, files: readonly OutputFile[], replace = false): OutputFile[] {
  const realDir = realLocation(dir);
  return files.filter((f) => {
    const target = path.join(dir, f.path);
    const inside = within(realDir, realLocation(target));
    try {
      lstatSync(target);
      return !replace || !inside;
    } catch {
      return !inside;
    }
  });
}

/**
 * A failed write as a diagnostic. What the project itself puts in the way (a leftover lock, a file
 * where a directory must go) is the input's fault (IT1010, exit 1); anything else is IT9002.
 */
export function writeProblem(what: string, e: unknown): Diagnostic {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const layout = e instanceof OutputLockError || code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR';
  return diag(layout ? 'IT1010' : 'IT9002', `cannot write ${what}: ${writeFailure(e)}`);
}
