import type { CommandSpec } from '../parse';
import { build as buildOf } from '../../workflows/build';
import { EXIT_OK, exitCodeFor, projectOf, report, writeText, type Command } from '../command';

export const BUILD_COMMAND: CommandSpec = {
  name: 'build',
  synopsis: 'build [GENERATOR.yaml]...',
  summary: 'print the objects of the generators as one YAML stream, as kustomize build would (writes nothing)',
  details: 'For pipes and config-management plugins (an Argo CD CMP, say). Every check runs first; with an error nothing is printed on stdout.',
  generatorArguments: true,
  options: [],
};

export const build: Command = {
  ...BUILD_COMMAND,
  run(ctx) {
    const r = buildOf(projectOf(ctx));
    // Warnings go to stderr; stdout holds only the objects.
    report(ctx.io, ctx.global.format, r.diagnostics, ctx.root, true);
    if (r.stream === undefined) return exitCodeFor(r.diagnostics);
    writeText(ctx.io, r.stream);
    return EXIT_OK;
  },
};
