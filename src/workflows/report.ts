/**
 * What every workflow returns: its data, the diagnostics of the run, and notes (what the answer
 * assumed, which objects were used). The library never prints: the CLI renders a report.
 */
import type { Diagnostic } from '../diagnostics';
import type { Project } from '../project';

export interface Report {
  readonly diagnostics: readonly Diagnostic[];
  /** What the answer assumed or where its objects came from, in words. */
  readonly notes: readonly string[];
}

/** The catalogs a workflow needs, or the report that says why there are none usable. */
export function catalogsOrReport(
  project: Project,
  files: 'instead' | 'besides' = 'instead',
): { ok: true; catalogs: ReturnType<Project['catalogs']> } | { ok: false; report: Report } {
  const catalogs = project.catalogs(files);
  if (catalogs.blocking || catalogs.sources.length === 0) return { ok: false, report: { diagnostics: catalogs.diagnostics, notes: [] } };
  return { ok: true, catalogs };
}

/** `objects from the project (acme) and bundle.yaml`. */
export function fromNote(from: string): string[] {
  return from === '' ? [] : [`objects from ${from}`];
}
