/**
 * A catalog's imports (`Catalog.imports`): other catalogs of the project, or of an installed npm
 * package, joined to its own documents, read through the same guards as every project file
 * (files.ts). One function per step: where the import leads, its version pin, the documents taken
 * (excluded, replaced or patched), and what the entry names that the import does not have.
 */
import { statSync } from './reads';
import path from 'node:path';
import { diag, didYouMean, type Diagnostic, type SourceRange } from '../diagnostics';
import { UPSTREAM_RELEASE } from '../version';
import { loadCatalogFiles, outsideProject, relativePath, standIns, type LoadedFiles } from './files';
import { droppedDefaults, packageHint, packageVersion } from './packages';
import { changesIdentity, patchedDoc } from './patch';
import { locate, type SourceDoc } from './source';

/** A raw `imports` entry of a Catalog document, before the schema checks it (which it does later). */
interface ImportEntry {
  readonly path?: unknown;
  readonly package?: unknown;
  readonly catalog?: unknown;
  readonly version?: unknown;
  readonly exclude?: { readonly families?: unknown; readonly preferences?: unknown };
  readonly base?: unknown;
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
  const walk: ImportWalk = { absRoot, catalogDir, catalogDoc, own, docs, diagnostics, files, importedFrom };
  (importEntries as ImportEntry[]).forEach((entry, i) => takeImport(root, walk, entry, i));
  return { docs, diagnostics, files, imports: importedFrom };
}

/** What the walk over a catalog's import entries builds up. */
interface ImportWalk {
  readonly absRoot: string;
  readonly catalogDir: string;
  readonly catalogDoc: SourceDoc;
  /** What the importing catalog declares itself: its declaration replaces the imported one. */
  readonly own: ReadonlySet<string>;
  readonly docs: SourceDoc[];
  readonly diagnostics: Diagnostic[];
  readonly files: string[];
  readonly importedFrom: { dir: string; at: SourceRange; package?: string; installed?: string; follows?: string }[];
}

/** One import entry: where it leads, its pin, then its documents taken. */
function takeImport(root: string, walk: ImportWalk, entry: ImportEntry, i: number): void {
  const { absRoot, catalogDoc, diagnostics } = walk;
  const at = locate(catalogDoc, ['imports', i]);
  const dir = importDirectory(walk, entry, at);
  if (dir === undefined) return;
  const shown = typeof entry.path === 'string' ? entry.path : `${String(entry.package)}/${String(entry.catalog)}`;
  diagnostics.push(...pinProblems(absRoot, catalogDoc, entry, i, shown));
  const imported = loadCatalogFiles(root, relativePath(absRoot, dir));
  const follows = (imported.docs.find((d) => (d.value as { kind?: unknown } | null)?.kind === 'Catalog')?.value as { follows?: unknown } | undefined)?.follows;
  walk.importedFrom.push({
    dir: relativePath(absRoot, dir),
    at,
    ...(typeof entry.package === 'string' ? packageVersion(absRoot, entry.package) : {}),
    ...(typeof follows === 'string' && UPSTREAM_RELEASE.test(follows) ? { follows } : {}),
  });
  diagnostics.push(...imported.diagnostics);
  walk.files.push(...imported.files);
  takeDocuments(walk, entry, i, shown, at, imported);
}

/**
 * The catalog directory an import entry leads to (a path relative to the catalog file, or a
 * package's catalog in the project's node_modules), or undefined after saying why it leads nowhere
 * itgen reads (with stand-ins, so that references to what it would have declared do not cascade).
 */
function importDirectory(walk: ImportWalk, entry: ImportEntry, at: SourceRange): string | undefined {
  const { absRoot, catalogDir, catalogDoc, docs, diagnostics } = walk;
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
    return undefined;
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
    return undefined;
  }
  if (path.resolve(dir) === path.resolve(absRoot, catalogDir)) {
    docs.push(...standIns(catalogDoc.file, 'opaque'));
    diagnostics.push(diag('IT2021', `import \`${shown}\` is this catalog itself`, at));
    return undefined;
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
    return undefined;
  }
  return dir;
}

/** A package import pinned to a version another than the installed one: the catalog it ships moves with the package, so it is reviewed first (IT2024). */
function pinProblems(absRoot: string, catalogDoc: SourceDoc, entry: ImportEntry, i: number, shown: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
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
  return diagnostics;
}

/** Applies an import entry's patches to the documents they target, and refuses those of documents not taken (IT2025); remembers which patched something. */
function patcher(
  catalogDoc: SourceDoc,
  diagnostics: Diagnostic[],
  patches: readonly { patch: ImportPatch; j: number }[],
  i: number,
): { patch: (d: SourceDoc) => SourceDoc; refusePatches: (d: SourceDoc, why: string) => void; patchedTargets: ReadonlySet<number> } {
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
  return { patch, refusePatches, patchedTargets };
}

/**
 * The imported documents taken into the catalog: all but its Catalog (whose defaults it says are
 * lost), what the entry excludes and what the importing catalog declares itself; the entry's
 * patches applied; then what the entry names that the import does not have.
 */
function takeDocuments(walk: ImportWalk, entry: ImportEntry, i: number, shown: string, at: SourceRange, imported: LoadedFiles): void {
  const { catalogDoc, own, docs, diagnostics } = walk;
  const asBase = entry.base === true;
  const excluded = new Set([
    ...(Array.isArray(entry.exclude?.families) ? entry.exclude!.families : []).map((f) => `Family:${String(f)}`),
    ...(Array.isArray(entry.exclude?.preferences) ? entry.exclude!.preferences : []).map((p) => `Preference:${String(p)}`),
  ]);
  const used = new Set<string>();
  const offered = { Family: new Set<string>(), Preference: new Set<string>() };
  const patches = importPatches(entry);
  const { patch, refusePatches, patchedTargets } = patcher(catalogDoc, diagnostics, patches, i);
  const drop = (key: string): boolean => {
    if (!excluded.has(key)) return false;
    used.add(key);
    return true;
  };
  for (const d of imported.docs) {
    const v = d.value as { kind?: unknown; name?: unknown; version?: unknown } | null;
    const key = declared(d);
    if (v?.kind === 'Catalog') {
      // A base ships none of its objects, so its defaults have nothing to lose.
      if (!asBase) diagnostics.push(...lostDefaults(v as Record<string, unknown>, catalogDoc, shown, at));
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
    // A base import: its families stay behind, its preferences are bases to inherit from.
    if (asBase && v?.kind === 'Family') continue;
    docs.push(asBase && v?.kind === 'Preference' ? patchedDoc(patch(d), { abstract: true }, catalogDoc, ['imports', i, 'base']) : patch(d));
  }
  diagnostics.push(
    ...unusedPatches(walk.catalogDoc, patches, patchedTargets, i, shown, imported),
    ...unusedExcludes(walk.catalogDoc, entry, used, offered, i, shown, imported),
  );
}

/** A patch that patches nothing ships what it was meant to change, unchanged: each one said (IT2025). */
function unusedPatches(
  catalogDoc: SourceDoc,
  patches: readonly { patch: ImportPatch; j: number }[],
  patchedTargets: ReadonlySet<number>,
  i: number,
  shown: string,
  imported: LoadedFiles,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
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
  return diagnostics;
}

/**
 * An exclude that names nothing the import has ships what it was meant to drop: the same mistake as
 * a generator's exclude that matches nothing (IT7201), reported the same way.
 */
function unusedExcludes(
  catalogDoc: SourceDoc,
  entry: ImportEntry,
  used: ReadonlySet<string>,
  offered: { readonly Family: ReadonlySet<string>; readonly Preference: ReadonlySet<string> },
  i: number,
  shown: string,
  imported: LoadedFiles,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
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
  return diagnostics;
}

/** An import's Catalog defaults the importing catalog does not set: its objects lose them, said once at the import (IT2023). */
function lostDefaults(imported: Record<string, unknown>, catalogDoc: SourceDoc, shown: string, at: SourceRange): Diagnostic[] {
  const dropped = droppedDefaults(imported, (catalogDoc.value ?? {}) as Record<string, unknown>);
  if (dropped.length === 0) return [];
  return [
    diag(
      'IT2023',
      `import \`${shown}\`: its Catalog's defaults do not come with it, so its objects lose ${dropped.slice(0, 6).join(', ')}${dropped.length > 6 ? ` and ${dropped.length - 6} more` : ''}`,
      at,
      {
        severity: 'warning',
        hint: `set them in this catalog's Catalog document (${locate(catalogDoc, []).file}) to keep them, suppress IT2023 in the generator if dropping them is meant, or import it with \`base: true\` when none of its objects is to ship`,
      },
    ),
  ];
}
