/**
 * `itgen`: the library. The project a run works on (`openProject`), one workflow per command taking
 * it and typed options and returning a typed report, each report's renderers beside it, and the
 * diagnostics and their formats. The CLI parses, calls one workflow and renders its report. The
 * compiler's stages are the second entry point, `itgen/stages` (src/stages.ts). Both lists of names
 * are pinned by test/library.test.ts: a change is a decision (docs/13-library.md).
 */

// The project.
export {
  openProject,
  baseRevision,
  bundlesDirectory,
  type CatalogSource,
  type Catalogs,
  type Project,
  type ProjectInputs,
  type PublishedBase,
  type PublishedBundles,
} from './project';
export type { Report } from './workflows/report';

// The workflows, with their reports and renderers.
export { generateProject as generate, checkProject, type CheckOptions, type CheckedGenerator, type GenerateReport } from './workflows/generate';
export { validate, checkedSummary, type ValidateOptions, type ValidateReport } from './workflows/validate';
export { checkOutputs as check, driftText, type CheckReport } from './workflows/check';
export { diff, diffJson, diffMarkdownComment, diffText, type DiffOptions, type DiffReport, type DiffSection } from './workflows/diff';
export { diffBundles } from './workflows/diff-bundles';
export { releaseProject as release, bundleProject as bundle, type BundleReport, type ReleaseRecord, type ReleaseReport } from './workflows/release';
export { notes, notesJson, notesText, type NotesReport } from './workflows/notes';
export { build, type BuildReport } from './workflows/build';
export { docs, type DocsReport } from './workflows/docs';
export { krmFunction, type FunctionReport } from './workflows/fn';
export { jsonSchema, type SchemaName } from './workflows/schema';
export { matrixOutput as matrix } from './workflows/matrix';
export { explain, type ExplainReport } from './workflows/explain';
export { expandText, expandVms, type ExpandVmsOptions, type ExpandVmsReport } from './workflows/expand';
export { facts, factsCsv, factsJson, factsText, type FactsReport } from './workflows/facts';
export {
  fit,
  fitJson,
  fitMarkdown,
  fitText,
  togetherJson,
  togetherMarkdown,
  togetherText,
  type CapacityScope,
  type FitOptions,
  type FitRun,
} from './workflows/fit';
export type { FitReport } from './expand/fit';
export type { TogetherReport } from './expand/place';
export { policy, policyJson, policyYaml, type PolicyReport } from './workflows/policy';
export { resize, resizeJson, resizeText, type ResizeOptions, type ResizeReport } from './workflows/resize';
export { select, selectCsv, selectJson, selectText, type SelectQuery, type SelectReport } from './workflows/select';
export { site, type SiteReport } from './workflows/site';
export { init, type InitOptions, type InitReport } from './workflows/init';
export { migratePresets, type MigrateOptions, type MigrateReport } from './workflows/migrate';
// The JSON documents the commands print with -o json and the MCP tools answer (their JSON Schemas: schema/output/).
export type {
  DiagnosticsJson,
  DiffJson,
  ExpandJson,
  FactsJson,
  FitJson,
  MatrixJson,
  MigrateTemplatesJson,
  NotesJson,
  PolicyJson,
  ResizeJson,
  SelectJson,
  TemplateProcessJson,
  TemplateSweepJson,
  McpExpandOutput,
  McpFitOutput,
  McpResizeOutput,
  McpSelectOutput,
  McpTemplateProcessOutput,
  McpValidateOutput,
} from './workflows/output';

// Diagnostics and their formats.
export { DIAGNOSTIC_CODES, WARNING_CODES, hasErrors, type Diagnostic, type Severity } from './diagnostics';
export { formatText as formatDiagnostics, formatGithub, formatGitlab, formatJson, summary, type OutputFormat } from './format';

// The command reference (docs/commands.md) and usage texts.
export { commandReference, commandUsage, usage } from './cli/help';
