import { KUBEVIRT_OPTION, WITH_OPTION, optionValue, type CommandSpec } from '../parse';
import { explain as explainOf } from '../../workflows/explain';
import { finish, projectOf, type Command } from '../command';

export const EXPLAIN_COMMAND: CommandSpec = {
  name: 'explain',
  synopsis: 'explain NAME [--kind KIND] [--with FILE]...',
  summary: 'print the resolved object with the source of every field',
  details:
    "Without --kind, every object of that name: an instance type or preference and its namespaced twin. With --with FILE, the objects of files (the platform's bundle) instead of the project, with the file and line each was read at.",
  options: [
    { flag: '--kind', value: 'KIND', help: "only the object of this kind (kubectl's names too: vmcf, vmf, vmcp, vmp, plurals)" },
    WITH_OPTION,
    KUBEVIRT_OPTION,
  ],
  accept: (line) => (line.positionals.length === 1 ? undefined : 'explain needs exactly one object name'),
};

export const explain: Command = {
  ...EXPLAIN_COMMAND,
  run(ctx) {
    const r = explainOf(projectOf(ctx), ctx.line.positionals[0]!, optionValue(ctx.line, '--kind'));
    // The objects are the answer: on stdout, with the diagnostics (warnings of the catalog) on stderr.
    return finish(ctx, r, r.objects.length === 0 ? undefined : r.objects.map((o) => o.text).join('---\n'), false);
  },
};
