/**
 * Every read of a project file goes through the guards here (inside the project, bounded, no links
 * out); a catalog's imports (imports.ts) read through them too.
 */
import { type DirEntry, existsSync, lstatSync, readdirEntries, readdirSync, realpathSync, statSync } from './reads';
import path from 'node:path';
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';
import { bytesInWords, InputTooLarge, MAX_DIRECTORY_DEPTH, readFileBounded } from './limits';
import { parseSource, type ParsedFile, type SourceDoc } from './source';

/** Project-relative POSIX path used in diagnostics. */
export function relativePath(root: string, absolute: string): string {
  const rel = path.relative(root, absolute);
  const shown = (rel === '' ? '.' : rel).split(path.sep).join('/');
  // `<stdin>` names standard input in every message: a file of that name is written `./<stdin>`.
  return shown === STDIN_NAME ? `./${shown}` : shown;
}

/** How messages name standard input. */
export const STDIN_NAME = '<stdin>';

/** Where a path really leads, when that is outside the project (symlinks resolved); undefined when inside. */
export function outsideProject(root: string, absolute: string): string | undefined {
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(absolute);
  } catch {
    return undefined; // missing: reading it fails and says so
  }
  const rel = path.relative(realRoot, real);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)) ? undefined : real;
}

/**
 * Reads a file of the project, refusing what must not be read: a path that resolves outside the
 * project (a link to /etc/passwd or a runner's secret would otherwise be read and quoted in a CI
 * log), anything but a regular file (a FIFO would block forever), NUL bytes in the name. The error
 * is a sentence that names the file as given, never the outside target.
 */
export function readProjectFile(root: string, file: string): { bytes: Buffer } | { error: string } {
  if (file.includes('\0')) return { error: 'the path holds a NUL byte' };
  const abs = path.resolve(root, file);
  try {
    const link = lstatSync(abs).isSymbolicLink();
    if (outsideProject(root, abs) !== undefined)
      return { error: `${link ? 'it is a symbolic link to' : 'it resolves to'} a file outside the project directory` };
    if (!statSync(abs).isFile()) return { error: 'not a regular file' };
    return { bytes: readFileBounded(abs) };
  } catch (e) {
    if (e instanceof InputTooLarge) return { error: `it is larger than ${bytesInWords(e.limit)}, the most itgen reads from one file` };
    const code = (e as NodeJS.ErrnoException).code;
    return {
      error:
        code === 'ENOENT'
          ? 'no such file'
          : code === 'EACCES'
            ? 'permission denied'
            : code === 'EISDIR'
              ? 'it is a directory'
              : `cannot read it (${code ?? (e as Error).message})`,
    };
  }
}

export interface LoadedFiles {
  readonly docs: SourceDoc[];
  readonly diagnostics: Diagnostic[];
  readonly files: string[];
  /** The imported catalogs: their directory (project-relative) and the import entry that brought them in. */
  readonly imports?: readonly {
    readonly dir: string;
    readonly at: SourceRange;
    readonly package?: string;
    readonly installed?: string;
    /** The imported Catalog's `follows` (the common-instancetypes release it reproduces). */
    readonly follows?: string;
  }[];
}

/**
 * Every entry under a catalog directory (files, directories, links and anything else), by path
 * relative to it with `/`, sorted by that path. Names starting with `.` are left out, links are
 * listed but never followed, and a directory MAX_DIRECTORY_DEPTH levels down is listed but not read.
 * One readdir per directory, with the entry types it returns: no stat per file.
 */
function catalogEntries(absDir: string): { rel: string; entry: DirEntry }[] {
  const out: { rel: string; entry: DirEntry }[] = [];
  const walk = (dir: string, prefix: string, depth: number): void => {
    let entries: DirEntry[];
    try {
      entries = readdirEntries(dir);
    } catch {
      return; // vanished or unreadable meanwhile: nothing to list
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const rel = `${prefix}${entry.name}`;
      out.push({ rel, entry });
      if (entry.isDirectory() && depth + 1 < MAX_DIRECTORY_DEPTH) walk(path.join(dir, entry.name), `${rel}/`, depth + 1);
    }
  };
  walk(absDir, '', 0);
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

function directoryHasEntries(abs: string): boolean {
  try {
    return readdirSync(abs).length > 0;
  } catch {
    return false;
  }
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** Read and parse every `*.yaml`/`*.yml` under a catalog directory, in sorted order. */
export function loadCatalogFiles(root: string, catalogDir: string): LoadedFiles {
  const absDir = path.resolve(root, catalogDir);
  const relDir = relativePath(root, absDir);
  try {
    if (!statSync(absDir).isDirectory()) {
      return { docs: [], files: [], diagnostics: [diag('IT1008', `catalog \`${relDir}\` is not a directory`)] };
    }
  } catch {
    return { docs: [], files: [], diagnostics: [diag('IT1008', `catalog directory \`${relDir}\` does not exist`)] };
  }
  // Sorted so that nothing downstream depends on directory order; symlinks are not followed
  // so a catalog cannot reach outside its directory.
  const found: string[] = [];
  const docs: SourceDoc[] = [];
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];
  // Bounded depth: a chain of directories committed into a catalog is reported, not walked to the bottom.
  for (const { rel, entry } of catalogEntries(absDir)) {
    const abs = path.join(absDir, rel);
    if (entry.isDirectory()) {
      if (rel.split('/').length >= MAX_DIRECTORY_DEPTH && directoryHasEntries(abs))
        diagnostics.push(
          diag('IT1008', `directories nested deeper than ${MAX_DIRECTORY_DEPTH} levels under \`${relDir}\` are not read`, undefined, {
            hint: `first left out: ${relativePath(root, abs).slice(0, 200)}/...`,
          }),
        );
      continue;
    }
    // A linked directory is not read; say so rather than lose its documents silently. A dangling
    // link is reported when it is read, below.
    if (entry.isSymbolicLink() && isDirectory(abs)) {
      diagnostics.push(
        diag(
          'IT1001',
          'directory is a symbolic link; catalogs do not follow links',
          { file: relativePath(root, abs), line: 1, col: 1 },
          {
            hint: 'move the files into the catalog, or point the generator at the real directory',
          },
        ),
      );
      continue;
    }
    if (/\.ya?ml$/.test(rel)) found.push(rel);
  }
  for (const rel of found) {
    const abs = path.join(absDir, rel);
    const file = relativePath(root, abs);
    files.push(file);
    const escape = symlinkEscape(absDir, abs);
    if (escape !== undefined) {
      docs.push(...standIns(file, 'opaque'));
      diagnostics.push(
        diag(
          'IT1001',
          `file is a symbolic link to ${escape}, outside the catalog directory`,
          { file, line: 1, col: 1 },
          {
            hint: 'a catalog reads only its own files; copy the file into the catalog instead of linking it',
          },
        ),
      );
      continue;
    }
    // A catalog directory reached through a link must not bring outside files in either.
    const read = readProjectFile(root, abs);
    if ('error' in read) {
      diagnostics.push(diag('IT1001', `cannot read file: ${read.error}`, { file, line: 1, col: 1 }));
      docs.push(...standIns(file, 'opaque'));
      continue;
    }
    const parsed = parseSource(file, read.bytes);
    docs.push(...parsed.docs, ...standIns(file, parsed.unusable));
    diagnostics.push(...parsed.diagnostics);
  }
  if (found.length === 0) {
    diagnostics.push(diag('IT1008', `no *.yaml files under \`${relDir}\``, undefined, { hint: 'a catalog needs at least a `kind: Catalog` document' }));
  }
  return { docs, diagnostics, files };
}

/**
 * Stand-in documents for what could not be read, so that resolution knows a declaration may exist
 * there (see SourceDoc.broken). They carry no content and are never emitted.
 */
export function standIns(file: string, unusable: ParsedFile['unusable']): SourceDoc[] {
  if (unusable === undefined || unusable.length === 0) return [];
  const empty = parseSource(file, Buffer.from('{}\n')).docs[0]!;
  if (unusable === 'opaque') return [{ ...empty, broken: 'opaque' }];
  return unusable.map((u) => ({
    ...empty,
    index: u.index,
    broken: { ...(u.kind !== undefined ? { kind: u.kind } : {}), ...(u.name !== undefined ? { name: u.name } : {}) },
  }));
}

/** Where a symlinked catalog file points when that is outside the catalog (or dangling); undefined otherwise. */
function symlinkEscape(absDir: string, abs: string): string | undefined {
  try {
    if (!lstatSync(abs).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  let target: string;
  let dir: string;
  try {
    target = realpathSync(abs);
    dir = realpathSync(absDir);
  } catch {
    return 'a file that does not exist';
  }
  const rel = path.relative(dir, target);
  return rel.startsWith('..') || path.isAbsolute(rel) ? '`' + rel.split(path.sep).join('/') + '`' : undefined;
}

/** Like `loadSingleDocument`, for a file that may not exist yet (a release lock): absent is no error. */
export function loadOptionalDocument(root: string, file: string): { doc?: SourceDoc; diagnostics: Diagnostic[] } {
  return existsSync(path.resolve(root, file)) ? loadSingleDocument(root, file) : { diagnostics: [] };
}

/** Read one YAML file expected to hold a single mapping (a generator). */
export function loadSingleDocument(root: string, file: string): { doc?: SourceDoc; diagnostics: Diagnostic[] } {
  const abs = path.resolve(root, file);
  const rel = relativePath(root, abs);
  const read = readProjectFile(root, file);
  if ('error' in read) return { diagnostics: [diag('IT1001', `cannot read \`${rel}\`: ${read.error}`)] };
  const parsed = parseSource(rel, read.bytes);
  if (parsed.diagnostics.length > 0) return { diagnostics: parsed.diagnostics };
  if (parsed.docs.length !== 1) {
    return { diagnostics: [diag('IT1009', `\`${rel}\` must hold exactly one YAML document`, { file: rel, line: 1, col: 1 })] };
  }
  return { doc: parsed.docs[0]!, diagnostics: [] };
}

/**
 * The real location of a path that may not exist yet: the real path of its nearest existing
 * ancestor (symlinks resolved) with the rest appended. Guards against writing through a symlink
 * to somewhere else.
 */
export function realLocation(absolute: string): string {
  let existing = absolute;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  let real = existing;
  try {
    real = realpathSync(existing);
  } catch {
    // unreadable: keep the path as written; writing will fail and say so
  }
  return path.join(real, ...rest);
}

/** What an output path holds before itgen writes there: whether an existing directory is itgen's own is `load/base.ts`'s proof. */
export function describeOutputDir(absolute: string): 'absent' | 'empty' | 'directory' | 'not-a-directory' {
  if (!existsSync(absolute)) return 'absent';
  try {
    if (!statSync(absolute).isDirectory()) return 'not-a-directory';
    return readdirSync(absolute).length === 0 ? 'empty' : 'directory';
  } catch {
    return 'directory';
  }
}

export function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * The project a command run in `cwd` works on: the nearest directory upward that has a
 * `generators/` directory, as git and npm find theirs, not past the top of a Git repository (a
 * directory holding `.git`) nor the filesystem root. `cwd` itself when none has.
 */
export function findProjectRoot(cwd: string): string {
  let dir = path.resolve(cwd);
  for (let i = 0; i < 64; i++) {
    try {
      if (statSync(path.join(dir, 'generators')).isDirectory()) return dir;
    } catch {
      /* not here */
    }
    if (existsSync(path.join(dir, '.git'))) break;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return path.resolve(cwd);
}

/**
 * A file the operator named on the command line (or a file of a directory so named): read
 * wherever it is, as any Unix tool reads its arguments; links it names are followed, but a walk
 * of a named directory does not follow the links it meets. Bounded like every read.
 */
export function readNamedFile(abs: string): { bytes: Buffer } | { error: string } {
  if (abs.includes('\0')) return { error: 'the path holds a NUL byte' };
  try {
    if (!statSync(abs).isFile()) return { error: 'not a regular file' };
    return { bytes: readFileBounded(abs) };
  } catch (e) {
    if (e instanceof InputTooLarge) return { error: `it is larger than ${bytesInWords(e.limit)}, the most itgen reads from one file` };
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot read it (${code ?? (e as Error).message})` };
  }
}
