/** `itgen build`: the generators' objects as one YAML stream, as kustomize build prints a base. */
import { hasErrors } from '../diagnostics';
import { objectStream } from '../emit/layout';
import type { Project } from '../project';
import { KIND_ORDER } from '../schema/kubevirt-api';
import type { Report } from './report';

export interface BuildReport extends Report {
  /** The stream, or none when a check found an error (nothing is printed then). */
  readonly stream?: string;
}

export function build(project: Project): BuildReport {
  const { results, diagnostics } = project.compiled('files');
  if (hasErrors(diagnostics)) return { diagnostics, notes: [] };
  return { diagnostics, notes: [], stream: results.map((r) => objectStream(r.objects, KIND_ORDER)).join('') };
}
