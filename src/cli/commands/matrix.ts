import { compatibilityMatrix, compatibilitySummary, formatMatrixMarkdown, formatMatrixText } from '../../matrix';
import { optionValue } from '../../commands/spec';
import { compiledOrExit, EXIT_OK, writeText, type Command } from '../command';
import { MATRIX_COMMAND } from '../../commands/matrix';

export const matrix: Command = {
  ...MATRIX_COMMAND,
  run(ctx) {
    const { io, line } = ctx;
    const compiled = compiledOrExit(ctx, true);
    if ('exit' in compiled) return compiled.exit;
    const { results } = compiled;
    const format = optionValue(line, '--output') ?? 'text';
    const matrices = results.map((r) => ({ generator: r.generator!.name, catalog: r.catalog!, config: r.kubevirt }));
    if (format === 'json')
      io.out(
        JSON.stringify(
          { generators: matrices.map(({ generator, catalog, config }) => ({ generator, matrix: compatibilityMatrix(catalog, config) })) },
          null,
          2,
        ),
      );
    else {
      const body = (m: (typeof matrices)[number]): string =>
        format === 'markdown' ? formatMatrixMarkdown(compatibilitySummary(m.catalog, m.config)) : formatMatrixText(m.catalog, m.config);
      writeText(io, matrices.map((m) => (matrices.length > 1 ? `# ${m.generator}\n${body(m)}` : body(m))).join('\n\n'));
    }
    return EXIT_OK;
  },
};
