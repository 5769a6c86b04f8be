import { runFunction } from '../../release/function';
import { exitCodeFor, noPositionals, report, type Command } from '../command';

export const fn: Command = {
  name: 'fn',
  synopsis: 'fn [-C DIR]',
  summary: 'KRM function: ResourceList on stdin (functionConfig: a generator), one on stdout',
  details: 'kpt fn eval --exec "itgen fn" --fn-config generators/x.yaml: the working directory (or -C) is the project root.',
  options: [],
  accept: noPositionals,
  run({ io, global, root }) {
    const { output, diagnostics } = runFunction(root, io.stdin ? io.stdin() : '', { strict: global.strict });
    io.out(output);
    // The ResourceList carries the results; stderr gets them for people reading a kpt log.
    if (diagnostics.length > 0) report(io, 'text', diagnostics, root);
    return exitCodeFor(diagnostics);
  },
};
