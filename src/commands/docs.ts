import { DOCS_FILE } from '../render/docs';
import type { CommandSpec } from './spec';

export const DOCS_COMMAND: CommandSpec = {
  name: 'docs',
  synopsis: 'docs [GENERATOR.yaml]...',
  summary: `rewrite only output/<generator>/${DOCS_FILE}`,
  generatorArguments: true,
  options: [],
};
