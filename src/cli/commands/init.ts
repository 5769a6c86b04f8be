import path from 'node:path';
import { diag } from '../../diagnostics';
import { writeFilesAtomic } from '../../emit/write';
import { defaultVendor, scaffoldProblem } from '../../scaffold';
import { planInit } from '../../scaffold/init';
import { optionSet, optionValue } from '../args';
import { EXIT_OK, EXIT_USER, exitCodeFor, report, writeProblem, type Command } from '../command';

export const init: Command = {
  name: 'init',
  synopsis: 'init [DIR] [--name NAME] [--vendor VENDOR] [--ci github|gitlab|none] [--gitops argocd|flux] [--repo-url URL] [--pages]',
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
    const named = optionValue(line, '--name');
    const name = named ?? derived;
    const vendor = optionValue(line, '--vendor') ?? defaultVendor(name);
    const problem = scaffoldProblem({ name, vendor });
    if (problem) {
      report(io, global.format, [diag('IT1203', problem)], dir);
      return EXIT_USER;
    }
    const ci = optionValue(line, '--ci') as 'github' | 'gitlab' | 'none' | undefined;
    const gitops = optionValue(line, '--gitops') as 'argocd' | 'flux' | undefined;
    const repoUrl = optionValue(line, '--repo-url');
    const plan = planInit(dir, {
      name,
      vendor,
      ...(ci ? { ci } : {}),
      ...(gitops ? { gitops } : {}),
      ...(repoUrl ? { repoUrl } : {}),
      ...(optionSet(line, '--pages') ? { pages: true } : {}),
    });
    if (plan.refused !== undefined) {
      report(io, global.format, [diag('IT1010', `${plan.refused}; nothing written`)], dir);
      return EXIT_USER;
    }
    try {
      writeFilesAtomic(dir, plan.files);
    } catch (e) {
      const d = writeProblem(line.positionals[0] ?? '.', e);
      report(io, global.format, [d], dir);
      return exitCodeFor([d]);
    }
    const shown = path.relative(io.cwd, dir) || '.';
    const lines = [
      `wrote ${plan.files.length - plan.merged.length} files to ${shown}${plan.merged.length > 0 ? ` and merged into ${plan.merged.length}` : ''} (generator ${name}${named === undefined ? ', named after the directory; --name to choose another' : ''}, vendor ${vendor})`,
      ...plan.merged.map((m) => `  merged: ${m}`),
      ...plan.kept.map((k) => `  left as it was: ${k}`),
      `next: ${shown === '.' ? '' : `cd ${shown} && `}itgen generate, then commit generators/, catalogs/, output/ and kustomization.yaml`,
    ];
    io.err(lines.join('\n'));
    return EXIT_OK;
  },
};
