import { hasErrors } from '../../diagnostics';
import { objectStream } from '../../emit/layout';
import { KIND_ORDER } from '../../schema/manifest';
import { compileAll, EXIT_OK, exitCodeFor, report, writeText, type Command } from '../command';

export const build: Command = {
  name: 'build',
  synopsis: 'build [GENERATOR.yaml]...',
  summary: 'print the objects of the generators as one YAML stream, as kustomize build would (writes nothing)',
  details: 'For pipes and config-management plugins (an Argo CD CMP, say). Every check runs first; with an error nothing is printed on stdout.',
  generatorArguments: true,
  options: [],
  run(ctx) {
    const { io, global, root } = ctx;
    const { results, diagnostics } = compileAll(ctx);
    if (hasErrors(diagnostics)) {
      report(io, global.format === 'json' ? 'text' : global.format, diagnostics, root);
      return exitCodeFor(diagnostics);
    }
    // Warnings go to stderr; stdout holds only the objects.
    report(io, 'text', diagnostics, root);
    writeText(io, results.map((r) => objectStream(r.objects, KIND_ORDER)).join(''));
    return EXIT_OK;
  },
};
