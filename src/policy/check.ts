/**
 * Type checking of the policies' CEL before they are written (`itgen validate`, `generate`):
 * every expression is parsed and checked by a CEL implementation (@marcbachmann/cel-js) in an
 * environment like kube-apiserver's for ValidatingAdmissionPolicies: `object`, `oldObject`,
 * `request` and `params` (dynamic here), and `variables` with the type each variable's expression
 * checked to, in order. A validation must be a bool, a message expression a string. What kube-apiserver's own type checker says
 * of the generated policies (field names against KubeVirt's VirtualMachine schema included) is
 * held by the policy corpus (test/fixtures/policy-corpus/); this check keeps a template change or
 * an unforeseen value from writing a policy that would not compile.
 */
import { Environment } from '@marcbachmann/cel-js';
import { list, obj, type JsonObject } from '../json';

export interface CelProblem {
  /** Where in the policy: `spec.validations[0].messageExpression`. */
  readonly field: string;
  readonly message: string;
}

const LIMITS = { maxAstNodes: 1_000_000, maxDepth: 250, maxListElements: 100_000, maxMapEntries: 100_000, maxCallArguments: 32 };

function environment(variables: Readonly<Record<string, string>>): Environment {
  const env = new Environment({ limits: LIMITS })
    .registerVariable('object', 'dyn')
    .registerVariable('oldObject', 'dyn')
    .registerVariable('request', 'dyn')
    .registerVariable('params', 'dyn');
  return Object.keys(variables).length > 0 ? env.registerVariable({ name: 'variables', schema: variables }) : env.registerVariable('variables', 'map');
}

/** The first line of cel-js's error: what is wrong and where. */
const firstLine = (e: unknown): string =>
  String(e instanceof Error ? e.message : e)
    .split('\n')[0]!
    .slice(0, 300);

/** What does not type-check in one ValidatingAdmissionPolicy. */
export function checkPolicyCel(policy: JsonObject): CelProblem[] {
  const spec = obj(policy['spec']) ?? {};
  const problems: CelProblem[] = [];
  const types: Record<string, string> = {};
  const check = (field: string, expression: unknown, want: 'bool' | 'string' | undefined): string | undefined => {
    if (typeof expression !== 'string') {
      problems.push({ field, message: 'not a string' });
      return undefined;
    }
    try {
      const r = environment(types).check(expression);
      if (!r.valid) {
        problems.push({ field, message: firstLine(r.error) });
        return undefined;
      }
      const type = String(r.type);
      if (want !== undefined && type !== want && type !== 'dyn') problems.push({ field, message: `must evaluate to ${want} but got ${type}` });
      return type;
    } catch (e) {
      problems.push({ field, message: firstLine(e) });
      return undefined;
    }
  };
  list(spec['matchConditions']).forEach((m, i) => check(`spec.matchConditions[${i}].expression`, m['expression'], 'bool'));
  list(spec['variables']).forEach((v, i) => {
    const type = check(`spec.variables[${i}].expression`, v['expression'], undefined);
    if (typeof v['name'] === 'string') types[v['name']] = type ?? 'dyn';
  });
  list(spec['validations']).forEach((v, i) => {
    check(`spec.validations[${i}].expression`, v['expression'], 'bool');
    if (v['messageExpression'] !== undefined) check(`spec.validations[${i}].messageExpression`, v['messageExpression'], 'string');
  });
  return problems;
}
