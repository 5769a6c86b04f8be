/**
 * What the catalog's admission policies say to a VM, judged as kube-apiserver's ValidatingAdmissionPolicy plugin would: each policy's verdict and message.
 */
import { matcherKind } from '../schema/kubevirt-api';
import type { JsonObject } from '../json';
import { nearestName, removedWords } from '../suggest';
import { PROFILE_LABEL, type PolicyCatalog, knownOf, isKnown, type PolicyOptions, type Which, CLUSTER_KIND, NOUN, requiredMessage } from './index';

export interface PolicyRequest {
  readonly operation: 'CREATE' | 'UPDATE';
  readonly username: string;
  /** The VM's namespace and its labels (the profile label selects an allow-list). */
  readonly namespace: string;
  readonly namespaceLabels: Readonly<Record<string, string>>;
  readonly object: JsonObject;
  readonly oldObject?: JsonObject | null;
}

export interface PolicyVerdict {
  /** Which of the policies decided. */
  readonly rule: 'catalog' | 'deprecation' | 'required' | 'profile';
  /** What the verdict is about. */
  readonly which: 'instancetype' | 'preference';
  readonly policy: string;
  readonly binding: string;
  readonly message: string;
  readonly reason: 'Invalid' | 'Forbidden';
}

export interface PolicyJudgement {
  /** What a Deny binding refuses the request with, in the policies' order. */
  readonly denied: readonly PolicyVerdict[];
  /** What a Warn binding says (kubectl prints it as `Warning: ...`). */
  readonly warnings: readonly PolicyVerdict[];
}

export const isObj = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The name a matcher gives for the cluster-wide kind, '' when none (matcherCel's meaning). */
export function matcherName(vm: JsonObject | null | undefined, which: Which): string {
  const spec = isObj(vm) ? vm['spec'] : undefined;
  const m = isObj(spec) ? spec[which] : undefined;
  if (!isObj(m) || typeof m['name'] !== 'string') return '';
  const kind = m['kind'];
  // Only a cluster-wide matcher is the policy's (the CEL tests the kind by the same rule).
  if (typeof kind === 'string' ? matcherKind(which, kind) !== CLUSTER_KIND[which] : kind !== undefined) return '';
  return m['name'];
}

/**
 * What the policies of `catalog` decide for one request, by the catalog's meaning (the corpus holds
 * kube-apiserver's verdict on the generated CEL to it).
 *
 * Over 80 lines: decides as the CEL of policyObjectsOnOneLine does, in the same order, to be read beside it.
 */
export function judgePolicies(catalog: PolicyCatalog, opts: PolicyOptions, req: PolicyRequest): PolicyJudgement {
  const denied: PolicyVerdict[] = [];
  const warnings: PolicyVerdict[] = [];
  if (req.username.startsWith(`system:serviceaccount:${opts.kubevirtNamespace}:kubevirt-`)) return { denied, warnings };
  const current = { instancetype: matcherName(req.object, 'instancetype'), preference: matcherName(req.object, 'preference') };
  const before = { instancetype: matcherName(req.oldObject, 'instancetype'), preference: matcherName(req.oldObject, 'preference') };
  const judged = (which: Which): boolean => current[which] !== '' && current[which] !== before[which];
  const entries = { instancetype: catalog.instancetypes, preference: catalog.preferences };
  const knownNames = { instancetype: knownOf(catalog, 'instancetype'), preference: knownOf(catalog, 'preference') };
  // known
  const known = `${opts.prefix}.catalog`;
  for (const which of ['instancetype', 'preference'] as const) {
    const k = knownNames[which];
    const name = current[which];
    if (!judged(which) || isKnown(name, k)) continue;
    const gone = catalog.removed?.[which].find((r) => r.name === name);
    const s = gone ? '' : nearestName(name, k.names);
    denied.push({
      rule: 'catalog',
      which,
      policy: known,
      binding: known,
      message: `${name} is not ${which === 'instancetype' ? 'an' : 'a'} ${NOUN[which]} of this cluster${gone ? `; ${removedWords(gone)}` : s !== '' ? `; did you mean ${s}?` : `; kubectl get ${CLUSTER_KIND[which].toLowerCase()}s lists them`}`,
      reason: 'Invalid',
    });
  }
  // deprecated
  if (entries.instancetype.some((e) => e.deprecated) || entries.preference.some((e) => e.deprecated)) {
    const deprecated = `${opts.prefix}.deprecation`;
    for (const which of ['instancetype', 'preference'] as const) {
      const e = entries[which].find((x) => x.name === current[which] && x.deprecated);
      if (!judged(which) || !e) continue;
      const r = e.deprecated?.replacement ?? '';
      const v: PolicyVerdict = {
        rule: 'deprecation',
        which,
        policy: deprecated,
        binding: deprecated,
        message: `${e.name} is a deprecated ${NOUN[which]}${r !== '' ? `; use ${r} instead` : '; it will be removed'}`,
        reason: 'Invalid',
      };
      (opts.deprecated === 'deny' ? denied : warnings).push(v);
    }
  }
  // required
  if (opts.requireInstancetype || opts.requirePreference) {
    const required = `${opts.prefix}.required`;
    const has = (vm: JsonObject | null | undefined, which: Which): boolean =>
      isObj(vm) && isObj(vm['spec']) && vm['spec'][which] !== undefined && vm['spec'][which] !== null;
    for (const which of ['instancetype', 'preference'] as const) {
      if (which === 'instancetype' ? !opts.requireInstancetype : !opts.requirePreference) continue;
      if (has(req.object, which) || (isObj(req.oldObject) && !has(req.oldObject, which))) continue;
      denied.push({
        rule: 'required',
        which,
        policy: required,
        binding: required,
        message: requiredMessage(which),
        reason: 'Invalid',
      });
    }
  }
  // allowed
  const profile = req.namespaceLabels[PROFILE_LABEL];
  if (profile !== undefined && Object.hasOwn(opts.profiles, profile) && judged('instancetype')) {
    const allowed = `${opts.prefix}.profile`;
    const p = opts.profiles[profile]!;
    const name = current.instancetype;
    const e = entries.instancetype.find((x) => x.name === name);
    const ok =
      !isKnown(name, knownNames.instancetype) ||
      (p.names ?? []).includes(name) ||
      (e?.families ?? []).some((f) => (p.families ?? []).includes(f)) ||
      (e?.class !== undefined && (p.classes ?? []).includes(e.class));
    if (!ok) {
      const parts = [
        (p.classes ?? []).length > 0 ? `classes ${p.classes!.join(', ')}` : '',
        (p.families ?? []).length > 0 ? `families ${p.families!.join(', ')}` : '',
        (p.names ?? []).length > 0 ? `names ${p.names!.join(', ')}` : '',
      ].filter((x) => x !== '');
      denied.push({
        rule: 'profile',
        which: 'instancetype',
        policy: allowed,
        binding: `${allowed}.${profile}`,
        message: `${name} is not allowed in namespace ${req.namespace} (profile ${profile} allows ${parts.length > 0 ? parts.join('; ') : 'no instance type'})`,
        reason: 'Forbidden',
      });
    }
  }
  return { denied, warnings };
}
