/**
 * `virtctl template process --local` (pkg/virtctl/template/process/process.go at KubeVirt
 * d923fdb815) over virt-template-engine v0.2.0 (template.go, parameters.go, processor.go,
 * visit.go): a VirtualMachineTemplate's first document decoded as Go's encoding/json decodes it
 * into the v1beta1 types (v1alpha1 files too: virtctl reads both into v1beta1), the parameters
 * given merged (MergeParameters), the references checked (ValidateParameterReferences: a
 * reference to an undeclared parameter refused, a declared one nobody references a warning), then
 * Process: values generated, `required` enforced, the hard-coded namespace dropped, `${X}`
 * substituted inside strings and `${{X}}` (a whole string) decoded as JSON, the result converted
 * into KubeVirt's VirtualMachine type (convert.ts), and the message substituted. Every error is
 * virtctl's text, with the path in the template file it is about.
 */
import { isPlainObject, type Json, type JsonObject } from '../../json';
import { convertVirtualMachine, typedView, type Path } from './convert';
import { GeneratorError, generateValue, goQuote, type Generated } from './generator';
import { badValue, goJson, jsonKind, unmarshalTypeError } from './go-values';
import { JsonDecoderForTemplate } from './decode-template';
import {
  TemplateFailure as Fail,
  type DecodedTemplate,
  type ProcessedTemplate,
  type ProcessOptions,
  type TemplateParameter,
  type TemplateProblem,
  type TemplateStage,
  type TemplateWarning,
} from './types';

export type { DecodedTemplate, ProcessedTemplate, ProcessOptions, TemplateParameter, TemplateProblem, TemplateStage, TemplateWarning } from './types';

import { NON_STRING_PARAM, STRING_PARAM, substitute, SubstitutionError, visit } from './substitute';

const VM_PATH = ['spec', 'virtualMachine'];

/** The engine's field.Invalid/Required/Duplicate texts. */
const invalid = (field: string, value: Json | undefined, detail: string): string => `${field}: Invalid value: ${badValue(value)}: ${detail}`;

/** MergeParameters: each given value set on the first parameter of that name; an undeclared one refused. */
export function mergeParameters(params: readonly TemplateParameter[], given: ReadonlyMap<string, string>): TemplateParameter[] {
  const out = params.map((p) => ({ ...p }));
  for (const [k, v] of given) {
    const i = out.findIndex((p) => p.name === k);
    if (i < 0)
      throw new Fail({
        stage: 'merge',
        message: `error merging template parameters: parameter ${k} not found in template`,
        parameter: k,
        declared: params.map((p) => p.name),
        path: ['spec', 'parameters'],
      });
    out[i] = { ...out[i]!, value: v };
  }
  return out;
}

/** The parameters a string references (collectReferencedParameters). */
function referencedIn(s: string): string[] {
  const out = new Set<string>();
  const whole = NON_STRING_PARAM.exec(s);
  if (whole) out.add(whole[1]!);
  for (const m of s.matchAll(STRING_PARAM)) out.add(m[1]!);
  return [...out];
}

/** Every string (keys too) of a value, with its path, in document order. */
function* strings(v: Json | undefined, path: Path): Generator<{ s: string; path: Path; key?: boolean }> {
  if (typeof v === 'string') yield { s: v, path };
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* strings(v[i], [...path, i]);
  else if (isPlainObject(v))
    for (const [k, x] of Object.entries(v)) {
      yield { s: k, path: [...path, k], key: true };
      yield* strings(x, [...path, k]);
    }
}

/** getVirtualMachineObject: the VM as a map, or the engine's error. */
function virtualMachineObject(tpl: DecodedTemplate, raw: string | undefined): JsonObject {
  const vm = tpl.virtualMachine;
  if (vm === undefined || vm === null)
    throw new Fail({ stage: 'process', message: invalid('spec.virtualMachine', null, 'virtualMachine is required and cannot be empty'), path: VM_PATH });
  if (!isPlainObject(vm)) {
    const base64 = Buffer.from(raw ?? goJson(vm)).toString('base64');
    throw new Fail({
      stage: 'process',
      message: `spec.virtualMachine.raw: Invalid value: "${base64}": error decoding virtualMachine: ${unmarshalTypeError(jsonKind(vm), 'map[string]interface {}')}`,
      path: VM_PATH,
    });
  }
  return vm;
}

/** ValidateParameterReferences: warnings for parameters nobody references, errors for references to undeclared ones. */
export function parameterReferences(tpl: DecodedTemplate): { warnings: TemplateWarning[]; references: Record<string, Path[]>; undefinedRefs: string[] } {
  let vm: JsonObject;
  try {
    vm = virtualMachineObject(tpl, undefined);
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    throw new Fail({ ...e.problem, stage: 'references' });
  }
  const references: Record<string, Path[]> = {};
  const note = (name: string, path: Path): void => {
    (references[name] ??= []).push(path);
  };
  for (const { s, path } of strings(vm, VM_PATH)) for (const name of referencedIn(s)) note(name, path);
  for (const name of referencedIn(tpl.message)) note(name, ['spec', 'message']);
  // definedParams maps a name to its last index.
  const defined = new Map<string, number>();
  tpl.parameters.forEach((p, i) => defined.set(p.name, i));
  const warnings: TemplateWarning[] = [];
  for (const [name, i] of defined)
    if (!Object.hasOwn(references, name))
      warnings.push({
        kind: 'unused',
        message: `spec.parameters[${i}].name: ${name} is defined but never referenced`,
        path: ['spec', 'parameters', i, 'name'],
      });
  warnings.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const undefinedRefs = Object.keys(references).filter((name) => !defined.has(name));
  return { warnings, references, undefinedRefs };
}

/** generateParameterValues: each parameter checked in order, a value generated where asked. */
function generateValues(
  params: readonly TemplateParameter[],
  pick: ((bound: number) => number) | undefined,
): { values: Map<string, string>; generated: Record<string, Generated> } {
  const values = new Map<string, string>();
  const generated: Record<string, Generated> = {};
  params.forEach((p, i) => {
    const at = `spec.parameters[${i}]`;
    const path = (k: string): Path => ['spec', 'parameters', i, k];
    if (p.name === '') throw new Fail({ stage: 'process', message: invalid(`${at}.name`, '', 'parameter name is empty'), path: path('name') });
    if (values.has(p.name)) throw new Fail({ stage: 'process', message: `${at}.name: Duplicate value: ${badValue(p.name)}`, path: path('name') });
    let value = p.value;
    if (value === '' && p.generate !== '') {
      if (p.generate !== 'expression')
        throw new Fail({
          stage: 'process',
          message: invalid(`${at}.generate`, p.generate, `unknown generator name '${p.generate}' for parameter '${p.name}'`),
          path: path('generate'),
        });
      if (p.from === '')
        throw new Fail({
          stage: 'process',
          message: invalid(`${at}.from`, '', `from cannot be empty for parameter '${p.name}' using generator '${p.generate}'`),
          path: path('generate'),
        });
      try {
        const g = generateValue(p.from, pick);
        value = g.value;
        generated[p.name] = g;
      } catch (e) {
        if (!(e instanceof GeneratorError)) throw e;
        throw new Fail({ stage: 'process', message: invalid(`${at}.from`, p.from, e.message), path: path('from') });
      }
    }
    if (value === '' && p.required)
      throw new Fail({
        stage: 'process',
        message: `${at}.value: Required value: parameter '${p.name}' is required and a value must be specified`,
        path: path('name'),
      });
    values.set(p.name, value);
  });
  return { values, generated };
}

/** removeHardcodedNamespace: a namespace without a `${X}` is dropped. */
function withoutHardcodedNamespace(vm: JsonObject): JsonObject {
  const meta = vm['metadata'];
  if (!isPlainObject(meta)) return vm;
  const ns = meta['namespace'];
  if (typeof ns !== 'string' || ns === '' || new RegExp(STRING_PARAM.source).test(ns)) return vm;
  const { namespace: _dropped, ...rest } = meta;
  return { ...vm, metadata: rest };
}

function withoutKeys(o: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}

/** The parameters as the engine's error prints them (json.Marshal of []Parameter). */
function parametersJson(params: readonly TemplateParameter[]): string {
  return `[${params
    .map((p) => {
      const parts = [`"name":${goJson(p.name)}`];
      if (p.displayName !== '') parts.push(`"displayName":${goJson(p.displayName)}`);
      if (p.description !== '') parts.push(`"description":${goJson(p.description)}`);
      if (p.value !== '') parts.push(`"value":${goJson(p.value)}`);
      if (p.generate !== '') parts.push(`"generate":${goJson(p.generate)}`);
      if (p.from !== '') parts.push(`"from":${goJson(p.from)}`);
      if (p.required) parts.push(`"required":true`);
      return `{${parts.join(',')}}`;
    })
    .join(',')}]`;
}

/** Process, after the references were checked. */
function processTemplate(
  tpl: DecodedTemplate,
  pick: ProcessOptions['pick'],
  drawn: Record<string, Generated>,
): { vm: JsonObject; message: string; generated: Record<string, Generated>; values: Map<string, string>; dropped: Path[] } {
  const { values, generated } = generateValues(tpl.parameters, pick);
  Object.assign(drawn, generated);
  const vm = withoutHardcodedNamespace(virtualMachineObject(tpl, undefined));
  let substituted: JsonObject;
  try {
    substituted = visit(vm, values, VM_PATH) as JsonObject;
  } catch (e) {
    if (!(e instanceof SubstitutionError)) throw e;
    throw new Fail({
      stage: 'process',
      message: `spec.parameters: Invalid value: ${parametersJson(tpl.parameters)}: error processing template: ${e.message}`,
      path: e.path,
    });
  }
  const converted = convertVirtualMachine(substituted);
  if (converted.error)
    throw new Fail({
      stage: 'process',
      message: `spec.virtualMachine: Invalid value: ${goJson(substituted)}: failed to convert unstructured object to VirtualMachine: ${converted.error.message}`,
      path: [...VM_PATH, ...converted.error.path],
    });
  let message: string;
  try {
    message = substitute(tpl.message, values)[0];
  } catch (e) {
    throw new Fail({
      stage: 'process',
      message: invalid('spec.message', tpl.message, `error processing message: ${(e as Error).message}`),
      path: ['spec', 'message'],
    });
  }
  // SetGroupVersionKind: the VM is kubevirt.io/v1 VirtualMachine whatever the template wrote.
  const typed = typedView(substituted, converted);
  // The typed VM always has its metadata.
  if (!isPlainObject(typed['metadata'])) typed['metadata'] = {};
  return {
    vm: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', ...withoutKeys(typed, ['apiVersion', 'kind']) },
    message,
    generated,
    values,
    dropped: converted.dropped.map((p) => [...VM_PATH, ...p]),
  };
}

/**
 * YAMLOrJSONDecoder: a JSON document is decoded as JSON first; when that fails it is read again
 * as YAML (whose reading hands numbers and bools to strings as their text), and only when both
 * fail is the JSON error the answer.
 */
function decodeTemplate(doc: Json, json: boolean): DecodedTemplate {
  if (!json) return new JsonDecoderForTemplate(false).template(doc);
  try {
    return new JsonDecoderForTemplate(true).template(doc);
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    try {
      return new JsonDecoderForTemplate(false).template(doc);
    } catch {
      throw e;
    }
  }
}

/** virtctl's processLocal on a decoded document: decode, merge, references, process. */
export function processTemplateDocument(doc: Json, options: ProcessOptions = {}): ProcessedTemplate {
  const empty = { warnings: [], generated: {}, values: {}, references: {} };
  // Whose words wrap the engine's error: virtctl's, or the webhook's.
  const wrap: Partial<Record<TemplateStage, string>> =
    options.door === 'webhook'
      ? { process: 'processing validation failed: ' }
      : { references: 'error validating template parameters: ', process: 'error processing VirtualMachineTemplate locally: ' };
  const worded = (p: TemplateProblem): TemplateProblem => ({ ...p, message: `${wrap[p.stage] ?? ''}${p.message}` });
  let tpl: DecodedTemplate;
  try {
    tpl = decodeTemplate(doc, options.json === true);
  } catch (e) {
    if (e instanceof Fail) return { ...empty, error: e.problem };
    throw e;
  }
  let warnings: TemplateWarning[] = [];
  let references: Record<string, Path[]> = {};
  // Values drawn before a later step failed: the error's text holds them.
  const drawn: Record<string, Generated> = {};
  try {
    const merged = { ...tpl, parameters: mergeParameters(tpl.parameters, options.params ?? new Map()) };
    const refs = parameterReferences(merged);
    warnings = refs.warnings;
    references = refs.references;
    if (refs.undefinedRefs.length > 0) {
      const texts = [...new Set(refs.undefinedRefs.map((name) => invalid('spec.virtualMachine', name, `references undefined parameter ${name}`)))].sort();
      const first = refs.undefinedRefs.sort()[0]!;
      return {
        ...empty,
        warnings,
        references,
        error: worded({
          stage: 'references',
          message: texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`,
          ...(references[first]?.[0] ? { path: references[first][0] } : {}),
        }),
      };
    }
    // The webhook processes only a template whose every required parameter has a value or a generator.
    const skipped: TemplateWarning[] =
      options.door === 'webhook'
        ? merged.parameters.flatMap((p, i) =>
            p.required && p.value === '' && p.generate === ''
              ? [
                  {
                    kind: 'skipped' as const,
                    path: ['spec', 'parameters', i, 'name'],
                    message: `processing validation skipped: required parameter ${goQuote(p.name)} has neither value nor generator`,
                  },
                ]
              : [],
          )
        : [];
    if (skipped.length > 0) return { ...empty, warnings: [...warnings, ...skipped], references };
    const out = processTemplate(merged, options.pick, drawn);
    const dropped: TemplateWarning[] = out.dropped.map((path) => ({
      kind: 'dropped',
      path,
      message: `${path.slice(2).join('.')}: not a field of KubeVirt's VirtualMachine: the engine drops it in silence`,
    }));
    return {
      warnings: [...warnings, ...dropped],
      vm: out.vm,
      message: out.message,
      generated: out.generated,
      values: Object.fromEntries(out.values),
      references,
    };
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    return { ...empty, warnings, references, generated: drawn, error: worded(e.problem) };
  }
}
