import { EXIT_OK, exitCodeFor, report, type Command, projectOf } from '../command';
import { optionSet, optionValues } from '../../commands/spec';
import { generateProject } from '../../release/project';
import { GENERATE_COMMAND } from '../../commands/generate';

export const generate: Command = {
  ...GENERATE_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const { results, diagnostics, written, unchanged } = generateProject(root, {
      generators: global.generators,
      strict: global.strict,
      allowRemovals: optionSet(ctx.line, '--allow-removals'),
      vms: optionValues(ctx.line, '--vms'),
      cwd: io.cwd,
      base: projectOf(ctx).inputs.base,
      bundles: projectOf(ctx).inputs.bundles,
    });
    report(io, global.format, diagnostics, root);
    const code = exitCodeFor(diagnostics);
    if (global.format === 'text') {
      for (const r of results) {
        if (r.generator && written.includes(r.generator.outputDir))
          io.err(`${r.generator.name}: wrote ${r.objects.length} objects to ${r.generator.outputDir}`);
        if (r.generator && unchanged.includes(r.generator.outputDir))
          io.err(`${r.generator.name}: ${r.generator.outputDir} is up to date (${r.objects.length} objects)`);
      }
      if (written.length === 0 && code !== EXIT_OK) io.err('nothing written');
    }
    return code;
  },
};
