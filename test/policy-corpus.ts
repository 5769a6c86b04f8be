/**
 * Replays the policy corpus (test/fixtures/policy-corpus/, made by tools/policy-corpus.mjs and
 * answered by kube-oracle's `vap` and `vap-typecheck` modes: kube-apiserver v1.36.4's own
 * ValidatingAdmissionPolicy plugin and type checker) through `policyObjects` and `judgePolicies`.
 */
import type { JsonObject } from '../src/json';
import { policyObjects, type PolicyCatalog, type PolicyOptions } from '../src/policy';
import { judgePolicies } from '../src/policy/judge';
import { readJsonLines } from './preview-corpus';

interface PolicySet {
  readonly set: string;
  readonly catalog: PolicyCatalog;
  readonly options: PolicyOptions;
  readonly objects: JsonObject[];
}
interface PolicyCase {
  readonly id: string;
  readonly set: string;
  readonly namespaces: JsonObject[];
  readonly request: { operation: 'CREATE' | 'UPDATE'; userInfo: { username: string }; namespace: string };
  readonly object: JsonObject;
  readonly oldObject: JsonObject | null;
}
interface PolicyAnswer {
  readonly id: string;
  readonly mode: string;
  readonly allowed?: boolean;
  readonly code?: number;
  readonly causes?: string[];
  readonly warnings?: (string | { fieldRef: string; warning: string })[];
  readonly configErrors?: string[];
  readonly error?: string;
}

export interface PolicyReplay {
  readonly id: string;
  readonly allowed: boolean;
  readonly warned: boolean;
  /** kube-apiserver's causes of a denial. */
  readonly causes: readonly string[];
  readonly why: string[];
}

export function replayPolicies(dir: string): { sets: { set: string; why: string[] }[]; cases: PolicyReplay[] } {
  const sets = readJsonLines(`${dir}/sets.jsonl.gz`) as PolicySet[];
  const cases = readJsonLines(`${dir}/cases.jsonl.gz`) as PolicyCase[];
  const answers = new Map((readJsonLines(`${dir}/answers.jsonl.gz`) as PolicyAnswer[]).map((a) => [a.id, a]));
  const bySet = new Map(sets.map((s) => [s.set, s]));
  const setResults = sets.map((s) => {
    const why: string[] = [];
    // The policies the oracle judged are the ones itgen generates today.
    if (JSON.stringify(policyObjects(s.catalog, s.options)) !== JSON.stringify(s.objects))
      why.push('the generated policies changed since the corpus was answered: regenerate it (tools/policy-corpus.mjs)');
    for (const p of s.objects.filter((o) => o['kind'] === 'ValidatingAdmissionPolicy')) {
      const a = answers.get(`t-${s.set}-${String((p['metadata'] as JsonObject)['name'])}`);
      if (!a) why.push(`no type check of ${String((p['metadata'] as JsonObject)['name'])}`);
      else if ((a.warnings ?? []).length > 0 || (a.configErrors ?? []).length > 0 || a.error) why.push(`type check: ${JSON.stringify(a)}`);
    }
    return { set: s.set, why };
  });
  const replays = cases.map((c) => {
    const s = bySet.get(c.set)!;
    const a = answers.get(c.id)!;
    const ns = c.namespaces.find((n) => (n['metadata'] as JsonObject)['name'] === c.request.namespace);
    const labels = ((ns?.['metadata'] as JsonObject | undefined)?.['labels'] ?? {}) as Record<string, string>;
    const mine = judgePolicies(s.catalog, s.options, {
      operation: c.request.operation,
      username: c.request.userInfo.username,
      namespace: c.request.namespace,
      namespaceLabels: labels,
      object: c.object,
      oldObject: c.oldObject,
    });
    const why: string[] = [];
    if (a.error || (a.configErrors ?? []).length > 0) why.push(`oracle: ${a.error ?? ''} ${(a.configErrors ?? []).join('; ')}`);
    if (a.allowed !== (mine.denied.length === 0))
      why.push(
        `allowed: itgen ${mine.denied.length === 0}, kube-apiserver ${String(a.allowed)} ${JSON.stringify(a.causes ?? [])} | itgen ${JSON.stringify(mine.denied)}`,
      );
    // kube-apiserver reports one of the denials (which one depends on its informer's order).
    const causes = mine.denied.map((d) => `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`);
    for (const cause of a.causes ?? []) {
      const i = causes.indexOf(cause);
      if (i < 0) why.push(`cause not among itgen's: ${cause} | itgen ${JSON.stringify(causes)}`);
      else if (a.code !== (mine.denied[i]!.reason === 'Forbidden' ? 403 : 422)) why.push(`code ${String(a.code)} for ${mine.denied[i]!.reason}`);
    }
    const warnings = mine.warnings.map((w) => `Validation failed for ValidatingAdmissionPolicy '${w.policy}' with binding '${w.binding}': ${w.message}`);
    if (JSON.stringify([...(a.warnings ?? [])].sort()) !== JSON.stringify([...warnings].sort()))
      why.push(`warnings: itgen ${JSON.stringify(warnings)} | kube-apiserver ${JSON.stringify(a.warnings)}`);
    return { id: c.id, allowed: a.allowed === true, warned: (a.warnings ?? []).length > 0, causes: a.causes ?? [], why };
  });
  return { sets: setResults, cases: replays };
}

/** The requests itgen decides otherwise than kube-apiserver, with why (the first ten). */
export function policyDisagreements(cases: readonly PolicyReplay[]): string[] {
  return cases
    .filter((c) => c.why.length > 0)
    .map((c) => `${c.id}: ${c.why.join(' | ')}`)
    .slice(0, 10);
}
