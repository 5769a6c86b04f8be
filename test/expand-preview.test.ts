/**
 * `itgen expand --as vmi|pod [--kubevirt FILE]`: the VMI and the virt-launcher pod a VM starts as,
 * through the CLI (the corpus, test/preview-corpus.test.ts, proves the values against KubeVirt).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { runInProcess } from './e2e-helpers';
import { removeDir, scratchProject } from './helpers';

const REPO = path.resolve(__dirname, '..');
const VM = (extra = ''): string => `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: web, namespace: default}
spec:
  runStrategy: Always
  instancetype: {name: cx1.large}
  preference: {name: fedora}
  template:
    spec:
      domain: {devices: {${extra}}}
      volumes:
        - name: rootdisk
          containerDisk: {image: quay.io/containerdisks/fedora:41}
`;

describe('itgen expand --as vmi|pod', () => {
  let dir: string;
  const bundle = path.join(REPO, 'output', 'common-instancetypes');
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-preview-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...argv: string[]): ReturnType<typeof runInProcess> => runInProcess(dir, argv);

  it('prints the VMI with KubeVirt defaults: CPU model, machine type, dedicated CPUs from the instance type, status memory', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM());
    const r = run('expand', 'vm.yaml', '--with', bundle, '--as', 'vmi');
    expect([r.code, r.err]).toEqual([0, '']);
    const vmi = parse(r.out) as { kind: string; spec: { domain: { cpu: Record<string, unknown>; machine: { type: string } } }; status: { memory: unknown } };
    expect(vmi.kind).toBe('VirtualMachineInstance');
    expect(vmi.spec.domain.cpu).toMatchObject({ model: 'host-model', dedicatedCpuPlacement: true, sockets: 2, maxSockets: 2 });
    expect(vmi.spec.domain.machine.type).toBe('q35');
    expect(vmi.status.memory).toEqual({ guestAtBoot: '4Gi', guestCurrent: '4Gi', guestRequested: '4Gi' });
  });

  it('prints the pod: requests = limits with dedicated CPUs and the emulator thread, hugepages, the overhead, the CPU manager selector', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM());
    const r = run('expand', 'vm.yaml', '--with', bundle, '--as', 'pod');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^# web: the virt-launcher pod KubeVirt renders for it \(memory overhead 396Mi\)/);
    const pod = parse(r.out) as {
      spec: { containers: { name: string; resources: { requests: Record<string, string> } }[]; nodeSelector: Record<string, string> };
    };
    expect(pod.spec.containers[0]!.resources.requests).toMatchObject({ cpu: '3', memory: '396Mi', 'hugepages-2Mi': '4Gi' });
    expect(pod.spec.nodeSelector['kubevirt.io/cpumanager']).toBe('true');
  });

  it('--kubevirt: the cluster configuration changes the answer (CPU model and allocation ratio, no hotplug under Stage)', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM().replace('cx1.large', 'u1.large'));
    writeFileSync(
      path.join(dir, 'kubevirt.yaml'),
      'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec:\n  configuration:\n    cpuModel: Skylake-Server-IBRS\n    vmRolloutStrategy: Stage\n    developerConfiguration: {cpuAllocationRatio: 2}\n',
    );
    const vmi = parse(run('expand', 'vm.yaml', '--with', bundle, '--as', 'vmi', '--kubevirt', 'kubevirt.yaml').out) as {
      spec: { domain: { cpu: Record<string, unknown> } };
    };
    expect(vmi.spec.domain.cpu['model']).toBe('Skylake-Server-IBRS');
    expect(vmi.spec.domain.cpu['maxSockets']).toBeUndefined();
    const pod = parse(run('expand', 'vm.yaml', '--with', bundle, '--as', 'pod', '--kubevirt', 'kubevirt.yaml').out) as {
      spec: { containers: { resources: { requests: Record<string, string> } }[]; nodeSelector: Record<string, string> };
    };
    expect(pod.spec.containers[0]!.resources.requests['cpu']).toBe('1');
    expect(pod.spec.nodeSelector['cpu-model.node.kubevirt.io/Skylake-Server-IBRS']).toBe('true');
  });

  it('-o json: a List of the pods in input order, with the overhead and notes of each', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), `${VM()}---\n${VM().replace('name: web', 'name: api').replace('cx1.large', 'u1.small')}`);
    const r = run('expand', 'vm.yaml', '--with', bundle, '--as', 'pod', '-o', 'json');
    const list = JSON.parse(r.out) as { kind: string; items: { metadata: { generateName: string } }[]; notes: { name: string; memoryOverhead: string }[] };
    expect(list.kind).toBe('List');
    expect(list.items.map((i) => i.metadata.generateName)).toEqual(['virt-launcher-web-', 'virt-launcher-api-']);
    expect(list.notes.map((n) => n.name)).toEqual(['web', 'api']);
  });

  it('says what it assumed: a PVC it was not given, no ResourceQuota', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), `${VM()}        - name: data\n          persistentVolumeClaim: {claimName: data}\n`);
    const r = run('expand', 'vm.yaml', '--with', bundle, '--as', 'pod');
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "# note: PersistentVolumeClaim data not given: KubeVirt renders the pod once it exists (a missing one fails the render: didn't find PVC)",
    );
    expect(r.out).toContain('# note: no ResourceQuota given for namespace default');
  });

  it("a GPU the cluster does not permit: IT8008 in KubeVirt's words, exit 1, nothing printed", () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM().replace('cx1.large', 'gpu.large'));
    writeFileSync(
      path.join(dir, 'gpu.yaml'),
      'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata: {name: gpu.large}\nspec:\n  cpu: {guest: 4}\n  memory: {guest: 16Gi}\n  gpus: [{name: gpu1, deviceName: nvidia.com/TU104GL_Tesla_T4}]\n',
    );
    writeFileSync(
      path.join(dir, 'kubevirt.yaml'),
      'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt}\nspec:\n  configuration:\n    permittedHostDevices:\n      pciHostDevices: [{pciVendorSelector: "10DE:2236", resourceName: nvidia.com/GA102GL_A10}]\n',
    );
    const r = run('expand', 'vm.yaml', '--with', bundle, '--with', 'gpu.yaml', '--as', 'pod', '--kubevirt', 'kubevirt.yaml');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /error IT8008 VirtualMachine `web` would be stored but not start: the launcher pod's render: GPU nvidia\.com\/TU104GL_Tesla_T4 is not permitted in permittedHostDevices configuration/,
    );
  });

  it('--kubevirt naming a file without a KubeVirt object is IT8009 at the file, exit 1', () => {
    writeFileSync(path.join(dir, 'vm.yaml'), VM());
    writeFileSync(path.join(dir, 'kubevirt.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
    const r = run('expand', 'vm.yaml', '--with', bundle, '--as', 'vmi', '--kubevirt', 'kubevirt.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/kubevirt\.yaml:1:1 error IT8009 `kubevirt\.yaml` holds no KubeVirt object/);
  });

  it('a VM refused by the VMI webhook on arm64 is IT8008 with its words', () => {
    writeFileSync(
      path.join(dir, 'vm.yaml'),
      VM('disks: [{name: rootdisk, disk: {bus: sata}}]').replace('fedora}', 'fedora.arm64}').replace('cx1.large', 'u1.large'),
    );
    const r = run('expand', 'vm.yaml', '--with', bundle, '--as', 'vmi');
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'would be stored but not start: the VirtualMachineInstance webhook: Arm64 not support this disk bus type, please use virtio or scsi',
    );
    expect(parseAllDocuments(r.out)).toHaveLength(0);
  });
});

describe('itgen facts and the launcher table', () => {
  it('exports, per instance type and preference, the pod requests and node labels (csv, json); explain ends with them', () => {
    const csv = runInProcess(REPO, ['facts', '-g', 'generators/common-instancetypes.yaml', '-o', 'csv']);
    expect(csv.code).toBe(0);
    const rows = csv.out.trim().split('\n');
    expect(rows[0]).toBe('generator,kind,name,cpu,memory,memoryOverhead,hugepages,devices,nodeLabels,overheadDelta,refused');
    expect(rows.find((r) => r.includes(',cx1.large,'))).toMatch(/,cx1\.large,3,396Mi,396Mi,hugepages-2Mi=4Gi,.*kubevirt\.io\/cpumanager=true/);
    const json = JSON.parse(runInProcess(REPO, ['facts', '-g', 'generators/common-instancetypes.yaml', '-o', 'json']).out) as {
      generators: { facts: { name: string; overheadDelta?: string; refused?: string }[] }[];
    };
    const all = json.generators[0]!.facts;
    expect(all.find((f) => f.name === 'windows.11')?.overheadDelta).toBe('53Mi');
    expect(all.filter((f) => f.refused !== undefined)).toEqual([]);
    const explained = runInProcess(REPO, ['explain', 'cx1.large', '--kind', 'VirtualMachineClusterInstancetype']).out;
    expect(explained).toMatch(
      /# launcher pod \(itgen expand --as pod\) of a VM of this instance type alone[^\n]*\n# {3}requests CPU 3, memory 396Mi \(overhead 396Mi\), hugepages-2Mi 4Gi/,
    );
  });

  it('the generated README lists what each instance type asks of a node', () => {
    const readme = readFileSync(path.join(REPO, 'output', 'common-instancetypes', 'README.md'), 'utf8');
    expect(readme).toContain('## What a VM of each instance type asks of a node');
    expect(readme).toContain('| `cx1.large` | CPU 3, memory 396Mi (overhead 396Mi), hugepages-2Mi 4Gi | `kubevirt.io/cpumanager` |');
  });
});

describe("a generator naming its clusters' KubeVirt CR (kubevirt:)", () => {
  it('judges every instance type for those clusters: one a VM cannot start with is IT8008, and the README and facts say why', () => {
    const dir = scratchProject({
      'generators/acme.yaml':
        'catalog: ../catalogs/acme\noutput: ../output/acme\nvendor: acme.example\nkubevirt: ../clusters/kubevirt.yaml\nsuppressWarnings: [IT5007, IT5006]\n',
      'clusters/kubevirt.yaml':
        'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec:\n  configuration:\n    permittedHostDevices:\n      pciHostDevices: [{pciVendorSelector: "10DE:2236", resourceName: nvidia.com/GA102GL_A10}]\n',
      'catalogs/acme/catalog.yaml': 'kind: Catalog\nname: acme\n---\nkind: SizeLadder\nname: sizes\nsizes: [{name: large, cpu: 2}]\n',
      'catalogs/acme/families.yaml':
        'kind: Family\nname: g\nversion: 1\ndisplayName: GPU\ndescription: GPU\nclass: gpu\nmemoryPerCPU: 4Gi\nspec:\n  gpus: [{name: gpu1, deviceName: nvidia.com/TU104GL_Tesla_T4}]\n---\nkind: Family\nname: u\nversion: 1\ndisplayName: U\ndescription: U\nclass: general.purpose\nmemoryPerCPU: 4Gi\n',
      'catalogs/acme/preferences.yaml': 'kind: Preference\nname: linux\ndisplayName: Linux\nspec:\n  devices: {preferredDiskBus: virtio}\n',
    });
    try {
      const v = runInProcess(dir, ['validate']);
      expect(v.code).toBe(0);
      expect(v.err).toMatch(
        /generators\/acme\.yaml:4:11 warning IT8008 instance type `g1\.large`: a VM of it would be stored but not start on the clusters of \.\.\/clusters\/kubevirt\.yaml: GPU nvidia\.com\/TU104GL_Tesla_T4 is not permitted in permittedHostDevices configuration/,
      );
      expect(v.err).not.toContain('u1.large');
      expect(runInProcess(dir, ['generate']).code).toBe(0);
      const readme = readFileSync(path.join(dir, 'output', 'acme', 'README.md'), 'utf8');
      expect(readme).toContain('| `g1.large` | not started: GPU nvidia.com/TU104GL_Tesla_T4 is not permitted in permittedHostDevices configuration |');
      const facts = runInProcess(dir, ['facts', '-o', 'json']);
      expect(facts.out).toContain('"refused": "GPU nvidia.com/TU104GL_Tesla_T4 is not permitted in permittedHostDevices configuration"');
    } finally {
      removeDir(dir);
    }
  });
});
