import { RELEASE_VERSION } from '../schema/names';
import { optionValue, type CommandLine, type OptionSpec } from './spec';
import { BASE_OPTION, BUNDLES_OPTION } from './spec';
import type { CommandSpec } from './spec';

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
