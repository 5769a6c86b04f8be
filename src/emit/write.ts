import { closeSync, lstatSync, mkdirSync, readlinkSync, openSync, renameSync, rmSync, writeFileSync, writeSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { OutputFile } from './layout';

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

/**
 * Leftovers of a run that was killed while writing: a fresh tree not yet moved into place (dropped)
 * and the previous tree set aside just before the swap (moved back when nothing replaced it).
 */
export function recoverInterruptedWrite(outDir: string): void {
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  if (!existsSync(parent)) return;
  const prefix = `.${path.basename(abs)}.itgen-`;
  const leftovers = readdirSync(parent).filter((n) => n.startsWith(`${prefix}old-`) || n.startsWith(`${prefix}new-`)).sort();
  for (const name of leftovers) {
    const p = path.join(parent, name);
    if (name.startsWith(`${prefix}old-`) && !existsSync(abs)) renameSync(p, abs);
    else rmSync(p, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One writer per output directory at a time: two `generate`s started together would otherwise
 * swap directories under each other. The lock is a file beside the output holding the writer's
 * pid; a lock whose process is gone is taken over. Waits up to a minute for a live writer.
 */
export function withOutputLock<T>(outDir: string, fn: () => T, waitMs = 60_000): T {
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  mkdirSync(parent, { recursive: true });
  const lock = path.join(parent, `.${path.basename(abs)}.itgen-lock`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let text: string;
      let age: number;
      try {
        text = readFileSync(lock, 'utf8');
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      // An empty lock is one being created right now; only a stale one may be taken over.
      const holder = text === '' ? undefined : Number(text);
      if ((holder !== undefined && !alive(holder)) || (holder === undefined && age > 10_000)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another itgen (pid ${holder ?? '?'}) is still writing ${path.basename(abs)}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * The one function that writes the tree: everything goes to a fresh sibling directory first, then
 * replaces the output directory by two renames (set the old tree aside, move the new one in). A
 * crash leaves the old tree, the new one, or, between the two renames, the old one set aside,
 * which the next run moves back (`recoverInterruptedWrite`) before it starts; never a mix, and no
 * stale file survives.
 */
export function writeTree(outDir: string, files: readonly OutputFile[]): void {
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
    rmSync(tmp, { recursive: true, force: true });
    if (existsSync(old) && !existsSync(abs)) renameSync(old, abs);
    throw e;
  }
  rmSync(old, { recursive: true, force: true });
}

/** Read a tree as OutputFiles (for drift checks); missing directory reads as empty. */
export function readTree(outDir: string): OutputFile[] {
  const abs = path.resolve(outDir);
  if (!existsSync(abs)) return [];
  const out: OutputFile[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      // Links are not followed (no loops, nothing outside the tree); they read as what they are.
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p, r);
      else if (st.isSymbolicLink()) out.push({ path: r, content: `symbolic link to ${readlinkSync(p)}` });
      else if (st.isFile()) out.push({ path: r, content: readFileSync(p, 'utf8') });
      else out.push({ path: r, content: 'not a regular file' });
    }
  };
  walk(abs, '');
  return out;
}

/**
 * Write single files into a directory that itgen does not own (a release directory, the
 * generators directory): each file goes to a temporary sibling and is renamed over the target,
 * so a reader sees the old content or the new one; other files in the directory are untouched.
 */
export function writeFilesAtomic(dir: string, files: readonly OutputFile[]): void {
  const dups = findDuplicatePaths(files);
  if (dups.length > 0) throw new Error(`two outputs claim ${dups.join(', ')}`);
  for (const f of files) assertSafeRelative(f.path);
  const abs = path.resolve(dir);
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const written: string[] = [];
  try {
    for (const f of files) {
      const target = path.join(abs, f.path);
      mkdirSync(path.dirname(target), { recursive: true });
      const tmp = path.join(path.dirname(target), `.${path.basename(target)}.itgen-new-${tag}`);
      written.push(tmp);
      writeFileSync(tmp, f.content);
    }
    files.forEach((f, i) => renameSync(written[i]!, path.join(abs, f.path)));
  } catch (e) {
    for (const t of written) rmSync(t, { force: true });
    throw e;
  }
}
