import { releaseProject } from '../../release/project';
import { optionValue } from '../../commands/spec';
import { EXIT_OK, exitCodeFor, report, type Command, projectOf } from '../command';
import { RELEASE_COMMAND } from '../../commands/release';

export const release: Command = {
  ...RELEASE_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const version = optionValue(ctx.line, '--version')!;
    const { diagnostics, released } = releaseProject(root, version, {
      generators: global.generators,
      strict: global.strict,
      base: projectOf(ctx).inputs.base,
      bundles: projectOf(ctx).inputs.bundles,
    });
    report(io, global.format, diagnostics, root);
    const code = exitCodeFor(diagnostics);
    if (global.format === 'text') {
      if (code !== EXIT_OK) io.err('nothing written');
      for (const { generator, lockFile, summary: s } of released)
        io.err(
          `${generator}: release ${version}: ${s.added} added, ${s.deprecated} newly deprecated, ${s.removed} removed, ${s.changed} changed by override; wrote ${lockFile}`,
        );
    }
    return code;
  },
};
