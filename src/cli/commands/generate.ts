import { BASE_OPTION, BUNDLES_OPTION, optionSet, optionValues, type CommandSpec } from '../parse';
import { EXIT_OK, exitCodeFor, report, projectOf, type Command } from '../command';
import { generateProject } from '../../workflows/generate';

export const GENERATE_COMMAND: CommandSpec = {
  name: 'generate',
  synopsis: 'generate [GENERATOR.yaml]...',
  summary: 'validate every generator, then write its kustomize base and README (atomically)',
  generatorArguments: true,
  options: [
    BASE_OPTION,
    BUNDLES_OPTION,
    { flag: '--allow-removals', help: 'drop objects the committed base has (before the first release, nothing else stops it)' },
    {
      flag: '--vms',
      value: 'DIR',
      repeatable: true,
      help: 'VirtualMachines kept in Git: refuse a removal that leaves one without its object, say which change',
    },
  ],
};

export const generate: Command = {
  ...GENERATE_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const { generators, diagnostics, written, unchanged } = generateProject(projectOf(ctx), {
      allowRemovals: optionSet(ctx.line, '--allow-removals'),
      vms: optionValues(ctx.line, '--vms'),
    });
    report(io, global.format, diagnostics, root);
    const code = exitCodeFor(diagnostics);
    if (global.format === 'text') {
      for (const g of generators) {
        if (written.includes(g.outputDir)) io.err(`${g.name}: wrote ${g.objects} objects to ${g.outputDir}`);
        if (unchanged.includes(g.outputDir)) io.err(`${g.name}: ${g.outputDir} is up to date (${g.objects} objects)`);
      }
      if (written.length === 0 && code !== EXIT_OK) io.err('nothing written');
    }
    return code;
  },
};
