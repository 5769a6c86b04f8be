import type { CommandSpec } from './spec';

export const CHECK_COMMAND: CommandSpec = {
  name: 'check',
  synopsis: 'check [GENERATOR.yaml]...',
  summary: 'exit 1 when the committed output differs from what the catalogs generate',
  generatorArguments: true,
  options: [],
};
