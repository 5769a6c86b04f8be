import type { Project } from '../project';
import type { ReleaseSection } from '../release/notes';
import { notesMarkdown } from '../release/notes';
import { notesProject } from '../release/project';
import type { Report } from './report';

export interface NotesReport extends Report {
  readonly generators: readonly { readonly generator: string; readonly sections: readonly ReleaseSection[] }[];
}

/** `itgen notes`: each generator's release notes from its lock, newest first (after `since`; with `unreleased`, the next release on top). */
export function notes(project: Project, opts: { readonly since?: string; readonly unreleased?: boolean } = {}): NotesReport {
  const { inputs } = project;
  const { diagnostics, notes: generators } = notesProject(project.root, {
    ...(inputs.generators ? { generators: inputs.generators } : {}),
    strict: inputs.strict ?? false,
    ...(opts.unreleased ? { unreleased: true } : {}),
    ...(opts.since !== undefined ? { since: opts.since } : {}),
  });
  return { generators, diagnostics, notes: [] };
}

/** The notes as Markdown, generator after generator. */
export function notesText(report: NotesReport): string {
  return report.generators.map((n) => notesMarkdown(n.generator, n.sections)).join('\n');
}
