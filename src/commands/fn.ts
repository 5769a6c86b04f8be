import { noPositionals, type CommandSpec } from './spec';

export const FN_COMMAND: CommandSpec = {
  name: 'fn',
  synopsis: 'fn [-C DIR]',
  summary: 'KRM function: ResourceList on stdin (functionConfig: a generator), one on stdout',
  details: 'kpt fn eval --exec "itgen fn" --fn-config generators/x.yaml: the working directory (or -C) is the project root.',
  options: [],
  accept: noPositionals,
};
