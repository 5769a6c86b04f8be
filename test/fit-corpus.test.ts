/**
 * Node fit against Kubernetes' own answers (test/fixtures/fit-corpus/README.md): the launcher pod's
 * effective requests, each node's verdict with the rejecting plugin and its reasons, and the
 * scheduler's summary.
 */
import path from 'node:path';
import { replayFit } from './fit-corpus';

describe("the fit corpus (Kubernetes v1.36.4: PodRequests and kube-scheduler's filters)", () => {
  const results = replayFit(path.join(__dirname, 'fixtures', 'fit-corpus'));

  it('covers at least 1,000 cases, pods that fit and pods that do not, and every filter', () => {
    expect(results.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(results.map((r) => r.schedulable))).toEqual(new Set([true, false]));
    expect(new Set(results.flatMap((r) => r.plugins))).toEqual(new Set(['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit']));
  });

  it('agrees with Kubernetes on every case', () => {
    expect(
      results
        .filter((r) => r.why.length > 0)
        .map((r) => `${r.id}: ${r.why.join(' | ')}`)
        .slice(0, 10),
    ).toEqual([]);
  });
});
