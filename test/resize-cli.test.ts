/**
 * `itgen resize`: the outcome of a change of instance type or preference, as a person and a UI read
 * it (the corpus, test/resize-corpus.test.ts, proves the answers against KubeVirt).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInProcess } from './e2e-helpers';
import type { JsonObject } from '../src/json';

const REPO = path.resolve(__dirname, '..');
const BUNDLE = path.join(REPO, 'output', 'common-instancetypes');
const VM = (it: string, pref: string): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: web, namespace: default}\nspec:\n  runStrategy: Always\n  instancetype: {name: ${it}}\n  preference: {name: ${pref}}\n  template:\n    spec:\n      domain: {devices: {interfaces: [{name: default, masquerade: {}}]}}\n      networks: [{name: default, pod: {}}]\n      volumes: [{name: rootdisk, containerDisk: {image: "quay.io/containerdisks/fedora:41"}}]\n`;

describe('itgen resize', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-resize-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...argv: string[]): ReturnType<typeof runInProcess> => runInProcess(dir, ['resize', 'vm.yaml', '--with', BUNDLE, ...argv]);

  it('u1.medium to u1.large: pending without LiveMigrate in the CR, live with it; u1.2xlarge needs a restart (8 sockets over the 4x limit)', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.medium', 'fedora'));
    expect(run('--to', 'u1.large').out).toBe(
      "web: pending: CPU sockets 1 -> 2 (at most 4, KubeVirt's default ratio), memory 4Gi -> 8Gi (at most 16Gi, KubeVirt's default ratio); the hotplug waits for a live migration the cluster does not do: live with LiveMigrate listed in the KubeVirt CR's spec.workloadUpdateStrategy.workloadUpdateMethods\n",
    );
    writeFileSync(
      path.join(dir, 'kv.yaml'),
      'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt}\nspec:\n  workloadUpdateStrategy: {workloadUpdateMethods: [LiveMigrate]}\n',
    );
    expect(run('--to', 'u1.large', '--kubevirt', 'kv.yaml').out).toMatch(/^web: live: .*hotplugged through a live migration/);
    expect(run('--to', 'u1.2xlarge').out).toBe(
      `web: restart: RestartRequired: "CPU sockets updated in template spec to a value higher than what's available"; set by spec.template.spec.domain.cpu.sockets (the instance type); live with at most 4 sockets (the running VM's maxSockets, from 4x the sockets it started with); a higher limit takes effect at the next start\n`,
    );
  });

  it('an o1 size and a family change need a restart, naming the fields; a non-migratable VMI cannot hotplug memory', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM('o1.medium', 'fedora'));
    const json = JSON.parse(run('--to', 'o1.large', '-o', 'json').out) as { outcome: string; restartRequired: { message: string; fields: string[] } };
    expect(json.outcome).toBe('restart');
    expect(json.restartRequired.message).toBe('a non-live-updatable field was changed in the template spec');
    expect(json.restartRequired.fields).toContain('spec.template.spec.domain.resources.requests.memory');
    expect(
      (json.restartRequired as unknown as { sources: string[] }).sources[
        json.restartRequired.fields.indexOf('spec.template.spec.domain.resources.requests.memory')
      ],
    ).toBe('instancetype');
    writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.medium', 'fedora'));
    expect(run('--to', 'u1.large', '--not-migratable').out).toContain('Memory-hotplug is only available for migratable VMs');
  });

  it('a vCPU change under windows.11 needs a restart (it prefers cores), under windows.2k22 it is live or pending', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.large', 'windows.11'));
    expect(run('--to', 'u1.xlarge').out).toMatch(/^web: restart: .*spec\.template\.spec\.domain\.cpu\.cores \(the (instance type|preference)\)/);
    writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.large', 'windows.2k22'));
    expect(run('--to', 'u1.xlarge').out).toMatch(/^web: pending: CPU sockets 2 -> 4/);
  });

  it('rejected with the admission words, failed for a missing object (FailedFindInstancetype), KIND/NAME with kubectl names', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.medium', 'fedora'));
    expect(run('--preference', 'windows.11').out).toContain("web: rejected: KubeVirt's admission refuses it: failure checking preference requirements");
    // A missing instance type: admission ignores the failed lookup; without a preference's requirements to fail, the VM controller does.
    writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.medium', 'fedora').replace('  preference: {name: fedora}\n', ''));
    const missing = JSON.parse(run('--to', 'u1.meduim', '-o', 'json').out) as { outcome: string; syncError: { reason: string } };
    expect(missing).toMatchObject({ outcome: 'failed', syncError: { reason: 'FailedFindInstancetype' } });
    expect(run('--to', 'vmcp/fedora').err).toContain('`vmcp` names a preference, not an instance type');
    expect(run('--to', 'virtualmachineclusterinstancetype/u1.large').out).toMatch(/^web: pending/);
    // Every name kubectl takes for the kinds (the CRDs' short names, the group suffix), as explain and validate read them.
    expect(run('--to', 'vmclusterinstancetype/u1.large').out).toMatch(/^web: pending/);
    expect(run('--to', 'VirtualMachineClusterInstancetypes.instancetype.kubevirt.io/u1.large').out).toMatch(/^web: pending/);
    expect(run('--to', 'vmx/u1.large').err).toContain(
      'unknown kind `vmx`: one of virtualmachineinstancetype, virtualmachineinstancetypes, vminstancetype, vminstancetypes, vmf, vmfs, virtualmachineclusterinstancetype',
    );
  });

  it("whether the VMI can migrate is virt-handler's LiveMigratable condition, from the VM and the PVCs given (assumed shared when not)", () => {
    const withDisk = (vm: string): string =>
      vm.replace(
        'volumes: [{name: rootdisk, containerDisk: {image: "quay.io/containerdisks/fedora:41"}}]',
        'volumes: [{name: rootdisk, persistentVolumeClaim: {claimName: root}}]',
      );
    const pvc = (mode: string): string =>
      `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: root, namespace: default}\nspec: {accessModes: [${mode}], volumeMode: Filesystem, resources: {requests: {storage: 10Gi}}}\n`;
    // KubeVirt's default binding on the pod network is bridge: such a VMI cannot migrate.
    writeFileSync(
      path.join(dir, 'vm.yaml'),
      VM('u1.medium', 'fedora')
        .replace(/interfaces: \[[^\]]*\]/, '')
        .replace('      networks: [{name: default, pod: {}}]\n', ''),
    );
    const bridge = JSON.parse(run('--to', 'u1.large', '-o', 'json').out) as { outcome: string; migration: JsonObject; toLive: string };
    expect(bridge).toMatchObject({
      outcome: 'restart',
      migration: {
        migratable: false,
        reason: 'InterfaceNotLiveMigratable',
        message: 'cannot migrate VMI which does not use masquerade or a migratable plugin to connect to the pod network',
        from: 'derived',
      },
    });
    // A ReadWriteOnce claim: not shared.
    writeFileSync(path.join(dir, 'vm.yaml'), withDisk(VM('u1.medium', 'fedora')));
    writeFileSync(path.join(dir, 'pvc.yaml'), pvc('ReadWriteOnce'));
    expect(run('--to', 'u1.large', '--with', 'pvc.yaml').out).toContain(
      'live with a live-migratable VM (now: cannot migrate VMI: PVC root is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode))',
    );
    writeFileSync(path.join(dir, 'pvc.yaml'), pvc('ReadWriteMany'));
    expect(run('--to', 'u1.large', '--with', 'pvc.yaml').out).toMatch(/^web: pending: /);
    // Not given: assumed shared, and said.
    const assumed = JSON.parse(run('--to', 'u1.large', '-o', 'json').out) as { outcome: string; migration: { assumed: string[] } };
    expect(assumed.outcome).toBe('pending');
    expect(assumed.migration.assumed).toEqual(['PVC root is shared (ReadWriteMany): it was not given (pass it with --with)']);
    expect(run('--to', 'u1.large').out).toContain('assumed: PVC root is shared (ReadWriteMany)');
  });

  it('--plan groups every instance type by outcome, the current one marked', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.medium', 'fedora'));
    const r = run('--plan');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^live \(\d+\):\n {2}u1\.medium \(current\): nothing to change on the running VM/);
    expect(r.out).toMatch(/\npending \(\d+\):\n/);
    expect(r.out).toMatch(/\nrestart \(\d+\):\n/);
    const json = JSON.parse(run('--plan', '-o', 'json').out) as { options: { instancetype: { name: string }; outcome: string }[] };
    expect(json.options.find((o) => o.instancetype.name === 'u1.2xlarge')?.outcome).toBe('restart');
  });
});

describe('itgen diff --vms --against REF: the VMs a change switches to another instance type', () => {
  it('says for each whether applying it is live, pending or a restart, and why', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-resize-review-'));
    const git = (...args: string[]): void => {
      const r = spawnSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd: dir, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
    };
    try {
      cpSync(path.join(REPO, 'catalogs', 'common-instancetypes'), path.join(dir, 'catalogs', 'common-instancetypes'), { recursive: true });
      mkdirSync(path.join(dir, 'generators'));
      cpSync(path.join(REPO, 'generators', 'common-instancetypes.yaml'), path.join(dir, 'generators', 'common-instancetypes.yaml'));
      mkdirSync(path.join(dir, 'vms'));
      writeFileSync(path.join(dir, 'vms', 'web.yaml'), VM('u1.medium', 'fedora'));
      writeFileSync(path.join(dir, 'vms', 'api.yaml'), VM('u1.medium', 'fedora').replace('name: web', 'name: api'));
      expect(runInProcess(dir, ['generate']).code).toBe(0);
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('commit', '-qm', 'base');
      writeFileSync(path.join(dir, 'vms', 'web.yaml'), VM('u1.2xlarge', 'fedora'));
      writeFileSync(path.join(dir, 'vms', 'api.yaml'), VM('u1.large', 'fedora').replace('name: web', 'name: api'));
      const md = runInProcess(dir, ['diff', '--against', 'HEAD', '--vms', 'vms', '-o', 'markdown']);
      expect(md.out).toContain('#### VMs switched to another instance type or preference');
      expect(md.out).toContain(
        "| `web` | `u1.medium + fedora` → `u1.2xlarge + fedora` | **restart** | RestartRequired: `CPU sockets updated in template spec to a value higher than what's available`",
      );
      expect(md.out).toContain('| `api` | `u1.medium + fedora` → `u1.large + fedora` | **pending** | CPU sockets 1 → 2, memory `4Gi` → `8Gi` |');
      const json = JSON.parse(runInProcess(dir, ['diff', '--against', 'HEAD', '--vms', 'vms', '-o', 'json']).out) as {
        resizes: { name: string; plan: { outcome: string } }[];
      };
      expect(json.resizes.map((r) => [r.name, r.plan.outcome]).sort()).toEqual([
        ['api', 'pending'],
        ['web', 'restart'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('itgen resize --vmi FILE', () => {
  it("takes the running VMI's sockets, limits and LiveMigratable condition instead of the one the VM starts as", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-resize-vmi-'));
    try {
      writeFileSync(path.join(dir, 'vm.yaml'), VM('u1.medium', 'fedora'));
      // A VMI that was started with a hotplug limit of 2 sockets and cannot migrate.
      writeFileSync(
        path.join(dir, 'vmi.yaml'),
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata: {name: web, namespace: default}\nspec:\n  architecture: amd64\n  domain:\n    cpu: {sockets: 1, cores: 1, threads: 1, maxSockets: 2}\n    memory: {guest: 4Gi, maxGuest: 16Gi}\n    devices: {}\nstatus:\n  memory: {guestAtBoot: 4Gi, guestCurrent: 4Gi, guestRequested: 4Gi}\n  conditions: [{type: LiveMigratable, status: "False"}]\n',
      );
      const run = (...argv: string[]): string => runInProcess(dir, ['resize', 'vm.yaml', '--with', BUNDLE, '--vmi', 'vmi.yaml', ...argv]).out;
      expect(run('--to', 'u1.xlarge')).toContain(`RestartRequired: "CPU sockets updated in template spec to a value higher than what's available"`);
      expect(run('--to', 'u1.large')).toContain('Memory-hotplug is only available for migratable VMs');
      writeFileSync(path.join(dir, 'other.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
      expect(runInProcess(dir, ['resize', 'vm.yaml', '--with', BUNDLE, '--vmi', 'other.yaml', '--to', 'u1.large']).err).toContain(
        '`other.yaml` holds no VirtualMachineInstance',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
