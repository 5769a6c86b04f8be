import { optionValue, BASE_OPTION, BUNDLES_OPTION, type CommandLine, type OptionSpec, type CommandSpec } from '../parse';
import { RELEASE_VERSION, releaseProject } from '../../workflows/release';
import { EXIT_OK, exitCodeFor, report, projectOf, type Command } from '../command';

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

export const RELEASE_COMMAND: CommandSpec = {
  name: 'release',
  synopsis: 'release --version vX.Y.Z [GENERATOR.yaml]...',
  summary: 'record the current objects in the release lock',
  generatorArguments: true,
  options: [VERSION_OPTION, BASE_OPTION, BUNDLES_OPTION],
  accept: (line) => requireVersion('release', line),
};

export const release: Command = {
  ...RELEASE_COMMAND,
  run(ctx) {
    const { io, global, root } = ctx;
    const version = optionValue(ctx.line, '--version')!;
    const { diagnostics, released } = releaseProject(projectOf(ctx), version);
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
