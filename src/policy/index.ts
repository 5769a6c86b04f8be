/**
 * Admission policies generated from a catalog: Kubernetes ValidatingAdmissionPolicies
 * (admissionregistration.k8s.io/v1, Kubernetes 1.30+) that make the cluster hold VMs to the
 * catalog it runs, and `judgePolicies`, what they decide for one request, which `validate --vms`
 * reports and the corpus holds to kube-apiserver's own plugin (test/fixtures/policy-corpus/).
 *
 * - `<prefix>.known` (Deny): a VM naming a cluster-wide instance type or preference the catalog
 *   does not define, with the nearest name the catalog has (one edit away: a letter dropped, added,
 *   changed, or two swapped).
 * - `<prefix>.deprecated` (Warn, or Deny): a VM naming a deprecated one, with its replacement.
 * - `<prefix>.required` (opt-in, Deny): a VM naming no instance type (or preference).
 * - `<prefix>.allowed` (opt-in, Deny): per profile, the classes, families and names of instance
 *   types that VMs in a namespace labelled with the profile may use; the profile is a ConfigMap
 *   the binding names, in the cluster administrators' namespace.
 *
 * A CREATE is judged; an UPDATE only where it changes what it names (a VM on a name removed since
 * keeps working, a deprecated one does not warn on every status write). KubeVirt's own service
 * accounts are never judged. The CEL is written from a few templates; every value from the catalog
 * enters it as a string literal (`celString`).
 *
 * judge.ts decides as these policies do, in TypeScript (held to kube-apiserver's plugin by the
 * policy corpus); catalog.ts makes the catalog they are written from.
 */
import { KINDS_OF } from '../schema/kubevirt-api';
import type { JsonObject } from '../json';
import { removedWords, SUGGEST_MAX, type RemovedName } from '../suggest';
import { celString, chunkedMap, chunkedSet, suggestionVariables, wrapCel, type ChunkedMap } from './cel';

export { celString, wrapCel } from './cel';

export const POLICY_API_VERSION = 'admissionregistration.k8s.io/v1';
/** The Namespace label whose value names a profile. */
export const PROFILE_LABEL = 'itgen.dev/instancetype-profile';

export interface PolicyEntry {
  readonly name: string;
  /** Instance types: the names of their family a profile may use (`u` and `u1`), and their class. */
  readonly families?: readonly string[];
  readonly class?: string;
  /** Deprecated: with the replacement the catalog names, if any. */
  readonly deprecated?: { readonly replacement?: string };
}

export interface PolicyCatalog {
  /** Cluster-wide instance types and preferences, by name. */
  readonly instancetypes: readonly PolicyEntry[];
  readonly preferences: readonly PolicyEntry[];
  /** Names of either kind something else deploys, or prefixes ending in `*`: known too. */
  readonly otherNames?: readonly string[];
  /** Names the release lock records removed, with the replacement their deprecation named (removedNames). */
  readonly removed?: { readonly instancetype: readonly RemovedName[]; readonly preference: readonly RemovedName[] };
}

/** The names a VM may give for one kind, and the prefixes (from `otherNames`). */
export function knownOf(catalog: PolicyCatalog, which: Which): { names: string[]; prefixes: string[] } {
  const others = catalog.otherNames ?? [];
  const own = (which === 'instancetype' ? catalog.instancetypes : catalog.preferences).map((e) => e.name);
  const names = [...new Set([...own, ...others.filter((o) => !o.endsWith('*'))])].sort();
  const prefixes = [...new Set(others.filter((o) => o.endsWith('*')).map((o) => o.slice(0, -1)))].sort();
  return { names, prefixes };
}

export const isKnown = (name: string, k: { names: readonly string[]; prefixes: readonly string[] }): boolean =>
  k.names.includes(name) || k.prefixes.some((p) => name.startsWith(p));

export interface PolicyProfile {
  readonly classes?: readonly string[] | undefined;
  readonly families?: readonly string[] | undefined;
  readonly names?: readonly string[] | undefined;
}

export interface PolicyOptions {
  /** The objects' name prefix (`itgen.<generator>`). */
  readonly prefix: string;
  /** KubeVirt's namespace: its service accounts there are never judged. */
  readonly kubevirtNamespace: string;
  readonly deprecated: 'warn' | 'deny';
  readonly requireInstancetype: boolean;
  readonly requirePreference: boolean;
  /** Allow-lists of instance types, by profile name; none: no allow-list policy. */
  readonly profiles: Readonly<Record<string, PolicyProfile>>;
  /** Where the profiles' ConfigMaps live (cluster administrators' namespace). */
  readonly paramsNamespace: string;
}

export const DEFAULT_POLICY_OPTIONS: Omit<PolicyOptions, 'prefix'> = {
  kubevirtNamespace: 'kubevirt',
  deprecated: 'warn',
  requireInstancetype: false,
  requirePreference: false,
  profiles: {},
  paramsNamespace: 'kubevirt',
};

export type Which = 'instancetype' | 'preference';
export const CLUSTER_KIND: Record<Which, string> = { instancetype: KINDS_OF.instancetype.cluster, preference: KINDS_OF.preference.cluster };
export const NOUN: Record<Which, string> = { instancetype: 'instance type', preference: 'preference' };

/** What `required` says: short enough for one line of the policy's YAML. */
export const requiredMessage = (which: Which): string =>
  `VMs in this cluster name ${which === 'instancetype' ? 'an instance type (kubectl get virtualmachineclusterinstancetypes lists them)' : 'a preference (kubectl get virtualmachineclusterpreferences lists them)'}`;

/** The matcher's name when it names the cluster-wide kind (KubeVirt: kind empty or the cluster kind, any case, singular or plural). */
function matcherCel(root: 'object' | 'oldObject', which: Which): string {
  const m = `${root}.spec.${which}`;
  const kinds = [CLUSTER_KIND[which].toLowerCase(), `${CLUSTER_KIND[which].toLowerCase()}s`].map(celString).join(', ');
  const guard = root === 'oldObject' ? 'oldObject != null && ' : '';
  return `${guard}has(${root}.spec) && has(${m}) && has(${m}.name) && (!has(${m}.kind) || ${m}.kind == "" || ${m}.kind.lowerAscii() in [${kinds}]) ? ${m}.name : ""`;
}

/** The VM's matcher is judged: it names something, and on UPDATE something else than before. */
function judgedCel(which: Which): JsonObject[] {
  return [
    { name: which, expression: matcherCel('object', which) },
    { name: `old${which === 'instancetype' ? 'Instancetype' : 'Preference'}`, expression: matcherCel('oldObject', which) },
  ];
}
const changed = (which: Which): string =>
  `variables.${which} != "" && variables.${which} != variables.old${which === 'instancetype' ? 'Instancetype' : 'Preference'}`;

export function policy(name: string, spec: JsonObject, extraLabels: Record<string, string> = {}): JsonObject {
  return {
    apiVersion: POLICY_API_VERSION,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name, labels: { 'app.kubernetes.io/managed-by': 'itgen', ...extraLabels } },
    spec,
  };
}

export function binding(name: string, policyName: string, actions: readonly string[], extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: POLICY_API_VERSION,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name, labels: { 'app.kubernetes.io/managed-by': 'itgen' } },
    spec: { policyName, validationActions: [...actions], ...extra },
  };
}

function baseSpec(opts: PolicyOptions): JsonObject {
  return {
    failurePolicy: 'Fail',
    matchConstraints: {
      resourceRules: [{ apiGroups: ['kubevirt.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['virtualmachines'] }],
    },
    matchConditions: [
      {
        name: 'not-kubevirt',
        expression: `!request.userInfo.username.startsWith(${celString(`system:serviceaccount:${opts.kubevirtNamespace}:kubevirt-`)})`,
      },
    ],
  };
}

/** Whether the judged name is known: one of the names, or starting with one of the prefixes. */
function knownCel(which: Which, known: ChunkedMap, prefixes: readonly string[]): string {
  const it = `variables.${which}`;
  return prefixes.length === 0 ? known.has(it) : `(${known.has(it)} || [${prefixes.map(celString).join(', ')}].exists(p, ${it}.startsWith(p)))`;
}

/** The `known` policy's variables and validation for one kind. */
function knownParts(
  which: Which,
  names: readonly string[],
  prefixes: readonly string[],
  removed: readonly RemovedName[],
): { variables: JsonObject[]; validation: JsonObject } {
  const it = `variables.${which}`;
  const known = chunkedSet(`${which}Names`, names);
  // A removed name with a recorded replacement is told so first (removedWords), then the did-you-mean.
  const gone = chunkedMap(
    `removed${which === 'instancetype' ? 'Instancetypes' : 'Preferences'}`,
    removed.map((r) => [r.name, celString(`; ${removedWords(r)}`)]),
  );
  const inKnown = knownCel(which, known, prefixes);
  const unknown = `${changed(which)} && !(${inKnown}) && size(${it}) <= ${SUGGEST_MAX}`;
  const alphabet = [...new Set(names.flatMap((n) => [...n]))];
  const kindText = CLUSTER_KIND[which];
  const fallback = `"; kubectl get ${kindText.toLowerCase()}s lists them"`;
  return {
    variables: [...known.variables, ...gone.variables, ...suggestionVariables(which, it, unknown, known, alphabet)],
    validation: {
      expression: `!(${changed(which)}) || ${inKnown}`,
      messageExpression:
        `${it} + " is not ${which === 'instancetype' ? 'an' : 'a'} ${NOUN[which]} of this cluster" + ` +
        `(${removed.length > 0 ? `${gone.get(it, '""')} != "" ? ${gone.get(it, '""')} : ` : ''}` +
        `variables.${which}Suggestion != "" ? "; did you mean " + variables.${which}Suggestion + "?" : ${fallback})`,
      message: `the VM names ${which === 'instancetype' ? 'an' : 'a'} ${NOUN[which]} this cluster does not have (kubectl get ${kindText.toLowerCase()}s lists them)`,
      reason: 'Invalid',
    },
  };
}

function wrapped(policy: JsonObject): JsonObject {
  const spec = policy['spec'] as JsonObject;
  const wrapAll = (items: unknown, keys: readonly string[]): unknown =>
    Array.isArray(items)
      ? items.map((x) =>
          x !== null && typeof x === 'object'
            ? {
                ...(x as JsonObject),
                ...Object.fromEntries(keys.filter((k) => typeof (x as JsonObject)[k] === 'string').map((k) => [k, wrapCel((x as JsonObject)[k] as string)])),
              }
            : x,
        )
      : items;
  return {
    ...policy,
    spec: {
      ...spec,
      ...(spec['matchConditions'] !== undefined ? { matchConditions: wrapAll(spec['matchConditions'], ['expression']) } : {}),
      ...(spec['variables'] !== undefined ? { variables: wrapAll(spec['variables'], ['expression']) } : {}),
      ...(spec['validations'] !== undefined ? { validations: wrapAll(spec['validations'], ['expression', 'messageExpression']) } : {}),
    } as JsonObject,
  };
}

/** Every object of the policies for `catalog`: policies, bindings and the profiles' ConfigMaps. */
export function policyObjects(catalog: PolicyCatalog, opts: PolicyOptions): JsonObject[] {
  return policyObjectsOnOneLine(catalog, opts).map((o) => (o['kind'] === 'ValidatingAdmissionPolicy' ? wrapped(o) : o));
}

/** Over 80 lines: the CEL of the policies, which must be read as one program. */
function policyObjectsOnOneLine(catalog: PolicyCatalog, opts: PolicyOptions): JsonObject[] {
  const out: JsonObject[] = [];
  const its = knownOf(catalog, 'instancetype');
  const prefs = knownOf(catalog, 'preference');
  // known
  const kit = knownParts('instancetype', its.names, its.prefixes, catalog.removed?.instancetype ?? []);
  const kpref = knownParts('preference', prefs.names, prefs.prefixes, catalog.removed?.preference ?? []);
  const known = `${opts.prefix}.catalog`;
  out.push(
    policy(known, {
      ...baseSpec(opts),
      variables: [...judgedCel('instancetype'), ...judgedCel('preference'), ...kit.variables, ...kpref.variables],
      validations: [kit.validation, kpref.validation],
    }),
    binding(known, known, ['Deny']),
  );
  // deprecated
  const replacements = (entries: readonly PolicyEntry[]): [string, string][] =>
    entries
      .filter((e) => e.deprecated)
      .map((e) => [e.name, e.deprecated?.replacement ?? ''] as [string, string])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const depIt = replacements(catalog.instancetypes);
  const depPref = replacements(catalog.preferences);
  if (depIt.length + depPref.length > 0) {
    const deprecated = `${opts.prefix}.deprecation`;
    const maps = {
      instancetype: chunkedMap(
        'deprecatedInstancetypes',
        depIt.map(([k, r]) => [k, celString(r)]),
      ),
      preference: chunkedMap(
        'deprecatedPreferences',
        depPref.map(([k, r]) => [k, celString(r)]),
      ),
    };
    const validation = (which: Which): JsonObject => {
      const it = `variables.${which}`;
      const replacement = maps[which].get(it, '""');
      return {
        expression: `!(${changed(which)}) || !${maps[which].has(it)}`,
        messageExpression: `${it} + " is a deprecated ${NOUN[which]}" + (${replacement} != "" ? "; use " + ${replacement} + " instead" : "; it will be removed")`,
        message: `the VM names a deprecated ${NOUN[which]}`,
        reason: 'Invalid',
      };
    };
    out.push(
      policy(deprecated, {
        ...baseSpec(opts),
        variables: [...judgedCel('instancetype'), ...judgedCel('preference'), ...maps.instancetype.variables, ...maps.preference.variables],
        validations: [validation('instancetype'), validation('preference')],
      }),
      binding(deprecated, deprecated, opts.deprecated === 'deny' ? ['Deny'] : ['Warn']),
    );
  }
  // required
  if (opts.requireInstancetype || opts.requirePreference) {
    const required = `${opts.prefix}.required`;
    const has = (root: string, which: Which): string => `has(${root}.spec) && has(${root}.spec.${which})`;
    const validations: JsonObject[] = [];
    for (const which of ['instancetype', 'preference'] as const) {
      if (which === 'instancetype' ? !opts.requireInstancetype : !opts.requirePreference) continue;
      validations.push({
        // A VM without one is refused when created, or when an update removes it.
        expression: `${has('object', which)} || (oldObject != null && !(${has('oldObject', which)}))`,
        message: requiredMessage(which),
        reason: 'Invalid',
      });
    }
    out.push(policy(required, { ...baseSpec(opts), validations }), binding(required, required, ['Deny']));
  }
  // allowed
  const profiles = Object.keys(opts.profiles).sort();
  if (profiles.length > 0) {
    const allowed = `${opts.prefix}.profile`;
    // Every known name (the catalog policy refuses the others); a name from otherNames has no family.
    const byName = new Map(catalog.instancetypes.map((e) => [e.name, e] as const));
    const families = chunkedMap(
      'families',
      its.names.map((n) => [n, `[${(byName.get(n)?.families ?? []).map(celString).join(', ')}]`] as const),
    );
    const classes = chunkedMap(
      'classes',
      catalog.instancetypes.filter((e) => e.class !== undefined).map((e) => [e.name, celString(e.class!)] as const),
    );
    const it = 'variables.instancetype';
    const list = (key: string): string =>
      `has(params.data) && ${celString(key)} in params.data ? params.data[${celString(key)}].split(",").map(s, s.trim()).filter(s, s != "") : []`;
    const shown = (what: string, v: string): string => `(size(${v}) > 0 ? "${what} " + ${v}.join(", ") : "")`;
    out.push(
      policy(allowed, {
        ...baseSpec(opts),
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        variables: [
          ...judgedCel('instancetype'),
          ...families.variables,
          ...classes.variables,
          { name: 'instancetypeListed', expression: families.has(it) },
          { name: 'instancetypeFamilies', expression: families.get(it, '[]') },
          { name: 'instancetypeClass', expression: classes.get(it, '""') },
          { name: 'allowedNames', expression: list('names') },
          { name: 'allowedFamilies', expression: list('families') },
          { name: 'allowedClasses', expression: list('classes') },
          {
            name: 'allowedText',
            expression: `[${shown('classes', 'variables.allowedClasses')}, ${shown('families', 'variables.allowedFamilies')}, ${shown('names', 'variables.allowedNames')}].filter(s, s != "").join("; ")`,
          },
        ],
        validations: [
          {
            expression:
              // A name the catalog lacks is the catalog policy's to refuse, with its suggestion.
              `!(${changed('instancetype')}) || !(${its.prefixes.length === 0 ? 'variables.instancetypeListed' : `variables.instancetypeListed || [${its.prefixes.map(celString).join(', ')}].exists(p, ${it}.startsWith(p))`}) || ${it} in variables.allowedNames || ` +
              `variables.instancetypeFamilies.exists(f, f in variables.allowedFamilies) || ` +
              `(variables.instancetypeClass != "" && variables.instancetypeClass in variables.allowedClasses)`,
            messageExpression:
              `variables.instancetype + " is not allowed in namespace " + request.namespace + " (profile " + (has(params.data) && "profile" in params.data ? params.data["profile"] : params.metadata.name) + " allows " + ` +
              `(variables.allowedText != "" ? variables.allowedText : "no instance type") + ")"`,
            reason: 'Forbidden',
          },
        ],
      }),
    );
    for (const p of profiles) {
      const prof = opts.profiles[p]!;
      const cm = `${allowed}.${p}`;
      out.push(
        binding(cm, allowed, ['Deny'], {
          paramRef: { name: cm, namespace: opts.paramsNamespace, parameterNotFoundAction: 'Deny' },
          matchResources: { namespaceSelector: { matchLabels: { [PROFILE_LABEL]: p } } },
        }),
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: cm, namespace: opts.paramsNamespace, labels: { 'app.kubernetes.io/managed-by': 'itgen' } },
          data: { profile: p, classes: (prof.classes ?? []).join(', '), families: (prof.families ?? []).join(', '), names: (prof.names ?? []).join(', ') },
        },
      );
    }
  }
  return out;
}
