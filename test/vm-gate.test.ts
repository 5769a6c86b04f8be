/**
 * itgen as the gate for VMs kept in Git: every VM is judged as KubeVirt would judge it on apply,
 * and what is wrong is said cause first. A VM apiVersion KubeVirt does not serve (IT8006), a typo'd
 * instance type beside a preference (the missing object first, then the webhook's refusal), a
 * namespaced kind where only the cluster object exists (the hint names the kind), a guest placed on
 * nodes of another architecture (IT8007), and `validate --vms` / `diff --vms` failing on a broken VM
 * the change does not touch, or on a removal after a deprecation release.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { runInProcess, type CliRun } from './e2e-helpers';
import { REFERENCE, removeDir, REPO, scratchProject, TINY_CATALOG, oracleAnswers } from './helpers';

const BUNDLE = 'bundle.yaml';
const itgen = (cwd: string, argv: string[]): CliRun => runInProcess(cwd, argv);

const vm = (name: string, matchers: string, apiVersion = 'kubevirt.io/v1'): string =>
  `apiVersion: ${apiVersion}\nkind: VirtualMachine\nmetadata:\n  name: ${name}\nspec:\n${matchers}  template:\n    spec:\n      domain: {devices: {}}\n  runStrategy: Always\n`;

function withBundle(files: Record<string, string>): string {
  const dir = scratchProject(files);
  copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, BUNDLE));
  return dir;
}

describe('the API version of a VirtualMachine', () => {
  it.each([
    ['kubevirt.io/v1beta1', 'vm.yaml:1:13 error IT8006 VirtualMachine `x`: no matches for kind "VirtualMachine" in version "kubevirt.io/v1beta1"'],
    ['v1', 'vm.yaml:1:13 error IT8006 VirtualMachine `x`: no matches for kind "VirtualMachine" in version "v1"'],
    ['kubevirt.io/v2', 'vm.yaml:1:13 error IT8006 VirtualMachine `x`: no matches for kind "VirtualMachine" in version "kubevirt.io/v2"'],
  ])('refuses %s as the API server does, in expand and validate, and prints no VM', (apiVersion, line) => {
    const dir = withBundle({ 'vm.yaml': vm('x', '  instancetype: {name: u1.medium}\n', apiVersion) });
    try {
      for (const command of ['expand', 'validate']) {
        const r = itgen(dir, [command, 'vm.yaml', '--with', BUNDLE]);
        expect([command, r.code]).toEqual([command, 1]);
        expect(r.err).toContain(line);
        expect(r.out).toBe('');
      }
    } finally {
      removeDir(dir);
    }
  });

  it('refuses a VM without apiVersion at its kind, and warns on the deprecated kubevirt.io/v1alpha3 with KubeVirt’s own words', () => {
    const dir = withBundle({
      'none.yaml': vm('x', '  instancetype: {name: u1.medium}\n').replace('apiVersion: kubevirt.io/v1\n', ''),
      'old.yaml': vm('old', '  instancetype: {name: u1.medium}\n', 'kubevirt.io/v1alpha3'),
    });
    try {
      const none = itgen(dir, ['expand', 'none.yaml', '--with', BUNDLE]);
      expect(none.code).toBe(1);
      expect(none.err).toContain('none.yaml:1:7 error IT8006 VirtualMachine `x`: apiVersion not set');
      const old = itgen(dir, ['expand', 'old.yaml', '--with', BUNDLE]);
      expect(old.code).toBe(0);
      expect(old.err).toContain(
        'old.yaml:1:13 warning IT8006 VirtualMachine `old`: kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release.',
      );
      expect(old.out).toContain('name: old');
      expect(itgen(dir, ['--strict', 'expand', 'old.yaml', '--with', BUNDLE]).code).toBe(1);
    } finally {
      removeDir(dir);
    }
  });
});

describe('what a VM names', () => {
  it('a typo’d instance type beside a preference: the missing object first (with the did-you-mean), then the webhook’s refusal', () => {
    const dir = withBundle({ 'vm.yaml': vm('typo', '  instancetype: {name: u1.meduim}\n  preference: {name: fedora}\n') });
    try {
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE]);
      expect(r.code).toBe(1);
      const cause = r.err.indexOf(
        'vm.yaml:6:24 error IT8001 VirtualMachine `typo`: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.meduim" not found',
      );
      const refusal = r.err.indexOf(
        'error IT8003 VirtualMachine `typo` would be refused: failure checking preference requirements: insufficient Memory resources of 0 provided by VirtualMachine, preference requires 2Gi',
      );
      expect(cause).toBeGreaterThanOrEqual(0);
      expect(refusal).toBeGreaterThan(cause);
      expect(r.err).toContain('hint: without it KubeVirt judges the VM on its own, and refuses it (below); did you mean `u1.medium`?');
    } finally {
      removeDir(dir);
    }
  });

  it('a namespaced kind where only the cluster object exists: the hint names the kind, not the name the VM already has', () => {
    const dir = scratchProject({
      'objs.yaml':
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata: {name: small}\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}}\n---\n' +
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\nmetadata: {name: linux}\nspec: {}\n',
      'vm.yaml': vm('ns', '  instancetype: {name: small}\n  preference: {name: linux, kind: VirtualMachinePreference}\n'),
      'vm2.yaml': vm('cl', '  instancetype: {name: small, kind: VirtualMachineInstancetype}\n'),
    });
    try {
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', 'objs.yaml']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('error IT8001 VirtualMachine `ns`: virtualmachinepreferences.instancetype.kubevirt.io "linux" not found');
      expect(r.err).toContain(
        'hint: KubeVirt would store the VM and never start it (FailedFindPreference); `linux` is a VirtualMachineClusterPreference, not a VirtualMachinePreference: set spec.preference.kind: VirtualMachineClusterPreference (or leave kind out: it is the default)',
      );
      expect(r.err).not.toContain('did you mean `linux`');
      const r2 = itgen(dir, ['expand', 'vm2.yaml', '--with', 'objs.yaml']);
      expect(r2.err).toContain(
        '`small` is a VirtualMachineClusterInstancetype, not a VirtualMachineInstancetype: set spec.instancetype.kind: VirtualMachineClusterInstancetype',
      );
    } finally {
      removeDir(dir);
    }
  });

  it('an arm64 instance type with an amd64 preference: KubeVirt admits and expands it, itgen prints it and says it cannot run (IT8007)', () => {
    const objs =
      'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata: {name: a1.medium}\nspec:\n  cpu: {guest: 1}\n  memory: {guest: 2Gi}\n  nodeSelector: {kubernetes.io/arch: arm64}\n---\n' +
      'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\nmetadata: {name: amd}\nspec: {preferredArchitecture: amd64}\n---\n' +
      'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\nmetadata: {name: arm}\nspec: {preferredArchitecture: arm64}\n';
    const dir = scratchProject({
      'objs.yaml': objs,
      'bad.yaml': vm('bad', '  instancetype: {name: a1.medium}\n  preference: {name: amd}\n'),
      'good.yaml': vm('good', '  instancetype: {name: a1.medium}\n  preference: {name: arm}\n'),
    });
    try {
      const bad = itgen(dir, ['expand', 'bad.yaml', '--with', 'objs.yaml']);
      expect(bad.code).toBe(1);
      expect(bad.out).toContain('architecture: amd64');
      expect(bad.err).toContain(
        'bad.yaml:6:24 error IT8007 VirtualMachine `bad` runs an amd64 guest (from VirtualMachineClusterPreference `amd`) but its node selector places it on arm64 nodes (from VirtualMachineClusterInstancetype `a1.medium`)',
      );
      const good = itgen(dir, ['expand', 'good.yaml', '--with', 'objs.yaml']);
      expect([good.code, good.err]).toEqual([0, '']);
      // A VM without a preference gets the cluster's default architecture (amd64): the same conflict.
      writeFileSync(path.join(dir, 'plain.yaml'), vm('plain', '  instancetype: {name: a1.medium}\n'));
      expect(itgen(dir, ['expand', 'plain.yaml', '--with', 'objs.yaml']).err).toContain(
        'error IT8007 VirtualMachine `plain` runs an amd64 guest but its node selector places it on arm64 nodes',
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe('validate --vms and diff --vms: every VM is judged', () => {
  const GENERATOR = 'catalog: ../catalog\noutput: ../output\nvendor: acme.example\nsuppressWarnings: [IT5007]\n';
  const vmOf = (name: string, it: string, pref = 'mylinux'): string =>
    `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}, namespace: default}\nspec:\n  instancetype: {name: ${it}}\n  preference: {name: ${pref}}\n  template: {spec: {domain: {devices: {}}}}\n  runStrategy: Always\n`;

  it('a broken VM the change does not touch fails validate and diff; the good ones pass', () => {
    const dir = scratchProject({
      'generators/t.yaml': GENERATOR,
      'catalog/catalog.yaml': TINY_CATALOG,
      'vms/good.yaml': vmOf('good', 'c1.small'),
      'vms/typo.yaml': vmOf('typo', 'c1.smal'),
      'vms/api.yaml': vmOf('api', 'c1.small').replace('kubevirt.io/v1', 'kubevirt.io/v1beta1'),
    });
    try {
      expect(itgen(dir, ['generate']).code).toBe(0);
      const v = itgen(dir, ['validate', '--vms', 'vms']);
      expect(v.code).toBe(1);
      expect(v.err).toContain(
        'vms/typo.yaml:5:24 error IT8001 VirtualMachine `typo`: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "c1.smal" not found',
      );
      expect(v.err).toContain('did you mean `c1.small`?');
      expect(v.err).toContain('vms/api.yaml:1:13 error IT8006 VirtualMachine `api`: no matches for kind "VirtualMachine" in version "kubevirt.io/v1beta1"');
      expect(v.err).not.toContain('`good`');
      const d = itgen(dir, ['diff', '--vms', 'vms']);
      expect(d.code).toBe(1);
      expect(d.err).toContain('error IT8001 VirtualMachine `typo`');
      expect(itgen(dir, ['validate']).code).toBe(0);
      removeDir(path.join(dir, 'vms', 'typo.yaml'));
      removeDir(path.join(dir, 'vms', 'api.yaml'));
      expect(itgen(dir, ['validate', '--vms', 'vms'])).toMatchObject({ code: 0, err: '' });
    } finally {
      removeDir(dir);
    }
  });

  it('removing an object VMs still use is an error even after a deprecation release, said once per VM', () => {
    const dir = scratchProject({
      'generators/t.yaml': GENERATOR,
      'catalog/catalog.yaml': TINY_CATALOG,
      'vms/user.yaml': vmOf('user', 'c1.large'),
    });
    try {
      expect(itgen(dir, ['generate']).code).toBe(0);
      expect(itgen(dir, ['release', '--version', 'v1.0.0']).code).toBe(0);
      // v1.1.0 ships c1.large deprecated (a size override), v1.2.0 removes it.
      const catalog = path.join(dir, 'catalog', 'catalog.yaml');
      writeFileSync(catalog, TINY_CATALOG.replace('memoryPerCPU: 2Gi', 'memoryPerCPU: 2Gi\noverrides:\n  large: {deprecated: {replacement: c1.small}}'));
      const dep = itgen(dir, ['generate']);
      expect(dep.code).toBe(0);
      expect(itgen(dir, ['release', '--version', 'v1.1.0']).code).toBe(0);
      writeFileSync(catalog, TINY_CATALOG.replace('  - {name: large, cpu: 2}\n', ''));
      const v = itgen(dir, ['validate', '--vms', 'vms']);
      expect(v.code).toBe(1);
      expect(v.err).toContain(
        'vms/user.yaml:5:24 error IT8301 VirtualMachine `user` uses VirtualMachineClusterInstancetype `c1.large`, which this change removes (it was released deprecated before, but this VM still uses it)',
      );
      expect(v.err.match(/VirtualMachine `user`/g)).toHaveLength(1);
    } finally {
      removeDir(dir);
    }
  });
});

describe('the CI jobs init writes are a VM gate', () => {
  const broken = (it: string): string =>
    `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: web, namespace: default}\nspec:\n  instancetype: {name: ${it}}\n  preference: {name: acme.linux}\n  template: {spec: {domain: {devices: {}}}}\n  runStrategy: Always\n`;

  /** The shell of the job's validate step: GitHub's `run:` or GitLab's script lines, as the runner runs them. */
  function validateScript(repo: string, ci: 'github' | 'gitlab'): string {
    if (ci === 'github') {
      const wf = parse(readFileSync(path.join(repo, '.github/workflows/itgen.yaml'), 'utf8')) as { jobs: { itgen: { steps: { run?: string }[] } } };
      return wf.jobs.itgen.steps.find((s) => s.run?.includes('itgen validate'))!.run!;
    }
    const job = parse(readFileSync(path.join(repo, 'ci/itgen.gitlab-ci.yml'), 'utf8')) as { itgen: { script: string[] } };
    return job.itgen.script.filter((l) => l.includes('itgen validate')).join('\n');
  }

  it.each(['github', 'gitlab'] as const)('%s: the validate step fails on a VM naming an instance type the catalog lacks, and passes once it is fixed', (ci) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-gate-'));
    try {
      expect(runInProcess(dir, ['init', 'acme', '--vendor', 'acme.example', '--ci', ci]).code).toBe(0);
      const repo = path.join(dir, 'acme');
      expect(runInProcess(repo, ['generate']).code).toBe(0);
      mkdirSync(path.join(repo, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(path.join(REPO, 'bin', 'itgen'), path.join(repo, 'node_modules', '.bin', 'itgen'));
      mkdirSync(path.join(repo, 'vms'));
      writeFileSync(path.join(repo, 'vms', 'web.yaml'), broken('c1.meduim'));
      const script = validateScript(repo, ci);
      const failed = spawnSync('bash', ['-ec', script], { cwd: repo, encoding: 'utf8' });
      expect(failed.status).toBe(1);
      expect(`${failed.stdout}${failed.stderr}`).toContain('IT8001');
      writeFileSync(path.join(repo, 'vms', 'web.yaml'), broken('c1.medium'));
      const passed = spawnSync('bash', ['-ec', script], { cwd: repo, encoding: 'utf8' });
      expect([passed.status, passed.stdout, passed.stderr]).toEqual([0, '', '']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what the API server decodes of a VM (test/fixtures/oracle-answers/vm-metadata-*)', () => {
  const read = oracleAnswers;
  const server = new Map(read('vm-metadata-apiserver.jsonl').map((a) => [a['id'], a as { strictErrors?: string[] }]));
  const kubevirt = new Map(read('vm-metadata-answers.jsonl').map((a) => [a['id'], a as { expand?: { vm?: Record<string, unknown> } }]));

  it.each(read('vm-metadata-cases.jsonl').map((c) => [c['id'] as string, c] as const))(
    '%s: the API server’s strict decoding errors, then KubeVirt’s expansion',
    (id, c) => {
      const scratch = scratchProject({ 'vm.yaml': JSON.stringify(c['vm']) });
      try {
        const r = itgen(scratch, ['expand', 'vm.yaml', '--skip-admission', '-o', 'json']);
        const strict = server.get(id)!.strictErrors ?? [];
        const said = [...r.err.matchAll(/error IT8005 VirtualMachine `v`: strict decoding error: (unknown field "[^"]*")/g)].map((m) => m[1]);
        expect(said.sort()).toEqual([...strict].sort());
        if (strict.length === 0) {
          expect(r.code).toBe(0);
          const vm = JSON.parse(r.out) as Record<string, unknown>;
          const want = kubevirt.get(id)!.expand!.vm!;
          // expand-spec never returns a null KubeVirt's types drop (`disk: null`, `creationTimestamp: null`).
          expect(JSON.stringify(vm)).not.toContain('null');
          expect((vm['spec'] as { template: unknown }).template).toEqual(
            expect.objectContaining({ metadata: (want['spec'] as { template: { metadata: unknown } }).template.metadata }),
          );
        }
      } finally {
        removeDir(scratch);
      }
    },
  );
});

describe('--format gitlab: a Code Quality report for the merge request', () => {
  it('one issue per finding with path, line, severity and a stable fingerprint; an empty array when sound', () => {
    const dir = withBundle({ 'vm.yaml': vm('typo', '  instancetype: {name: u1.meduim}\n  preference: {name: fedora}\n') });
    try {
      const r = itgen(dir, ['validate', 'vm.yaml', '--with', BUNDLE, '--format', 'gitlab']);
      expect(r.code).toBe(1);
      const issues = JSON.parse(r.out) as { check_name: string; severity: string; fingerprint: string; location: { path: string; lines: { begin: number } } }[];
      expect(issues.map((i) => [i.check_name, i.severity, i.location.path, i.location.lines.begin])).toEqual([
        ['IT8001', 'major', 'vm.yaml', 6],
        ['IT8003', 'major', 'vm.yaml', 10],
      ]);
      expect(issues.every((i) => /^[0-9a-f]{64}$/.test(i.fingerprint))).toBe(true);
      const again = JSON.parse(itgen(dir, ['validate', 'vm.yaml', '--with', BUNDLE, '--format', 'gitlab']).out) as { fingerprint: string }[];
      expect(again.map((i) => i.fingerprint)).toEqual(issues.map((i) => i.fingerprint));
      writeFileSync(path.join(dir, 'vm.yaml'), vm('ok', '  instancetype: {name: u1.medium}\n  preference: {name: fedora}\n'));
      const sound = itgen(dir, ['validate', 'vm.yaml', '--with', BUNDLE, '--format', 'gitlab']);
      expect([sound.code, JSON.parse(sound.out)]).toEqual([0, []]);
    } finally {
      removeDir(dir);
    }
  });
});
