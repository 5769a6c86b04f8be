import type { CommandSpec } from '../parse';
import { docs as docsOf, DOCS_FILE } from '../../workflows/docs';
import { exitCodeFor, projectOf, report, type Command } from '../command';

export const DOCS_COMMAND: CommandSpec = {
  name: 'docs',
  synopsis: 'docs [GENERATOR.yaml]...',
  summary: `rewrite only output/<generator>/${DOCS_FILE}`,
  generatorArguments: true,
  options: [],
};

export const docs: Command = {
  ...DOCS_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const r = docsOf(projectOf(ctx));
    report(io, global.format, r.diagnostics, root);
    if (global.format === 'text') for (const w of r.written) io.err(`${w.generator}: wrote ${w.file}`);
    return exitCodeFor(r.diagnostics);
  },
};
