/**
 * The VM owner's repository: VMs, the platform's bundle, the cluster's KubeVirt CR and a node dump,
 * no generators/. Every command runs on the given objects and says what it used; `validate` judges
 * each VM by KubeVirt's admission and then its start, under the cluster's configuration.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { runInProcess } from './e2e-helpers';
import { REFERENCE, REPO, removeDir, scratchProject } from './helpers';

const vm = (name: string, body = '', matchers = '  instancetype: {name: u1.medium}\n  preference: {name: fedora}\n'): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: ${name}\nspec:\n${matchers}  runStrategy: Always\n  template:\n    spec:\n      domain:\n        devices: {}\n${body}`;

const HOST_DEVICE_VM = vm('hd', '').replace(
  '        devices: {}\n',
  '        devices:\n          hostDevices:\n          - {name: hd1, deviceName: example.com/dev}\n',
);

const cr = (gates: string[]): string =>
  `apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec:\n  configuration:\n    developerConfiguration: {featureGates: [${gates.join(', ')}]}\n`;

function repository(files: Record<string, string>): string {
  const dir = scratchProject(files);
  mkdirSync(path.join(dir, 'platform'), { recursive: true });
  copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, 'platform', 'bundle.yaml'));
  mkdirSync(path.join(dir, 'cluster'), { recursive: true });
  copyFileSync(path.join(REPO, 'test', 'fixtures', 'fit', 'nodes.yaml'), path.join(dir, 'cluster', 'nodes.yaml'));
  return dir;
}

describe('a repository with only VMs, a bundle, a KubeVirt CR and a node dump', () => {
  let dir: string;
  beforeAll(() => {
    dir = repository({
      'vms/web.yaml': vm('web'),
      'vms/db.yaml': vm('db', '', '  instancetype: {name: u1.large}\n  preference: {name: rhel.9}\n'),
      'cluster/kubevirt.yaml': cr([]),
    });
  });
  afterAll(() => removeDir(dir));
  const W = ['--with', 'platform/bundle.yaml'];

  it.each([
    ['validate --vms', ['validate', '--vms', 'vms', ...W, '--kubevirt', 'cluster/kubevirt.yaml']],
    ['validate FILE', ['validate', 'vms', ...W]],
    ['expand', ['expand', 'vms/web.yaml', ...W]],
    ['expand --as pod', ['expand', 'vms/web.yaml', ...W, '--as', 'pod', '--kubevirt', 'cluster/kubevirt.yaml']],
    ['policy', ['policy', ...W]],
    ['facts', ['facts', ...W, '-o', 'csv']],
    ['explain', ['explain', 'u1.medium', ...W]],
    ['select', ['select', '--cpu', '2', ...W]],
    ['fit', ['fit', 'vms', '--nodes', 'cluster/nodes.yaml', ...W]],
    ['resize', ['resize', 'vms/web.yaml', '--to', 'u1.large', ...W, '--kubevirt', 'cluster/kubevirt.yaml']],
    ['site', ['site', '--out', 'explorer', ...W]],
  ])('%s runs on the given objects', (_what, argv) => {
    const r = runInProcess(dir, argv);
    expect([r.code, r.err]).toEqual([0, argv[0] === 'site' ? 'wrote explorer/index.html\n' : '']);
  });

  it('without objects, a command whose answer is a catalog says what to give', () => {
    const r = runInProcess(dir, ['policy']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'IT1009 no generator found and no objects given: add generators/*.yaml, or pass the instance types and preferences with --with FILE',
    );
  });
});

describe('a stored VM (kubectl get vm -o yaml), which runs on ControllerRevisions', () => {
  const stored = vm('stored', '', '  instancetype: {name: u1.medium, revisionName: stored-u1.medium-1}\n  preference: {name: fedora}\n').replace(
    'metadata:\n  name: stored\n',
    'metadata:\n  name: stored\n  namespace: apps\n',
  );
  it('without its revision: judged with the object the matcher names, as --vms does, and said with the command that exports the revision', () => {
    const dir = repository({ 'vms/stored.yaml': stored });
    try {
      const file = runInProcess(dir, ['validate', 'vms/stored.yaml', '--with', 'platform/bundle.yaml']);
      expect(file.code).toBe(0);
      expect(file.err).toContain(
        'warning IT8015 VirtualMachine `stored` runs on ControllerRevision `stored-u1.medium-1`, which the files do not hold: judged with the instance type `u1.medium` as it is now',
      );
      expect(file.err).toContain('kubectl get controllerrevisions -n apps stored-u1.medium-1 -o yaml');
      // expand answers as KubeVirt would on that start: its NotFound, with where to get the revision.
      const expanded = runInProcess(dir, ['expand', 'vms/stored.yaml', '--with', 'platform/bundle.yaml']);
      expect(expanded.code).toBe(1);
      expect(expanded.err).toMatch(
        /controllerrevisions\.apps "stored-u1\.medium-1" not found[^]*hint: a stored VM runs on the ControllerRevision its matcher names: export it with the VM \(kubectl get controllerrevisions stored-u1\.medium-1 -o yaml/,
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe('the start, under the cluster configuration', () => {
  let dir: string;
  beforeAll(() => {
    dir = repository({ 'vm.yaml': HOST_DEVICE_VM, 'on.yaml': cr(['HostDevices']), 'off.yaml': cr([]) });
  });
  afterAll(() => removeDir(dir));

  it("without the cluster's CR, KubeVirt's default configuration judges: a gate it leaves off refuses, and the hint names the gate and --kubevirt", () => {
    const r = runInProcess(dir, ['validate', 'vm.yaml', '--with', 'platform/bundle.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/vm\.yaml:\d+:\d+ error IT8003 VirtualMachine `hd` would be refused: Host Devices feature gate is not enabled in kubevirt-config\n/);
    expect(r.err).toContain('a cluster whose KubeVirt CR enables the HostDevices feature gate');
    expect(r.err).toContain("pass the cluster's CR with --kubevirt");
  });

  it("with the cluster's CR, KubeVirt's verdict: refused where the gate is off, clean where it is on", () => {
    const off = runInProcess(dir, ['validate', 'vm.yaml', '--with', 'platform/bundle.yaml', '--kubevirt', 'off.yaml']);
    expect(off.code).toBe(1);
    expect(off.err).toMatch(/error IT8003 VirtualMachine `hd` would be refused: Host Devices feature gate is not enabled in kubevirt-config\n/);
    const on = runInProcess(dir, ['validate', 'vm.yaml', '--with', 'platform/bundle.yaml', '--kubevirt', 'on.yaml']);
    expect([on.code, on.err]).toEqual([0, '']);
  });
});

describe('the API as served', () => {
  it.each([
    ['instancetype.kubevirt.io/v1alpha1', 'error'],
    ['instancetype.kubevirt.io/v1alpha2', 'error'],
    ['instancetype.kubevirt.io/v1', 'error'],
  ])('an instance type of %s is the API server\'s "no matches for kind", with the version served', (apiVersion) => {
    const dir = scratchProject({
      'it.yaml': `apiVersion: ${apiVersion}\nkind: VirtualMachineClusterInstancetype\nmetadata: {name: x}\nspec:\n  cpu: {guest: 1}\n  memory: {guest: 1Gi}\n`,
    });
    try {
      const r = runInProcess(dir, ['validate', 'it.yaml']);
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        `it.yaml:1:13 error IT8006 VirtualMachineClusterInstancetype \`x\`: no matches for kind "VirtualMachineClusterInstancetype" in version "${apiVersion}"`,
      );
      expect(r.err).toContain('serves VirtualMachineClusterInstancetype as apiVersion instancetype.kubevirt.io/v1beta1');
      // The object never reaches the schema or the webhooks: one report.
      expect(r.err.match(/ error /g)).toHaveLength(1);
    } finally {
      removeDir(dir);
    }
  });
});

describe('what the owner meant: warnings, each at its field', () => {
  const windowsVm = (preference: string): string =>
    `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: win\nspec:\n  instancetype: {name: u1.large}\n${preference}  runStrategy: Always\n  dataVolumeTemplates:\n  - metadata: {name: win-root}\n    spec:\n      sourceRef: {kind: DataSource, name: win2k22, namespace: images}\n      storage: {resources: {requests: {storage: 64Gi}}}\n  template:\n    spec:\n      domain:\n        devices: {}\n      volumes:\n      - name: rootdisk\n        dataVolume: {name: win-root}\n`;
  const DATASOURCE =
    'apiVersion: cdi.kubevirt.io/v1beta1\nkind: DataSource\nmetadata:\n  name: win2k22\n  namespace: images\n  labels:\n    instancetype.kubevirt.io/default-instancetype: u1.large\n    instancetype.kubevirt.io/default-preference: windows.2k22\nspec:\n  source: {pvc: {name: win2k22, namespace: images}}\n';
  const DEPRECATED =
    'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata:\n  name: legacy.large\n  labels: {instancetype.kubevirt.io/deprecated: "true", instancetype.kubevirt.io/class: overcommitted}\n  annotations: {instancetype.kubevirt.io/replacement: u1.large}\nspec:\n  cpu: {guest: 2}\n  memory: {guest: 8Gi}\n';

  let dir: string;
  beforeAll(() => {
    dir = repository({
      'decimal.yaml': vm('decimal')
        .replace('  instancetype: {name: u1.medium}\n', '')
        .replace('        devices: {}\n', '        devices: {}\n        memory: {guest: 8G}\n'),
      'dedicated.yaml': vm('dedicated').replace('        devices: {}\n', '        devices: {}\n        cpu: {dedicatedCpuPlacement: true}\n'),
      'hugepages.yaml': vm('huge').replace('        devices: {}\n', '        devices: {}\n        memory: {hugepages: {pageSize: 2Mi}}\n'),
      'deprecated.yaml': vm('old', '', '  instancetype: {name: legacy.large}\n  preference: {name: fedora}\n'),
      'win-none.yaml': windowsVm(''),
      'win-rhel.yaml': windowsVm('  preference: {name: rhel.9}\n'),
      'win-right.yaml': windowsVm('  preference: {name: windows.2k22}\n'),
      'win-infer.yaml': windowsVm('  preference: {inferFromVolume: rootdisk}\n'),
      'platform/deprecated.yaml': DEPRECATED,
      'cluster/datasource.yaml': DATASOURCE,
    });
  });
  afterAll(() => removeDir(dir));
  const validate = (file: string): ReturnType<typeof runInProcess> =>
    runInProcess(dir, ['validate', file, '--with', 'platform/bundle.yaml', '--with', 'platform/deprecated.yaml', '--with', 'cluster/datasource.yaml']);

  it('memory in decimal units: 8G is 7.45Gi', () => {
    const r = validate('decimal.yaml');
    expect(r.code).toBe(0);
    expect(r.err).toContain('decimal.yaml:12:25 warning IT8012 VirtualMachine `decimal`: memory `8G` is 8,000,000,000 bytes (7.45Gi), not 8Gi');
  });

  it('dedicated CPUs and hugepages on a shared general-purpose type change its class', () => {
    expect(validate('dedicated.yaml').err).toContain(
      'dedicated.yaml:13:38 warning IT8013 VirtualMachine `dedicated`: `cpu.dedicatedCpuPlacement` gives the VM dedicated CPUs, which VirtualMachineClusterInstancetype `u1.medium` (class general.purpose) does not',
    );
    expect(validate('hugepages.yaml').err).toMatch(
      /hugepages\.yaml:13:\d+ warning IT8013 VirtualMachine `huge`: `memory\.hugepages` backs the VM with hugepages/,
    );
  });

  it('a deprecated instance type of the bundle, with the replacement its annotation records', () => {
    const r = validate('deprecated.yaml');
    expect(r.err).toContain(
      'deprecated.yaml:6:24 warning IT8302 VirtualMachine `old` uses VirtualMachineClusterInstancetype `legacy.large`, which is deprecated',
    );
    expect(r.err).toContain('switch to `u1.large`, its replacement');
  });

  it('a Windows VM with no preference, or rhel.9, cloning a DataSource whose default preference is windows.2k22', () => {
    expect(validate('win-none.yaml').err).toMatch(
      /win-none\.yaml:\d+:\d+ warning IT8014 VirtualMachine `win` names no preference, and its root volume's DataSource win2k22 says `windows\.2k22`/,
    );
    expect(validate('win-rhel.yaml').err).toMatch(
      /win-rhel\.yaml:7:\d+ warning IT8014 VirtualMachine `win` names preference `rhel\.9`, and its root volume's DataSource win2k22 says `windows\.2k22`/,
    );
    for (const file of ['win-right.yaml', 'win-infer.yaml']) expect(validate(file).err).not.toContain('IT8014');
  });
});

describe('itgen init --vms: the CI job of a VM repository', () => {
  /** The job's steps as the runner runs them: GitHub's `run:`, GitLab's script and after_script. */
  function steps(repo: string, ci: 'github' | 'gitlab'): { validate: string; pods: string } {
    if (ci === 'github') {
      const wf = parse(readFileSync(path.join(repo, '.github/workflows/itgen-vms.yaml'), 'utf8')) as { jobs: { vms: { steps: { run?: string }[] } } };
      const runs = wf.jobs.vms.steps.flatMap((s) => (s.run ? [s.run] : []));
      return { validate: runs.find((r) => r.includes('itgen validate'))!, pods: runs.find((r) => r.includes('--as pod'))! };
    }
    const job = (parse(readFileSync(path.join(repo, 'ci/itgen-vms.gitlab-ci.yml'), 'utf8')) as { 'itgen-vms': { script: string[]; after_script: string[] } })[
      'itgen-vms'
    ];
    return { validate: job.script.filter((l) => l.includes('itgen validate')).join('\n'), pods: job.after_script.join('\n') };
  }

  it.each(['github', 'gitlab'] as const)("%s: fails on a VM naming what the bundle lacks, passes once fixed, and keeps each VM's pod", (ci) => {
    const repo = repository({
      'vms/web.yaml': vm('web', '', '  instancetype: {name: u1.meduim}\n  preference: {name: fedora}\n'),
      'cluster/kubevirt.yaml': cr([]),
    });
    try {
      const init = runInProcess(repo, ['init', '--vms', 'vms', '--bundle', 'platform/bundle.yaml', '--kubevirt', 'cluster/kubevirt.yaml', '--ci', ci]);
      expect(init.code).toBe(0);
      expect(init.err).toContain('the CI job that validates the VMs under vms');
      if (ci === 'gitlab') expect(readFileSync(path.join(repo, '.gitlab-ci.yml'), 'utf8')).toBe('include:\n  - local: ci/itgen-vms.gitlab-ci.yml\n');
      else {
        // GitHub's own workflow parser takes it.
        const check = spawnSync(process.execPath, [path.join(REPO, 'tools', 'check-workflow.mjs'), path.join(repo, '.github/workflows/itgen-vms.yaml')], {
          encoding: 'utf8',
        });
        expect([check.status, check.stdout]).toEqual([0, '']);
      }
      mkdirSync(path.join(repo, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(path.join(REPO, 'bin', 'itgen'), path.join(repo, 'node_modules', '.bin', 'itgen'));
      const { validate, pods } = steps(repo, ci);
      const failed = spawnSync('bash', ['-ec', validate], { cwd: repo, encoding: 'utf8' });
      expect(failed.status).toBe(1);
      expect(`${failed.stdout}${failed.stderr}`).toContain('IT8001');
      writeFileSync(path.join(repo, 'vms', 'web.yaml'), vm('web'));
      const passed = spawnSync('bash', ['-ec', validate], { cwd: repo, encoding: 'utf8' });
      expect(passed.status).toBe(0);
      expect(spawnSync('bash', ['-ec', pods], { cwd: repo, encoding: 'utf8' }).status).toBe(0);
      const artifact = readFileSync(path.join(repo, ci === 'github' ? 'itgen-pods/pods.yaml' : 'itgen-pods.yaml'), 'utf8');
      expect(artifact).toContain('kind: Pod');
      expect(artifact).toContain('kubevirt.io/memory-overhead-bytes');
    } finally {
      removeDir(repo);
    }
  });

  it('leaves a job that exists as it was, and refuses --bundle without --vms', () => {
    const repo = repository({ '.github/workflows/itgen-vms.yaml': '# ours\n' });
    try {
      const r = runInProcess(repo, ['init', '--vms', 'vms']);
      expect([r.code, readFileSync(path.join(repo, '.github/workflows/itgen-vms.yaml'), 'utf8')]).toEqual([0, '# ours\n']);
      expect(r.err).toContain('left as it was: .github/workflows/itgen-vms.yaml (exists)');
      expect(runInProcess(repo, ['init', '--bundle', 'x']).err).toContain('--bundle and --kubevirt go with --vms DIR');
    } finally {
      removeDir(repo);
    }
  });
});

describe('diff --from OLD --to NEW: two releases of the platform bundle, and what each VM gets', () => {
  const it_ = (name: string, cpu: number, memory: string, extra = ''): string =>
    `apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata:\n  name: ${name}\n  labels: {acme.example/bundle-version: VERSION${extra}}\nspec:\n  cpu: {guest: ${cpu}}\n  memory: {guest: ${memory}}\n`;
  const PREF =
    'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\nmetadata:\n  name: fedora\n  labels: {acme.example/bundle-version: VERSION}\nspec:\n  devices: {preferredDiskBus: virtio}\n';
  const bundle = (version: string, docs: string[]): string => docs.join('---\n').replace(/VERSION/g, version);
  const V1 = bundle('v1.0.0', [it_('u1.small', 1, '2Gi'), it_('u1.medium', 1, '4Gi'), it_('u1.large', 2, '8Gi'), PREF]);
  const V2 = bundle('v1.1.0', [
    it_('u1.small', 1, '2Gi', ', instancetype.kubevirt.io/deprecated: "true"}\n  annotations: {instancetype.kubevirt.io/replacement: u1.large').replace(
      '"true"}}',
      '"true"}',
    ),
    it_('u1.large', 2, '16Gi'),
    PREF,
  ]);

  it('names the removed, deprecated and changed objects and the VMs they touch, without a project', () => {
    const dir = scratchProject({
      'platform/v1.0.0.yaml': V1,
      'platform/v1.1.0.yaml': V2,
      'vms/web.yaml': vm('web'),
      'vms/db.yaml': vm('db', '', '  instancetype: {name: u1.small}\n  preference: {name: fedora}\n'),
      'vms/big.yaml': vm('big', '', '  instancetype: {name: u1.large}\n  preference: {name: fedora}\n'),
    });
    try {
      const r = runInProcess(dir, ['diff', '--from', 'platform/v1.0.0.yaml', '--to', 'platform/v1.1.0.yaml', '--vms', 'vms']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/vms\/web\.yaml:\d+:\d+ error IT8301 .*u1\.medium/);
      expect(r.err).toMatch(/vms\/db\.yaml:\d+:\d+ warning IT8302 .*u1\.small/);
      expect(r.err).toContain('u1.large');
      expect(r.out).toContain('  - u1.medium\n');
      expect(r.out).toContain('0 added, 1 removed, 2 changed');
      // The bundles' version label is not a change of every object.
      expect(r.out).not.toContain('bundle-version');
      const json = runInProcess(dir, ['diff', '--from', 'platform/v1.0.0.yaml', '--to', 'platform/v1.1.0.yaml', '-o', 'json']);
      const summary = (JSON.parse(json.out) as { generators: { summary: Record<string, number> }[] }).generators[0]!.summary;
      expect(summary).toEqual({ added: 0, removed: 1, changed: 2 });
      expect(runInProcess(dir, ['diff', '--from', 'platform/v1.0.0.yaml']).err).toContain('diff --from OLD needs --to NEW');
    } finally {
      removeDir(dir);
    }
  });

  it("a VM on an object the new bundle removes is told the replacement the old bundle's annotation names", () => {
    const V3 = bundle('v1.2.0', [it_('u1.large', 2, '16Gi'), PREF]);
    const dir = scratchProject({
      'platform/v1.1.0.yaml': V2,
      'platform/v1.2.0.yaml': V3,
      'vms/db.yaml': vm('db', '', '  instancetype: {name: u1.small}\n  preference: {name: fedora}\n'),
    });
    try {
      const r = runInProcess(dir, ['diff', '--from', 'platform/v1.1.0.yaml', '--to', 'platform/v1.2.0.yaml', '--vms', 'vms']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/vms\/db\.yaml:\d+:\d+ error IT8301 .*u1\.small.*\(it was released deprecated before/);
      expect(r.err).toContain('hint: move the VM to `u1.large`, its replacement, before the removal reaches the clusters');
    } finally {
      removeDir(dir);
    }
  });
});

describe('resize --exit-code: a CI gate on how a change applies', () => {
  it('exits 1 unless the change applies live', () => {
    // Masquerade on the pod network: the VMI can migrate (KubeVirt's default bridge binding cannot).
    const masquerade = vm('web').replace(
      '        devices: {}\n',
      '        devices: {interfaces: [{name: default, masquerade: {}}]}\n      networks: [{name: default, pod: {}}]\n',
    );
    const dir = repository({
      'vm.yaml': masquerade,
      'bridge.yaml': vm('web'),
      'migrates.yaml': `${cr([])}  workloadUpdateStrategy:\n    workloadUpdateMethods: [LiveMigrate]\n`,
      'waits.yaml': cr([]),
    });
    try {
      const live = runInProcess(dir, ['resize', 'vm.yaml', '--to', 'u1.large', '--with', 'platform/bundle.yaml', '--kubevirt', 'migrates.yaml', '--exit-code']);
      expect([live.code, live.out]).toEqual([0, expect.stringMatching(/^web: live: /)]);
      const pending = runInProcess(dir, ['resize', 'vm.yaml', '--to', 'u1.large', '--with', 'platform/bundle.yaml', '--kubevirt', 'waits.yaml', '--exit-code']);
      expect([pending.code, pending.out]).toEqual([1, expect.stringMatching(/^web: pending: /)]);
      const bridge = runInProcess(dir, [
        'resize',
        'bridge.yaml',
        '--to',
        'u1.large',
        '--with',
        'platform/bundle.yaml',
        '--kubevirt',
        'migrates.yaml',
        '--exit-code',
      ]);
      expect([bridge.code, bridge.out]).toEqual([1, expect.stringContaining('cannot migrate VMI which does not use masquerade or a migratable plugin')]);
    } finally {
      removeDir(dir);
    }
  });
});

describe("--policies: the platform's admission policies, applied to the VMs as kube-apiserver would", () => {
  const OWN = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: team-limits}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [kubevirt.io], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [virtualmachines]}
  variables:
  - {name: strategy, expression: "has(object.spec.runStrategy) ? object.spec.runStrategy : 'Halted'"}
  validations:
  - expression: "variables.strategy != params.data.forbidden"
    messageExpression: "'runStrategy ' + variables.strategy + ' is not allowed in ' + request.namespace"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: team-limits-warn}
spec:
  policyName: team-limits
  validationActions: [Warn]
  paramRef: {name: team-limits, namespace: default, parameterNotFoundAction: Deny}
  matchResources:
    namespaceSelector: {matchLabels: {tier: dev}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: team-limits, namespace: default}
data: {forbidden: Always}
`;
  it('the typo the platform policy denies, in its words; a warning from a Warn binding with its parameter; nothing where the selector does not match', () => {
    const dir = repository({
      'vms/typo.yaml': vm('typo', '', '  instancetype: {name: u1.meduim}\n  preference: {name: fedora}\n'),
      'vms/web.yaml': vm('web'),
      'vms/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n  labels: {tier: dev}\n',
      'platform/own-policy.yaml': OWN,
    });
    try {
      const printed = runInProcess(dir, ['policy', '--with', 'platform/bundle.yaml']);
      writeFileSync(path.join(dir, 'platform', 'policies.yaml'), printed.out);
      const r = runInProcess(dir, [
        'validate',
        'vms',
        '--with',
        'platform/bundle.yaml',
        '--policies',
        'platform/policies.yaml',
        '--policies',
        'platform/own-policy.yaml',
      ]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        "vms/typo.yaml:4:9 error IT8010 VirtualMachine `typo`: ValidatingAdmissionPolicy 'itgen.files.catalog' with binding 'itgen.files.catalog' denied request: u1.meduim is not an instance type of this cluster; did you mean u1.medium?",
      );
      expect(r.err).toContain(
        "vms/web.yaml:4:9 warning IT8010 VirtualMachine `web`: Validation failed for ValidatingAdmissionPolicy 'team-limits' with binding 'team-limits-warn': runStrategy Always is not allowed in default",
      );
      // The namespace selector: a namespace without the label is not bound.
      writeFileSync(path.join(dir, 'vms', 'ns.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n');
      expect(runInProcess(dir, ['validate', 'vms', '--with', 'platform/bundle.yaml', '--policies', 'platform/own-policy.yaml']).err).not.toContain(
        'team-limits',
      );
      // Policies among the --with files are applied too, not ignored.
      expect(runInProcess(dir, ['validate', 'vms/typo.yaml', '--with', 'platform/bundle.yaml', '--with', 'platform/policies.yaml']).err).toContain(
        'denied request: u1.meduim is not an instance type',
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe('the cluster objects given with --with reach the start', () => {
  it('a ResourceQuota setting limits.cpu in the VM’s namespace puts a CPU limit on the compute container (AutoResourceLimitsGate)', () => {
    const dir = scratchProject({
      'vm.yaml':
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: q, namespace: team}\nspec:\n  runStrategy: Always\n  template:\n    spec:\n      domain:\n        resources: {requests: {memory: 1Gi}}\n        devices: {}\n',
      'quota.yaml': 'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: team}\nspec: {hard: {limits.cpu: "10", limits.memory: 10Gi}}\n',
      'kv.yaml': `${cr(['AutoResourceLimitsGate'])}`,
    });
    try {
      const without = runInProcess(dir, ['expand', 'vm.yaml', '--as', 'pod', '--kubevirt', 'kv.yaml', '-o', 'json']);
      const withQuota = runInProcess(dir, ['expand', 'vm.yaml', '--as', 'pod', '--kubevirt', 'kv.yaml', '--with', 'quota.yaml', '-o', 'json']);
      const limits = (out: string): Record<string, string> =>
        (
          JSON.parse(out) as { items: { spec: { containers: { name: string; resources: { limits: Record<string, string> } }[] } }[] }
        ).items[0]!.spec.containers.find((c) => c.name === 'compute')!.resources.limits;
      expect(limits(without.out)['cpu']).toBeUndefined();
      expect(limits(withQuota.out)['cpu']).toBe('1');
    } finally {
      removeDir(dir);
    }
  });
});
