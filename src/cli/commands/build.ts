import { objectStream } from '../../emit/layout';
import { KIND_ORDER } from '../../schema/kubevirt-api';
import { compiledOrExit, EXIT_OK, report, writeText, type Command } from '../command';

export const build: Command = {
  name: 'build',
  synopsis: 'build [GENERATOR.yaml]...',
  summary: 'print the objects of the generators as one YAML stream, as kustomize build would (writes nothing)',
  details: 'For pipes and config-management plugins (an Argo CD CMP, say). Every check runs first; with an error nothing is printed on stdout.',
  generatorArguments: true,
  options: [],
  run(ctx) {
    const { io, global, root } = ctx;
    const compiled = compiledOrExit(ctx, true);
    if ('exit' in compiled) return compiled.exit;
    const { results, diagnostics } = compiled;
    // Warnings go to stderr; stdout holds only the objects.
    report(io, global.format, diagnostics, root, true);
    writeText(io, results.map((r) => objectStream(r.objects, KIND_ORDER)).join(''));
    return EXIT_OK;
  },
};
