import { expandText, expandVms } from '../../workflows/expand';
import { optionSet, optionValue, optionValues } from '../../commands/spec';
import { finish, type Command, outputOf, projectOf } from '../command';
import { EXPAND_COMMAND, OUTPUT } from '../../commands/expand';

export const expand: Command = {
  ...EXPAND_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const namespace = optionValue(line, '--namespace');
    const r = expandVms(projectOf(ctx), {
      files: line.positionals,
      as: (optionValue(line, '--as') ?? 'vm') as 'vm' | 'vmi' | 'pod',
      ...(namespace !== undefined ? { namespace } : {}),
      stored: optionSet(line, '--stored'),
      skipAdmission: optionSet(line, '--skip-admission'),
      nodes: optionValues(line, '--nodes'),
    });
    return finish(ctx, r, expandText(r, outputOf(ctx, OUTPUT)));
  },
};
