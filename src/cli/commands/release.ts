import { releaseProject } from '../../release/project';
import { RELEASE_VERSION } from '../../schema/names';
import { optionValue, type CommandLine, type OptionSpec } from '../args';
import { EXIT_OK, exitCodeFor, report, type Command } from '../command';
import { BASE_OPTION, BUNDLES_OPTION, projectOf } from '../options';

export const VERSION_OPTION: OptionSpec = {
  flag: '--version',
  value: 'vX.Y.Z',
  help: 'the release version',
  check: (v) => (RELEASE_VERSION.test(v) ? undefined : '--version needs a release version like v1.2.0'),
};

/** Release and bundle name a version; the parser has checked its form. */
export function requireVersion(command: string, line: CommandLine): string | undefined {
  return optionValue(line, '--version') === undefined ? `${command} needs --version vX.Y.Z` : undefined;
}

export const release: Command = {
  name: 'release',
  synopsis: 'release --version vX.Y.Z [GENERATOR.yaml]...',
  summary: 'record the current objects in the release lock',
  generatorArguments: true,
  options: [VERSION_OPTION, BASE_OPTION, BUNDLES_OPTION],
  accept: (line) => requireVersion('release', line),
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
