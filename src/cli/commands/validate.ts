import { checkedSummary, validate as validateOf } from '../../workflows/validate';
import { optionSet, optionValues } from '../../commands/spec';
import { EXIT_OK, finish, type Command, projectOf } from '../command';
import { VALIDATE_COMMAND } from '../../commands/validate';

export const validate: Command = {
  ...VALIDATE_COMMAND,
  run(ctx) {
    const { io, global, line } = ctx;
    const r = validateOf(projectOf(ctx), { files: line.positionals, vms: optionValues(line, '--vms'), allowRemovals: optionSet(line, '--allow-removals') });
    const code = finish(ctx, r, undefined, false);
    if (line.positionals.length === 0 && code === EXIT_OK && io.terminal && global.format === 'text')
      io.err(checkedSummary('validated', r.results, r.diagnostics));
    return code;
  },
};
