/**
 * KubeVirt's whole VM admission and the start, against its own answers
 * (test/fixtures/admission-corpus/README.md): single-field mutations over the rule families of the
 * VM and VMI webhooks, each answered by KubeVirt's code. itgen must reach the same verdict
 * (started, refused at admission with every one of KubeVirt's causes, or refused at the start with
 * its stage and words) on at least 99% of them; what it does not model is listed, family by family.
 */
import path from 'node:path';
import { runInProcess } from './e2e-helpers';
import { removeDir, scratchProject } from './helpers';
import { replayAdmission } from './admission-corpus';

const DIR = path.join(__dirname, 'fixtures', 'admission-corpus');

describe('the VM admission corpus (KubeVirt d923fdb815: VM webhooks, start path, VMI webhooks, render)', () => {
  const results = replayAdmission(DIR);

  it('holds at least 3,000 answered cases, refused at admission, at the start and started', () => {
    expect(results.length).toBeGreaterThanOrEqual(3000);
    expect(results.filter((r) => r.verdict === 'admission').length).toBeGreaterThan(1000);
    expect(results.filter((r) => r.verdict === 'start').length).toBeGreaterThan(50);
    expect(results.filter((r) => r.verdict === 'started').length).toBeGreaterThan(1000);
  });

  it('reaches KubeVirt’s verdict, with every cause in its words, on at least 99% of the cases', () => {
    const agree = results.filter((r) => r.agree).length;
    const byFamily = new Map<string, string[]>();
    for (const r of results.filter((x) => !x.agree)) byFamily.set(r.category, [...(byFamily.get(r.category) ?? []), `${r.id}: ${r.why}`]);
    const report = [...byFamily].map(([f, xs]) => `${f}: ${xs.length} (${xs[0]!.slice(0, 300)})`);
    expect({ rate: agree / results.length >= 0.99, report }).toEqual({ rate: true, report: expect.any(Array) });
    // Every case of the committed corpus agrees (the API server's enums of the VM's CRD included).
    expect(report).toEqual([]);
  });

  it.each([
    ['v1.8.4', 'answers-v1.8.4.jsonl.gz'],
    ['v1.8.0', 'answers-v1.8.0.jsonl.gz'],
    ['v1.7.4', 'answers-v1.7.4.jsonl.gz'],
    ['v1.6.6', 'answers-v1.6.6.jsonl.gz'],
  ])('answers as KubeVirt %s does, the same cases answered by that release’s own code', (release, file) => {
    const replayed = replayAdmission(DIR, release, file);
    const report = replayed.filter((r) => !r.agree).map((r) => `${r.id} ${r.category}: ${r.why.slice(0, 300)}`);
    expect({ rate: replayed.filter((r) => r.agree).length / replayed.length >= 0.995, first: report.slice(0, 5) }).toEqual({
      rate: true,
      first: expect.any(Array),
    });
    // Every case of the committed corpus agrees at each release too.
    expect(report).toEqual([]);
  });

  it('validate says it at the field in KubeVirt’s words: refused at admission, or stored but not started', () => {
    const vm = (name: string, domain: string): string =>
      `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}}\nspec:\n  runStrategy: Always\n  template:\n    spec:\n      domain:\n${domain}`;
    const dir = scratchProject({
      'eight.yaml': vm('eight', '        resources: {requests: {memory: "8"}}\n        devices: {}\n'),
      'none.yaml': vm('none', '        resources: {requests: {memory: "0"}}\n        devices: {}\n'),
      'dns.yaml': `${vm('dns', '        resources: {requests: {memory: 1Gi}}\n        devices: {}\n')}      dnsPolicy: Bogus\n`,
      'spread.yaml': `${vm('spread', '        resources: {requests: {memory: 1Gi}}\n        devices: {}\n')}      affinity:\n        nodeAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, preference: {}}]\n`,
    });
    try {
      const eight = runInProcess(dir, ['validate', 'eight.yaml']);
      expect(eight.code).toBe(1);
      expect(eight.err).toContain(
        "eight.yaml:9:40 error IT8003 VirtualMachine `eight` would be refused: spec.template.spec.domain.resources.requests.memory '8': must be greater than or equal to 1M.",
      );
      const none = runInProcess(dir, ['validate', 'none.yaml']);
      expect(none.code).toBe(1);
      expect(none.err).toContain(
        "none.yaml:9:9 error IT8008 VirtualMachine `none` would be stored but not start: the VirtualMachineInstance webhook: no memory requested, at least one of 'spec.domain.memory.guest', 'spec.domain.memory.hugepages.pageSize' or 'spec.domain.resources.requests.memory' must be set",
      );
      // Kubernetes' enum the VM's CRD lacks: the API server stores the VM and KubeVirt's webhook
      // refuses it in its schema check, in kube-openapi's words.
      const dns = runInProcess(dir, ['validate', 'dns.yaml']);
      expect(dns.code).toBe(1);
      expect(dns.err).toContain(
        'dns.yaml:11:18 error IT8003 VirtualMachine `dns` would be refused: spec.template.spec.dnsPolicy in body should be one of [ClusterFirst ClusterFirstWithHostNet Default None]',
      );
      // Kubernetes' affinity rules, named from the spec as KubeVirt names them, placed at the value.
      const spread = runInProcess(dir, ['validate', 'spread.yaml']);
      expect(spread.code).toBe(1);
      expect(spread.err).toContain(
        'spread.yaml:13:70 error IT8003 VirtualMachine `spread` would be refused: spec.template.spec.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      );
    } finally {
      removeDir(dir);
    }
  });
});
