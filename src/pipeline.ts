import { existsSync } from 'node:fs';
import path from 'node:path';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics';
import { layoutBase, type OutputFile } from './emit/layout';
import { loadCatalogFiles, loadSingleDocument, relativePath } from './load/files';
import { locate, type SourceDoc } from './load/source';
import { DOCS_FILE, renderDocs } from './render/docs';
import { KIND_ORDER, renderCatalog, type RenderedObject } from './render/manifests';
import { applyNamespace } from './render/namespace';
import { checkLock, currentObjects, lockFileFor, type LoadedLock } from './release/lock';
import { resolveCatalog } from './resolve/catalog';
import { selectCatalog, selectOptions } from './resolve/select';
import type { ResolvedCatalog } from './resolve/types';
import { checkAgainst } from './schema/check';
import { readDocuments } from './schema/documents';
import { generatorSchema, type WrittenGenerator } from './schema/generator';
import { lockSchema } from './schema/lock';
import { runRules } from './validate';

export interface LoadedGenerator {
  /** Generator name: the file name without extension (and `metadata.name`, when given). */
  readonly name: string;
  readonly file: string;
  readonly config: WrittenGenerator;
  readonly src: SourceDoc;
  /** Both relative to the project root, POSIX. */
  readonly catalogDir: string;
  readonly outputDir: string;
}

export interface CompileResult {
  readonly generator: LoadedGenerator | undefined;
  /** The catalog as this generator ships it: resolved, then selected and renamed by vendor options. */
  readonly catalog: ResolvedCatalog | undefined;
  readonly objects: readonly RenderedObject[];
  /** Files of the output directory; empty when anything failed. */
  readonly files: readonly OutputFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** The generator's release lock, when it has one. */
  readonly lock?: LoadedLock | undefined;
}

function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

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
  const checked = checkAgainst(generatorSchema, doc);
  if (!checked.ok) return { diagnostics: checked.diagnostics };
  const config = checked.data;
  const absRoot = path.resolve(root);
  const dir = path.dirname(path.resolve(absRoot, file));
  const catalogAbs = path.resolve(dir, config.catalog);
  const outputAbs = path.resolve(dir, config.output);
  const name = path.basename(file).replace(/\.ya?ml$/, '');
  const out: Diagnostic[] = [];
  if (config.metadata !== undefined && config.metadata.name !== name) {
    out.push(
      diag('IT1009', `metadata.name \`${config.metadata.name}\` is not the generator's file name \`${name}\``, locate(doc, ['metadata', 'name']), {
        hint: `the name appears in the output path, the lock file and the docs; rename the file or set metadata.name: ${name}`,
      }),
    );
  }
  if (!within(absRoot, outputAbs)) {
    out.push(diag('IT1009', `output \`${config.output}\` is outside the project directory`, locate(doc, ['output']), { hint: 'itgen writes only inside the project; use a path like ../output/<name>' }));
  }
  if (within(outputAbs, catalogAbs) || outputAbs === catalogAbs || within(catalogAbs, outputAbs)) {
    out.push(diag('IT1009', 'output and catalog directories overlap', locate(doc, ['output']), { hint: 'generating would replace the catalog' }));
  }
  if (out.length > 0) return { diagnostics: out };
  return {
    generator: {
      name,
      file,
      config,
      src: doc,
      catalogDir: relativePath(absRoot, catalogAbs),
      outputDir: relativePath(absRoot, outputAbs),
    },
    diagnostics: [],
  };
}

/** The release lock beside the generator (`generators/<name>.lock.yaml`); none until the first release. */
export function loadLock(root: string, generator: LoadedGenerator): { lock?: LoadedLock; diagnostics: Diagnostic[] } {
  const file = lockFileFor(generator.file, generator.name);
  if (!existsSync(path.resolve(root, file))) return { diagnostics: [] };
  const { doc, diagnostics } = loadSingleDocument(root, file);
  if (!doc) return { diagnostics };
  const checked = checkAgainst(lockSchema, doc);
  if (!checked.ok) return { diagnostics: checked.diagnostics };
  return { lock: { file, lock: checked.data, src: doc }, diagnostics: [] };
}

/** load -> parse -> schema -> resolve -> select -> render -> validate -> lock -> lay out. Pure except for reading. */
export function compile(root: string, generatorFile: string): CompileResult {
  const empty = { catalog: undefined, objects: [], files: [] };
  const g = loadGenerator(root, generatorFile);
  if (!g.generator) return { generator: undefined, ...empty, diagnostics: sortDiagnostics(g.diagnostics) };
  return compileGenerator(root, g.generator);
}

export function compileGenerator(root: string, generator: LoadedGenerator): CompileResult {
  const loaded = loadCatalogFiles(root, generator.catalogDir);
  const lock = loadLock(root, generator);
  return compileDocuments(generator, loaded.docs, [...loaded.diagnostics, ...lock.diagnostics], lock.lock);
}

export function compileDocuments(
  generator: LoadedGenerator,
  docs: readonly SourceDoc[],
  initial: readonly Diagnostic[] = [],
  lock?: LoadedLock,
): CompileResult {
  const diagnostics: Diagnostic[] = [...initial];
  const { model, diagnostics: schemaDiags } = readDocuments(docs);
  diagnostics.push(...schemaDiags);
  const { catalog: resolved, diagnostics: resolveDiags } = resolveCatalog(model);
  diagnostics.push(...resolveDiags);
  let catalog: ResolvedCatalog | undefined;
  let objects: RenderedObject[] = [];
  let files: OutputFile[] = [];
  if (resolved) {
    const config = generator.config;
    const selected = selectCatalog(resolved, selectOptions(config), generator.src);
    diagnostics.push(...selected.diagnostics);
    catalog = selected.catalog;
    objects = applyNamespace(
      renderCatalog(catalog, { vendor: config.vendor, scopes: config.scopes, labels: config.labels, annotations: config.annotations }),
      config.namespace,
    );
    // Semantic rules run on whatever resolved, even with earlier errors, so that one run reports
    // everything it can.
    diagnostics.push(...runRules({ catalog, objects, generator: config, generatorSrc: generator.src }));
    if (lock) diagnostics.push(...checkLock(lock, generator.name, currentObjects(objects)).diagnostics);
    if (!hasErrors(diagnostics)) {
      const readme = renderDocs(catalog, objects, {
        generator: generator.name,
        generatorFile: generator.file,
        catalogDir: generator.catalogDir,
        vendor: config.vendor,
        scopes: config.scopes,
        namespace: config.namespace,
      });
      files = layoutBase(objects, KIND_ORDER, [{ path: DOCS_FILE, content: readme }]);
    }
  }
  const suppressed = new Set(generator.config.suppressWarnings ?? []);
  const sorted = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error' || !suppressed.has(d.code)));
  return { generator, catalog, objects, files: hasErrors(sorted) ? [] : files, diagnostics: sorted, lock };
}
