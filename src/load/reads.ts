/**
 * Every read of the file system itgen's commands make, through one door, so that what a piece of
 * work read can be written down and checked again later. The checks' cache (load/check-cache.ts)
 * rests on it: the checks of a project are a function of what they read, so an answer recorded with
 * the log of its reads is the answer again exactly when each read, replayed in order, gives the same
 * outcome. ESLint holds the door shut (eslint.config.mjs: `node:fs`'s reading functions are imported
 * here and, for a few listed modules that never run inside a recording, there).
 *
 * What a caller can observe is what is recorded: a stat is narrowed to its type and size (a full
 * Stats would carry times that change on every read), a directory entry to its name and type. Any
 * read that cannot be replayed (a descriptor not opened here, standard input), and anything a
 * recorded region must not do (`taint`: a write, a git call), marks the log unusable.
 */
import * as fs from 'node:fs';
import { sha256Hex } from '../digest';

/** A stat as itgen reads one: its type and size. */
export interface FileStat {
  readonly size: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** A directory entry as itgen reads one: its name and type. */
export interface DirEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** One read: the operation, its arguments, and its outcome (a value, a digest, or `!` and the error code). */
export type ReadEntry = readonly [op: string, args: readonly (string | number | null)[], outcome: string];

export interface ReadLog {
  readonly entries: ReadEntry[];
  /** Why the log cannot stand for what was read (a write, standard input, git). */
  tainted?: string;
}

let active: ReadLog | undefined;
/** Descriptors opened while recording, by the ordinal the log names them with (the count of opens before). */
let openedFds: Map<number, number> | undefined;
let opens = 0;

/** `work()` with every read it makes written down: its value, and the log (tainted when it cannot be replayed). */
export function recordingReads<T>(work: () => T): { value: T; log: ReadLog } {
  // A region inside another writes into the outer log: it holds this one's reads and more, which
  // only ever makes a replay stricter.
  if (active) return { value: work(), log: active };
  const log: ReadLog = { entries: [] };
  active = log;
  openedFds = new Map();
  opens = 0;
  try {
    return { value: work(), log };
  } finally {
    active = undefined;
    openedFds = undefined;
  }
}

/** What a recorded region did that no log of reads can stand for: the answer is not kept. */
export function taint(why: string): void {
  if (active) active.tainted ??= why;
}

function errorCode(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return `!${typeof code === 'string' ? code : 'error'}`;
}

function typeOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): string {
  return s.isSymbolicLink() ? 'l' : s.isFile() ? 'f' : s.isDirectory() ? 'd' : 'o';
}

function narrowStat(s: fs.Stats): FileStat {
  const type = typeOf(s);
  const size = s.size;
  return { size, isFile: () => type === 'f', isDirectory: () => type === 'd', isSymbolicLink: () => type === 'l' };
}

const statOutcome = (s: FileStat): string => `${typeOf(s)}${s.size}`;

/** Runs `op` and, while recording, logs it with its outcome (or its error's code). */
function read<T>(name: string, args: readonly (string | number | null)[], op: () => T, outcome: (v: T) => string): T {
  const log = active;
  if (!log) return op();
  let value: T;
  try {
    value = op();
  } catch (e) {
    log.entries.push([name, args, errorCode(e)]);
    throw e;
  }
  log.entries.push([name, args, outcome(value)]);
  return value;
}

/** `outcome(op())`, or the code of the error `op` threw: what a read gives, recorded or replayed. */
function outcomeOf<T>(op: () => T, outcome: (v: T) => string): string {
  try {
    return outcome(op());
  } catch (e) {
    return errorCode(e);
  }
}

const direntsOutcome = (entries: readonly DirEntry[]): string => sha256Hex(entries.map((e) => `${typeOf(e)}${e.name}`).join('\0'));
const namesOutcome = (names: readonly string[]): string => sha256Hex(names.join('\0'));
const bytesOutcome = (b: Uint8Array): string => sha256Hex(b);
const same = (v: string): string => v;
/** A read of `n` bytes into `buffer` from `offset`: their count and digest. */
const readOutcome = (n: number, buffer: Buffer, offset: number): string => `${n}:${bytesOutcome(buffer.subarray(offset, offset + n))}`;

function narrowDirent(e: fs.Dirent): DirEntry {
  const type = typeOf(e);
  const name = e.name;
  return { name, isFile: () => type === 'f', isDirectory: () => type === 'd', isSymbolicLink: () => type === 'l' };
}

/** A read of a path, recorded under `name` and replayed: one run and one outcome for both. */
function pathRead<T>(name: string, run: (p: string) => T, outcome: (v: T) => string): { read: (p: string) => T; replay: (p: string) => string } {
  return { read: (p) => read(name, [p], () => run(p), outcome), replay: (p) => outcomeOf(() => run(p), outcome) };
}

/** Every read of a path, by its name in the log. */
const PATH_READS = {
  stat: pathRead('stat', (p) => narrowStat(fs.statSync(p)), statOutcome),
  lstat: pathRead('lstat', (p) => narrowStat(fs.lstatSync(p)), statOutcome),
  exists: pathRead(
    'exists',
    (p) => fs.existsSync(p),
    (v) => (v ? '1' : '0'),
  ),
  readdir: pathRead('readdir', (p) => fs.readdirSync(p), namesOutcome),
  entries: pathRead('entries', (p) => fs.readdirSync(p, { withFileTypes: true }).map(narrowDirent), direntsOutcome),
  realpath: pathRead('realpath', (p) => fs.realpathSync.native(p), same),
  readlink: pathRead('readlink', (p) => fs.readlinkSync(p), same),
  readFile: pathRead('readFile', (p) => fs.readFileSync(p), bytesOutcome),
};

export const statSync = PATH_READS.stat.read;
export const lstatSync = PATH_READS.lstat.read;
export const existsSync = PATH_READS.exists.read;
export const readdirSync = PATH_READS.readdir.read;
export const readdirEntries = PATH_READS.entries.read;
export const realpathSync = PATH_READS.realpath.read;
export const readlinkSync = PATH_READS.readlink.read;
export const readFileSync = PATH_READS.readFile.read;

/** Opens a file to read; the log names the descriptor by the order it was opened in. */
export function openSync(p: string): number {
  const log = active;
  const fd = read(
    'open',
    [p],
    () => fs.openSync(p, 'r'),
    () => 'ok',
  );
  if (log && openedFds) openedFds.set(fd, opens++);
  return fd;
}

function fdArg(fd: number): number {
  const ordinal = openedFds?.get(fd);
  if (ordinal === undefined) {
    taint('a read of a descriptor not opened by the recorded work');
    return -1;
  }
  return ordinal;
}

export function fstatSync(fd: number): FileStat {
  if (!active) return narrowStat(fs.fstatSync(fd));
  return read('fstat', [fdArg(fd)], () => narrowStat(fs.fstatSync(fd)), statOutcome);
}

/** `length` bytes at `position` (null: where the last read ended) into `buffer` at `offset`. */
export function readSync(fd: number, buffer: Buffer, offset: number, length: number, position: number | null): number {
  if (!active) return fs.readSync(fd, buffer, offset, length, position);
  return read(
    'read',
    [fdArg(fd), length, position],
    () => fs.readSync(fd, buffer, offset, length, position),
    (n) => readOutcome(n, buffer, offset),
  );
}

export function closeSync(fd: number): void {
  if (openedFds?.has(fd)) openedFds.delete(fd);
  fs.closeSync(fd);
}

/**
 * The log with each read of a path that repeats an earlier one (the same operation, path and
 * outcome) left out: replaying it again says nothing the first did not. Reads of a descriptor keep
 * their order and all stay.
 */
export function withoutRepeats(log: readonly ReadEntry[]): ReadEntry[] {
  const seen = new Set<string>();
  return log.filter((e) => {
    if (e[0] === 'open' || e[0] === 'fstat' || e[0] === 'read') return true;
    const k = JSON.stringify(e);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Whether every read of `log`, made again now in the same order, has the same outcome: when it
 * does, work that only read (and is deterministic) would answer as it did. Stops at the first
 * difference; `false` for anything it does not know.
 */
export function replayReads(log: readonly ReadEntry[]): boolean {
  const fds: number[] = [];
  try {
    for (const [op, args, expected] of log) {
      const byPath = Object.hasOwn(PATH_READS, op) ? PATH_READS[op as keyof typeof PATH_READS].replay : undefined;
      let got: string;
      if (byPath) got = byPath(String(args[0]));
      else if (op === 'open')
        got = outcomeOf(
          () => fds.push(fs.openSync(String(args[0]), 'r')),
          () => 'ok',
        );
      else {
        const fd = fds[Number(args[0])];
        if (fd === undefined) return false;
        if (op === 'fstat') got = outcomeOf(() => narrowStat(fs.fstatSync(fd)), statOutcome);
        else if (op === 'read') {
          const length = Number(args[1]);
          if (!Number.isSafeInteger(length) || length < 0 || length > 64 * 1024 * 1024) return false;
          const position = args[2] === null ? null : Number(args[2]);
          const buffer = Buffer.allocUnsafe(length);
          got = outcomeOf(
            () => fs.readSync(fd, buffer, 0, length, position),
            (n) => readOutcome(n, buffer, 0),
          );
        } else return false;
      }
      if (got !== expected) return false;
    }
    return true;
  } finally {
    for (const fd of fds) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already closed */
      }
    }
  }
}
