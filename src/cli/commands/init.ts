import path from 'node:path';
import { init as initOf } from '../../workflows/init';
import { optionSet, optionValue } from '../../commands/spec';
import { EXIT_OK, exitCodeFor, report, type Command } from '../command';
import { INIT_COMMAND } from '../../commands/init';

export const init: Command = {
  ...INIT_COMMAND,
  run({ io, global, line }) {
    const dir = path.resolve(io.cwd, line.positionals[0] ?? '.');
    const value = (flag: string): string | undefined => optionValue(line, flag);
    const r = initOf(
      dir,
      {
        ...(value('--name') !== undefined ? { name: value('--name')! } : {}),
        ...(value('--vendor') !== undefined ? { vendor: value('--vendor')! } : {}),
        ...(value('--ci') !== undefined ? { ci: value('--ci') as 'github' | 'gitlab' | 'none' } : {}),
        ...(value('--gitops') !== undefined ? { gitops: value('--gitops') as 'argocd' | 'flux' } : {}),
        ...(value('--repo-url') !== undefined ? { repoUrl: value('--repo-url')! } : {}),
        pages: optionSet(line, '--pages'),
        ...(value('--vms') !== undefined ? { vms: value('--vms')! } : {}),
        ...(value('--bundle') !== undefined ? { bundle: value('--bundle')! } : {}),
        ...(value('--kubevirt') !== undefined ? { kubevirt: value('--kubevirt')! } : {}),
      },
      line.positionals[0] ?? '.',
    );
    if (r.diagnostics.length > 0) {
      report(io, global.format, r.diagnostics, dir);
      return exitCodeFor(r.diagnostics);
    }
    const shown = path.relative(io.cwd, dir) || '.';
    if (value('--vms') !== undefined) {
      io.err(
        [
          `wrote ${r.written} file${r.written === 1 ? '' : 's'} to ${path.relative(io.cwd, dir) || '.'}${r.merged.length > 0 ? ` and merged into ${r.merged.length}` : ''}: the CI job that validates the VMs under ${value('--vms')!}`,
          ...r.merged.map((m) => `  merged: ${m}`),
          ...r.kept.map((k) => `  left as it was: ${k}`),
          'next: npm install --save-dev itgen, commit the bundle and the job',
        ].join('\n'),
      );
      return EXIT_OK;
    }
    const lines = [
      `wrote ${r.written} files to ${shown}${r.merged.length > 0 ? ` and merged into ${r.merged.length}` : ''} (generator ${r.name}${r.derivedName ? ', named after the directory; --name to choose another' : ''}, vendor ${r.vendor})`,
      ...r.merged.map((m) => `  merged: ${m}`),
      ...r.kept.map((k) => `  left as it was: ${k}`),
      `next: ${shown === '.' ? '' : `cd ${shown} && `}itgen generate, then commit generators/, catalogs/, output/ and kustomization.yaml`,
    ];
    io.err(lines.join('\n'));
    return EXIT_OK;
  },
};
