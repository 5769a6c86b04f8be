import path from 'node:path';
import { hasErrors } from '../../diagnostics';
import { writeFilesAtomic } from '../../emit/write';
import { loadGenerator } from '../../pipeline';
import { buildBundles, bundleOutProblem } from '../../release/bundle';
import { checkBundleAgainstLock, currentObjects } from '../../release/lock';
import { bundleSettings } from '../../schema/generator';
import { optionValue } from '../args';
import { compileAll, EXIT_OK, EXIT_USER, exitCodeFor, generatorFiles, report, single, writeProblem, type Command } from '../command';
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
    const { results, diagnostics } = compileAll(ctx);
    const s = single(results, 'bundle');
    const all = [...diagnostics, ...s.diagnostics];
    const r = s.result;
    if (r && !hasErrors(all) && r.lock) all.push(...checkBundleAgainstLock(r.lock, currentObjects(r.objects), version));
    report(io, global.format, all, root);
    const code = exitCodeFor(all);
    if (code !== EXIT_OK || !r) return code === EXIT_OK ? EXIT_USER : code;
    const outDir = path.resolve(io.cwd, out);
    const generators = generatorFiles(root, []).flatMap((f) => loadGenerator(root, f).generator ?? []);
    const misplaced = bundleOutProblem(root, outDir, out, generators);
    if (misplaced) {
      report(io, global.format, [misplaced], root);
      return EXIT_USER;
    }
    const cfg = bundleSettings(r.generator!.name, r.generator!.config);
    const files = buildBundles(r.objects, { version, versionLabel: cfg.versionLabel, filePrefix: cfg.filePrefix });
    try {
      writeFilesAtomic(outDir, files);
    } catch (e) {
      const problem = writeProblem(out, e);
      report(io, global.format, [problem], root);
      return exitCodeFor([problem]);
    }
    if (global.format === 'text') io.err(`${r.generator!.name}: wrote ${files.length - 1} bundles and CHECKSUMS.sha256 to ${out}`);
    return EXIT_OK;
  },
};
