import { BASE_OPTION, BUNDLES_OPTION } from './spec';
import type { CommandSpec } from './spec';

export const GENERATE_COMMAND: CommandSpec = {
  name: 'generate',
  synopsis: 'generate [GENERATOR.yaml]...',
  summary: 'validate every generator, then write its kustomize base and README (atomically)',
  generatorArguments: true,
  options: [
    BASE_OPTION,
    BUNDLES_OPTION,
    { flag: '--allow-removals', help: 'drop objects the committed base has (before the first release, nothing else stops it)' },
    {
      flag: '--vms',
      value: 'DIR',
      repeatable: true,
      help: 'VirtualMachines kept in Git: refuse a removal that leaves one without its object, say which change',
    },
  ],
};
