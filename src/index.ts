export * from './diagnostics';
export {
  compile,
  compileDocuments,
  compileGenerator,
  generatorFromDocument,
  loadGenerator,
  loadLock,
  type CompileResult,
  type LoadedGenerator,
} from './pipeline';
export { parseSource, locate, type SourceDoc } from './load/source';
export { loadCatalogFiles } from './load/files';
export { readDocuments, type WrittenModel } from './schema/documents';
export { catalogJsonSchema, CATALOG_KINDS } from './schema/catalog';
export { resolveCatalog } from './resolve/catalog';
export { selectCatalog, type SelectOptions } from './resolve/select';
export type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from './resolve/types';
export { renderCatalog, type RenderedManifest, type RenderedObject } from './render/manifests';
export { INSTANCETYPE_API_VERSION, KIND_ORDER, MANIFEST_KINDS, type Manifest, type ManifestKind } from './schema/manifest';
export { explainObject } from './render/explain';
export { renderDocs } from './render/docs';
export { applyNamespace } from './render/namespace';
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

export {
  bundleProject,
  checkOutputs,
  checkProject,
  compileProject,
  generateProject,
  releaseProject,
  type ProjectOptions,
  type ReleaseRecord,
} from './release/project';
import { generateProject } from './release/project';
import type { Diagnostic as Finding } from './diagnostics';

/**
 * What `itgen generate` does, as a function, with every guard the CLI has (overlapping outputs,
 * the removal guard, deploy paths): compile every generator of the project at `root`
 * (`generators/*.yaml`, or the files given), and only when none has an error write each base
 * atomically; a base that already is what its catalog generates is left as it is (`unchanged`).
 * Returns every diagnostic and the output directories written.
 *
 * @example
 * import { generate } from 'itgen';
 * const { diagnostics, written } = generate('.', ['generators/acme.yaml']);
 */
export function generate(
  root: string,
  generators?: readonly string[],
  opts: { strict?: boolean; allowRemovals?: boolean } = {},
): { diagnostics: Finding[]; written: string[] } {
  const { diagnostics, written } = generateProject(root, { ...(generators ? { generators } : {}), ...opts });
  return { diagnostics, written };
}

// The workflows: one function per command, each taking the run's project (openProject: the project's
// generators, `with` files, a KubeVirt CR) and typed options, returning a typed report. The CLI
// parses, calls one of these and renders its report.
export { openProject, type CatalogSource, type Catalogs, type Project, type ProjectInputs } from './project';
export { catalogOfObjects } from './render/objects';
export type { Report } from './workflows/report';
export { validate, checkedSummary, type ValidateOptions, type ValidateReport } from './workflows/validate';
export { diff, diffJson, diffMarkdownComment, diffText, type DiffOptions, type DiffReport, type DiffSection } from './workflows/diff';
export { diffBundles } from './workflows/diff-bundles';
export { explain, type ExplainReport } from './workflows/explain';
export { expandText, expandVms, type ExpandVmsOptions, type ExpandVmsReport } from './workflows/expand';
export { facts, factsText, type FactsReport } from './workflows/facts';
export { fit, type FitOptions, type FitRun } from './workflows/fit';
export { fitText, fitMarkdown, type FitReport } from './expand/fit';
export { togetherJson, togetherText, togetherMarkdown, type TogetherReport } from './expand/place';
export { notes, notesText, type NotesReport } from './workflows/notes';
export { policy, policyJson, policyYaml, type PolicyReport } from './workflows/policy';
export { resize, resizeJson, resizeText, type ResizeOptions, type ResizeReport } from './workflows/resize';
export { select, selectCsv, selectFilter, selectText, type SelectQuery, type SelectReport } from './workflows/select';
export { site, type SiteReport } from './workflows/site';
export { formatText as formatDiagnostics } from './format';
export { init, type InitOptions, type InitReport } from './workflows/init';
export { migratePresets, type MigrateOptions, type MigrateReport } from './workflows/migrate';
export { COMMAND_SPECS, commandReference, commandUsage, usage } from './commands';
export type { CommandSpec, OptionSpec } from './commands/spec';
