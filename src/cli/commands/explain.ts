import { explain as explainOf } from '../../workflows/explain';
import { optionValue } from '../../commands/spec';
import { finish, type Command, projectOf } from '../command';
import { EXPLAIN_COMMAND } from '../../commands/explain';

export const explain: Command = {
  ...EXPLAIN_COMMAND,
  run(ctx) {
    const r = explainOf(projectOf(ctx), ctx.line.positionals[0]!, optionValue(ctx.line, '--kind'));
    // The objects are the answer: on stdout, with the diagnostics (warnings of the catalog) on stderr.
    return finish(ctx, r, r.objects.length === 0 ? undefined : r.objects.map((o) => o.text).join('---\n'), false);
  },
};
