import { optionValue, optionSet, type CommandSpec } from '../parse';
import path from 'node:path';
import { init as initOf } from '../../workflows/init';
import { EXIT_OK, exitCodeFor, report, type Command } from '../command';

export const INIT_COMMAND: CommandSpec = {
  name: 'init',
  synopsis:
    'init [DIR] [--name NAME] [--vendor VENDOR] [--ci github|gitlab|none] [--gitops argocd|flux] [--repo-url URL] [--pages] | init [DIR] --vms DIR [--bundle PATH] [--kubevirt FILE] [--ci github|gitlab]',
  summary: 'add itgen to a repository, new or existing: generator, catalog, kustomization, CI, GitOps objects',
  details: [
    'Writes a working catalog (two families by three sizes, a Linux and a Windows preference on a common',
    'base), its generator, editor schema modelines, a .yamllint, and a CI job running validate and check',
    '(GitHub Actions, or GitLab CI with --ci gitlab). In an existing repository it adds what is missing:',
    'a .gitignore gets node_modules/ and _build/, a root kustomization.yaml gets output/NAME in its',
    'resources, every other file that exists is left as it was and said so; a generator or catalog of',
    'the same name is never touched. --gitops writes the Argo CD Application or Flux objects that sync',
    'the base (the repository URL from --repo-url, or a placeholder to replace). The name defaults to',
    'the directory name. --pages (off by default) adds a job that publishes the catalog explorer (itgen site)',
    'to GitHub or GitLab Pages for every release tag. Then: itgen generate, commit, point Argo CD or Flux at',
    'the repository.',
    '',
    "--vms DIR: a VM owner's repository instead (VMs and the platform's bundle, no catalog): only the CI job,",
    'which validates every VM under DIR against the bundle (--bundle, default platform/) and the KubeVirt CR',
    '(--kubevirt, when the repository keeps one) on every pull request, and keeps what each VM runs as (its',
    'virt-launcher pod, expand --as pod) as a review artifact.',
  ].join('\n'),
  projectless: true,
  inPlace: true,
  options: [
    { flag: '--name', value: 'NAME', help: 'generator and catalog name (default: the directory name)' },
    { flag: '--vendor', value: 'VENDOR', help: 'the instancetype.kubevirt.io/vendor label (default: NAME.example.com; never kubevirt.io)' },
    {
      flag: '--ci',
      value: 'github|gitlab|none',
      help: 'the CI job to add (default: github)',
      check: (v) => (['github', 'gitlab', 'none'].includes(v) ? undefined : '--ci is github, gitlab or none'),
    },
    {
      flag: '--gitops',
      value: 'argocd|flux',
      help: 'also write the objects that sync the base',
      check: (v) => (['argocd', 'flux'].includes(v) ? undefined : '--gitops is argocd or flux'),
    },
    { flag: '--repo-url', value: 'URL', help: "this repository's URL, for --gitops" },
    { flag: '--pages', help: 'also publish the catalog explorer (itgen site) to GitHub or GitLab Pages on release tags' },
    { flag: '--vms', value: 'DIR', help: "a VM repository: write only the CI job that validates the VMs under DIR against the platform's bundle" },
    { flag: '--bundle', value: 'PATH', help: "with --vms: the platform's bundle, a file or a directory (default: platform)" },
    { flag: '--kubevirt', value: 'FILE', help: "with --vms: the cluster's KubeVirt CR the repository keeps" },
  ],
  accept: (line) =>
    line.positionals.length > 1
      ? 'init takes at most one directory'
      : optionValue(line, '--vms') === undefined && (optionValue(line, '--bundle') !== undefined || optionValue(line, '--kubevirt') !== undefined)
        ? '--bundle and --kubevirt go with --vms DIR'
        : optionValue(line, '--vms') !== undefined && optionValue(line, '--ci') === 'none'
          ? '--vms writes a CI job: --ci is github or gitlab'
          : undefined,
};

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
