import { optionValue } from '../../commands/spec';
import { matrixOutput } from '../../workflows/matrix';
import { compileAll, exitCodeFor, report, writeText, type Command } from '../command';
import { MATRIX_COMMAND } from '../../commands/matrix';

export const matrix: Command = {
  ...MATRIX_COMMAND,
  run(ctx) {
    const { text, refused } = matrixOutput(compileAll(ctx), optionValue(ctx.line, '--output') ?? 'text');
    if (text !== undefined) writeText(ctx.io, text);
    if (refused.length > 0) report(ctx.io, ctx.global.format, refused, ctx.root, true);
    return exitCodeFor(refused);
  },
};
