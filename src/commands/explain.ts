import { KUBEVIRT_OPTION, WITH_OPTION } from './spec';
import type { CommandSpec } from './spec';

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
