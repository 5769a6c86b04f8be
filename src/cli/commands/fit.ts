import { fitMarkdown, fitText } from '../../expand/fit';
import { fit as fitOf } from '../../workflows/fit';
import { optionValue } from '../../commands/spec';
import { finish, type Command, outputOf, projectOf } from '../command';
import { FIT_COMMAND, OUTPUT } from '../../commands/fit';

export const fit: Command = {
  ...FIT_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const pods = optionValue(line, '--pods');
    const namespace = optionValue(line, '--namespace');
    const r = fitOf(projectOf(ctx), {
      vms: line.positionals,
      nodes: optionValue(line, '--nodes')!,
      ...(pods !== undefined ? { pods } : {}),
      ...(namespace !== undefined ? { namespace } : {}),
    });
    const format = outputOf(ctx, OUTPUT);
    const text =
      r.fit === undefined ? undefined : format === 'json' ? JSON.stringify(r.fit, null, 2) : format === 'markdown' ? fitMarkdown(r.fit) : fitText(r.fit);
    return finish(ctx, r, text);
  },
};
