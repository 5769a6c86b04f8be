/**
 * The generic evaluator of `validate --policies` (src/policy/evaluate.ts: any ValidatingAdmissionPolicy,
 * evaluated with a CEL implementation) against kube-apiserver's own plugin: every request of the
 * policy corpus (test/fixtures/policy-corpus/README.md: 1,500 CREATE and UPDATE requests on five
 * sets of generated policies, answered by Kubernetes v1.36's ValidatingAdmissionPolicy admission
 * plugin) must be allowed or denied as kube-apiserver decided, with its cause among ours and the
 * same warnings.
 */
import path from 'node:path';
import type { JsonObject } from '../src/json';
import { PolicyEvaluator } from '../src/policy/evaluate';
import { readJsonLines } from './preview-corpus';

const DIR = path.join(__dirname, 'fixtures', 'policy-corpus');

interface PolicyCase {
  readonly id: string;
  readonly set: string;
  readonly namespaces: JsonObject[];
  readonly request: { operation: 'CREATE' | 'UPDATE'; userInfo: { username: string }; namespace: string };
  readonly object: JsonObject;
  readonly oldObject: JsonObject | null;
}

describe('the policy corpus, through the generic CEL evaluator', () => {
  const sets = readJsonLines(path.join(DIR, 'sets.jsonl.gz')) as { set: string; objects: JsonObject[] }[];
  const cases = readJsonLines(path.join(DIR, 'cases.jsonl.gz')) as PolicyCase[];
  const answers = new Map(
    (readJsonLines(path.join(DIR, 'answers.jsonl.gz')) as { id: string; allowed?: boolean; causes?: string[]; warnings?: unknown[] }[]).map((a) => [a.id, a]),
  );
  const evaluators = new Map(sets.map((s) => [s.set, new PolicyEvaluator(s.objects)]));

  it('decides every request as kube-apiserver did, its cause among ours, the same warnings', () => {
    const disagreements: string[] = [];
    for (const c of cases) {
      const a = answers.get(c.id)!;
      const ns = c.namespaces.find((n) => (n['metadata'] as JsonObject)['name'] === c.request.namespace);
      // The parameters the bindings name (ConfigMaps) are among the set's objects and the case's namespaces' objects.
      const d = evaluators.get(c.set)!.decide({
        operation: c.request.operation,
        username: c.request.userInfo.username,
        namespace: c.request.namespace,
        namespaceLabels: ((ns?.['metadata'] as JsonObject | undefined)?.['labels'] ?? {}) as Record<string, string>,
        object: c.object,
        oldObject: c.oldObject,
      });
      const causes = d.denied.map((x) => `ValidatingAdmissionPolicy '${x.policy}' with binding '${x.binding}' denied request: ${x.message}`);
      const warnings = d.warnings.map((x) => `Validation failed for ValidatingAdmissionPolicy '${x.policy}' with binding '${x.binding}': ${x.message}`);
      const why: string[] = [];
      if (a.allowed !== (d.denied.length === 0))
        why.push(`allowed: evaluator ${d.denied.length === 0}, kube-apiserver ${String(a.allowed)} ${JSON.stringify(a.causes)} | ${JSON.stringify(causes)}`);
      for (const cause of a.causes ?? []) if (!causes.includes(cause)) why.push(`cause not among ours: ${cause}`);
      if (JSON.stringify([...(a.warnings ?? [])].sort()) !== JSON.stringify([...warnings].sort()))
        why.push(`warnings: ${JSON.stringify(warnings)} | ${JSON.stringify(a.warnings)}`);
      if (why.length > 0) disagreements.push(`${c.id}: ${why.join(' | ').slice(0, 400)}`);
    }
    expect(cases.length).toBeGreaterThanOrEqual(1500);
    expect(disagreements.slice(0, 8)).toEqual([]);
  });
});
