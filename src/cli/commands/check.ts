import type { CommandSpec } from '../parse';
import { checkOutputs, driftText } from '../../workflows/check';
import { checkedGenerators } from '../../workflows/generate';
import { checkedSummary } from '../../workflows/validate';
import { EXIT_OK, exitCodeFor, projectOf, report, type Command } from '../command';

export const CHECK_COMMAND: CommandSpec = {
  name: 'check',
  synopsis: 'check [GENERATOR.yaml]...',
  summary: 'exit 1 when the committed output differs from what the catalogs generate',
  generatorArguments: true,
  options: [],
};

export const check: Command = {
  ...CHECK_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const r = checkOutputs(projectOf(ctx));
    const { results, diagnostics, drift } = r;
    report(io, global.format, diagnostics, root);
    if (exitCodeFor(diagnostics) === EXIT_OK && io.terminal && global.format === 'text')
      io.err(checkedSummary('output matches the catalogs:', checkedGenerators(results), diagnostics));
    if (global.format === 'text' && drift.length > 0) io.err(driftText(r));
    return exitCodeFor(diagnostics);
  },
};
