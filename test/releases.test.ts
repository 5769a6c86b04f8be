/**
 * KubeVirt releases as data (src/kubevirt/releases.ts): the modelled patch releases, a catalog that
 * targets a range and names the releases a finding holds for, and a VM answered as the release its
 * cluster runs (`--kubevirt-version`, or the KubeVirt CR's status.observedKubeVirtVersion).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInProcess } from './e2e-helpers';
import { DEFAULT_GENERATOR, removeDir, scratchProject } from './helpers';
import { holds, modelledRelease, releaseNote, releasesBetween } from '../src/kubevirt/releases';
import { DEPLOYED_COMMON_INSTANCETYPES, DEPLOYED_NAMES } from '../src/kubevirt/deployed-catalog';

describe('the release table', () => {
  it("answers a release as its line's modelled patch not newer than it, else the line's oldest, else the newest modelled line before it", () => {
    expect([modelledRelease('v1.8.2'), modelledRelease('v1.10.0'), modelledRelease('v1.5.0'), modelledRelease(undefined)]).toEqual([
      'v1.8.0',
      'v1.9.0',
      undefined,
      'v1.9.0',
    ]);
    // v1.7.0 is v1.7's webhooks and controller: answered as v1.7.4, not as v1.6.6.
    expect([modelledRelease('v1.7.0'), modelledRelease('v1.7'), modelledRelease('v1.8'), modelledRelease('v1.10')]).toEqual([
      'v1.7.4',
      'v1.7.4',
      'v1.8.4',
      'v1.9.0',
    ]);
  });

  it('says which release answers for one it does not model, and nothing for one it does or for a minor line', () => {
    expect(releaseNote('v1.7.0')).toBe('KubeVirt v1.7.0 is not among the modelled releases (v1.6.6, v1.7.4, v1.8.0, v1.8.4, v1.9.0): answered as v1.7.4');
    expect([releaseNote('v1.7.4'), releaseNote('v1.7'), releaseNote(undefined)]).toEqual([undefined, undefined, undefined]);
    expect(releaseNote('v1.10')).toMatch(/answered as v1\.9\.0$/);
  });

  it('takes a range of patch releases, a minor bound its whole line', () => {
    expect(releasesBetween('v1.7.4', 'v1.9.0')).toEqual(['v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0']);
    expect(releasesBetween('v1.8', 'v1.8')).toEqual(['v1.8.0', 'v1.8.4']);
    expect(releasesBetween('v1.9', undefined)).toEqual(['v1.9.0']);
  });

  it('holds the arm64 Secure Boot refusal for v1.6.6, v1.7.4 and v1.8.0 only', () => {
    expect(['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0'].filter((r) => holds('arm64SecureBoot', r))).toEqual(['v1.6.6', 'v1.7.4', 'v1.8.0']);
  });
});

const CATALOG = `kind: Catalog
name: t
---
kind: SizeLadder
name: sizes
sizes:
  - {name: small, cpu: 1}
---
kind: Family
name: c
version: 1
displayName: Compute
description: Compute
class: compute
memoryPerCPU: 2Gi
architectures: [arm64]
---
kind: Preference
name: secure
displayName: Secure
architectures: [arm64]
spec:
  firmware: {preferredEfi: {secureBoot: true}}
  features: {preferredSmm: {}}
`;

describe('a catalog targets a range of releases', () => {
  it.each([
    ['{min: v1.7.4, max: v1.9.0}', 'refused by KubeVirt v1.7.4 and v1.8.0: UEFI secure boot is currently not supported on aarch64 Arch'],
    ['v1.7', 'refused by KubeVirt v1.7.4 and v1.8.0: UEFI secure boot is currently not supported on aarch64 Arch'],
    ['{min: v1.8.4}', undefined],
    ['v1.9', undefined],
  ])('targetKubevirt %s', (target, finding) => {
    const dir = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR.replace('vendor: kubevirt.io', 'vendor: acme.example')}targetKubevirt: ${target}\n`,
      'catalog/catalog.yaml': CATALOG,
    });
    try {
      const r = runInProcess(dir, ['validate']);
      if (finding === undefined) expect(r.err).not.toContain('IT4017');
      else {
        expect(r.code).toBe(1);
        expect(r.err).toContain(`error IT4017 preference \`secure.arm64\``);
        expect(r.err).toContain(finding);
      }
    } finally {
      removeDir(dir);
    }
  });
});

const VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: arm}
spec:
  runStrategy: Always
  template:
    spec:
      architecture: arm64
      domain:
        resources: {requests: {memory: 1Gi}}
        firmware:
          bootloader:
            efi: {secureBoot: true}
        features:
          smm: {enabled: true}
        devices: {}
`;

const KUBEVIRT_MULTIARCH =
  'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec: {configuration: {developerConfiguration: {featureGates: [MultiArchitecture]}}}\n';

describe('a VM answered as its cluster’s release', () => {
  it('v1.7.4 without the MultiArchitecture gate refuses the arm64 VM at admission, in its words', () => {
    const dir = scratchProject({ 'vm.yaml': VM });
    try {
      const r = runInProcess(dir, ['expand', 'vm.yaml', '--as', 'vmi', '--kubevirt-version', 'v1.7.4']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('MultiArchitecture feature gate is not enabled in kubevirt-config, invalid entry spec.template.spec.architecture');
    } finally {
      removeDir(dir);
    }
  });

  it.each([
    ['v1.7.4', 1],
    ['v1.8.0', 1],
    ['v1.8.4', 0],
    ['v1.9.0', 0],
  ])('--kubevirt-version %s', (release, code) => {
    // v1.7's VM webhook refuses an arm64 VM on an amd64 control plane without the MultiArchitecture gate.
    const dir = scratchProject({ 'vm.yaml': VM, 'kv.yaml': KUBEVIRT_MULTIARCH });
    try {
      const r = runInProcess(dir, ['expand', 'vm.yaml', '--as', 'vmi', '--kubevirt', 'kv.yaml', '--kubevirt-version', release]);
      expect(r.code).toBe(code);
      if (code === 1)
        expect(r.err).toContain(
          'vm.yaml:13:18 error IT8008 VirtualMachine `arm` would be stored but not start: the VirtualMachineInstance webhook: UEFI secure boot is currently not supported on aarch64 Arch',
        );
      else expect(r.out).toContain('kind: VirtualMachineInstance');
    } finally {
      removeDir(dir);
    }
  });

  it("reads the release from the KubeVirt CR's status.observedKubeVirtVersion", () => {
    const dir = scratchProject({
      'vm.yaml': VM,
      'kv.yaml':
        'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec: {configuration: {developerConfiguration: {featureGates: [MultiArchitecture]}}}\nstatus: {observedKubeVirtVersion: v1.7.4}\n',
    });
    try {
      const r = runInProcess(dir, ['validate', 'vm.yaml', '--kubevirt', 'kv.yaml']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('UEFI secure boot is currently not supported on aarch64 Arch');
      expect(runInProcess(dir, ['validate', 'vm.yaml', '--kubevirt', 'kv.yaml', '--kubevirt-version', 'v1.9.0']).code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });

  it('refuses a field of a later release than the cluster’s, as its API server does, naming the release that has it', () => {
    const vm = (field: string): string =>
      `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: sa}\nspec:\n  runStrategy: Always\n  template:\n    spec:\n${field}      domain:\n        memory: {guest: 1Gi}\n        devices: {}\n`;
    const dir = scratchProject({ 'sa.yaml': vm('      serviceAccountName: robot\n'), 'plain.yaml': vm('') });
    try {
      const old = runInProcess(dir, ['validate', 'sa.yaml', '--kubevirt-version', 'v1.8.4']);
      expect(old.code).toBe(1);
      expect(old.err).toContain('sa.yaml:8:27 error IT8005 VirtualMachine `sa`: strict decoding error: unknown field "spec.template.spec.serviceAccountName"');
      expect(old.err).toContain("KubeVirt v1.8.4's types lack it (it arrived in v1.9.0)");
      expect(runInProcess(dir, ['validate', 'sa.yaml', '--kubevirt-version', 'v1.9.0']).code).toBe(0);
      expect(runInProcess(dir, ['validate', 'plain.yaml', '--kubevirt-version', 'v1.6.6']).code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });

  it('refuses a release older than every modelled one', () => {
    const dir = scratchProject({ 'vm.yaml': VM });
    try {
      const r = runInProcess(dir, ['expand', 'vm.yaml', '--kubevirt-version', 'v1.5.0']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('--kubevirt-version v1.5.0 is older than the releases itgen models');
    } finally {
      removeDir(dir);
    }
  });
});

describe('the names virt-operator deploys, per release', () => {
  // A family `d` of version 1 makes `d1.small`: common-instancetypes v1.6.0 (KubeVirt v1.8) added the
  // d1 family; v1.5.1 (KubeVirt v1.7) has none.
  const catalog = CATALOG.replace('name: c\nversion: 1', 'name: d\nversion: 1').replace(
    'architectures: [arm64]\n---\nkind: Preference',
    '---\nkind: Preference',
  );
  it.each([
    ['{min: v1.6, max: v1.7}', undefined],
    ['{min: v1.7.4, max: v1.9}', 'common-instancetypes v1.6.0, v1.7.0, in KubeVirt v1.8.0, v1.8.4, v1.9.0'],
    ['v1.9', 'common-instancetypes v1.7.0, in KubeVirt v1.9.0'],
  ])('targetKubevirt %s', (target, deployed) => {
    const dir = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR.replace('vendor: kubevirt.io', 'vendor: acme.example')}targetKubevirt: ${target}\n`,
      'catalog/catalog.yaml': catalog,
    });
    try {
      const r = runInProcess(dir, ['validate']);
      if (deployed === undefined) expect(r.err).not.toMatch(/IT5006 instance type `d1\.small`/);
      else
        expect(r.err).toContain(`warning IT5006 instance type \`d1.small\`: a cluster-scoped object of this name is deployed by virt-operator (${deployed})`);
    } finally {
      removeDir(dir);
    }
  });
  it('records the release each KubeVirt release deploys, from its own tree', () => {
    expect(DEPLOYED_COMMON_INSTANCETYPES).toEqual({ 'v1.6.6': 'v1.4.1', 'v1.7.4': 'v1.5.1', 'v1.8.0': 'v1.6.0', 'v1.8.4': 'v1.6.0', 'v1.9.0': 'v1.7.0' });
    expect(DEPLOYED_NAMES['v1.5.1']!.instancetypes.some((n) => n.startsWith('d1.'))).toBe(false);
    expect(DEPLOYED_NAMES['v1.7.0']!.instancetypes.length).toBe(65);
    // main's *.s390x.secex preferences are deployed by no release.
    expect(Object.values(DEPLOYED_NAMES).some((c) => c.preferences.some((n) => n.includes('secex')))).toBe(false);
  });
});

describe("the generated README's table of the targeted releases", () => {
  it('says per release what its virt-operator deploys, how many names of the catalog it deploys too, and the rules that hold for it', () => {
    const catalog = CATALOG.replace('name: c\nversion: 1', 'name: d\nversion: 1')
      .replace('architectures: [arm64]\n---\nkind: Preference', '---\nkind: Preference')
      .replace('  firmware: {preferredEfi: {secureBoot: true}}', '  devices: {preferredDiskBus: virtio}');
    const dir = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR.replace('vendor: kubevirt.io', 'vendor: acme.example')}targetKubevirt: {min: v1.7, max: v1.9}\n`,
      'catalog/catalog.yaml': catalog,
    });
    try {
      runInProcess(dir, ['generate']);
      const readme = readFileSync(path.join(dir, 'output', 'README.md'), 'utf8');
      const rows = readme.split('\n').filter((l) => /^\| v1\.\d\.\d \|/.test(l));
      expect(rows).toEqual([
        '| v1.7.4 | v1.5.1 | 0 | UEFI secure boot is currently not supported on aarch64 Arch; hugepage sizes named domain.hugepages.size in the memory rules; another architecture than the control plane needs the MultiArchitecture gate; virtiofs is not allowed: virtiofs feature gate is not enabled for config volumes; the DRA admitter judges GPUs only; the discontinued passt and macvtap bindings are refused by their gates |',
        '| v1.8.0 | v1.6.0 | 1 | UEFI secure boot is currently not supported on aarch64 Arch; memory.reservedOverhead.addedOverhead is added to the memory overhead; dedicated CPUs select nodes labelled kubevirt.io/cpumanager (cpumanager before); every VM and VMI is annotated kubevirt.io/pci-topology-version, PCIe hotplug or not; a ContainerPath volume is a filesystem, outside /var/run/kubevirt and /var/run/libvirt; a VM starts without utility volumes (they are only hotplugged) |',
        '| v1.8.4 | v1.6.0 | 1 | spec.domain.firmware.bootloader.efi.secureBoot defaults to false on arm64; memory.reservedOverhead.addedOverhead is added to the memory overhead; dedicated CPUs select nodes labelled kubevirt.io/cpumanager (cpumanager before); GPUs are all DRA or none, and a claim request serves one kind of device; a ContainerPath volume is a filesystem, outside /var/run/kubevirt and /var/run/libvirt; a VM starts without utility volumes (they are only hotplugged) |',
        "| v1.9.0 | v1.7.0 | 1 | spec.domain.firmware.bootloader.efi.secureBoot defaults to false on arm64; the launcher pod is annotated kubevirt.io/memory-overhead-bytes; preferredPanicDeviceModel adds a panic device when the VM has none; the launcher's memory overhead counts 50Mi for QEMU (30Mi before); memory.reservedOverhead.addedOverhead is added to the memory overhead; dedicated CPUs select nodes labelled kubevirt.io/cpumanager (cpumanager before); persistent reservation is enabled by persistentReservationConfiguration; a service account name must be a DNS subdomain, the same as its volume; an interface has exactly one binding method or binding plugin; a forwarded port is refused from 65536 (above it before), at its .port; masquerade interfaces take port ranges, behind the PortRangesSpec gate; a resource claim is named and gives exactly one of a claim or a claim template; GPUs are all DRA or none, and a claim request serves one kind of device; a ContainerPath volume is a filesystem, outside /var/run/kubevirt and /var/run/libvirt; a disk's refusal at the VMI's creation is said twice; a VM starts without utility volumes (they are only hotplugged); an NVIDIA Grace GPU passed through needs the GraceIOVirtualization gate, arm64 on virt and dedicated CPUs; networks take DRA resource claims, behind the NetworkDevicesWithDRA gate |",
      ]);
    } finally {
      removeDir(dir);
    }
  });
});
