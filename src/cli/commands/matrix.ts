import { optionValue, type CommandSpec } from '../parse';
import { matrixOutput } from '../../workflows/matrix';
import { projectOf, exitCodeFor, report, writeText, type Command } from '../command';

export const MATRIX_COMMAND: CommandSpec = {
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
};

export const matrix: Command = {
  ...MATRIX_COMMAND,
  run(ctx) {
    const { text, refused } = matrixOutput(projectOf(ctx), optionValue(ctx.line, '--output') ?? 'text');
    if (text !== undefined) writeText(ctx.io, text);
    if (refused.length > 0) report(ctx.io, ctx.global.format, refused, ctx.root, true);
    return exitCodeFor(refused);
  },
};
