import path from 'node:path';
import { bundleProject } from '../../release/project';
import { optionValue } from '../../commands/spec';
import { EXIT_OK, exitCodeFor, report, type Command } from '../command';
import { BUNDLE_COMMAND } from '../../commands/bundle';

export const bundle: Command = {
  ...BUNDLE_COMMAND,
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
