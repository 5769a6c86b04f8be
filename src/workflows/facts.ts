import { catalogFacts, type LauncherFacts } from '../expand/facts';
import type { JsonObject } from '../json';
import type { Project } from '../project';
import { catalogsOrReport, fromNote, type Report } from './report';

export interface FactsReport extends Report {
  readonly catalogs: readonly { readonly generator: string; readonly facts: readonly LauncherFacts[] }[];
}

/**
 * `itgen facts`: what each instance type and preference asks of a node, under the named KubeVirt
 * CR, else the CR the generator names, else KubeVirt's defaults.
 */
export function facts(project: Project): FactsReport {
  const cr = project.kubevirt();
  if (cr.diagnostics.some((d) => d.severity === 'error')) return { catalogs: [], diagnostics: cr.diagnostics, notes: [] };
  const got = catalogsOrReport(project);
  if (!got.ok) return { catalogs: [], diagnostics: [...cr.diagnostics, ...got.report.diagnostics], notes: [] };
  const catalogs = got.catalogs.sources.map((s) => ({
    generator: s.name,
    facts: catalogFacts(
      s.objects.map((o) => o.manifest as unknown as JsonObject),
      cr.config ?? s.kubevirt ?? project.config(),
    ),
  }));
  return { catalogs, diagnostics: [...cr.diagnostics, ...got.catalogs.diagnostics], notes: fromNote(got.catalogs.from) };
}

/** One line per object: requests, overhead, node labels. */
export function factsText(report: FactsReport): string {
  const text = (all: readonly LauncherFacts[]): string =>
    all
      .map((f) => {
        if (f.refused !== undefined) return `${f.name}: not started: ${f.refused}`;
        const res = Object.entries(f.requests ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(' ');
        const labels = Object.keys(f.nodeLabels ?? {}).join(' ');
        return `${f.name}: requests ${res}; overhead ${f.memoryOverhead ?? '?'}${f.overheadDelta !== undefined ? ` (the preference adds ${f.overheadDelta})` : ''}; node labels ${labels}`;
      })
      .join('\n');
  const rows = report.catalogs;
  return rows.map((r) => (rows.length > 1 ? `# ${r.generator}\n${text(r.facts)}` : text(r.facts))).join('\n\n');
}

export { factsCsv } from '../expand/facts';

/** `facts -o json`: each generator's (or the files') catalog and what its objects ask of a node. */
export interface FactsJson {
  readonly generators: FactsReport['catalogs'];
}

/** The facts as JSON: each generator's (or the files') catalog and its facts. */
export function factsJson(report: FactsReport): string {
  const doc: FactsJson = { generators: report.catalogs };
  return JSON.stringify(doc, null, 2);
}
