import { hasErrors, type Diagnostic } from '../diagnostics';
import { compatibilityMatrix, compatibilitySummary, formatMatrixMarkdown, formatMatrixText, type CompatibilityMatrix } from '../matrix';
import type { Project } from '../project';

/**
 * `itgen matrix`: each generator's pairs as KubeVirt answers them, in `format`; undefined when the
 * catalogs have an error other than a preference the matrix itself refuses (IT8101), which still
 * shows in it. `refused`: the errors to say beside it.
 */
/** `matrix -o json`: per generator, which instance type and preference pairs KubeVirt admits and starts, and why not. */
export interface MatrixJson {
  readonly generators: readonly { readonly generator: string; readonly matrix: CompatibilityMatrix }[];
}

export function matrixOutput(project: Project, format: string): { text?: string; refused: readonly Diagnostic[] } {
  const compiled = project.compiled('files');
  const refused = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (hasErrors(compiled.diagnostics.filter((d) => d.code !== 'IT8101')) || compiled.results.some((r) => !r.catalog)) return { refused: compiled.diagnostics };
  const matrices = compiled.results.map((r) => ({ generator: r.generator!.name, catalog: r.catalog!, config: r.kubevirt }));
  if (format === 'json') {
    const doc: MatrixJson = { generators: matrices.map(({ generator, catalog, config }) => ({ generator, matrix: compatibilityMatrix(catalog, config) })) };
    return { text: JSON.stringify(doc, null, 2), refused };
  }
  const body = (m: (typeof matrices)[number]): string =>
    format === 'markdown' ? formatMatrixMarkdown(compatibilitySummary(m.catalog, m.config)) : formatMatrixText(m.catalog, m.config);
  return { text: matrices.map((m) => (matrices.length > 1 ? `# ${m.generator}\n${body(m)}` : body(m))).join('\n\n'), refused };
}
