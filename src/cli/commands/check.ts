import { formatDiff } from '../../release/diff';
import { checkOutputs } from '../../release/project';
import { checkedSummary } from '../../workflows/validate';
import { EXIT_OK, exitCodeFor, report, type Command } from '../command';
import { CHECK_COMMAND } from '../../commands/check';

export const check: Command = {
  ...CHECK_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const { results, diagnostics, drift } = checkOutputs(root, { generators: global.generators, strict: global.strict });
    report(io, global.format, diagnostics, root);
    if (exitCodeFor(diagnostics) === EXIT_OK && io.terminal && global.format === 'text')
      io.err(checkedSummary('output matches the catalogs:', results, diagnostics));
    if (global.format === 'text' && drift.length > 0)
      io.err(drift.map((d) => `${d.outputDir}: from what is committed to what the catalogs generate:\n${formatDiff(d.objects)}`).join('\n'));
    return exitCodeFor(diagnostics);
  },
};
