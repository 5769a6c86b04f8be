/**
 * Application-Aware Quota's count of a VM (kubevirt/quota.ts `aaqUsage`), against the cases of
 * kubevirt/application-aware-quota's own test of its calculator
 * (pkg/aaq-controller/built-in-usage-calculators/virt-launcher-usage-calc_test.go, Apache-2.0: the
 * source pod of a VMI, each configuration), transcribed; and `fit --together` with an AAQ CR and an
 * ApplicationAwareResourceQuota: VMs over it are gated, never scheduled, and the capacity says so.
 */
import path from 'node:path';
import type { JsonObject } from '../src/json';
import { aaqUsage, resourceListText, type AaqCalculator } from '../src/kubevirt/quota';
import { runInProcess } from './e2e-helpers';

const vmi = (domain: JsonObject): JsonObject => ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', spec: { domain } });
const pod: JsonObject = { metadata: { name: 'sourcePod' }, spec: { containers: [{ name: 'compute', resources: {} }] } };
const usage = (domain: JsonObject, calculator: AaqCalculator): Record<string, string> => resourceListText(aaqUsage(pod, vmi(domain), calculator));

describe("Application-Aware Quota's count of a VM, as its calculator's tests say", () => {
  it('VmiPodUsage counts the launcher pod as the API server quota does', () => {
    expect(usage({}, 'VmiPodUsage')).toEqual({ 'count/pods': '1', pods: '1' });
  });
  it('VirtualResources: limits, overridden by requests, by the guest memory and by the topology', () => {
    const two = { 'count/pods': '1', 'limits.cpu': '2', 'limits.memory': '2Gi', pods: '1', 'requests.cpu': '2', 'requests.memory': '2Gi' };
    expect(usage({ resources: { limits: { cpu: '2', memory: '2Gi' } } }, 'VirtualResources')).toEqual(two);
    expect(usage({ resources: { requests: { cpu: '2', memory: '2Gi' } } }, 'VirtualResources')).toEqual(two);
    expect(usage({ resources: { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '4', memory: '4Gi' } } }, 'VirtualResources')).toEqual(two);
    expect(
      usage(
        {
          resources: { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '4', memory: '4Gi' } },
          memory: { guest: '5Gi' },
          cpu: { cores: 2, sockets: 2, threads: 2 },
        },
        'VirtualResources',
      ),
    ).toEqual({ 'count/pods': '1', 'limits.cpu': '8', 'limits.memory': '5Gi', pods: '1', 'requests.cpu': '8', 'requests.memory': '5Gi' });
  });
  it('DedicatedVirtualResources counts the guest under its own names', () => {
    const u = usage({ memory: { guest: '5Gi' }, cpu: { cores: 2, sockets: 2, threads: 2 } }, 'DedicatedVirtualResources');
    expect([u['requests.instances/vmi'], u['requests.cpu/vmi'], u['requests.memory/vmi']]).toEqual(['1', '8', '5Gi']);
    expect(u['pods']).toBeUndefined();
  });
});

describe('fit --together with Application-Aware Quota', () => {
  const REPO = path.resolve(__dirname, '..');
  const F = path.join(__dirname, 'fixtures', 'fit-cluster');
  interface Row {
    name: string;
    architecture?: string;
    total: number;
    aaq?: { calculator: string; more: number; message?: string };
    binding?: string;
  }
  const run = (): { placements: { name: string; node: string | null; message?: string }[]; capacity: Row[] } =>
    JSON.parse(
      runInProcess(REPO, [
        'fit',
        '--together',
        '--nodes',
        path.join(F, 'nodes.yaml'),
        '--pods',
        path.join(F, 'pods.yaml'),
        '--with',
        path.join(REPO, 'output', 'common-instancetypes'),
        '--with',
        path.join(F, 'gpu.yaml'),
        '--with',
        path.join(F, 'aaq.yaml'),
        '--kubevirt',
        path.join(F, 'kubevirt.yaml'),
        path.join(F, 'vms.yaml'),
        '-o',
        'json',
      ]).out,
    ) as { placements: { name: string; node: string | null; message?: string }[]; capacity: Row[] };

  it('gates the VMs its quota cannot hold (never scheduled), counting the guest, not the pod', () => {
    const r = run();
    const gated = r.placements.filter((p) => p.message?.startsWith('gated by Application-Aware Quota (DedicatedVirtualResources)'));
    expect(gated.length).toBeGreaterThan(0);
    expect(gated.every((p) => p.node === null)).toBe(true);
    // 64 vCPUs of guests: the four cache VMs (8 each) and the thirty web VMs (1 each) fit; the builds (2 each) find 2 left.
    expect(gated[0]!.message).toMatch(
      /exceeded quota: shop-vms, requested: requests\.cpu\/vmi=2, used: requests\.cpu\/vmi=\d+, limited: requests\.cpu\/vmi=64$/,
    );
  });
  it('says how many more of each type AAQ admits, and when it binds', () => {
    const u1 = run().capacity.find((t) => t.name === 'u1.medium' && t.architecture === 'amd64')!;
    expect(u1.aaq?.calculator).toBe('DedicatedVirtualResources');
    expect(u1.aaq?.more).toBeLessThan(u1.total);
    expect(u1.binding).toBe('aaq');
  });
});
