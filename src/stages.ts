/**
 * `itgen/stages`: the compiler's stages, for tools built on itgen (a second entry point, its names
 * pinned by test/library.test.ts). Lower level than the workflows of `itgen` (src/index.ts): one
 * generator compiled, one catalog resolved or rendered, one VM expanded and admitted as KubeVirt's
 * expand-spec and webhooks do, a base laid out and written. These follow the compiler's shape and
 * may
 * change with it more often than the workflows do.
 */
export { closest, diag, didYouMean, sortDiagnostics, strictify, type DiagnosticCode, type SourceRange } from './diagnostics';
export {
  compile,
  compileDocuments,
  compileGenerator,
  generatorFromDocument,
  loadGenerator,
  loadLock,
  type CompileMode,
  type CompileResult,
  type LoadedGenerator,
} from './pipeline';
export { parseSource, locate, type SourceDoc } from './load/source';
export { loadCatalogFiles } from './load/files';
export { readDocuments, type WrittenModel } from './schema/documents';
export { CATALOG_KINDS } from './schema/catalog';
export { catalogJsonSchema } from './schema/catalog-json';
export { resolveCatalog } from './resolve/catalog';
export { selectCatalog, type SelectOptions } from './resolve/select';
export type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from './resolve/types';
export { renderCatalog, type RenderedManifest, type RenderedObject } from './render/manifests';
export { INSTANCETYPE_API_VERSION, KIND_ORDER, MANIFEST_KINDS, type Manifest, type ManifestKind } from './schema/manifest';
export { explainObject } from './render/explain';
export { renderDocs } from './render/docs';
export { applyNamespace } from './render/namespace';
export { catalogOfObjects } from './render/objects';
export { generatorSchema, generatorJsonSchema, type WrittenGenerator } from './schema/generator';
export { lockSchema, type ReleaseLock } from './schema/lock';
export { checkLock, currentObjects, recordRelease, serializeLock, type LoadedLock } from './release/lock';
export { buildBundles } from './release/bundle';
export { diffObjects, formatDiff, parseObjects, type ObjectDiff } from './release/diff';
export { specDigest } from './digest';
export { layoutBase, type OutputFile } from './emit/layout';
export { writeTree, readTree, writeFilesAtomic } from './emit/write';
export { diffTrees } from './emit/drift';
export { RULES, runRules } from './validate';
export {
  admit,
  admissionMessage,
  expand,
  expandDocuments,
  objectStore,
  resolveReferences,
  type AdmissionResult,
  type ExpandOptions,
  type ExpandResult,
  type ObjectStore,
  type References,
  type SpecObject,
} from './expand';
export { KUBEVIRT_DEFAULTS, type ClusterDefaults } from './kubevirt/config';
export type { Cause, CauseReason } from './kubevirt/cause';
export { scaffoldFiles, defaultVendor, type ScaffoldOptions } from './scaffold';
export { compatibilityMatrix, type CompatibilityMatrix, type MatrixPair } from './matrix';
export { validateManifests } from './admission';
export { compileGenerators, projectGenerators, type CompileOptions } from './project/compile';
