/**
 * validateSpecAffinity and validateSpecTopologySpreadConstraints of ValidateVirtualMachineInstanceSpec:
 * KubeVirt's copy of Kubernetes' affinity and topology spread validation
 * (pkg/virt-api/webhooks/validating-webhook/admitters/validate-k8s-utils.go), with apimachinery's
 * label rules (IsQualifiedName, IsValidLabelValue, IsDNS1123Label/Subdomain) and field.Error's text
 * (`<field>: Invalid value: "x": <detail>`). Each error becomes a FieldValueInvalid cause. As in
 * KubeVirt, the affinity's paths start at the spec itself (`spec.template.spec.nodeAffinity...`), and
 * a spread constraint's label selector is reported on the list (`...topologySpreadConstraints.labelSelector`).
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import type { Cause } from './cause';
import { dnsLabelErrors, dnsSubdomainErrors } from './spec-resources';

const QUALIFIED = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const QUALIFIED_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const regexError = (msg: string, fmt: string, ...examples: string[]): string =>
  `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
const QUALIFIED_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** apimachinery's IsQualifiedName. */
function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dnsSubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  } else
    return [
      `a qualified name ${regexError(QUALIFIED_MSG, QUALIFIED_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!QUALIFIED.test(name)) errs.push(`name part ${regexError(QUALIFIED_MSG, QUALIFIED_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** apimachinery's IsValidLabelValue. */
function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (value !== '' && !QUALIFIED.test(value))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${QUALIFIED_FMT})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}

/** field.Error's text: a string value quoted (Go's %q, JSON's for what a label holds), a number as is. */
const value = (v: Json | undefined): string => (typeof v === 'number' ? String(v) : JSON.stringify(v ?? ''));
const invalid = (at: string, v: Json | undefined, detail: string): string => `${at}: Invalid value: ${value(v)}: ${detail}`;
const required = (at: string, detail: string): string => `${at}: Required value: ${detail}`;
const forbidden = (at: string, detail: string): string => `${at}: Forbidden: ${detail}`;
const strings = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map((x) => str(x)) : []);

function labelName(name: string, at: string): string[] {
  return qualifiedNameErrors(name).map((m) => invalid(at, name, m));
}

/**
 * A requirement's operator and values, then its key: ValidateLabelSelectorRequirement, or with
 * `numeric` (a node selector's, which also has Gt and Lt) ValidateNodeSelectorRequirement.
 */
function requirement(rq: JsonObject, here: string, numeric: boolean): string[] {
  const out: string[] = [];
  const count = strings(rq['values']).length;
  const op = str(rq['operator']);
  if (op === 'In' || op === 'NotIn') {
    if (count === 0) out.push(required(`${here}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (count > 0) out.push(forbidden(`${here}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (numeric && (op === 'Gt' || op === 'Lt')) {
    if (count !== 1) out.push(required(`${here}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else out.push(invalid(`${here}.operator`, op, 'not a valid selector operator'));
  return [...out, ...labelName(str(rq['key']), `${here}.key`)];
}

function labelSelector(selector: JsonObject | undefined, at: string): string[] {
  if (!selector) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj(selector['matchLabels']) ?? {})) {
    out.push(...labelName(k, `${at}.matchLabels`));
    out.push(...labelValueErrors(str(v)).map((m) => invalid(`${at}.matchLabels`, str(v), m)));
  }
  list(selector['matchExpressions']).forEach((e, i) => {
    const here = `${at}.matchExpressions[${i}]`;
    out.push(...requirement(e, here, false));
    strings(e['values']).forEach((v, j) => out.push(...labelValueErrors(v).map((m) => invalid(`${here}.values[${j}]`, v, m))));
  });
  return out;
}

function nodeSelectorTerm(term: JsonObject, at: string): string[] {
  const out: string[] = [];
  list(term['matchExpressions']).forEach((rq, j) => out.push(...requirement(rq, `${at}.matchExpressions[${j}]`, true)));
  list(term['matchFields']).forEach((rq, j) => {
    const here = `${at}.matchFields[${j}]`;
    const values = strings(rq['values']);
    const op = str(rq['operator']);
    if (op === 'In' || op === 'NotIn') {
      if (values.length !== 1) out.push(required(`${here}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    } else out.push(invalid(`${here}.operator`, op, 'not a valid selector operator'));
    if (str(rq['key']) !== 'metadata.name') out.push(invalid(`${here}.key`, str(rq['key']), 'not a valid field selector key'));
    else values.forEach((v, i) => out.push(...dnsSubdomainErrors(v).map((m) => invalid(`${here}.values[${i}]`, v, m))));
  });
  return out;
}

const weightOk = (w: Json | undefined): boolean => typeof w === 'number' && w > 0 && w <= 100;

function podAffinityTerm(term: JsonObject, at: string): string[] {
  const out = [
    ...labelSelector(obj(term['labelSelector']), `${at}.labelSelector`),
    ...labelSelector(obj(term['namespaceSelector']), `${at}.namespaceSelector`),
  ];
  for (const ns of strings(term['namespaces'])) out.push(...dnsLabelErrors(ns).map((m) => invalid(`${at}.namespace`, ns, m)));
  const key = str(term['topologyKey']);
  if (key === '') out.push(required(`${at}.topologyKey`, 'can not be empty'));
  return [...out, ...labelName(key, `${at}.topologyKey`)];
}

function podAffinity(a: JsonObject, at: string): string[] {
  const out: string[] = [];
  const req = `${at}.requiredDuringSchedulingIgnoredDuringExecution`;
  list(a['requiredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => out.push(...podAffinityTerm(t, `${req}[${i}]`)));
  const pref = `${at}.preferredDuringSchedulingIgnoredDuringExecution`;
  list(a['preferredDuringSchedulingIgnoredDuringExecution']).forEach((t, j) => {
    if (!weightOk(t['weight'])) out.push(invalid(`${pref}[${j}].weight`, t['weight'] ?? 0, 'must be in the range 1-100'));
    out.push(...podAffinityTerm(obj(t['podAffinityTerm']) ?? {}, `${pref}[${j}].podAffinityTerm`));
  });
  return out;
}

/** validateAffinity, from the spec's path. */
export function affinityCauses(spec: JsonObject, field: string): Cause[] {
  const affinity = obj(spec['affinity']);
  if (!affinity) return [];
  const out: string[] = [];
  const node = obj(affinity['nodeAffinity']);
  if (node) {
    const at = `${field}.nodeAffinity`;
    const hard = obj(node['requiredDuringSchedulingIgnoredDuringExecution']);
    if (hard) {
      const termsAt = `${at}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
      const terms = list(hard['nodeSelectorTerms']);
      if (terms.length === 0) out.push(required(termsAt, 'must have at least one node selector term'));
      else terms.forEach((t, i) => out.push(...nodeSelectorTerm(t, `${termsAt}[${i}]`)));
    }
    const pref = `${at}.preferredDuringSchedulingIgnoredDuringExecution`;
    list(node['preferredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => {
      if (!weightOk(t['weight'])) out.push(invalid(`${pref}[${i}].weight`, t['weight'] ?? 0, 'must be in the range 1-100'));
      out.push(...nodeSelectorTerm(obj(t['preference']) ?? {}, `${pref}[${i}].preference`));
    });
  }
  for (const which of ['podAffinity', 'podAntiAffinity']) {
    const a = obj(affinity[which]);
    if (a) out.push(...podAffinity(a, `${field}.${which}`));
  }
  return out.map(toCause);
}

/** The field.Error's field (before `: `) and its whole text, as a cause. */
function toCause(text: string): Cause {
  return { reason: 'scheduling', type: 'FieldValueInvalid', field: text.slice(0, text.indexOf(': ')), message: text };
}

/** validateTopologySpreadConstraints, from the spec's path. */
export function topologySpreadCauses(spec: JsonObject, field: string): Cause[] {
  const constraints = spec['topologySpreadConstraints'];
  if (!Array.isArray(constraints)) return [];
  const at = `${field}.topologySpreadConstraints`;
  const all = list(constraints);
  const out: string[] = [];
  all.forEach((c, i) => {
    const here = `${at}[${i}]`;
    const skew = typeof c['maxSkew'] === 'number' ? c['maxSkew'] : 0;
    if (skew <= 0) out.push(invalid(`${here}.maxSkew`, skew, 'must be greater than zero'));
    const key = str(c['topologyKey']);
    if (key === '') out.push(required(`${here}.topologyKey`, 'can not be empty'));
    else out.push(...labelName(key, `${here}.topologyKey`));
    const action = str(c['whenUnsatisfiable']);
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway')
      out.push(`${here}.whenUnsatisfiable: Unsupported value: ${JSON.stringify(action)}: supported values: "DoNotSchedule", "ScheduleAnyway"`);
    out.push(...labelSelector(obj(c['labelSelector']), `${at}.labelSelector`));
    if (all.slice(i + 1).some((r) => str(r['topologyKey']) === key && str(r['whenUnsatisfiable']) === action))
      out.push(`${here}.{topologyKey, whenUnsatisfiable}: Duplicate value: ${JSON.stringify(`{${key}, ${action}}`)}`);
  });
  return out.map(toCause);
}
