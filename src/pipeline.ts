import path from 'node:path';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics';
import { layoutBase, type OutputFile } from './emit/layout';
import { loadCatalogFiles, loadSingleDocument, relativePath } from './load/files';
import { locate, type SourceDoc } from './load/source';
import { renderCatalog, type RenderedObject } from './render/manifests';
import { resolveCatalog } from './resolve/catalog';
import type { ResolvedCatalog } from './resolve/types';
import { checkAgainst } from './schema/check';
import { readDocuments } from './schema/documents';
import { generatorSchema, type WrittenGenerator } from './schema/generator';
import { runRules } from './validate';

export interface LoadedGenerator {
  /** Generator name: the file name without extension. */
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
  readonly catalog: ResolvedCatalog | undefined;
  readonly objects: readonly RenderedObject[];
  /** Files of the output directory; empty when anything failed. */
  readonly files: readonly OutputFile[];
  readonly diagnostics: readonly Diagnostic[];
}

function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export function loadGenerator(root: string, generatorFile: string): { generator?: LoadedGenerator; diagnostics: Diagnostic[] } {
  const { doc, diagnostics } = loadSingleDocument(root, generatorFile);
  if (!doc) return { diagnostics };
  const checked = checkAgainst(generatorSchema, doc);
  if (!checked.ok) return { diagnostics: checked.diagnostics };
  const config = checked.data;
  const absRoot = path.resolve(root);
  const dir = path.dirname(path.resolve(root, generatorFile));
  const catalogAbs = path.resolve(dir, config.catalog);
  const outputAbs = path.resolve(dir, config.output);
  const out: Diagnostic[] = [];
  if (!within(absRoot, outputAbs)) {
    out.push(diag('IT1009', `output \`${config.output}\` is outside the project directory`, locate(doc, ['output']), { hint: 'itgen writes only inside the project; use a path like ../output/<name>' }));
  }
  if (within(outputAbs, catalogAbs) || outputAbs === catalogAbs || within(catalogAbs, outputAbs)) {
    out.push(diag('IT1009', 'output and catalog directories overlap', locate(doc, ['output']), { hint: 'generating would replace the catalog' }));
  }
  if (out.length > 0) return { diagnostics: out };
  const name = path.basename(generatorFile).replace(/\.ya?ml$/, '');
  return {
    generator: {
      name,
      file: relativePath(absRoot, path.resolve(root, generatorFile)),
      config,
      src: doc,
      catalogDir: relativePath(absRoot, catalogAbs),
      outputDir: relativePath(absRoot, outputAbs),
    },
    diagnostics: [],
  };
}

/** load -> parse -> schema -> resolve -> render -> validate -> lay out. Pure except for reading. */
export function compile(root: string, generatorFile: string): CompileResult {
  const empty = { catalog: undefined, objects: [], files: [] };
  const g = loadGenerator(root, generatorFile);
  if (!g.generator) return { generator: undefined, ...empty, diagnostics: sortDiagnostics(g.diagnostics) };
  const generator = g.generator;
  const loaded = loadCatalogFiles(root, generator.catalogDir);
  return compileDocuments(generator, loaded.docs, loaded.diagnostics);
}

export function compileDocuments(generator: LoadedGenerator, docs: readonly SourceDoc[], initial: readonly Diagnostic[] = []): CompileResult {
  const diagnostics: Diagnostic[] = [...initial];
  const { model, diagnostics: schemaDiags } = readDocuments(docs);
  diagnostics.push(...schemaDiags);
  const { catalog, diagnostics: resolveDiags } = resolveCatalog(model);
  diagnostics.push(...resolveDiags);
  let objects: RenderedObject[] = [];
  let files: OutputFile[] = [];
  if (catalog) {
    objects = renderCatalog(catalog, {
      vendor: generator.config.vendor,
      scopes: generator.config.scopes,
      labels: generator.config.labels,
      annotations: generator.config.annotations,
    });
    // Semantic rules run on whatever resolved, even with earlier errors, so that one run reports
    // everything it can.
    diagnostics.push(...runRules({ catalog, objects, generator: generator.config, generatorSrc: generator.src }));
    if (!hasErrors(diagnostics)) files = layoutBase(objects);
  }
  const suppressed = new Set(generator.config.suppressWarnings ?? []);
  const sorted = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error' || !suppressed.has(d.code)));
  return { generator, catalog, objects, files: hasErrors(sorted) ? [] : files, diagnostics: sorted };
}
