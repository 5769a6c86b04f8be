import path from 'node:path';
import { hasErrors } from '../../diagnostics';
import { writeTree } from '../../emit/write';
import { removalsWithoutLock } from '../../release/drift';
import { optionSet } from '../args';
import { compileAll, EXIT_OK, exitCodeFor, report, writeProblem, type Command } from '../command';

export const generate: Command = {
  name: 'generate',
  synopsis: 'generate [GENERATOR.yaml]...',
  summary: 'validate every generator, then write its kustomize base and README (atomically)',
  generatorArguments: true,
  options: [{ flag: '--allow-removals', help: 'drop objects the committed base has (before the first release, nothing else stops it)' }],
  run(ctx) {
    const { io, global, root } = ctx;
    const compiled = compileAll(ctx);
    const { results } = compiled;
    const diagnostics =
      hasErrors(compiled.diagnostics) || optionSet(ctx.line, '--allow-removals')
        ? compiled.diagnostics
        : [...compiled.diagnostics, ...results.flatMap((r) => removalsWithoutLock(root, r))];
    report(io, global.format, diagnostics, root);
    const code = exitCodeFor(diagnostics);
    if (code !== EXIT_OK) {
      if (global.format === 'text') io.err('nothing written');
      return code;
    }
    // Everything validated: only now touch the disk, one generator directory at a time, each atomically.
    for (const r of results) {
      try {
        writeTree(path.resolve(root, r.generator!.outputDir), r.files);
      } catch (e) {
        const problem = writeProblem(r.generator!.outputDir, e);
        report(io, global.format, [problem], root);
        return exitCodeFor([problem]);
      }
      if (global.format === 'text') io.err(`${r.generator!.name}: wrote ${r.objects.length} objects to ${r.generator!.outputDir}`);
    }
    return EXIT_OK;
  },
};
