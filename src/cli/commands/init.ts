import path from 'node:path';
import { filesInTheWay, writeFilesAtomic } from '../../emit/write';
import { defaultVendor, scaffoldFiles, scaffoldProblem } from '../../scaffold';
import { optionValue } from '../args';
import { EXIT_OK, EXIT_USER, exitCodeFor, report, writeProblem, type Command } from '../command';

export const init: Command = {
  name: 'init',
  synopsis: 'init [DIR] [--name NAME] [--vendor VENDOR]',
  summary: 'write a working catalog repository: generator, catalog, kustomization, CI workflow',
  details:
    'Two families by three sizes, a Linux and a Windows preference on a common base, a root kustomization.yaml, editor schema modelines, a .gitignore and a GitHub Actions workflow running validate and check. Never overwrites a file. Then: itgen generate, commit, point Argo CD or Flux at the repository.',
  projectless: true,
  inPlace: true,
  options: [
    { flag: '--name', value: 'NAME', help: 'generator and catalog name (default: the directory name)' },
    { flag: '--vendor', value: 'VENDOR', help: 'the instancetype.kubevirt.io/vendor label (default: NAME.example.com; never kubevirt.io)' },
  ],
  accept: (line) => (line.positionals.length > 1 ? 'init takes at most one directory' : undefined),
  run({ io, global, line }) {
    const dir = path.resolve(io.cwd, line.positionals[0] ?? '.');
    const derived =
      path
        .basename(dir)
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'catalog';
    const name = optionValue(line, '--name') ?? derived;
    const vendor = optionValue(line, '--vendor') ?? defaultVendor(name);
    const problem = scaffoldProblem({ name, vendor });
    if (problem) {
      io.err(`error: ${problem}`);
      return EXIT_USER;
    }
    const files = scaffoldFiles({ name, vendor });
    // Nothing is overwritten, and nothing is written through a link out of the directory.
    const taken = filesInTheWay(dir, files);
    if (taken.length > 0) {
      io.err(
        `error: init writes no file that exists (or leads outside ${line.positionals[0] ?? '.'}); found: ${taken.map((f) => f.path).join(', ')}\nnothing written`,
      );
      return EXIT_USER;
    }
    try {
      writeFilesAtomic(dir, files);
    } catch (e) {
      const d = writeProblem(line.positionals[0] ?? '.', e);
      report(io, global.format, [d], dir);
      return exitCodeFor([d]);
    }
    const shown = path.relative(io.cwd, dir) || '.';
    io.err(
      `wrote ${files.length} files to ${shown} (generator ${name}, vendor ${vendor})\nnext: ${shown === '.' ? '' : `cd ${shown} && `}itgen generate, then commit generators/, catalogs/, output/ and kustomization.yaml`,
    );
    return EXIT_OK;
  },
};
