import type { CommandSpec } from './spec';

export const BUILD_COMMAND: CommandSpec = {
  name: 'build',
  synopsis: 'build [GENERATOR.yaml]...',
  summary: 'print the objects of the generators as one YAML stream, as kustomize build would (writes nothing)',
  details: 'For pipes and config-management plugins (an Argo CD CMP, say). Every check runs first; with an error nothing is printed on stdout.',
  generatorArguments: true,
  options: [],
};
