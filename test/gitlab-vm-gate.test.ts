/**
 * The GitLab job `itgen init --vms --ci gitlab` writes in a VM owner's repository (VMs and the
 * platform's published bundle, no catalog), run as GitLab would run it by gitlab-ci-local (see
 * test/gitlab-pipeline.test.ts for how it is installed): on a merge request it fails on a VM the
 * bundle cannot serve, with KubeVirt's words in the log and a Code Quality report, and passes once
 * the VM is fixed, leaving the launcher pods as the review artifact (the shell executor: the job's
 * files are written in the work tree).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInProcess } from './e2e-helpers';
import { GCL, gitlabMissing, NODE22, npmStandIn } from './gitlab-helpers';

const REPO = path.resolve(__dirname, '..');
const missing = gitlabMissing();
if (missing !== undefined && process.env['ITGEN_REQUIRE_GITLAB'] === '1') throw new Error(`test/gitlab-vm-gate.test.ts: ${missing}`);
const describeGitlab = missing === undefined ? describe : describe.skip;

const vm = (memory: string): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  runStrategy: Always\n  template:\n    spec:\n      domain:\n        resources: {requests: {memory: ${memory}}}\n        devices: {}\n      volumes: [{name: rootdisk, containerDisk: {image: "quay.io/containerdisks/fedora:41"}}]\n`;

describeGitlab("the VM owner's GitLab job, run by gitlab-ci-local", () => {
  let top: string;
  let repo: string;
  let stub: string;
  const git = (...args: string[]): void => {
    const r = spawnSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  const gcl = (): { code: number | null; out: string } => {
    const r = spawnSync(
      NODE22,
      [
        GCL,
        'itgen-vms',
        '--force-shell-executor',
        '--variable',
        'CI_PIPELINE_SOURCE=merge_request_event',
        '--unset-variable',
        'CI_COMMIT_BRANCH',
        '--ignore-predefined-vars',
        'CI_PIPELINE_SOURCE',
        '--no-color',
        '--home',
        path.join(top, 'home'),
      ],
      { cwd: repo, encoding: 'utf8', env: { ...process.env, PATH: `${stub}:${process.env['PATH'] ?? ''}`, FORCE_COLOR: '0' }, timeout: 120_000 },
    );
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  };

  beforeAll(() => {
    top = mkdtempSync(path.join(os.tmpdir(), 'itgen-gitlab-vms-'));
    repo = path.join(top, 'vms-repo');
    stub = path.join(top, 'stub');
    npmStandIn(stub);
    mkdirSync(path.join(repo, 'vms'), { recursive: true });
    mkdirSync(path.join(repo, 'platform'));
    copyFileSync(
      path.join(REPO, 'test', 'reference', 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'),
      path.join(repo, 'platform', 'bundle.yaml'),
    );
    writeFileSync(path.join(repo, '.gitlab-ci.yml'), 'stages: [test]\n');
    writeFileSync(path.join(repo, 'vms', 'web.yaml'), vm('"8"'));
    git('init', '-q', '-b', 'main');
    expect(runInProcess(repo, ['init', '--vms', 'vms', '--bundle', 'platform/bundle.yaml', '--ci', 'gitlab']).code).toBe(0);
    git('add', '-A');
    git('commit', '-qm', 'vms');
    git('remote', 'add', 'origin', 'https://gitlab.example.com/shop/vms.git');
  }, 60_000);
  afterAll(() => rmSync(top, { recursive: true, force: true }));

  it('fails the merge request whose VM KubeVirt would refuse, in its words, with a Code Quality report; passes once fixed', () => {
    const bad = gcl();
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('vms/web.yaml');
    expect(bad.out).toMatch(/must be greater than or equal to 1M/);
    const report = JSON.parse(readFileSync(path.join(repo, 'gl-code-quality-report.json'), 'utf8')) as unknown[];
    expect(report.length).toBeGreaterThan(0);

    writeFileSync(path.join(repo, 'vms', 'web.yaml'), vm('4Gi'));
    git('commit', '-qam', 'memory in Gi');
    const good = gcl();
    expect(good.out).toMatch(/PASS\s+itgen-vms/);
    expect(good.code).toBe(0);
    const pods = readFileSync(path.join(repo, 'itgen-pods.yaml'), 'utf8');
    expect(pods).toMatch(/kind: Pod/);
  }, 240_000);
});
