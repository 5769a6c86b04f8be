/**
 * The output lock: one writer of an output directory at a time, across processes; a holder that died is taken over, one that hangs is waited for, bounded.
 */
import { closeSync, lstatSync, mkdirSync, openSync, rmSync, writeSync, readFileSync } from 'node:fs';
import { taint } from '../load/reads';
import { hostname } from 'node:os';
import path from 'node:path';

/** Thrown when another writer holds the output, or a leftover lock must be removed by hand. */
export class OutputLockError extends Error {}

/** How long a lock may be held before it is stale whoever holds it: a generate takes seconds. */
export const LOCK_MAX_AGE_MS = 10 * 60_000;

/**
 * The start time of a process (clock ticks since boot, from /proc), so that a lock left by a
 * process whose pid was reused (PID 1 in every container) is not mistaken for a live writer.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export function lockContent(): string {
  return `itgen-lock v1 pid=${process.pid} start=${processStart(process.pid) ?? '-'} host=${hostname()}\n`;
}

/** Whether the writer a lock names is still running; 'unknown' when that cannot be told from here. */
export function holderState(text: string): 'alive' | 'gone' | 'unknown' {
  const m = /^itgen-lock v1 pid=(\d+) start=(\S+) host=(\S+)\n$/.exec(text);
  if (!m) return 'unknown';
  if (m[3] !== hostname()) return 'unknown';
  const pid = Number(m[1]);
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return 'gone';
  }
  const start = processStart(pid);
  if (m[2] === '-' || start === undefined) return 'unknown';
  return start === m[2] ? 'alive' : 'gone';
}

export function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * One writer per output directory at a time: two `generate`s started together would otherwise
 * swap directories under each other. The lock is a regular file beside the output naming its
 * writer (pid, process start time, host). It is taken over when that writer is gone (a reused pid
 * has another start time), when it cannot be told and the lock is older than a generate ever
 * takes, or when it holds something else (a half-written lock after a few seconds). A lock path
 * that is not a regular file (a directory, a link) is never touched: the error names it. The wait
 * for a live writer is bounded; every loop either takes the lock, sleeps or gives up.
 */
export function withOutputLock<T>(outDir: string, fn: () => T, waitMs = 30_000): T {
  taint('a write');
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  mkdirSync(parent, { recursive: true });
  const name = `.${path.basename(abs)}.itgen-lock`;
  const lock = path.join(parent, name);
  const shown = path.join(path.basename(parent), name);
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, lockContent());
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let st;
    try {
      st = lstatSync(lock);
    } catch {
      continue; // released meanwhile: try again at once
    }
    if (!st.isFile()) {
      throw new OutputLockError(
        `the lock ${shown} is a ${st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symbolic link' : 'special file'}, not a lock itgen wrote; remove it and run again`,
      );
    }
    let text: string;
    try {
      text = readFileSync(lock, 'utf8');
    } catch {
      continue;
    }
    const age = Date.now() - st.mtimeMs;
    const state = holderState(text);
    const stale = state === 'gone' || age > LOCK_MAX_AGE_MS || (state === 'unknown' && !text.startsWith('itgen-lock v1 ') && age > 5_000);
    if (stale) {
      rmSync(lock, { force: true });
      if (attempt > 100) throw new OutputLockError(`cannot take over the stale lock ${shown}; remove it and run again`);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new OutputLockError(
        `another itgen is writing ${path.basename(abs)} (lock ${shown}: ${text.trim().slice(0, 120) || 'empty'}); if no itgen is running, remove ${shown}`,
      );
    }
    sleep(50);
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
