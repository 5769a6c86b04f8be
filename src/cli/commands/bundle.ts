import { optionValue, type CommandSpec } from '../parse';
import { requireVersion, VERSION_OPTION } from './release';
import { bundleProject } from '../../workflows/release';
import { EXIT_OK, exitCodeFor, projectOf, report, type Command } from '../command';

export const BUNDLE_COMMAND: CommandSpec = {
  name: 'bundle',
  synopsis: 'bundle --version vX.Y.Z --out DIR [GENERATOR.yaml]',
  summary: 'write release bundles and CHECKSUMS.sha256',
  generatorArguments: true,
  options: [VERSION_OPTION, { flag: '--out', value: 'DIR', help: 'where to write the bundles' }],
  accept: (line) =>
    optionValue(line, '--out') === undefined && optionValue(line, '--version') !== undefined ? 'bundle needs --out DIR' : requireVersion('bundle', line),
};

export const bundle: Command = {
  ...BUNDLE_COMMAND,
  run(ctx) {
    const { io, global, root, line } = ctx;
    const version = optionValue(line, '--version')!;
    const out = optionValue(line, '--out')!;
    const result = bundleProject(projectOf(ctx), version, out);
    report(io, global.format, result.diagnostics, root);
    const code = exitCodeFor(result.diagnostics);
    if (code === EXIT_OK && global.format === 'text') io.err(`${result.generator}: wrote ${result.bundles} bundles and CHECKSUMS.sha256 to ${out}`);
    return code;
  },
};
