import path from 'node:path';
import { hasErrors } from '../diagnostics';
import type { Project } from '../project';
import { sitePage, writeSite } from '../site';
import { catalogsOrReport, fromNote, type Report } from './report';
import { catalogsSiteData } from './select';

export interface SiteReport extends Report {
  /** The page written, as the operator named it (`DIR/index.html`); none when nothing was written. */
  readonly written?: string;
}

/**
 * `itgen site --out DIR`: the catalog explorer of the project's catalogs or of the files given,
 * written atomically to DIR/index.html (one itgen did not write is left alone). Pod requests under
 * the named KubeVirt CR, else each generator's, else KubeVirt's defaults.
 */
export function site(project: Project, opts: { readonly out: string; readonly title?: string }): SiteReport {
  const cr = project.kubevirt();
  if (hasErrors(cr.diagnostics)) return { diagnostics: cr.diagnostics, notes: [] };
  const got = catalogsOrReport(project);
  if (!got.ok) return { diagnostics: [...cr.diagnostics, ...got.report.diagnostics], notes: [] };
  const catalogs = cr.config ? { ...got.catalogs, sources: got.catalogs.sources.map((s) => ({ ...s, kubevirt: cr.config! })) } : got.catalogs;
  const page = sitePage(catalogsSiteData(catalogs, project.config(), opts.title));
  const problems = writeSite(path.resolve(project.cwd, opts.out), opts.out, page);
  const diagnostics = [...cr.diagnostics, ...got.catalogs.diagnostics, ...problems];
  if (hasErrors(problems)) return { diagnostics, notes: [] };
  return { written: path.join(opts.out, 'index.html'), diagnostics, notes: fromNote(got.catalogs.from) };
}
