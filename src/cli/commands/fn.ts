import { runFunction } from '../../release/function';
import { diag } from '../../diagnostics';
import { readStdin } from '../../load/manifests';
import { EXIT_USER, exitCodeFor, report, type Command } from '../command';
import { FN_COMMAND } from '../../commands/fn';

export const fn: Command = {
  ...FN_COMMAND,
  run({ io, global, root }) {
    const input = readStdin(() => (io.stdin ? io.stdin() : ''));
    if ('error' in input) {
      report(io, 'text', [diag('IT7302', `cannot read standard input: ${input.error}`)], root);
      return EXIT_USER;
    }
    const { output, diagnostics } = runFunction(root, input.bytes.toString('utf8'), { strict: global.strict });
    io.out(output);
    // The ResourceList carries the results; stderr gets them for people reading a kpt log.
    if (diagnostics.length > 0) report(io, 'text', diagnostics, root);
    return exitCodeFor(diagnostics);
  },
};
