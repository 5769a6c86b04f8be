/**
 * The platform's own admission policies (`validate --policies FILE`): ValidatingAdmissionPolicies
 * and their bindings as kube-apiserver's plugin applies them to a VirtualMachine being created, with
 * a CEL implementation (@marcbachmann/cel-js): the policy's match constraints and conditions, its
 * variables in order, then each validation, its message (or message expression) when it fails; the
 * binding's validation actions (Deny: an error, Warn: a warning, Audit: nothing), match resources
 * (namespace and object selectors) and parameters (paramRef by name or selector, among the objects
 * given). An expression that cannot be evaluated follows the policy's failurePolicy (Fail: denied).
 * Whatever policy writes them (itgen's, Kyverno-free home-grown ones), they are applied, never ignored.
 * Not modelled: authorizer checks, `request` beyond operation, user and namespace, audit annotations.
 */
import { Environment } from '@marcbachmann/cel-js';
import { diag, type Diagnostic } from '../diagnostics';
import { manifestObjects } from '../expand/documents';
import { withoutNulls } from '../expand/judge';
import { isPlainObject, list, obj, type Json, type JsonObject } from '../json';
import { locate, type SourceDoc } from '../load/source';
import type { PolicyRequest } from './judge';

const LIMITS = { maxAstNodes: 1_000_000, maxDepth: 250, maxListElements: 100_000, maxMapEntries: 100_000, maxCallArguments: 32 };
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** JSON as CEL sees a Kubernetes object: integers are ints (bigint), other numbers doubles. */
function celValue(v: Json | undefined): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(celValue);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, celValue(x)]));
  return v;
}

/** metav1.LabelSelector against labels: matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist). */
function selects(selector: JsonObject | undefined, labels: Readonly<Record<string, unknown>>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(obj(selector['matchLabels']) ?? {})) if (labels[k] !== v) return false;
  for (const e of list(selector['matchExpressions'])) {
    const key = str(e['key']);
    const values = Array.isArray(e['values']) ? e['values'].map(String) : [];
    const has = Object.hasOwn(labels, key);
    const value = has ? String(labels[key]) : undefined;
    switch (e['operator']) {
      case 'In':
        if (value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Whether the policy's resource rules cover this operation on a kubevirt.io/v1 VirtualMachine. */
function matchesVm(policy: JsonObject, operation: string): boolean {
  const rules = list(obj(obj(policy['spec'])?.['matchConstraints'])?.['resourceRules']);
  const has = (xs: Json | undefined, v: string): boolean => Array.isArray(xs) && xs.some((x) => x === '*' || x === v);
  return rules.some(
    (r) =>
      has(r['apiGroups'], 'kubevirt.io') &&
      has(r['apiVersions'], 'v1') &&
      has(r['operations'], operation) &&
      (has(r['resources'], 'virtualmachines') || has(r['resources'], '*/*')),
  );
}

/** One policy with one binding (and its parameter, if any) on one VM: the failed validations' messages. */
/** Expressions parsed once per run (a policy's variables are evaluated for every VM). */
type Compiled = Map<string, ((ctx: Record<string, unknown>) => unknown) | { error: string }>;

function judge(env: Environment, compiled: Compiled, policy: JsonObject, req: AdmissionRequest, params: unknown): string[] {
  const spec = obj(policy['spec']) ?? {};
  const failClosed = spec['failurePolicy'] !== 'Ignore';
  const meta = obj(req.object['metadata']) ?? {};
  const ctx: Record<string, unknown> = {
    object: celValue(req.object),
    oldObject: req.oldObject ? celValue(req.oldObject) : null,
    params: params ?? null,
    request: celValue({
      operation: req.operation,
      namespace: req.namespace,
      name: str(meta['name']),
      userInfo: { username: req.username, groups: ['system:authenticated'] },
    } as JsonObject),
    namespaceObject: null,
    variables: {},
  };
  const firstLine = (e: unknown): string =>
    String(e instanceof Error ? e.message : e)
      .split('\n')[0]!
      .slice(0, 300);
  const evaluate = (expression: string): { value: unknown } | { error: string } => {
    let fn = compiled.get(expression);
    if (fn === undefined) {
      try {
        fn = env.parse(expression) as unknown as (ctx: Record<string, unknown>) => unknown;
      } catch (e) {
        fn = { error: firstLine(e) };
      }
      compiled.set(expression, fn);
    }
    if (typeof fn !== 'function') return fn;
    try {
      return { value: fn(ctx) };
    } catch (e) {
      return { error: firstLine(e) };
    }
  };
  for (const m of list(spec['matchConditions'])) {
    const r = evaluate(str(m['expression']));
    if ('error' in r) return failClosed ? [`failed to evaluate match condition '${str(m['name'])}': ${r.error}`] : [];
    if (r.value !== true) return [];
  }
  const variables: Record<string, unknown> = {};
  ctx['variables'] = variables;
  for (const v of list(spec['variables'])) {
    const r = evaluate(str(v['expression']));
    variables[str(v['name'])] = 'error' in r ? undefined : r.value;
  }
  const out: string[] = [];
  for (const v of list(spec['validations'])) {
    const expression = str(v['expression']);
    const r = evaluate(expression);
    if ('error' in r) {
      if (failClosed) out.push(`expression '${expression.slice(0, 120)}' resulted in error: ${r.error}`);
      continue;
    }
    if (r.value === true) continue;
    let message = str(v['message']);
    if (typeof v['messageExpression'] === 'string') {
      const m = evaluate(v['messageExpression']);
      if (!('error' in m) && typeof m.value === 'string' && m.value.trim() !== '') message = m.value;
    }
    out.push(message !== '' ? message : `failed expression: ${expression}`);
  }
  return out;
}

/** One admission request for a VirtualMachine, as kube-apiserver hands it to the policies (the judge of itgen's own policies takes the same). */
export type AdmissionRequest = PolicyRequest;

export interface PolicyDecision {
  readonly denied: readonly { readonly policy: string; readonly binding: string; readonly message: string }[];
  readonly warnings: readonly { readonly policy: string; readonly binding: string; readonly message: string }[];
}

/** Evaluates the policies of `objects` (with their bindings and parameters) on one request. */
export class PolicyEvaluator {
  private readonly env = new Environment({ limits: LIMITS, enableOptionalTypes: true, unlistedVariablesAreDyn: true });
  private readonly compiled: Compiled = new Map();
  private readonly policies: JsonObject[];
  private readonly bindings: JsonObject[];

  constructor(private readonly objects: readonly JsonObject[]) {
    this.policies = objects.filter((o) => o['kind'] === 'ValidatingAdmissionPolicy');
    this.bindings = objects.filter((o) => o['kind'] === 'ValidatingAdmissionPolicyBinding');
  }

  get hasPolicies(): boolean {
    return this.policies.length > 0;
  }

  decide(req: AdmissionRequest): PolicyDecision {
    const denied: { policy: string; binding: string; message: string }[] = [];
    const warnings: { policy: string; binding: string; message: string }[] = [];
    const meta = obj(req.object['metadata']) ?? {};
    for (const policy of this.policies.filter((p) => matchesVm(p, req.operation))) {
      const policyName = str(obj(policy['metadata'])?.['name']);
      const paramKind = obj(obj(policy['spec'])?.['paramKind']);
      for (const binding of this.bindings.filter((b) => obj(b['spec'])?.['policyName'] === policyName)) {
        const bspec = obj(binding['spec']) ?? {};
        const bindingName = str(obj(binding['metadata'])?.['name']);
        const match = obj(bspec['matchResources']);
        if (!selects(obj(match?.['namespaceSelector']), req.namespaceLabels)) continue;
        if (!selects(obj(match?.['objectSelector']), (obj(meta['labels']) ?? {}) as Record<string, unknown>)) continue;
        const actions = Array.isArray(bspec['validationActions']) ? bspec['validationActions'].map(String) : ['Deny'];
        const messages: string[] = [];
        const paramRef = obj(bspec['paramRef']);
        let paramSets: unknown[] = [null];
        if (paramKind && paramRef) {
          const ns = str(paramRef['namespace']) || req.namespace;
          const candidates = this.objects.filter((o) => o['kind'] === paramKind['kind'] && (str(obj(o['metadata'])?.['namespace']) || ns) === ns);
          const found =
            typeof paramRef['name'] === 'string'
              ? candidates.filter((o) => obj(o['metadata'])?.['name'] === paramRef['name'])
              : candidates.filter((o) => selects(obj(paramRef['selector']), (obj(obj(o['metadata'])?.['labels']) ?? {}) as Record<string, unknown>));
          if (found.length === 0) {
            if (paramRef['parameterNotFoundAction'] !== 'Allow') messages.push('no params found for policy binding with `Deny` parameterNotFoundAction');
            paramSets = [];
          } else paramSets = found.map((p) => celValue(p));
        }
        for (const params of paramSets) messages.push(...judge(this.env, this.compiled, policy, req, params));
        for (const message of messages)
          for (const action of actions) {
            if (action === 'Deny') denied.push({ policy: policyName, binding: bindingName, message });
            else if (action === 'Warn') warnings.push({ policy: policyName, binding: bindingName, message });
          }
      }
    }
    return { denied, warnings };
  }
}

/**
 * What the given admission policies decide for each VirtualMachine of `vmDocs`, created by an
 * ordinary user: IT8010, an error where a binding denies, a warning where one warns, in the words
 * kube-apiserver uses. `objects` are every object given (policies, bindings, their parameters, Namespaces).
 */
export function admissionPolicyVerdicts(objects: readonly JsonObject[], vmDocs: readonly SourceDoc[]): Diagnostic[] {
  const evaluator = new PolicyEvaluator(objects);
  if (!evaluator.hasPolicies) return [];
  const namespaces = new Map(
    [...objects, ...manifestObjects(vmDocs).map((f) => f.value)]
      .filter((o) => o['kind'] === 'Namespace')
      .map((o) => [str(obj(o['metadata'])?.['name']), (obj(obj(o['metadata'])?.['labels']) ?? {}) as Record<string, string>]),
  );
  const out: Diagnostic[] = [];
  for (const f of manifestObjects(vmDocs)) {
    if (f.value['kind'] !== 'VirtualMachine') continue;
    const meta = obj(f.value['metadata']) ?? {};
    const name = str(meta['name']) || '(unnamed)';
    const namespace = str(meta['namespace']) || 'default';
    const at = locate(f.src, [...f.path, 'metadata', 'name']);
    const d = evaluator.decide({
      operation: 'CREATE',
      username: 'vm-owner',
      namespace,
      namespaceLabels: namespaces.get(namespace) ?? {},
      object: withoutNulls(f.value) as JsonObject,
    });
    for (const v of d.denied)
      out.push(
        diag('IT8010', `VirtualMachine \`${name}\`: ValidatingAdmissionPolicy '${v.policy}' with binding '${v.binding}' denied request: ${v.message}`, at, {
          hint: 'the cluster refuses the VM on create (the platform admission policies given with --policies)',
        }),
      );
    for (const v of d.warnings)
      out.push(
        diag(
          'IT8010',
          `VirtualMachine \`${name}\`: Validation failed for ValidatingAdmissionPolicy '${v.policy}' with binding '${v.binding}': ${v.message}`,
          at,
          {
            severity: 'warning',
            hint: 'kubectl prints this warning when the VM is created (the platform admission policies given with --policies)',
          },
        ),
      );
  }
  return out;
}
