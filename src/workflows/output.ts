/**
 * The JSON documents the commands print (`-o json`, `--format json`) and the MCP tools answer, one
 * type per document, each declared beside its renderer. These types are the one source of the JSON
 * Schemas in schema/output/ (tools/output-schemas.mjs generates them; a test holds the committed
 * files to the types and the commands' real outputs to the files), which the package ships and the
 * MCP server publishes as its tools' output schemas. Types only: nothing here runs.
 */
export type { DiagnosticsJson } from '../format';
export type { DiffJson } from './diff';
export type { ExpandJson } from './expand';
export type { FactsJson } from './facts';
export type { FitJson } from './fit';
export type { MatrixJson } from './matrix';
export type { MigrateTemplatesJson } from './migrate';
export type { NotesJson } from './notes';
export type { PolicyJson } from './policy';
export type { ResizeJson } from './resize';
export type { SelectJson } from './choose';
export type { TemplateProcessJson, TemplateSweepJson } from './template';
export type { McpExpandOutput, McpFitOutput, McpResizeOutput, McpSelectOutput, McpTemplateProcessOutput, McpValidateOutput } from './mcp';
