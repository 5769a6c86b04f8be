/**
 * The generated admission policies against kube-apiserver's own plugin and type checker
 * (test/fixtures/policy-corpus/README.md).
 */
import path from 'node:path';
import { policyDisagreements, replayPolicies } from './policy-corpus';

describe('the policy corpus (kube-apiserver v1.36.4: the ValidatingAdmissionPolicy plugin)', () => {
  const { sets, cases } = replayPolicies(path.join(__dirname, 'fixtures', 'policy-corpus'));

  it("judges the policies generated today, which type-check against KubeVirt's VirtualMachine schema", () => {
    expect(sets.length).toBe(6);
    expect(sets.filter((s) => s.why.length > 0)).toEqual([]);
  });

  it('covers at least 1,000 requests, allowed, denied and warned', () => {
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    expect(cases.filter((c) => c.allowed).length).toBeGreaterThan(200);
    expect(cases.filter((c) => !c.allowed).length).toBeGreaterThan(200);
    expect(cases.filter((c) => c.warned).length).toBeGreaterThan(30);
  });

  it("names a removed name's recorded replacement, as kube-apiserver runs the CEL", () => {
    const removed = cases.filter((c) =>
      c.causes.some((x) => / is not an? (instance type|preference) of this cluster; it was removed in v1\.\d\.0: use \S+ instead$/.test(x)),
    );
    expect(removed.length).toBeGreaterThanOrEqual(5);
  });

  it('decides every request as the catalog means it', () => {
    expect(policyDisagreements(cases)).toEqual([]);
  });
});
