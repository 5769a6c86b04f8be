import { hasErrors } from '../../diagnostics';
import { formatDiff } from '../../release/diff';
import { outputDrift } from '../../release/drift';
import { compileAll, exitCodeFor, report, type Command } from '../command';

export const check: Command = {
  name: 'check',
  synopsis: 'check [GENERATOR.yaml]...',
  summary: 'exit 1 when the committed output differs from what the catalogs generate',
  generatorArguments: true,
  options: [],
  run(ctx) {
    const { io, global, root } = ctx;
    const { results, diagnostics } = compileAll(ctx);
    const all = [...diagnostics];
    const objectDiffs: string[] = [];
    if (!hasErrors(diagnostics)) {
      for (const r of results) {
        const d = outputDrift(root, r);
        all.push(...d.diagnostics);
        if (d.objects.length > 0)
          objectDiffs.push(`${r.generator!.outputDir}: from what is committed to what the catalogs generate:\n${formatDiff(d.objects)}`);
      }
    }
    report(io, global.format, all, root);
    if (global.format === 'text' && objectDiffs.length > 0) io.err(objectDiffs.join('\n'));
    return exitCodeFor(all);
  },
};
