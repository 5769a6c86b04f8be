/**
 * `itgen fit --together` on a VM owner's cluster (test/fixtures/fit-cluster): the VMs placed one after
 * another as the scheduler would (the scoring is held to Kubernetes' code by test/place-corpus.test.ts),
 * every blocker named, per-architecture capacity, and what is left.
 */
import path from 'node:path';
import { runInProcess } from './e2e-helpers';

const REPO = path.resolve(__dirname, '..');
const F = path.join(__dirname, 'fixtures', 'fit-cluster');
const BASE = ['fit', '--nodes', path.join(F, 'nodes.yaml'), '--with', path.join(REPO, 'output', 'common-instancetypes'), '--with', path.join(F, 'gpu.yaml')];
const run = (...argv: string[]): ReturnType<typeof runInProcess> => runInProcess(REPO, [...BASE, ...argv]);

/** The JSON with each group's nodes read back from `nodeSets`. */
function resolved(text: string): Together {
  const j = JSON.parse(text) as Together & { nodeSets: string[][] };
  const back = (b: { nodeSet?: number; nodes?: string[] }): void => {
    b.nodes = j.nodeSets[b.nodeSet!]!;
  };
  for (const p of j.placements) for (const b of p.reasons) back(b);
  for (const t of j.capacity) for (const b of t.never) back(b);
  return j;
}

interface Together {
  placements: { name: string; node: string | null; reasons: { nodes: string[]; plugin: string; reasons: string[]; details?: string[] }[]; message?: string }[];
  placed: number;
  total: number;
  remaining: { name: string; free: Record<string, string> }[];
  capacity: {
    name: string;
    kind: string;
    architecture?: string;
    total: number;
    taking: { name: string; count: number }[];
    never: { nodes: string[]; details?: string[] }[];
  }[];
  notes: string[];
}

describe('itgen fit --together', () => {
  const together = (...extra: string[]): Together =>
    resolved(
      run('--together', '--pods', path.join(F, 'pods.yaml'), '--kubevirt', path.join(F, 'kubevirt.yaml'), path.join(F, 'vms.yaml'), '-o', 'json', ...extra).out,
    );

  it('places the set one after another: the four cache VMs are spread, not all on perf-01 (where only one more fits)', () => {
    const r = together();
    expect([r.placed, r.total]).toEqual([38, 40]);
    const cache = r.placements.filter((p) => p.name.startsWith('cache-')).map((p) => p.node);
    expect(cache.every((n) => n !== null && n.startsWith('perf-'))).toBe(true);
    expect(cache.filter((n) => n === 'perf-01').length).toBeLessThanOrEqual(1);
    expect(new Set(cache).size).toBeGreaterThan(1);
    // The arm64 build VMs go to the arm64 pool.
    expect(r.placements.filter((p) => p.name.startsWith('build-arm-')).every((p) => p.node?.startsWith('arm-'))).toBe(true);
  });

  it("names every blocker of a VM that is not placed: the GPU pool's taint, the label wanted, the resource short", () => {
    const ml = together().placements.find((p) => p.name === 'ml-1')!;
    expect(ml.node).toBeNull();
    expect(ml.message).toMatch(/^0\/12 nodes are available: 1 node\(s\) had untolerated taint\(s\)/);
    const byNode = (n: string): { plugin: string; details?: string[] } => ml.reasons.find((b) => b.nodes.includes(n))!;
    expect(byNode('gpu-01')).toMatchObject({ plugin: 'TaintToleration', details: ['nvidia.com/gpu=true:NoSchedule'] });
    expect(byNode('arm-01').details).toContain('label kubernetes.io/arch=amd64 wanted, the node has kubernetes.io/arch=arm64');
    expect(byNode('perf-01').details).toEqual(['nvidia.com/L4: needs 1, 0 free of 0 (short by 1)']);
  });

  it('counts what is left per node, never more than the node had, and the capacity on what remains, per architecture', () => {
    const r = together();
    const perf1 = r.remaining.find((n) => n.name === 'perf-01')!;
    expect(perf1.free['cpu']).toBe('8'); // 32 less the 24 running pods' CPU
    expect(r.remaining.every((n) => !Object.values(n.free).some((v) => v.startsWith('-')))).toBe(true);
    const u1 = r.capacity.filter((t) => t.name === 'u1.medium');
    expect(u1.map((t) => t.architecture)).toEqual(['amd64', 'arm64']);
    const arm = u1.find((t) => t.architecture === 'arm64')!;
    expect(arm.total).toBeGreaterThan(0);
    expect(arm.taking.every((n) => n.name.startsWith('arm-'))).toBe(true);
    // One row per object: the namespaced copies of the bundle are not listed twice.
    expect(r.capacity.every((t) => t.kind === 'VirtualMachineClusterInstancetype')).toBe(true);
    const gn1 = r.capacity.find((t) => t.name === 'gn1.xlarge' && t.architecture === 'amd64')!;
    expect(gn1.total).toBe(0);
    expect(gn1.never.find((b) => b.nodes.includes('gpu-01'))!.details).toEqual(['nvidia.com/gpu=true:NoSchedule']);
  });

  it('writes each set of nodes once in JSON (nodeSets), groups naming it by index', () => {
    const j = JSON.parse(run('--together', '--pods', path.join(F, 'pods.yaml'), path.join(F, 'vms.yaml'), '-o', 'json').out) as {
      nodeSets: string[][];
      placements: { reasons: { nodeSet: number; nodes?: unknown }[] }[];
    };
    const refs = j.placements.flatMap((p) => p.reasons);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.every((b) => b.nodes === undefined && j.nodeSets[b.nodeSet] !== undefined)).toBe(true);
    expect(new Set(j.nodeSets.map((s) => s.join(','))).size).toBe(j.nodeSets.length);
  });

  it('says how it orders and breaks ties, and that running pods were not given when they were not', () => {
    expect(together().notes[0]).toMatch(/^placed in the order given .*ties to the first node by name/);
    expect(together().notes.some((n) => n.startsWith('running pods not given'))).toBe(false);
    const bare = resolved(run('--together', path.join(F, 'vms.yaml'), '-o', 'json').out);
    expect(bare.notes).toContain('running pods not given (--pods): every node is counted empty');
    const table = JSON.parse(run('-o', 'json').out) as { notes: string[] };
    expect(table.notes[0]).toBe('running pods not given (--pods): every node is counted empty');
  });

  it('exits 1 with --exit-code when a VM is not placed, and text names the placement and the blockers', () => {
    const r = run('--together', '--exit-code', '--kubevirt', path.join(F, 'kubevirt.yaml'), path.join(F, 'vms.yaml'));
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('38 of 40 VMs placed');
    expect(r.out).toContain('  gpu-01: node(s) had untolerated taint(s) (nvidia.com/gpu=true:NoSchedule)');
    expect(r.out).toContain('\nleft per node:\n');
    expect(r.out).toContain('\nhow many more fit, after these:\n');
    const placedAll = run('--together', '--exit-code', '--kubevirt', path.join(F, 'kubevirt.yaml'), path.join(F, 'vms.yaml'), '--scope', 'all');
    expect(placedAll.code).toBe(1);
    expect(run('--together', '--scope', 'both', path.join(F, 'vms.yaml')).code).toBe(1);
    expect(run('--together').err).toContain('--together places VMs');
  });
});

describe('itgen fit --together with the namespace quota', () => {
  const run = (...argv: string[]): Together =>
    resolved(
      runInProcess(REPO, [
        ...BASE,
        '--with',
        path.join(F, 'quota.yaml'),
        '--together',
        '--pods',
        path.join(F, 'pods.yaml'),
        '--kubevirt',
        path.join(F, 'kubevirt.yaml'),
        path.join(F, 'vms.yaml'),
        '-o',
        'json',
        ...argv,
      ]).out,
    );
  it('admits each launcher pod to the quota before it is scheduled: a VM that fits the nodes is refused in the API server words', () => {
    const r = run();
    const cache3 = r.placements.find((p) => p.name === 'cache-3')!;
    expect(cache3.node).toBeNull();
    expect(cache3.message).toBe(
      `refused by the namespace's quota: pods "virt-launcher-cache-3-xxxxx" is forbidden: exceeded quota: shop-compute, requested: requests.cpu=9, used: requests.cpu=38, limited: requests.cpu=40`,
    );
    expect(r.placed).toBeLessThan(38);
  });
  it('counts how many more of each type the quota admits, and names what binds: the quota or the nodes', () => {
    const rows = run().capacity as unknown as {
      name: string;
      architecture?: string;
      total: number;
      quota?: { more: number; message?: string };
      binding?: string;
    }[];
    const cx = rows.find((t) => t.name === 'cx1.2xlarge' && t.architecture === 'amd64')!;
    expect(cx.total).toBeGreaterThan(0);
    expect(cx.quota?.more).toBe(0);
    expect(cx.binding).toBe('quota');
    expect(cx.quota?.message).toMatch(/exceeded quota: shop-compute, requested: requests\.cpu=9, used: requests\.cpu=40, limited: requests\.cpu=40$/);
  });
});
