/** `itgen check`: the project compiled, then each committed base held to what its catalog generates. */
import { hasErrors } from '../diagnostics';
import type { CompileResult } from '../pipeline';
import type { Project } from '../project';
import { formatDiff, type ObjectDiff } from '../release/diff';
import { outputDrift } from '../release/drift';
import type { Report } from './report';

export interface CheckReport extends Report {
  readonly results: readonly CompileResult[];
  /** Each base that differs from what its catalog generates, object by object. */
  readonly drift: readonly { readonly outputDir: string; readonly objects: readonly ObjectDiff[] }[];
}

/** What `itgen check` does: the compilation, then each base's drift from what its catalog generates. */
export function checkOutputs(project: Project): CheckReport {
  const { root } = project;
  const { results, diagnostics } = project.compiled('files');
  if (hasErrors(diagnostics)) return { results, diagnostics, drift: [], notes: [] };
  const all = [...diagnostics];
  const drift: { outputDir: string; objects: ObjectDiff[] }[] = [];
  for (const r of results) {
    const d = outputDrift(root, r);
    all.push(...d.diagnostics);
    if (d.objects.length > 0) drift.push({ outputDir: r.generator!.outputDir, objects: d.objects });
  }
  return { results, diagnostics: all, drift, notes: [] };
}

/** The drift as text: each base, from what is committed to what the catalogs generate. */
export function driftText(report: CheckReport): string {
  return report.drift.map((d) => `${d.outputDir}: from what is committed to what the catalogs generate:\n${formatDiff(d.objects)}`).join('\n');
}
