import { diff as diffOf, diffJson, diffMarkdownComment, diffText } from '../../workflows/diff';
import { diffBundles } from '../../workflows/diff-bundles';
import { optionSet, optionValue, optionValues } from '../../commands/spec';
import { EXIT_OK, EXIT_USER, exitCodeFor, finish, report, writeText, type Command, projectOf } from '../command';
import { DIFF_COMMAND } from '../../commands/diff';

export const diff: Command = {
  ...DIFF_COMMAND,
  run(ctx) {
    const { io, global, root, line } = ctx;
    const against = optionValue(line, '--against');
    const from = optionValue(line, '--from');
    const to = optionValue(line, '--to');
    const r =
      from !== undefined && to !== undefined
        ? diffBundles(projectOf(ctx), { from, to, vms: optionValues(line, '--vms') })
        : diffOf(projectOf(ctx), { ...(against !== undefined ? { against } : {}), vms: optionValues(line, '--vms') });
    if (r.failed) return finish(ctx, r, undefined);
    const output = optionValue(line, '--output') ?? (global.format === 'json' ? 'json' : 'text');
    // JSON carries the diagnostics inside; markdown is the comment, with them on stderr; text after them.
    if (output === 'json') io.out(diffJson(r));
    else if (output === 'markdown') {
      report(io, global.format, r.diagnostics, root, true);
      writeText(io, diffMarkdownComment(r));
    } else {
      report(io, global.format, r.diagnostics, root);
      const text = diffText(r);
      if (text !== '') writeText(io, text);
    }
    const code = exitCodeFor(r.diagnostics);
    if (code !== EXIT_OK) return code;
    return optionSet(line, '--exit-code') && r.changed ? EXIT_USER : EXIT_OK;
  },
};
