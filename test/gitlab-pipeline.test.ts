/**
 * The GitLab job `itgen init --ci gitlab` writes, run as GitLab would run it: gitlab-ci-local (an
 * npm package that reads `.gitlab-ci.yml` with GitLab's rules for stages, includes and `rules:`
 * and runs jobs in a shell) lists the pipeline of a repository that has its own stages and a Flux
 * root at `clusters/prod`, and runs the itgen job in it on a merge request: it fails on a VM naming
 * an instance type the catalog lacks and passes once the VM is fixed.
 *
 * gitlab-ci-local needs Node 22: `.ci/gitlab-ci-local/` pins it and the Node it runs on, and
 * `.ci/run` installs both (and rsync, which it copies the work tree with). Without them the test
 * says so and is skipped, unless ITGEN_REQUIRE_GITLAB=1 (as `.ci/run` sets), where it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runInProcess } from './e2e-helpers';
import { GCL, gitlabMissing, NODE22, npmStandIn } from './gitlab-helpers';

const missing = gitlabMissing();
if (missing !== undefined && process.env['ITGEN_REQUIRE_GITLAB'] === '1') throw new Error(`test/gitlab-pipeline.test.ts: ${missing}`);
const describeGitlab = missing === undefined ? describe : describe.skip;
if (missing !== undefined) process.stderr.write(`test/gitlab-pipeline.test.ts skipped: ${missing}\n`);

const FLUX_SYNC = `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 1m0s
  ref:
    branch: main
  secretRef:
    name: flux-system
  url: ssh://git@gitlab.example.com/acme/gitops.git
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 10m0s
  path: ./clusters/prod
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

/** The team's own pipeline: stages of its own, none called `test`. */
const PIPELINE = `stages: [lint, build, deploy]
lint:
  stage: lint
  script: [echo lint]
deploy:
  stage: deploy
  script: [echo deploy]
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`;

const vm = (instancetype: string): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: web\n  namespace: default\nspec:\n  instancetype:\n    name: ${instancetype}\n  preference:\n    name: acme.linux\n  runStrategy: Always\n  template:\n    spec:\n      domain:\n        devices: {}\n`;

describeGitlab('the GitLab job init writes, run by gitlab-ci-local in a Flux repository with its own stages', () => {
  let top: string;
  let repo: string;
  let stub: string;
  const git = (...args: string[]): string => {
    const r = spawnSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  /** gitlab-ci-local in the repository, as a merge request's pipeline unless `push`. */
  type Event = 'merge_request_event' | 'push' | 'schedule' | 'tag';
  const gclArgs = (args: string[], event: Event): string[] => {
    const vars =
      event === 'push'
        ? []
        : event === 'tag'
          ? ['--variable', 'CI_COMMIT_TAG=v1.0.0', '--unset-variable', 'CI_COMMIT_BRANCH']
          : event === 'schedule'
            ? ['--variable', 'CI_PIPELINE_SOURCE=schedule', '--variable', 'ITGEN_POST_REVIEW=1']
            : // A merge request's pipeline has no CI_COMMIT_BRANCH (GitLab sets it on branch pipelines only).
              [
                '--variable',
                'CI_PIPELINE_SOURCE=merge_request_event',
                '--variable',
                'CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main',
                '--unset-variable',
                'CI_COMMIT_BRANCH',
              ];
    return [
      GCL,
      ...args,
      ...vars,
      '--ignore-predefined-vars',
      'CI_PIPELINE_SOURCE,CI_MERGE_REQUEST_TARGET_BRANCH_NAME,CI_API_V4_URL,CI_PROJECT_ID',
      '--no-color',
      '--home',
      path.join(top, 'home'),
    ];
  };
  // The job's `npm ci` is the stand-in on PATH: it links the itgen under test where npm would install it.
  const gclEnv = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${stub}:${process.env['PATH'] ?? ''}`, FORCE_COLOR: '0' });
  const gcl = (args: string[], event: Event = 'merge_request_event'): { code: number | null; out: string } => {
    const r = spawnSync(NODE22, gclArgs(args, event), { cwd: repo, encoding: 'utf8', env: gclEnv(), timeout: 120_000 });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  };
  /** The jobs of the pipeline, `name stage`, as `--list-csv` gives them after the rules. */
  const jobs = (event: Event): string[] => {
    const lines = gcl(['--list-csv'], event).out.split('\n');
    const header = lines.findIndex((l) => l.startsWith('name;'));
    const cols = lines[header]!.split(';');
    return lines
      .slice(header + 1)
      .filter((l) => /^[a-z][a-z-]*;/.test(l))
      .map((l) => l.split(';'))
      .map((row) => `${row[0]} ${row[cols.indexOf('stage')]}`);
  };

  beforeAll(() => {
    top = mkdtempSync(path.join(os.tmpdir(), 'itgen-gitlab-pipeline-'));
    repo = path.join(top, 'gitops');
    stub = path.join(top, 'stub');
    npmStandIn(stub);
    mkdirSync(path.join(repo, 'clusters', 'prod', 'flux-system'), { recursive: true });
    mkdirSync(path.join(repo, 'vms'));
    writeFileSync(path.join(repo, '.gitlab-ci.yml'), PIPELINE);
    writeFileSync(path.join(repo, 'clusters/prod/flux-system/gotk-sync.yaml'), FLUX_SYNC);
    writeFileSync(
      path.join(repo, 'clusters/prod/flux-system/kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [gotk-sync.yaml]\n',
    );
    writeFileSync(path.join(repo, 'vms/web.yaml'), vm('c1.medium'));
    git('init', '-q', '-b', 'main');
    expect(runInProcess(repo, ['init', '--name', 'acme', '--ci', 'gitlab', '--gitops', 'flux', '--vendor', 'acme.example', '--pages']).code).toBe(0);
    expect(runInProcess(repo, ['generate']).code).toBe(0);
    git('add', '-A');
    git('commit', '-qm', 'itgen');
    // origin: a bare repository the job fetches the target branch from; gcl-origin: the GitLab URL
    // gitlab-ci-local derives the project's variables from.
    spawnSync('git', ['init', '-q', '--bare', path.join(top, 'origin.git')]);
    git('remote', 'add', 'origin', path.join(top, 'origin.git'));
    git('remote', 'add', 'gcl-origin', 'https://gitlab.example.com/acme/gitops.git');
    git('push', '-q', 'origin', 'main');
    git('remote', 'set-head', 'origin', 'main');
  }, 60_000);
  afterAll(() => rmSync(top, { recursive: true, force: true }));

  it('puts the job in a stage the pipeline declares, on merge requests and the default branch only', () => {
    expect(readFileSync(path.join(repo, 'clusters/prod/acme-instancetypes.yaml'), 'utf8')).toContain('path: ./output/acme');
    expect(jobs('push')).toEqual(['itgen lint', 'lint lint', 'deploy deploy']);
    // The note job only in a schedule of the default branch (where the token is), and the gate not there.
    expect(jobs('schedule')).toEqual(['itgen-review-note lint', 'lint lint', 'deploy deploy']);
    git('checkout', '-q', '-b', 'topic');
    try {
      expect(jobs('merge_request_event')).toEqual(['itgen lint', 'lint lint']);
      expect(jobs('push')).toEqual(['lint lint']);
    } finally {
      git('checkout', '-q', 'main');
    }
  }, 60_000);

  it('publishes the catalog explorer to GitLab Pages on a release tag only (init --pages)', () => {
    expect(jobs('tag')).toContain('pages lint');
    expect(jobs('push')).not.toContain('pages lint');
    const r = gcl(['pages', '--force-shell-executor'], 'tag');
    expect([r.code, r.out]).toEqual([0, expect.stringMatching(/PASS\s+pages/)]);
    const page = readFileSync(path.join(repo, '.gitlab-ci-local/artifacts/pages/public/index.html'), 'utf8');
    expect(page).toContain('<meta name="generator" content="itgen catalog explorer">');
  }, 120_000);

  it('fails the merge request that breaks a VM, with the diagnostic in the log, and passes the one that fixes it; the scheduled job posts the review', async () => {
    git('checkout', '-q', '-b', 'resize-web');
    writeFileSync(path.join(repo, 'vms/web.yaml'), vm('c1.meduim'));
    git('commit', '-qam', 'typo');
    const failed = gcl(['itgen', '--force-shell-executor']);
    expect(failed.code).not.toBe(0);
    expect(failed.out).toMatch(/vms\/web\.yaml:\d+:\d+ error IT8001/);
    expect(failed.out).toContain('c1.medium');
    expect(failed.out).toMatch(/FAIL\s+itgen/);

    writeFileSync(path.join(repo, 'vms/web.yaml'), vm('c1.large'));
    git('commit', '-qam', 'fixed');
    const passed = gcl(['itgen', '--force-shell-executor']);
    expect([passed.code, passed.out]).toEqual([0, expect.stringMatching(/PASS\s+itgen/)]);
    // The review the after_script leaves for the merge request names the VM's change of size.
    const review = readFileSync(path.join(repo, '.gitlab-ci-local/artifacts/itgen/itgen-review.md'), 'utf8');
    expect(review).toContain('itgen: what this change does');

    // The scheduled job posts that review on the merge request (a fake GitLab API stands in).
    git('checkout', '-q', 'main');
    const posted: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const url = (req.url ?? '').split('?')[0]!;
        const json = (v: unknown): void => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(v));
        };
        if (url === '/api/v4/user') return json({ id: 1 });
        if (url === '/api/v4/projects/7/merge_requests') return json([{ iid: 4, sha: 'f00' }]);
        if (url === '/api/v4/projects/7/merge_requests/4/pipelines') return json([{ id: 40, sha: 'f00' }]);
        if (url === '/api/v4/projects/7/pipelines/40/jobs') return json([{ id: 400, name: 'itgen', status: 'success' }]);
        if (url === '/api/v4/projects/7/jobs/400/artifacts/itgen-review.md') return res.end(review);
        if (url === '/api/v4/projects/7/merge_requests/4/notes' && req.method === 'GET') return json([]);
        if (url === '/api/v4/projects/7/merge_requests/4/notes' && req.method === 'POST') {
          posted.push((JSON.parse(body) as { body: string }).body);
          return json({ id: 1 });
        }
        res.writeHead(404);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const args = [
        'itgen-review-note',
        '--force-shell-executor',
        '--variable',
        `CI_API_V4_URL=http://127.0.0.1:${port}/api/v4`,
        '--variable',
        'CI_PROJECT_ID=7',
        '--variable',
        'ITGEN_GITLAB_TOKEN=secret',
      ];
      const noted = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(NODE22, gclArgs(args, 'schedule'), { cwd: repo, env: gclEnv() });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
        child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
        child.on('close', (code) => resolve({ code, out }));
      });
      expect([noted.code, noted.out]).toEqual([0, expect.stringContaining('!4: note posted')]);
      expect(posted).toEqual([`<!-- itgen-review -->\n${review}`]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 120_000);
});
