import { compatibilityMatrix, compatibilitySummary, formatMatrixMarkdown, formatMatrixText } from '../../matrix';
import { optionValue } from '../args';
import { compiledOrExit, EXIT_OK, writeText, type Command } from '../command';

export const matrix: Command = {
  name: 'matrix',
  synopsis: 'matrix [GENERATOR.yaml]... [-o text|json|markdown]',
  summary: 'which instance type x preference pairs KubeVirt admits, and why not the others',
  details:
    'Every pair of the same architecture is a VM naming both, admitted as KubeVirt does (spread, requirements) and checked as it would start (threads with dedicated CPUs, hugepage sizes).',
  generatorArguments: true,
  options: [
    {
      flag: '--output',
      short: '-o',
      value: 'text|json|markdown',
      help: 'text (default): per preference what it refuses and why; json: every pair; markdown: the grid of the generated README',
      check: (v) => (['text', 'json', 'markdown'].includes(v) ? undefined : '-o is text, json or markdown'),
    },
  ],
  run(ctx) {
    const { io, line } = ctx;
    const compiled = compiledOrExit(ctx, true);
    if ('exit' in compiled) return compiled.exit;
    const { results } = compiled;
    const format = optionValue(line, '--output') ?? 'text';
    const matrices = results.map((r) => ({ generator: r.generator!.name, catalog: r.catalog! }));
    if (format === 'json')
      io.out(JSON.stringify({ generators: matrices.map(({ generator, catalog }) => ({ generator, matrix: compatibilityMatrix(catalog) })) }, null, 2));
    else {
      const body = (m: (typeof matrices)[number]): string =>
        format === 'markdown' ? formatMatrixMarkdown(compatibilitySummary(m.catalog)) : formatMatrixText(m.catalog);
      writeText(io, matrices.map((m) => (matrices.length > 1 ? `# ${m.generator}\n${body(m)}` : body(m))).join('\n\n'));
    }
    return EXIT_OK;
  },
};
