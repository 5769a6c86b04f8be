import { compileAll, exitCodeFor, noPositionals, report, type Command } from '../command';

export const validate: Command = {
  name: 'validate',
  synopsis: 'validate [-g FILE]...',
  summary: 'run every check, write nothing',
  options: [],
  accept: noPositionals,
  run(ctx) {
    const { diagnostics } = compileAll(ctx);
    report(ctx.io, ctx.global.format, diagnostics, ctx.root);
    return exitCodeFor(diagnostics);
  },
};
