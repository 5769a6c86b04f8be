/**
 * `itgen fit`: where VMs run and how many fit, as a platform team reads it (the corpus,
 * test/fit-corpus.test.ts, proves the scheduler's filters against Kubernetes' own code).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { JsonObject } from '../src/json';
import { fitPod } from '../src/kubevirt/scheduler-filters';
import { runInProcess } from './e2e-helpers';

const REPO = path.resolve(__dirname, '..');
const BUNDLE = path.join(REPO, 'output', 'common-instancetypes');
const FIXTURES = path.join(__dirname, 'fixtures', 'fit');
const NODES = path.join(FIXTURES, 'nodes.yaml');
const PODS = path.join(FIXTURES, 'pods.yaml');
const VM = (name: string, it: string, pref?: string, extra = ''): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}, namespace: apps}\nspec:\n  runStrategy: Always\n  instancetype: {name: ${it}}\n${pref ? `  preference: {name: ${pref}}\n` : ''}  template:\n    spec:\n      domain: {devices: {}}\n${extra}      volumes: [{name: rootdisk, containerDisk: {image: "quay.io/containerdisks/fedora:41"}}]\n`;

interface CapacityJson {
  instancetypes: {
    name: string;
    total: number;
    nodes: { name: string; count: number; reasons: string[]; never?: boolean }[];
    needs?: { labels: string[]; resources: Record<string, string> };
  }[];
  notes: string[];
}
interface VmsJson {
  vms: {
    name: string;
    fits: string[];
    nodes: { name: string; fits: boolean; plugin?: string; reasons: string[] }[];
    message?: string;
    needs?: { labels: string[]; resources: Record<string, string> };
  }[];
}

describe('itgen fit', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-fit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...argv: string[]): ReturnType<typeof runInProcess> => runInProcess(dir, ['fit', '--nodes', NODES, '--with', BUNDLE, ...argv]);

  it("places each VM: the nodes it fits on, the others' reasons in the scheduler's words, its summary when none fits", () => {
    writeFileSync(
      path.join(dir, 'vms.yaml'),
      [VM('db', 'cx1.large', 'fedora'), VM('web', 'u1.medium'), VM('big', 'cx1.4xlarge'), VM('win', 'u1.large', 'windows.11')].join('---\n'),
    );
    const r = run('--pods', PODS, 'vms.yaml');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'db: fits on worker-1',
      "  worker-2: node(s) didn't match Pod's node affinity/selector (label kubevirt.io/cpumanager=true wanted, the node has no kubevirt.io/cpumanager)",
      '  worker-3: node(s) were unschedulable (spec.unschedulable: cordoned)',
      '  gpu-1: node(s) had untolerated taint(s) (nvidia.com/gpu:NoSchedule)',
      'web: fits on worker-1, worker-2',
      '  worker-3: node(s) were unschedulable (spec.unschedulable: cordoned)',
      '  gpu-1: node(s) had untolerated taint(s) (nvidia.com/gpu:NoSchedule)',
    ]);
    expect(lines.slice(7, 12)).toEqual([
      "big: 0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient hugepages-2Mi, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.",
      // 17 CPUs: 12 are left beside the database.
      '  worker-1: Insufficient cpu, Insufficient hugepages-2Mi (cpu: needs 17, 12 free of 32 (short by 5); hugepages-2Mi: needs 32Gi, 16Gi free of 16Gi (short by 16Gi))',
      "  worker-2: node(s) didn't match Pod's node affinity/selector (label kubevirt.io/cpumanager=true wanted, the node has no kubevirt.io/cpumanager)",
      '  worker-3: node(s) were unschedulable (spec.unschedulable: cordoned)',
      '  gpu-1: node(s) had untolerated taint(s) (nvidia.com/gpu:NoSchedule)',
    ]);
    expect(lines[12]).toMatch(
      /^ {2}needs a node with labels kubernetes\.io\/arch=amd64, kubevirt\.io\/cpumanager=true, .*; free cpu 17, .*hugepages-2Mi 32Gi, memory \d+Mi$/,
    );
    expect(lines.slice(13, 17)).toEqual([
      'win: fits on worker-1',
      "  worker-2: node(s) didn't match Pod's node affinity/selector (label scheduling.node.kubevirt.io/tsc-frequency-2000000000=true wanted, the node has no scheduling.node.kubevirt.io/tsc-frequency-2000000000)",
      '  worker-3: node(s) were unschedulable (spec.unschedulable: cordoned)',
      '  gpu-1: node(s) had untolerated taint(s) (nvidia.com/gpu:NoSchedule)',
    ]);
    expect(lines[17]).toMatch(/^# not modelled: host ports, .*topology spread.*DRA/);

    const json = JSON.parse(run('--pods', PODS, 'vms.yaml', '-o', 'json').out) as VmsJson;
    const win = json.vms.find((v) => v.name === 'win')!;
    expect(win.needs?.labels).toContain('scheduling.node.kubevirt.io/tsc-frequency-2000000000=true');
    expect(json.vms.find((v) => v.name === 'big')!.nodes[0]).toEqual({
      name: 'worker-1',
      fits: false,
      plugin: 'NodeResourcesFit',
      reasons: ['Insufficient cpu', 'Insufficient hugepages-2Mi'],
      details: ['cpu: needs 17, 12 free of 32 (short by 5)', 'hugepages-2Mi: needs 32Gi, 16Gi free of 16Gi (short by 16Gi)'],
    });
  });

  it('a GPU VM fits only where the GPU is and the taint is tolerated; one KubeVirt would not start says so instead of a placement', () => {
    const gpu = (name: string, device: string, tolerate: boolean): string =>
      VM(name, 'u1.large', undefined, `${tolerate ? '      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n' : ''}`).replace(
        '      domain: {devices: {}}\n',
        `      domain: {devices: {gpus: [{name: g, deviceName: ${device}}]}}\n`,
      );
    writeFileSync(
      path.join(dir, 'vm.yaml'),
      [gpu('plain', 'nvidia.com/GA102GL_A10', false), gpu('tolerating', 'nvidia.com/GA102GL_A10', true), gpu('l4', 'nvidia.com/L4', true)].join('---\n'),
    );
    writeFileSync(
      path.join(dir, 'kubevirt.yaml'),
      'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec:\n  configuration:\n    permittedHostDevices:\n      pciHostDevices: [{pciVendorSelector: "10DE:2236", resourceName: nvidia.com/GA102GL_A10}]\n',
    );
    const r = run('vm.yaml', '--kubevirt', 'kubevirt.yaml');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(
      'plain: 0/4 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient nvidia.com/GA102GL_A10.',
    );
    expect(lines[1]).toBe('  2 nodes (worker-1, worker-2): Insufficient nvidia.com/GA102GL_A10 (nvidia.com/GA102GL_A10: needs 1, 0 free of 0 (short by 1))');
    expect(r.out).toMatch(/^ {2}needs a node with labels .*; free cpu 200m, .*nvidia\.com\/GA102GL_A10 1$/m);
    expect(r.out).toMatch(/^tolerating: fits on gpu-1$/m);
    expect(r.out).toMatch(/^l4: KubeVirt would not start it: GPU nvidia\.com\/L4 is not permitted in permittedHostDevices configuration$/m);
  });

  it('the capacity of a catalog: how many more of each instance type, which nodes are full now and which never take one, and what a node needs', () => {
    const r = run('--pods', PODS, '-o', 'json');
    expect(r.code).toBe(0);
    const table = JSON.parse(r.out) as CapacityJson;
    expect(table.instancetypes.length).toBeGreaterThan(40);
    const it = (name: string): CapacityJson['instancetypes'][number] => table.instancetypes.find((t) => t.name === name)!;
    // u1.medium: 1 vCPU (100m at KubeVirt's allocation ratio of 10) and 4Gi plus overhead.
    const medium = it('u1.medium');
    const mem = BigInt(Number.parseInt(medium.needs!.resources['memory']!, 10)) * 2n ** 20n;
    expect(medium.needs!.resources['cpu']).toBe('100m');
    const worker2 = medium.nodes.find((n) => n.name === 'worker-2')!;
    expect(worker2.count).toBe(Number((64n * 2n ** 30n) / mem));
    // worker-1: 28Gi of memory left beside the database.
    expect(medium.nodes.find((n) => n.name === 'worker-1')!.count).toBe(Number((28n * 2n ** 30n) / mem));
    expect(medium.total).toBe(medium.nodes.reduce((a, n) => a + n.count, 0));
    expect(medium.nodes.find((n) => n.name === 'worker-3')).toEqual({
      name: 'worker-3',
      count: 0,
      reasons: ['node(s) were unschedulable'],
      plugin: 'NodeUnschedulable',
      details: ['spec.unschedulable: cordoned'],
      never: true,
    });
    // cx1.4xlarge never fits: worker-1 lacks hugepages (not the CPU the database takes), worker-2 the CPU manager.
    const cx = it('cx1.4xlarge');
    expect(cx.total).toBe(0);
    expect(cx.nodes.map((n) => [n.name, n.reasons, n.never])).toEqual([
      ['worker-1', ['Insufficient hugepages-2Mi'], true],
      ['worker-2', ["node(s) didn't match Pod's node affinity/selector"], true],
      ['worker-3', ['node(s) were unschedulable'], true],
      ['gpu-1', ['node(s) had untolerated taint(s)'], true],
    ]);
    expect(cx.needs!.labels).toContain('kubevirt.io/cpumanager=true');
    expect(cx.needs!.resources['hugepages-2Mi']).toBe('32Gi');
    // u1.4xlarge (16 vCPUs, 64Gi): worker-1 could take one empty, but not beside the database.
    const full = it('u1.4xlarge').nodes.find((n) => n.name === 'worker-1')!;
    expect(full.count).toBe(0);
    expect(full.never).toBeUndefined();
    expect(full.reasons).toContain('Insufficient memory');
    expect(table.notes[0]).toMatch(/^not modelled: host ports/);

    const text = run('--pods', PODS).out;
    expect(text).toMatch(/^u1\.medium: \d+ more on 2 nodes \(worker-2 \d+, worker-1 \d+\)$/m);
    expect(text).toContain(
      'cx1.4xlarge: 0 more\n  never: worker-1: Insufficient hugepages-2Mi (hugepages-2Mi: needs 32Gi, 16Gi free of 16Gi (short by 16Gi))\n',
    );
    expect(text).toMatch(/^u1\.4xlarge: 0 more\n {2}full now: worker-1: Insufficient memory/m);
  });

  it('a node that takes n more takes exactly n: placing them leaves it full', () => {
    const nodes = (parseAllDocuments(readFileSync(NODES, 'utf8'))[0]!.toJS() as { items: JsonObject[] }).items;
    const table = JSON.parse(run('-o', 'json').out) as CapacityJson;
    let checked = 0;
    for (const t of table.instancetypes.filter((x) => x.total > 0 && x.total < 200).slice(0, 12)) {
      const pod = runInProcess(dir, ['expand', '--as', 'pod', '-o', 'json', '-', '--with', BUNDLE], { stdin: VM('x', t.name) });
      const launcher = (JSON.parse(pod.out) as { items: JsonObject[] }).items[0]!;
      for (const n of t.nodes.filter((x) => x.count > 0)) {
        const placed = Array.from({ length: n.count }, () => ({ ...launcher, spec: { ...(launcher['spec'] as JsonObject), nodeName: n.name } }));
        const node = nodes.filter((x) => (x['metadata'] as JsonObject)['name'] === n.name);
        expect(fitPod(launcher, node, placed.slice(1)).nodes[0]!.fits).toBe(true);
        expect(fitPod(launcher, node, placed).nodes[0]!.fits).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("reads a large cluster's pod list (past the 8 MiB of other inputs) as JSON, and places a JSON syntax error", () => {
    const pod = (i: number): JsonObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p${i}`, namespace: 'apps', labels: { app: `a${i % 50}` }, annotations: { note: 'x'.repeat(200) } },
      spec: { nodeName: 'worker-2', containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '1m', memory: '1Ki' } } }] },
      status: { phase: i % 2 === 0 ? 'Running' : 'Succeeded' },
    });
    const list = { apiVersion: 'v1', kind: 'List', items: Array.from({ length: 30000 }, (_, i) => pod(i)) };
    writeFileSync(path.join(dir, 'pods.json'), JSON.stringify(list, null, 2));
    expect(readFileSync(path.join(dir, 'pods.json')).length).toBeGreaterThan(8 * 2 ** 20);
    const r = run('--pods', 'pods.json', '-o', 'json');
    expect(r.code).toBe(0);
    const medium = (JSON.parse(r.out) as CapacityJson).instancetypes.find((t) => t.name === 'u1.medium')!;
    // 15,000 running pods on worker-2: 15 CPUs of its 16 and 15,000Ki of memory requested, and pod slots all taken.
    expect(medium.nodes.find((n) => n.name === 'worker-2')).toEqual({
      name: 'worker-2',
      count: 0,
      reasons: ['Too many pods'],
      plugin: 'NodeResourcesFit',
      details: ['pods: 15000 of 110 already'],
    });
    writeFileSync(path.join(dir, 'broken.json'), '{"apiVersion": "v1",\n  "items": [}\n');
    const broken = run('--pods', 'broken.json');
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/^broken\.json:2:\d+ error IT1002 /m);
  });

  it('markdown keeps what a node dump says inert; a dump without nodes is an error', () => {
    const hostile = readFileSync(NODES, 'utf8').replace(/name: worker-2$/m, 'name: "<img src=x onerror=alert(1)>|`@team"');
    writeFileSync(path.join(dir, 'nodes.yaml'), hostile);
    const md = runInProcess(dir, ['fit', '--nodes', 'nodes.yaml', '--with', BUNDLE, '-o', 'markdown']).out;
    expect(md).toContain("`<img src=x onerror=alert(1)>\\|'@team`");
    expect(md).not.toMatch(/[^`]<img/);
    expect(md.split('\n')[0]).toBe('| instance type | how many more | on nodes | never on |');

    writeFileSync(path.join(dir, 'empty.yaml'), 'apiVersion: v1\nkind: List\nitems: []\n');
    const none = runInProcess(dir, ['fit', '--nodes', 'empty.yaml', '--with', BUNDLE]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('empty.yaml:1:1 error IT8004 `empty.yaml` holds no Node');
    const missing = runInProcess(dir, ['fit', '--with', BUNDLE]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('fit needs --nodes FILE');
  });
});
