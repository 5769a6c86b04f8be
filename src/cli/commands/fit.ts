import { fitMarkdown, fitText, type CapacityScope } from '../../expand/fit';
import { togetherJson, togetherMarkdown, togetherText } from '../../expand/place';
import { fit as fitOf } from '../../workflows/fit';
import { optionSet, optionValue } from '../../commands/spec';
import { EXIT_OK, EXIT_USER, finish, type Command, outputOf, projectOf } from '../command';
import { FIT_COMMAND, OUTPUT } from '../../commands/fit';

export const fit: Command = {
  ...FIT_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const pods = optionValue(line, '--pods');
    const namespace = optionValue(line, '--namespace');
    const scope = optionValue(line, '--scope') as CapacityScope | undefined;
    const r = fitOf(projectOf(ctx), {
      vms: line.positionals,
      nodes: optionValue(line, '--nodes')!,
      ...(pods !== undefined ? { pods } : {}),
      ...(namespace !== undefined ? { namespace } : {}),
      ...(scope !== undefined ? { scope } : {}),
      together: optionSet(line, '--together'),
    });
    const format = outputOf(ctx, OUTPUT);
    const text = r.together
      ? format === 'json'
        ? togetherJson(r.together)
        : format === 'markdown'
          ? togetherMarkdown(r.together)
          : togetherText(r.together)
      : r.fit === undefined
        ? undefined
        : format === 'json'
          ? JSON.stringify(r.fit, null, 2)
          : format === 'markdown'
            ? fitMarkdown(r.fit)
            : fitText(r.fit);
    const code = finish(ctx, r, text);
    if (code !== EXIT_OK || !optionSet(line, '--exit-code')) return code;
    const unplaced = r.together ? r.together.placed < r.together.total : r.fit !== undefined && 'vms' in r.fit && r.fit.vms.some((v) => v.fits.length === 0);
    return unplaced ? EXIT_USER : EXIT_OK;
  },
};
