import path from 'node:path';
import { bundleProject } from '../../release/project';
import { optionValue } from '../args';
import { EXIT_OK, exitCodeFor, report, type Command } from '../command';
import { requireVersion, VERSION_OPTION } from './release';
export const bundle: Command = {
  name: 'bundle',
  synopsis: 'bundle --version vX.Y.Z --out DIR [GENERATOR.yaml]',
  summary: 'write release bundles and CHECKSUMS.sha256',
  generatorArguments: true,
  options: [VERSION_OPTION, { flag: '--out', value: 'DIR', help: 'where to write the bundles' }],
  accept: (line) =>
    optionValue(line, '--out') === undefined && optionValue(line, '--version') !== undefined ? 'bundle needs --out DIR' : requireVersion('bundle', line),
  run(ctx) {
    const { io, global, root, line } = ctx;
    const version = optionValue(line, '--version')!;
    const out = optionValue(line, '--out')!;
    const result = bundleProject(root, version, path.resolve(io.cwd, out), out, { generators: global.generators, strict: global.strict });
    report(io, global.format, result.diagnostics, root);
    const code = exitCodeFor(result.diagnostics);
    if (code === EXIT_OK && global.format === 'text') io.err(`${result.generator}: wrote ${result.bundles} bundles and CHECKSUMS.sha256 to ${out}`);
    return code;
  },
};
