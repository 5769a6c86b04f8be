/**
 * `itgen init`: a vendor's repository in one command. Right after it generate, validate and check
 * pass and kubectl kustomize builds the objects; a second init writes nothing; KubeVirt's own
 * vendor is refused.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { writeFilesAtomic } from '../src/emit/write';
import { runInProcess, type CliRun } from './e2e-helpers';
import { readDirTree } from './helpers';

const itgen = (cwd: string, ...argv: string[]): CliRun => runInProcess(cwd, argv);

describe('itgen init', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-init-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a repository that generates, validates, checks and builds', () => {
    const r = itgen(dir, 'init', 'acme', '--vendor', 'acme.example');
    expect(r).toMatchObject({ code: 0 });
    const repo = path.join(dir, 'acme');
    expect(Object.keys(readDirTree(repo).reduce((m, f) => ({ ...m, [f.path]: 1 }), {})).sort()).toEqual([
      '.github/workflows/itgen-comment.yaml',
      '.github/workflows/itgen.yaml',
      '.gitignore',
      '.yamllint',
      'catalogs/acme/catalog.yaml',
      'catalogs/acme/families.yaml',
      'catalogs/acme/preferences.yaml',
      'generators/acme.yaml',
      'kustomization.yaml',
    ]);
    expect(readFileSync(path.join(repo, 'generators/acme.yaml'), 'utf8')).toContain('vendor: acme.example');
    expect(readFileSync(path.join(repo, 'catalogs/acme/catalog.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/\.\.\/node_modules\/itgen\/schema\/catalog\.schema\.json/,
    );
    for (const command of ['generate', 'validate', 'check']) expect([command, itgen(repo, command)]).toEqual([command, expect.objectContaining({ code: 0 })]);
    expect(itgen(repo, 'validate').text).not.toMatch(/warning|error/);
    const built = spawnSync('kubectl', ['kustomize', repo], { encoding: 'utf8' });
    expect(built.status).toBe(0);
    expect(built.stdout.match(/^kind: /gm)).toHaveLength(18);
    expect(built.stdout).toContain('instancetype.kubevirt.io/vendor: acme.example');
    expect(built.stdout).not.toContain('vendor: kubevirt.io');
    // yamllint with the .yamllint init ships: the generated base and the scaffold pass it.
    const lint = spawnSync('yamllint', ['-s', '.'], { cwd: repo, encoding: 'utf8' });
    if (lint.error === undefined || process.env['ITGEN_REQUIRE_YAMLLINT']) expect([lint.status, lint.stdout]).toEqual([0, '']);
  });

  it('refuses a second project of the same name, and writes nothing', () => {
    expect(itgen(dir, 'init', '--name', 'acme').code).toBe(0);
    const before = readDirTree(dir);
    const r = itgen(dir, 'init', '--name', 'acme');
    expect(r.code).toBe(1);
    expect(r.text).toContain('error IT1010 generators/acme.yaml exists: a project named acme is already here; choose another with --name; nothing written');
    expect(r.text).toContain('nothing written');
    expect(readDirTree(dir)).toEqual(before);
  });

  it('says a catalogs/<name> that is a symbolic link (out of the repository) is one, and writes nothing through it', () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'itgen-outside-'));
    try {
      mkdirSync(path.join(dir, 'catalogs'), { recursive: true });
      symlinkSync(outside, path.join(dir, 'catalogs', 'linked'));
      const r = itgen(dir, 'init', '--name', 'linked');
      expect(r.code).toBe(1);
      expect(r.text).toContain('error IT1010 catalogs/linked is a symbolic link: itgen never writes through one');
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('adopts an existing GitOps repository: adds what is missing, merges .gitignore and the root kustomization, says what it left; generate, validate, check pass', () => {
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n.env\n');
    writeFileSync(path.join(dir, 'README.md'), '# Our GitOps repository\n');
    writeFileSync(path.join(dir, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - apps/ # our apps\n');
    mkdirSync(path.join(dir, 'apps'));
    writeFileSync(path.join(dir, 'apps', 'kustomization.yaml'), 'resources: []\n');
    mkdirSync(path.join(dir, '.github', 'workflows'), { recursive: true });
    writeFileSync(path.join(dir, '.github', 'workflows', 'itgen.yaml'), 'name: ours\n');
    const r = itgen(dir, 'init', '--vendor', 'acme.example', '--gitops', 'argocd', '--repo-url', 'https://git.example.com/acme/gitops.git');
    const name = path
      .basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-');
    expect(r.code).toBe(0);
    expect(r.text).toContain(
      `wrote 7 files to . and merged into 2 (generator ${name}, named after the directory; --name to choose another, vendor acme.example)`,
    );
    expect(r.text).toContain(`  merged: kustomization.yaml: added output/${name} to resources`);
    expect(r.text).toContain('  merged: .gitignore: added _build/');
    expect(r.text).toContain('  left as it was: .github/workflows/itgen.yaml (exists)');
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n.env\n# itgen\n_build/\n');
    expect(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')).toContain(`  - apps/ # our apps\n  - output/${name}\n`);
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('# Our GitOps repository\n');
    expect(readFileSync(path.join(dir, '.github', 'workflows', 'itgen.yaml'), 'utf8')).toBe('name: ours\n');
    expect(readFileSync(path.join(dir, 'gitops', 'argocd', `${name}-instancetypes.yaml`), 'utf8')).toContain(
      'repoURL: "https://git.example.com/acme/gitops.git"',
    );
    for (const command of ['generate', 'validate', 'check']) expect([command, itgen(dir, command)]).toEqual([command, expect.objectContaining({ code: 0 })]);
    // The Application deploys the base, and the root kustomization too: nothing undeployed (IT5012).
    expect(itgen(dir, 'validate').text).not.toMatch(/IT5012|IT5013/);
    expect(spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' }).stdout.match(/^kind: /gm)).toHaveLength(18);
  });

  it('writes a GitLab CI job with --ci gitlab, including it from .gitlab-ci.yml, and Flux objects with --gitops flux', () => {
    expect(itgen(dir, 'init', '--name', 'acme', '--ci', 'gitlab', '--gitops', 'flux').code).toBe(0);
    expect(readFileSync(path.join(dir, '.gitlab-ci.yml'), 'utf8')).toBe('include:\n  - local: ci/itgen.gitlab-ci.yml\n');
    expect(readFileSync(path.join(dir, 'ci', 'itgen.gitlab-ci.yml'), 'utf8')).toContain('node_modules/.bin/itgen check');
    const flux = readFileSync(path.join(dir, 'gitops', 'flux', 'acme-instancetypes.yaml'), 'utf8');
    expect(flux).toContain('path: ./output/acme');
    expect(flux).toContain('targetNamespace: vm-templates');
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(itgen(dir, 'validate').text).toBe('');
  });

  it('never replaces a .gitlab-ci.yml it cannot read (a link, or one past the input bound): it says what to add', () => {
    const outside = path.join(dir, 'outside.yml');
    writeFileSync(outside, 'stages: [test]\n');
    const repo = path.join(dir, 'repo');
    mkdirSync(repo);
    symlinkSync(outside, path.join(repo, '.gitlab-ci.yml'));
    const r = itgen(repo, 'init', '--name', 'acme', '--ci', 'gitlab');
    expect(r.code).toBe(0);
    expect(r.text).toContain('.gitlab-ci.yml (add `include: [{local: ci/itgen.gitlab-ci.yml}]` to it)');
    expect(readFileSync(outside, 'utf8')).toBe('stages: [test]\n');
    expect(lstatSync(path.join(repo, '.gitlab-ci.yml')).isSymbolicLink()).toBe(true);
  });

  it('derives the name and the vendor, and never impersonates KubeVirt', () => {
    expect(itgen(dir, 'init', 'My Catalog').code).toBe(0);
    expect(readFileSync(path.join(dir, 'My Catalog', 'generators', 'my-catalog.yaml'), 'utf8')).toContain('vendor: my-catalog.example.com');
    const r = itgen(dir, 'init', 'other', '--vendor', 'kubevirt.io');
    expect(r.code).toBe(1);
    expect(r.text).toContain("--vendor kubevirt.io is KubeVirt's own");
  });
});

describe('itgen init in a repository with links, CRLF files and hand-written YAML', () => {
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-init-'));
    outside = mkdtempSync(path.join(os.tmpdir(), 'itgen-outside-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it.each([
    ['generators', (): void => symlinkSync(outside, path.join(dir, 'generators')), '`generators` leads out of the repository through a symbolic link'],
    ['catalogs', (): void => symlinkSync(outside, path.join(dir, 'catalogs')), '`catalogs` leads out of the repository through a symbolic link'],
    [
      'a dangling catalogs',
      (): void => symlinkSync(path.join(outside, 'gone'), path.join(dir, 'catalogs')),
      '`catalogs` is a symbolic link that leads nowhere',
    ],
  ])('refuses when %s would take the generator or catalog elsewhere, exit 1, and writes nothing, not even an empty directory', (_what, plant, message) => {
    plant();
    const before = readdirSync(dir).sort();
    for (const format of ['text', 'json']) {
      const r = itgen(dir, 'init', '--name', 'acme', '--format', format);
      expect(r.code).toBe(1);
      expect(r.text).toContain(message);
      if (format === 'json') expect(JSON.parse(r.out)).toMatchObject({ diagnostics: [{ code: 'IT1010' }] });
    }
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('says a link out of the repository is not followed, where it used to say "exists"', () => {
    writeFileSync(path.join(outside, 'gitignore'), 'theirs\n');
    symlinkSync(path.join(outside, 'gitignore'), path.join(dir, '.gitignore'));
    mkdirSync(path.join(outside, 'wf'));
    mkdirSync(path.join(dir, '.github'));
    symlinkSync(path.join(outside, 'wf'), path.join(dir, '.github', 'workflows'));
    const r = itgen(dir, 'init', '--name', 'acme');
    expect(r.code).toBe(0);
    expect(r.text).toContain('left as it was: .gitignore (not written: `.gitignore` leads out of the repository through a symbolic link)');
    expect(r.text).toContain(
      'left as it was: .github/workflows/itgen.yaml (not written: `.github/workflows` leads out of the repository through a symbolic link)',
    );
    expect(readFileSync(path.join(outside, 'gitignore'), 'utf8')).toBe('theirs\n');
    expect(readdirSync(path.join(outside, 'wf'))).toEqual([]);
  });

  it('appends to a CRLF .gitignore with CRLF lines', () => {
    writeFileSync(path.join(dir, '.gitignore'), 'dist/\r\n.env\r\n');
    expect(itgen(dir, 'init', '--name', 'acme').code).toBe(0);
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('dist/\r\n.env\r\n# itgen\r\nnode_modules/\r\n_build/\r\n');
  });

  it.each([
    [
      'a block list with comments and quotes',
      '# The platform root.\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ncommonLabels: {team: "platform", tier: \'infra\'}\nresources:\n  - "apps"   # our apps\n  - ./flux-system\n# trailing comment\n',
      '# The platform root.\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ncommonLabels: {team: "platform", tier: \'infra\'}\nresources:\n  - "apps"   # our apps\n  - ./flux-system\n  - output/acme\n# trailing comment\n',
    ],
    [
      'a flow list',
      'kind: Kustomization\nresources: [apps, "infra"]  # two\npatches: []\n',
      'kind: Kustomization\nresources: [apps, "infra", output/acme]  # two\npatches: []\n',
    ],
    ['no resources, CRLF', 'kind: Kustomization\r\nnamespace: x\r\n', 'kind: Kustomization\r\nnamespace: x\r\nresources:\r\n  - output/acme\r\n'],
    ['an unindented block list', 'resources:\n- apps\n', 'resources:\n- apps\n- output/acme\n'],
  ])('adds one resource to %s and leaves every other byte as it was', (_what, before, after) => {
    writeFileSync(path.join(dir, 'kustomization.yaml'), before);
    const r = itgen(dir, 'init', '--name', 'acme');
    expect(r.code).toBe(0);
    expect(r.text).toContain('merged: kustomization.yaml: added output/acme to resources');
    expect(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')).toBe(after);
  });

  it('writes --repo-url quoted, and refuses one that would inject keys', () => {
    const url = 'https://git.example.com/acme/gitops.git#main';
    expect(itgen(dir, 'init', '--name', 'acme', '--gitops', 'flux', '--repo-url', url).code).toBe(0);
    const objects = parseAllDocuments(readFileSync(path.join(dir, 'gitops', 'flux', 'acme-instancetypes.yaml'), 'utf8')).map(
      (d) => d.toJS() as Record<string, unknown>,
    );
    expect(objects[0]).toMatchObject({ kind: 'GitRepository', spec: { url } });
    for (const bad of ['https://x.example/r.git\n  secretRef: {name: stolen}', 'https://x.example/r.git #cut', 'not a url']) {
      const other = mkdtempSync(path.join(os.tmpdir(), 'itgen-init-'));
      try {
        const r = itgen(other, 'init', '--name', 'acme', '--gitops', 'argocd', '--repo-url', bad);
        expect([bad, r.code]).toEqual([bad, 1]);
        expect(r.text).toMatch(/--repo-url (holds whitespace or a control character|is not a repository URL)/);
        expect(readdirSync(other)).toEqual([]);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    }
  });
});

describe('writeFilesAtomic', () => {
  it('removes the directories it made when a write fails, and only those', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-atomic-'));
    try {
      mkdirSync(path.join(dir, 'kept'));
      writeFileSync(path.join(dir, 'file'), 'x');
      expect(() =>
        writeFilesAtomic(dir, [
          { path: 'kept/new/a.txt', content: 'a' },
          { path: 'made/deep/b.txt', content: 'b' },
          { path: 'file/c.txt', content: 'c' },
        ]),
      ).toThrow();
      expect(readDirTree(dir)).toEqual([{ path: 'file', content: 'x' }]);
      expect(readdirSync(dir).sort()).toEqual(['file', 'kept']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('itgen init --gitops flux in a repository Flux already syncs', () => {
  /** A Flux bootstrap repository (clusters/prod) whose `platform` Kustomization applies the root. */
  const FLUX: Record<string, string> = {
    'clusters/prod/flux-system/gotk-sync.yaml':
      'apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: flux-system\n  namespace: flux-system\nspec:\n  interval: 1m0s\n  ref:\n    branch: main\n  secretRef:\n    name: flux-system\n  url: ssh://git@gitlab.example.com/acme/gitops.git\n---\n' +
      'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: flux-system\n  namespace: flux-system\nspec:\n  interval: 10m0s\n  path: ./clusters/prod\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n',
    'clusters/prod/platform.yaml':
      'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: platform\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n',
    'kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - apps\n',
    'apps/kustomization.yaml': 'resources: []\n',
  };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-flux-'));
    for (const [f, text] of Object.entries(FLUX)) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      writeFileSync(path.join(dir, f), text);
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const url = 'ssh://git@gitlab.example.com/acme/gitops.git';

  it('wires into the Kustomization that applies the root: no second owner, and says why', () => {
    const r = itgen(dir, 'init', '--name', 'acme', '--gitops', 'flux', '--ci', 'gitlab', '--repo-url', url);
    expect(r.code).toBe(0);
    expect(r.text).toContain('merged: kustomization.yaml: added output/acme to resources');
    expect(r.text).toContain(
      'left as it was: gitops/flux/acme-instancetypes.yaml (not written: Flux Kustomization `platform` in clusters/prod/platform.yaml already applies the root kustomization.yaml, which deploys output/acme; a second one would deploy it twice)',
    );
    expect(readdirSync(dir)).not.toContain('gitops');
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(itgen(dir, 'validate')).toMatchObject({ code: 0, text: '' });
  });

  it('without one, writes only a Kustomization reading the existing source, where Flux applies it, and validate warns when a second owner appears', () => {
    rmSync(path.join(dir, 'clusters/prod/platform.yaml'));
    const r = itgen(dir, 'init', '--name', 'acme', '--gitops', 'flux', '--repo-url', url);
    expect(r.code).toBe(0);
    const written = parseAllDocuments(readFileSync(path.join(dir, 'clusters/prod/acme-instancetypes.yaml'), 'utf8')).map(
      (d) => d.toJS() as Record<string, unknown>,
    );
    expect(written).toEqual([
      expect.objectContaining({
        kind: 'Kustomization',
        spec: expect.objectContaining({
          path: './output/acme',
          prune: true,
          sourceRef: { kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' },
        }),
      }),
    ]);
    expect(readdirSync(dir)).not.toContain('gitops');
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(itgen(dir, 'validate')).toMatchObject({ code: 0, text: '' });
    // Someone adds a Kustomization over the root as well: one base, two owners.
    writeFileSync(path.join(dir, 'clusters/prod/platform.yaml'), FLUX['clusters/prod/platform.yaml']!);
    const v = itgen(dir, 'validate');
    expect(v.code).toBe(0);
    expect(v.text).toContain(
      'clusters/prod/platform.yaml:8:9 warning IT5015 output `output/acme` of generator `acme` is deployed twice: by Flux Kustomization `acme-instancetypes` (path `output/acme`) and by Flux Kustomization `platform` (path `.`)',
    );
    expect(v.text).toContain('both prune');
    expect(itgen(dir, '--strict', 'validate').code).toBe(1);
  });

  it('in a repository without Flux: its own source, with the deploy key secret for an ssh URL', () => {
    rmSync(path.join(dir, 'clusters'), { recursive: true });
    expect(itgen(dir, 'init', '--name', 'acme', '--gitops', 'flux', '--repo-url', url).code).toBe(0);
    const [source] = parseAllDocuments(readFileSync(path.join(dir, 'gitops/flux/acme-instancetypes.yaml'), 'utf8')).map(
      (d) => d.toJS() as Record<string, unknown>,
    );
    expect(source).toMatchObject({ kind: 'GitRepository', spec: { url, secretRef: { name: 'flux-system' } } });
  });
});

describe('itgen init --ci gitlab in a repository with its own pipeline and YAML', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-gitlab-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['no stages: the default test stage', 'build:\n  script: [echo build]\n', 'test'],
    ['its own stages with test', 'stages: [build, test, deploy]\nbuild:\n  stage: build\n  script: [echo build]\n', 'test'],
    ['its own stages with lint', 'stages: [build, lint, deploy]\nbuild:\n  stage: build\n  script: [echo build]\n', 'lint'],
    ['its own stages and none that checks', 'stages: [build, deploy]\nbuild:\n  stage: build\n  script: [echo build]\n', 'build'],
  ])('%s: the job runs in a stage the pipeline declares, and the pipeline includes it', (_what, pipeline, stage) => {
    writeFileSync(path.join(dir, '.gitlab-ci.yml'), pipeline);
    const r = itgen(dir, 'init', '--name', 'acme', '--ci', 'gitlab');
    expect(r.code).toBe(0);
    expect(r.text).toContain('merged: .gitlab-ci.yml: included ci/itgen.gitlab-ci.yml');
    const job = parse(readFileSync(path.join(dir, 'ci/itgen.gitlab-ci.yml'), 'utf8')) as { itgen: { stage: string; image: string } };
    expect(job.itgen).toMatchObject({ stage, image: 'node:24' });
    const ci = readFileSync(path.join(dir, '.gitlab-ci.yml'), 'utf8');
    expect(ci.startsWith(pipeline)).toBe(true);
    expect(parse(ci)).toMatchObject({ include: [{ local: 'ci/itgen.gitlab-ci.yml' }] });
  });

  it('the .yamllint it adds lints its own files only (the job file passes), and one the repository has is kept', () => {
    mkdirSync(path.join(dir, 'vms'));
    writeFileSync(
      path.join(dir, 'vms', 'web.yaml'),
      `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: web, labels: {note: "${'x'.repeat(200)}"}}\nspec:\n  running: yes\n`,
    );
    expect(itgen(dir, 'init', '--name', 'acme', '--ci', 'gitlab').code).toBe(0);
    expect(itgen(dir, 'generate').code).toBe(0);
    const lint = spawnSync('yamllint', ['.'], { cwd: dir, encoding: 'utf8' });
    if (lint.error === undefined || process.env['ITGEN_REQUIRE_YAMLLINT']) expect([lint.status, lint.stdout]).toEqual([0, '']);
    for (const line of readFileSync(path.join(dir, 'ci/itgen.gitlab-ci.yml'), 'utf8').split('\n')) expect(line.length).toBeLessThanOrEqual(160);
    const other = mkdtempSync(path.join(os.tmpdir(), 'itgen-gitlab-'));
    try {
      writeFileSync(path.join(other, '.yamllint.yaml'), 'extends: relaxed\n');
      const r = itgen(other, 'init', '--name', 'acme');
      expect(r.text).toContain("left as it was: .yamllint (not written: the repository's .yamllint.yaml configures yamllint");
      expect(readdirSync(other)).not.toContain('.yamllint');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('init --pages', () => {
  it('adds a GitHub Pages workflow for release tags that GitHub parses (off by default)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-init-pages-'));
    try {
      expect(runInProcess(dir, ['init', '--name', 'acme']).code).toBe(0);
      expect(existsSync(path.join(dir, '.github/workflows/itgen-pages.yaml'))).toBe(false);
      rmSync(path.join(dir, 'generators'), { recursive: true });
      rmSync(path.join(dir, 'catalogs'), { recursive: true });
      expect(runInProcess(dir, ['init', '--name', 'acme', '--pages']).code).toBe(0);
      const workflow = path.join(dir, '.github/workflows/itgen-pages.yaml');
      const text = readFileSync(workflow, 'utf8');
      expect(text).toContain("tags: ['v*']");
      expect(text).toContain('node_modules/.bin/itgen site --out _site');
      const r = spawnSync(process.execPath, [path.join(__dirname, '..', 'tools', 'check-workflow.mjs'), workflow], { encoding: 'utf8' });
      expect([r.status, r.stdout]).toEqual([0, '']);
      // The job holds pages: write and id-token: write: every action it runs is pinned by commit, as in every workflow init writes.
      for (const file of readdirSync(path.join(dir, '.github/workflows'))) {
        const uses = [...readFileSync(path.join(dir, '.github/workflows', file), 'utf8').matchAll(/uses: (\S+)/g)].map((m) => m[1]!);
        expect(uses.length).toBeGreaterThan(0);
        expect(uses.filter((u) => !/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/.test(u))).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
