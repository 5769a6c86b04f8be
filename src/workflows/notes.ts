import { diag, hasErrors } from '../diagnostics';
import type { Project } from '../project';
import { recordRelease } from '../release/lock';
import { shippedObjects } from './shipped';
import { notesMarkdown, releaseNotes, type ReleaseSection } from '../release/notes';
import type { Report } from './report';

export interface NotesReport extends Report {
  readonly generators: readonly { readonly generator: string; readonly sections: readonly ReleaseSection[] }[];
}

/** `itgen notes`: each generator's release notes from its lock, newest first (after `since`; with `unreleased`, the next release on top). */
export function notes(project: Project, opts: { readonly since?: string; readonly unreleased?: boolean } = {}): NotesReport {
  const { results, diagnostics } = project.compiled('files');
  const generators = results.flatMap((r) => {
    if (!r.generator || (!r.lock && !opts.unreleased)) return [];
    // What the next `itgen release` would record, as a section named `unreleased` above the rest.
    const next = opts.unreleased && r.files.length > 0 ? recordRelease(r.lock, r.generator.name, shippedObjects(r), UNRELEASED, r.packages ?? []) : undefined;
    const last = r.lock?.lock.releases[r.lock.lock.releases.length - 1];
    const preview = next?.lock ? releaseNotes(next.lock, r.objects, last).map((x) => (x.version === UNRELEASED ? { ...x, version: 'unreleased' } : x)) : [];
    const past = r.lock ? releaseNotes(r.lock.lock, r.objects, opts.since) : [];
    return [{ generator: r.generator.name, sections: [...preview.filter((x) => x.version === 'unreleased'), ...past] }];
  });
  if (!hasErrors(diagnostics) && generators.length === 0)
    return {
      generators,
      diagnostics: [
        ...diagnostics,
        diag('IT7301', 'no release lock: nothing released yet', undefined, { hint: 'record a release with `itgen release --version v1.0.0`' }),
      ],
      notes: [],
    };
  return { generators, diagnostics: [...diagnostics], notes: [] };
}

/** The notes as Markdown, generator after generator. */
export function notesText(report: NotesReport): string {
  return report.generators.map((n) => notesMarkdown(n.generator, n.sections)).join('\n');
}

/** The version the preview of the next release is recorded under; shown as `unreleased`. */
const UNRELEASED = 'v999999999.0.0';

/** `notes -o json`: each generator's release notes, newest release first. */
export interface NotesJson {
  readonly generators: NotesReport['generators'];
}

/** The notes as JSON: each generator's sections. */
export function notesJson(report: NotesReport): string {
  const doc: NotesJson = { generators: report.generators };
  return JSON.stringify(doc, null, 2);
}
