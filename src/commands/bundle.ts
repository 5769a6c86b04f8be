import { optionValue } from './spec';
import { requireVersion, VERSION_OPTION } from './release';
import type { CommandSpec } from './spec';

export const BUNDLE_COMMAND: CommandSpec = {
  name: 'bundle',
  synopsis: 'bundle --version vX.Y.Z --out DIR [GENERATOR.yaml]',
  summary: 'write release bundles and CHECKSUMS.sha256',
  generatorArguments: true,
  options: [VERSION_OPTION, { flag: '--out', value: 'DIR', help: 'where to write the bundles' }],
  accept: (line) =>
    optionValue(line, '--out') === undefined && optionValue(line, '--version') !== undefined ? 'bundle needs --out DIR' : requireVersion('bundle', line),
};
