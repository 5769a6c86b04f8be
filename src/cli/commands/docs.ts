import path from 'node:path';
import { withOutputLock, writeFilesAtomic } from '../../emit/write';
import { DOCS_FILE } from '../../render/docs';
import { writeProblem } from '../../emit/write';
import { compileAll, EXIT_OK, exitCodeFor, report, type Command } from '../command';
import { DOCS_COMMAND } from '../../commands/docs';

export const docs: Command = {
  ...DOCS_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const { results, diagnostics } = compileAll(ctx);
    report(io, global.format, diagnostics, root);
    const code = exitCodeFor(diagnostics);
    if (code !== EXIT_OK) return code;
    for (const r of results) {
      const readme = r.files.find((f) => f.path === DOCS_FILE)!;
      try {
        const outDir = path.resolve(root, r.generator!.outputDir);
        withOutputLock(outDir, () => writeFilesAtomic(outDir, [readme]));
      } catch (e) {
        const problem = writeProblem(`${r.generator!.outputDir}/${DOCS_FILE}`, e);
        report(io, global.format, [problem], root);
        return exitCodeFor([problem]);
      }
      if (global.format === 'text') io.err(`${r.generator!.name}: wrote ${r.generator!.outputDir}/${DOCS_FILE}`);
    }
    return EXIT_OK;
  },
};
