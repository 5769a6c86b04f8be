import { objectStream } from '../../emit/layout';
import { KIND_ORDER } from '../../schema/kubevirt-api';
import { compiledOrExit, EXIT_OK, report, writeText, type Command } from '../command';
import { BUILD_COMMAND } from '../../commands/build';

export const build: Command = {
  ...BUILD_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const compiled = compiledOrExit(ctx, true);
    if ('exit' in compiled) return compiled.exit;
    const { results, diagnostics } = compiled;
    // Warnings go to stderr; stdout holds only the objects.
    report(io, global.format, diagnostics, root, true);
    writeText(io, results.map((r) => objectStream(r.objects, KIND_ORDER)).join(''));
    return EXIT_OK;
  },
};
