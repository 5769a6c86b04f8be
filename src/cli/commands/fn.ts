import { noPositionals, type CommandSpec } from '../parse';
import { krmFunction } from '../../workflows/fn';
import { exitCodeFor, projectOf, report, type Command } from '../command';

export const FN_COMMAND: CommandSpec = {
  name: 'fn',
  synopsis: 'fn [-C DIR]',
  summary: 'KRM function: ResourceList on stdin (functionConfig: a generator), one on stdout',
  details: 'kpt fn eval --exec "itgen fn" --fn-config generators/x.yaml: the working directory (or -C) is the project root.',
  options: [],
  accept: noPositionals,
};

export const fn: Command = {
  ...FN_COMMAND,
  run(ctx) {
    const { io, root } = ctx;
    const r = krmFunction(projectOf(ctx), () => (io.stdin ? io.stdin() : ''));
    if (r.output !== undefined) io.out(r.output);
    // The ResourceList carries the results; stderr gets them for people reading a kpt log.
    if (r.diagnostics.length > 0) report(io, 'text', r.diagnostics, root);
    return exitCodeFor(r.diagnostics);
  },
};
