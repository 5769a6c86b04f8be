import { resize as resizeOf, resizeJson, resizeText } from '../../workflows/resize';
import { optionSet, optionValue } from '../../commands/spec';
import { EXIT_OK, EXIT_USER, finish, type Command, outputOf, projectOf } from '../command';
import { RESIZE_COMMAND, OUTPUT } from '../../commands/resize';

export const resize: Command = {
  ...RESIZE_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const value = (flag: string, key: string): Record<string, string> => {
      const v = optionValue(line, flag);
      return v === undefined ? {} : { [key]: v };
    };
    const r = resizeOf(projectOf(ctx), {
      vm: line.positionals[0]!,
      ...value('--to', 'to'),
      ...value('--preference', 'preference'),
      ...value('--vmi', 'vmi'),
      plan: optionSet(line, '--plan'),
      notMigratable: optionSet(line, '--not-migratable'),
    });
    if (!r.plan && !r.options) return finish(ctx, r, undefined);
    const code = finish(ctx, r, outputOf(ctx, OUTPUT) === 'json' ? resizeJson(r) : resizeText(r));
    return code === EXIT_OK && optionSet(line, '--exit-code') && r.plan !== undefined && r.plan.outcome !== 'live' ? EXIT_USER : code;
  },
};
