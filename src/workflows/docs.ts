/** `itgen docs`: only each base's README rewritten, from what the catalog generates now. */
import path from 'node:path';
import { hasErrors } from '../diagnostics';
import { withOutputLock, writeFilesAtomic, writeProblem } from '../emit/write';
import type { Project } from '../project';
import { DOCS_FILE } from '../render/docs';
import type { Report } from './report';

export { DOCS_FILE };

export interface DocsReport extends Report {
  /** Each generator whose README was written, and where. */
  readonly written: readonly { readonly generator: string; readonly file: string }[];
}

export function docs(project: Project): DocsReport {
  const { results, diagnostics } = project.compiled('files');
  if (hasErrors(diagnostics)) return { diagnostics, notes: [], written: [] };
  const written: { generator: string; file: string }[] = [];
  for (const r of results) {
    const readme = r.files.find((f) => f.path === DOCS_FILE)!;
    const file = `${r.generator!.outputDir}/${DOCS_FILE}`;
    try {
      const outDir = path.resolve(project.root, r.generator!.outputDir);
      withOutputLock(outDir, () => writeFilesAtomic(outDir, [readme]));
    } catch (e) {
      return { diagnostics: [...diagnostics, writeProblem(file, e)], notes: [], written };
    }
    written.push({ generator: r.generator!.name, file });
  }
  return { diagnostics, notes: [], written };
}
