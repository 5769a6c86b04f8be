/**
 * The pipeline, the one place the stages are chained (house rule 1): a generator loaded and its
 * catalog read with its imports, then its documents compiled (documents.ts: the objects, then the
 * output files made from them).
 */
import path from 'node:path';
import { sortDiagnostics, type Diagnostic, type SourceRange } from '../diagnostics';
import { committedSpecs } from '../emit/committed';
import { kubevirtFromDocuments } from '../expand/documents';
import type { ClusterDefaults } from '../kubevirt/config';
import { loadCatalogFiles, loadOptionalDocument, loadSingleDocument, relativePath } from '../load/files';
import { withImports } from '../load/imports';
import { vetGenerator } from '../load/generator';
import { openJudgedMemo } from '../load/judged-cache';
import { locate, type SourceDoc } from '../load/source';
import { checkDocument } from '../schema/lazy';
import { lockFileFor, type LoadedLock } from '../validate/lock';
import { compileDocuments } from './documents';
import type { CompileMode, CompileResult, LoadedGenerator } from './types';

export { within } from '../load/files';
export type { CompileMode, CompileResult, LoadedGenerator } from './types';
export { compileDocuments, type CompileDocumentsOptions } from './documents';
export { outputOverlaps } from '../load/generator';

export function loadGenerator(root: string, generatorFile: string): { generator?: LoadedGenerator; diagnostics: Diagnostic[] } {
  const { doc, diagnostics } = loadSingleDocument(root, generatorFile);
  if (!doc) return { diagnostics };
  return generatorFromDocument(root, relativePath(path.resolve(root), path.resolve(root, generatorFile)), doc);
}

/**
 * A generator from an already parsed document. `file` (project-relative) is where the document
 * lives, or is taken to live: relative paths in it resolve against its directory.
 */
export function generatorFromDocument(root: string, file: string, doc: SourceDoc): { generator?: LoadedGenerator; diagnostics: Diagnostic[] } {
  const checked = checkDocument('generator', doc, (zod) => zod.generatorSchema);
  if (!checked.ok) return { diagnostics: checked.diagnostics };
  const config = checked.data;
  const vetted = vetGenerator(root, file, doc, { catalog: config.catalog, output: config.output, metadataName: config.metadata?.name });
  if (vetted.diagnostics.length > 0) return { diagnostics: vetted.diagnostics };
  return {
    generator: { name: vetted.name, file, config, src: doc, catalogDir: vetted.catalogDir, outputDir: vetted.outputDir },
    diagnostics: [],
  };
}

/** The release lock beside the generator (`generators/<name>.lock.yaml`); none until the first release. */
export function loadLock(root: string, generator: LoadedGenerator): { lock?: LoadedLock; diagnostics: Diagnostic[] } {
  const file = lockFileFor(generator.file, generator.name);
  const { doc, diagnostics } = loadOptionalDocument(root, file);
  if (!doc) return { diagnostics };
  const checked = checkDocument('lock', doc, (zod) => zod.lockSchema);
  if (!checked.ok) return { diagnostics: checked.diagnostics };
  return { lock: { file, lock: checked.data, src: doc }, diagnostics: [] };
}

/** load -> parse -> schema -> resolve -> select -> render -> validate -> lock -> lay out. Pure except for reading. */
export function compile(root: string, generatorFile: string, mode: CompileMode = 'files'): CompileResult {
  const empty = { catalog: undefined, objects: [], files: [] };
  const g = loadGenerator(root, generatorFile);
  if (!g.generator) return { generator: undefined, ...empty, diagnostics: sortDiagnostics(g.diagnostics) };
  return compileGenerator(root, g.generator, mode);
}

export function compileGenerator(root: string, generator: LoadedGenerator, mode: CompileMode = 'files'): CompileResult {
  const loaded = withImports(root, generator.catalogDir, loadCatalogFiles(root, generator.catalogDir));
  const lock = loadLock(root, generator);
  // With a lock, the committed base tells which field of a published object changed.
  const previous = lock.lock ? committedSpecs(root, generator.outputDir) : undefined;
  const cr = generatorKubevirt(root, generator);
  const result = compileDocuments(generator, loaded.docs, {
    initial: [...loaded.diagnostics, ...lock.diagnostics, ...cr.diagnostics],
    lock: lock.lock,
    previous,
    kubevirt: cr.config,
    mode,
    importsFollow: (loaded.imports ?? []).flatMap((i) => (i.follows !== undefined ? [{ follows: i.follows, via: i.package ?? i.dir }] : [])),
    memo: openJudgedMemo(root, generator.file),
  });
  const packages = (loaded.imports ?? []).flatMap((i) =>
    i.package !== undefined && i.installed !== undefined ? [{ package: i.package, version: i.installed }] : [],
  );
  return { ...result, diagnostics: pointAtImports(result.diagnostics, loaded.imports ?? [], loaded.docs), ...(packages.length > 0 ? { packages } : {}) };
}

/**
 * A diagnostic inside an imported catalog (node_modules/itgen/...) is about the user's own line that
 * brought it in. When it is in an imported fragment that the user's own families include, and names
 * their instance types, it is placed at that `include` entry (the line the user wrote, where a pull
 * request's annotation lands), with the fragment's line as a note; otherwise it keeps its place and
 * points at the includes and the import entry.
 */
function pointAtImports(diagnostics: readonly Diagnostic[], imports: readonly { dir: string; at: SourceRange }[], docs: readonly SourceDoc[]): Diagnostic[] {
  if (imports.length === 0) return [...diagnostics];
  const imported = (file: string): boolean => imports.some((i) => file.startsWith(`${i.dir}/`));
  // Fragments by the file that declares them, and the user's own `include` entries naming them.
  const fragmentsIn = new Map<string, Set<string>>();
  for (const d of docs) {
    const v = d.value as { kind?: unknown; name?: unknown } | null;
    if ((v?.kind === 'InstancetypeFragment' || v?.kind === 'PreferenceFragment') && typeof v.name === 'string' && imported(d.file))
      fragmentsIn.set(d.file, (fragmentsIn.get(d.file) ?? new Set()).add(v.name));
  }
  const includes: { name: string; at: SourceRange; family?: string }[] = [];
  for (const d of docs) {
    const v = d.value as { include?: unknown; kind?: unknown; name?: unknown; version?: unknown } | null;
    if (imported(d.file) || !Array.isArray(v?.include)) continue;
    // A family's instance types are named `<name><version>.<size>` by default: what a message names them by.
    const family = v.kind === 'Family' && typeof v.name === 'string' ? `${v.name}${v.version === undefined ? '' : String(v.version)}.` : undefined;
    v.include.forEach((n, i) => {
      if (typeof n === 'string') includes.push({ name: n, at: locate(d, ['include', i]), ...(family ? { family } : {}) });
    });
  }
  return diagnostics.map((d) => {
    const from = d.location ? imports.find((i) => d.location!.file.startsWith(`${i.dir}/`)) : undefined;
    if (!from) return d;
    const fragments = fragmentsIn.get(d.location!.file);
    const including = fragments ? includes.filter((x) => fragments.has(x.name)) : [];
    const named = [...d.message.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const theirs = including.filter((x) => x.family !== undefined && named.some((n) => n.startsWith(x.family!)));
    if (theirs.length > 0)
      return {
        ...d,
        location: theirs[0]!.at,
        related: [
          ...(d.related ?? []),
          { message: `\`${theirs[0]!.name}\` (imported through ${from.at.file}:${from.at.line}) sets it here`, location: d.location! },
        ],
      };
    return {
      ...d,
      related: [
        ...(d.related ?? []),
        ...including.slice(0, 3).map((x) => ({ message: `\`${x.name}\` is included here`, location: x.at })),
        { message: 'in the catalog imported here', location: from.at },
      ],
    };
  });
}

/**
 * The KubeVirt CR the generator names (`kubevirt:`, inside the project), read and taken as
 * KubeVirt takes it; with it, an instance type a VM could not start with on those clusters is
 * IT8008 (a warning), at the generator's line.
 */
function generatorKubevirt(root: string, generator: LoadedGenerator): { config?: ClusterDefaults; diagnostics: Diagnostic[] } {
  const named = generator.config.kubevirt;
  if (named === undefined) return { diagnostics: [] };
  const rel = relativePath(root, path.resolve(root, path.dirname(generator.file), named));
  const loaded = loadSingleDocument(root, rel);
  if (!loaded.doc) return { diagnostics: loaded.diagnostics.map((d) => (d.location ? d : { ...d, location: locate(generator.src, ['kubevirt']) })) };
  return kubevirtFromDocuments([loaded.doc], rel);
}
