/** `itgen fn`: the KRM function (kpt, kustomize): a ResourceList on standard input, the generated one out. */
import { diag } from '../diagnostics';
import { readStdin } from '../load/manifests';
import type { Project } from '../project';
import { runFunction } from '../release/function';
import type { Report } from './report';

export interface FunctionReport extends Report {
  /** The ResourceList to print (its results carry the diagnostics too); none when the input could not be read. */
  readonly output?: string;
}

export function krmFunction(project: Project, stdin: () => string): FunctionReport {
  const input = readStdin(stdin);
  if ('error' in input) return { diagnostics: [diag('IT7302', `cannot read standard input: ${input.error}`)], notes: [] };
  const { output, diagnostics } = runFunction(project.root, input.bytes.toString('utf8'), { strict: project.inputs.strict ?? false });
  return { output, diagnostics, notes: [] };
}
