/**
 * Over 400 lines: Every read of a project file goes through the guards here (inside the project,
 * bounded, no links out), imports included: one file, one set of guards.
 */
import { type Dirent, existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { diag, didYouMean, type Diagnostic, type SourceRange } from '../diagnostics';
import { bytesInWords, InputTooLarge, MAX_DIRECTORY_DEPTH, readFileBounded } from './limits';
import { changesIdentity, patchedDoc } from './patch';
import { UPSTREAM_RELEASE } from '../version';
import { locate, parseSource, type ParsedFile, type SourceDoc } from './source';

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
    realRoot = realpathSync.native(root);
    real = realpathSync.native(absolute);
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
function catalogEntries(absDir: string): { rel: string; entry: Dirent }[] {
  const out: { rel: string; entry: Dirent }[] = [];
  const walk = (dir: string, prefix: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
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
function standIns(file: string, unusable: ParsedFile['unusable']): SourceDoc[] {
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
    target = realpathSync.native(abs);
    dir = realpathSync.native(absDir);
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
    real = realpathSync.native(existing);
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

/** A raw `imports` entry of a Catalog document, before the schema checks it (which it does later). */
interface ImportEntry {
  readonly path?: unknown;
  readonly package?: unknown;
  readonly catalog?: unknown;
  readonly version?: unknown;
  readonly exclude?: { readonly families?: unknown; readonly preferences?: unknown };
  readonly patches?: unknown;
}

interface ImportPatch {
  readonly target: { readonly kind: string; readonly name: string; readonly version?: unknown };
  readonly patch: Record<string, unknown>;
}

/** The well-formed patches of an import entry, by index (the schema stage reports the others). */
function importPatches(entry: ImportEntry): { patch: ImportPatch; j: number }[] {
  if (!Array.isArray(entry.patches)) return [];
  return (entry.patches as unknown[]).flatMap((p, j) => {
    const x = p as { target?: { kind?: unknown; name?: unknown; version?: unknown }; patch?: unknown } | null;
    const ok =
      x !== null &&
      typeof x === 'object' &&
      typeof x.target?.kind === 'string' &&
      typeof x.target.name === 'string' &&
      x.patch !== null &&
      typeof x.patch === 'object' &&
      !Array.isArray(x.patch);
    return ok ? [{ patch: x as ImportPatch, j }] : [];
  });
}

/** What a document declares: kind and name (and version, for families). */
function declared(doc: SourceDoc): string | undefined {
  const v = doc.value as { kind?: unknown; name?: unknown; version?: unknown } | null;
  if (!v || typeof v.kind !== 'string' || typeof v.name !== 'string') return undefined;
  return `${v.kind}/${v.name}${v.kind === 'Family' && v.version !== undefined ? `/${String(v.version)}` : ''}`;
}

/**
 * The documents of the catalogs a catalog imports (`Catalog.imports`), joined to its own: each
 * import's documents but its Catalog, less what `exclude` names and what the importing catalog
 * declares itself (its declaration replaces the imported one). An import must lead inside the
 * project (a package import: the project's node_modules); imports are not transitive.
 *
 * Over 80 lines: resolving imports (npm package, path, release, excludes, patches) shares one set of guards and one walk.
 */
export function withImports(root: string, catalogDir: string, loaded: LoadedFiles): LoadedFiles {
  const catalogDoc = loaded.docs.find((d) => (d.value as { kind?: unknown } | null)?.kind === 'Catalog');
  const importEntries = (catalogDoc?.value as { imports?: unknown } | undefined)?.imports;
  if (!catalogDoc || !Array.isArray(importEntries) || importEntries.length === 0) return loaded;
  const own = new Set(loaded.docs.map(declared).filter((k): k is string => k !== undefined));
  const docs = [...loaded.docs];
  const diagnostics = [...loaded.diagnostics];
  const files = [...loaded.files];
  const absRoot = path.resolve(root);
  const importedFrom: { dir: string; at: SourceRange; package?: string; installed?: string; follows?: string }[] = [];
  /** Over 80 lines: the body of withImports' walk, see above. */
  (importEntries as ImportEntry[]).forEach((entry, i) => {
    const at = locate(catalogDoc, ['imports', i]);
    let dir: string | undefined;
    if (typeof entry.path === 'string' && entry.package === undefined) dir = path.resolve(path.dirname(path.resolve(absRoot, catalogDoc.file)), entry.path);
    else if (typeof entry.package === 'string' && typeof entry.catalog === 'string' && entry.path === undefined)
      dir = path.resolve(absRoot, 'node_modules', entry.package, entry.catalog);
    if (dir === undefined) {
      diagnostics.push(
        diag('IT2020', 'an import names either `path`, or `package` and `catalog`', at, {
          hint: 'imports: [{path: ../base}] or [{package: itgen, catalog: catalogs/common-instancetypes}]',
        }),
      );
      return;
    }
    const shown = typeof entry.path === 'string' ? entry.path : `${String(entry.package)}/${String(entry.catalog)}`;
    const rel = path.relative(absRoot, dir);
    if (rel.startsWith('..') || path.isAbsolute(rel) || outsideProject(absRoot, dir) !== undefined) {
      // One mistake, one report: the stand-in keeps every reference to what it would have
      // declared from failing on its own.
      docs.push(...standIns(catalogDoc.file, 'opaque'));
      diagnostics.push(
        diag('IT2021', `import \`${shown}\` leads outside the project directory`, at, {
          hint:
            typeof entry.package === 'string'
              ? `node_modules/${entry.package} resolves outside the project (a hoisted workspace or a linked node_modules); itgen reads only inside it: install the package in this project (npm install --install-links ${entry.package}) or copy the catalog in`
              : 'imports read only inside the project; install a package with npm (it lands in node_modules) or copy the catalog in',
        }),
      );
      return;
    }
    if (path.resolve(dir) === path.resolve(absRoot, catalogDir)) {
      docs.push(...standIns(catalogDoc.file, 'opaque'));
      diagnostics.push(diag('IT2021', `import \`${shown}\` is this catalog itself`, at));
      return;
    }
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      /* reported below */
    }
    if (!isDir) {
      // What the import would have declared is unknown: a stand-in keeps references to it from
      // cascading into one error each (one mistake, one report).
      docs.push(...standIns(catalogDoc.file, 'opaque'));
      diagnostics.push(
        diag('IT2020', `import \`${shown}\`: no catalog directory ${relativePath(absRoot, dir)}`, at, {
          hint: typeof entry.package === 'string' ? packageHint(absRoot, entry.package, String(entry.catalog)) : 'the path is relative to this file',
        }),
      );
      return;
    }
    // A pinned package: the catalog it ships moves with the package, so another installed version
    // is reviewed before it reaches the base.
    if (typeof entry.package === 'string' && typeof entry.version === 'string') {
      const installed = packageVersion(absRoot, entry.package).installed;
      if (installed !== entry.version)
        diagnostics.push(
          diag(
            'IT2024',
            `import \`${shown}\` is pinned to ${entry.package} ${entry.version}, but ${installed !== undefined ? `${installed} is installed` : 'no version of it is installed'}`,
            locate(catalogDoc, ['imports', i, 'version']),
            {
              hint:
                installed !== undefined
                  ? `the imported catalog may have changed with the package: review \`itgen diff\`, then set version: "${installed}" (or install ${entry.package}@${entry.version})`
                  : `npm install ${entry.package}@${entry.version}`,
            },
          ),
        );
    }
    const imported = loadCatalogFiles(root, relativePath(absRoot, dir));
    const follows = (imported.docs.find((d) => (d.value as { kind?: unknown } | null)?.kind === 'Catalog')?.value as { follows?: unknown } | undefined)
      ?.follows;
    importedFrom.push({
      dir: relativePath(absRoot, dir),
      at,
      ...(typeof entry.package === 'string' ? packageVersion(absRoot, entry.package) : {}),
      ...(typeof follows === 'string' && UPSTREAM_RELEASE.test(follows) ? { follows } : {}),
    });
    diagnostics.push(...imported.diagnostics);
    files.push(...imported.files);
    const excluded = new Set([
      ...(Array.isArray(entry.exclude?.families) ? entry.exclude!.families : []).map((f) => `Family:${String(f)}`),
      ...(Array.isArray(entry.exclude?.preferences) ? entry.exclude!.preferences : []).map((p) => `Preference:${String(p)}`),
    ]);
    const used = new Set<string>();
    const offered = { Family: new Set<string>(), Preference: new Set<string>() };
    const patches = importPatches(entry);
    const patchedTargets = new Set<number>();
    /** `d` with the entry's patches that target it merged in, in the order they are written. */
    const patch = (d: SourceDoc): SourceDoc => {
      const v = d.value as { kind?: unknown; name?: unknown; version?: unknown } | null;
      let out = d;
      for (const { patch: p, j } of patches) {
        if (p.target.kind !== v?.kind || p.target.name !== v.name) continue;
        if (p.target.version !== undefined && String(p.target.version) !== String(v.version)) continue;
        patchedTargets.add(j);
        const identity = changesIdentity(p.patch);
        if (identity !== undefined) {
          diagnostics.push(
            diag(
              'IT2025',
              `imports[${i}].patches[${j}] changes the \`${identity}\` of the ${p.target.kind} it patches`,
              locate(catalogDoc, ['imports', i, 'patches', j, 'patch', identity], { key: true }),
              {
                hint: `a patch changes an imported document in place; to give it another ${identity}, exclude it and declare your own`,
              },
            ),
          );
          continue;
        }
        out = patchedDoc(out, p.patch, catalogDoc, ['imports', i, 'patches', j, 'patch']);
      }
      return out;
    };
    /** The patches of a document the catalog does not take: each one an error saying why. */
    const refusePatches = (d: SourceDoc, why: string): void => {
      const v = d.value as { kind?: unknown; name?: unknown; version?: unknown } | null;
      for (const { patch: p, j } of patches) {
        if (p.target.kind !== v?.kind || p.target.name !== v.name) continue;
        if (p.target.version !== undefined && String(p.target.version) !== String(v.version)) continue;
        patchedTargets.add(j);
        diagnostics.push(
          diag(
            'IT2025',
            `imports[${i}].patches[${j}] patches ${p.target.kind} \`${p.target.name}\`, which is not imported`,
            locate(catalogDoc, ['imports', i, 'patches', j, 'target']),
            { hint: why },
          ),
        );
      }
    };
    const drop = (key: string): boolean => {
      if (!excluded.has(key)) return false;
      used.add(key);
      return true;
    };
    for (const d of imported.docs) {
      const v = d.value as { kind?: unknown; name?: unknown; version?: unknown } | null;
      const key = declared(d);
      if (v?.kind === 'Catalog') {
        // Its defaults stay behind with it: say which, so that nothing is lost in silence.
        const dropped = droppedDefaults(v as Record<string, unknown>, (catalogDoc.value ?? {}) as Record<string, unknown>);
        if (dropped.length > 0)
          diagnostics.push(
            diag(
              'IT2023',
              `import \`${shown}\`: its Catalog's defaults do not come with it, so its objects lose ${dropped.slice(0, 6).join(', ')}${dropped.length > 6 ? ` and ${dropped.length - 6} more` : ''}`,
              at,
              {
                severity: 'warning',
                hint: `set them in this catalog's Catalog document (${locate(catalogDoc, []).file}) to keep them, or suppress IT2023 in the generator if dropping them is meant`,
              },
            ),
          );
        continue;
      }
      if ((v?.kind === 'Family' || v?.kind === 'Preference') && typeof v.name === 'string') {
        offered[v.kind].add(v.name);
        if (v.kind === 'Family' && v.version !== undefined) offered.Family.add(`${v.name}${String(v.version)}`);
      }
      if (key !== undefined && own.has(key)) {
        refusePatches(d, 'this catalog declares it itself, which replaces the imported one: change your own declaration');
        continue;
      }
      // Both tests run, so that an exclude naming a family and one naming its version both count as used.
      if (v?.kind === 'Family' && [drop(`Family:${String(v.name)}`), drop(`Family:${String(v.name)}${String(v.version ?? '')}`)].some(Boolean)) {
        refusePatches(d, 'the import excludes it');
        continue;
      }
      if (v?.kind === 'Preference' && drop(`Preference:${String(v.name)}`)) {
        refusePatches(d, 'the import excludes it');
        continue;
      }
      docs.push(patch(d));
    }
    // A patch that patches nothing ships what it was meant to change, unchanged.
    for (const { patch: p, j } of patches) {
      if (patchedTargets.has(j) || imported.diagnostics.some((x) => x.severity === 'error')) continue;
      const names = new Set(
        imported.docs.flatMap((d) => {
          const v = d.value as { kind?: unknown; name?: unknown } | null;
          return v?.kind === p.target.kind && typeof v.name === 'string' ? [v.name] : [];
        }),
      );
      diagnostics.push(
        diag(
          'IT2025',
          `imports[${i}].patches[${j}]: import \`${shown}\` has no ${p.target.kind} \`${p.target.name}\`${p.target.version !== undefined ? ` version ${String(p.target.version)}` : ''}`,
          locate(catalogDoc, ['imports', i, 'patches', j, 'target']),
          {
            hint:
              didYouMean(p.target.name, names) ??
              `the import has ${names.size} ${p.target.kind} document${names.size === 1 ? '' : 's'}; a patch names one as the imported catalog does`,
          },
        ),
      );
    }
    // An exclude that names nothing the import has ships what it was meant to drop: the same mistake
    // as a generator's exclude that matches nothing (IT7201), reported the same way.
    for (const [dim, kind] of [
      ['families', 'Family'],
      ['preferences', 'Preference'],
    ] as const) {
      const list = entry.exclude?.[dim];
      if (!Array.isArray(list) || imported.diagnostics.some((x) => x.severity === 'error')) continue;
      list.forEach((name: unknown, j: number) => {
        if (used.has(`${kind}:${String(name)}`)) return;
        diagnostics.push(
          diag(
            'IT7201',
            `imports[${i}].exclude.${dim}: \`${String(name)}\` matches nothing in import \`${shown}\``,
            locate(catalogDoc, ['imports', i, 'exclude', dim, j]),
            {
              hint: didYouMean(String(name), offered[kind]) ?? `the import has ${offered[kind].size} ${dim}; exclude names them as the imported catalog does`,
            },
          ),
        );
      });
    }
  });
  return { docs, diagnostics, files, imports: importedFrom };
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

/** Directories directly under `dir` (not hidden) that hold a `catalog.yaml` or `catalog.yml`, as `prefix` + name. */
function catalogDirsIn(dir: string, prefix: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && e.isDirectory() && ['catalog.yaml', 'catalog.yml'].some((f) => existsSync(path.join(dir, e.name, f))))
    .map((e) => `${prefix}${e.name}`);
}

/**
 * What to say when a package import finds no catalog: install the package when it is not there,
 * else the catalogs it does ship (directories holding a `kind: Catalog` document), with a did-you-mean.
 */
function packageHint(absRoot: string, pkg: string, catalog: string): string {
  const base = path.resolve(absRoot, 'node_modules', pkg);
  if (!existsSync(path.join(base, 'package.json'))) return `install it: npm install ${pkg}`;
  const shipped = [...catalogDirsIn(base, ''), ...catalogDirsIn(path.join(base, 'catalogs'), 'catalogs/')].sort();
  if (shipped.length === 0) return `${pkg} is installed but ships no catalog`;
  return `${didYouMean(catalog, shipped) ?? ''} ${pkg} ships: ${shipped.join(', ')}`.trim();
}

/**
 * The defaults of an imported Catalog document (naming, and the labels and annotations it gives its
 * instance types and preferences) that the importing catalog does not set, as dotted paths: what
 * the imported objects lose, since only the importing Catalog's defaults apply.
 */
function droppedDefaults(imported: Record<string, unknown>, importing: Record<string, unknown>): string[] {
  const out: string[] = [];
  const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  for (const k of Object.keys(obj(imported['naming']))) if (!(k in obj(importing['naming']))) out.push(`naming.${k}`);
  for (const kind of ['instancetypes', 'preferences'])
    for (const field of ['labels', 'annotations']) {
      const have = obj(obj(importing[kind])[field]);
      for (const k of Object.keys(obj(obj(imported[kind])[field]))) if (!(k in have)) out.push(`${kind}.${field}.${k}`);
    }
  return out;
}

/** The installed version of a package of the project's node_modules, as its package.json says (bounded read, inside the project). */
function packageVersion(absRoot: string, pkg: string): { package: string; installed?: string } {
  const manifest = readProjectFile(absRoot, path.join(absRoot, 'node_modules', pkg, 'package.json'));
  try {
    const v = 'bytes' in manifest ? (JSON.parse(manifest.bytes.toString('utf8')) as { version?: unknown }).version : undefined;
    return typeof v === 'string' && v.length <= 64 ? { package: pkg, installed: v } : { package: pkg };
  } catch {
    return { package: pkg };
  }
}
