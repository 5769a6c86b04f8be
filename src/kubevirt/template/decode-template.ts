/**
 * A VirtualMachineTemplate document as virtctl reads it: `k8syaml.NewYAMLOrJSONDecoder(...).Decode`
 * into `v1beta1.VirtualMachineTemplate`, that is encoding/json after sigs.k8s.io/yaml turned YAML
 * into JSON (object keys sorted) or the JSON as written: lenient (unknown keys ignored, names
 * matched case-insensitively), the first value of the wrong type reported in encoding/json's words
 * ("json: cannot unmarshal number into Go struct field Parameter.spec.parameters.value of type
 * string"), prefixed as virtctl prefixes it.
 */
import { isPlainObject, type Json, type JsonObject } from '../../json';
import { objectMetaError } from './convert';
import { TemplateFailure, type DecodedTemplate, type TemplateParameter } from './types';
import { jsonKind, unmarshalTypeError, yamlDecodingError, yamlScalarAsString } from './go-values';

type Field = 'string' | 'bool' | 'any' | 'metadata' | 'spec' | 'parameters' | 'status';

const TEMPLATE: Readonly<Record<string, Field>> = { apiVersion: 'string', kind: 'string', metadata: 'metadata', spec: 'spec', status: 'status' };
const SPEC: Readonly<Record<string, Field>> = { virtualMachine: 'any', parameters: 'parameters', message: 'string' };
const PARAMETER: Readonly<Record<string, Field>> = {
  name: 'string',
  displayName: 'string',
  description: 'string',
  value: 'string',
  generate: 'string',
  from: 'string',
  required: 'bool',
};

const GO_TYPE: Readonly<Record<Field, string>> = {
  string: 'string',
  bool: 'bool',
  any: 'runtime.RawExtension',
  metadata: 'v1.ObjectMeta',
  spec: 'v1beta1.VirtualMachineTemplateSpec',
  parameters: '[]v1beta1.Parameter',
  status: 'v1beta1.VirtualMachineTemplateStatus',
};

export class JsonDecoderForTemplate {
  private error?: string;
  /** `json`: the document was JSON (keys in document order); YAML reaches encoding/json with its keys sorted. */
  constructor(private readonly json: boolean) {}

  private fail(message: string): never {
    throw new TemplateFailure({ stage: 'decode', message: `error decoding VirtualMachineTemplate: ${message}`, path: [] });
  }

  /** sigs.k8s.io/yaml wraps encoding/json's error of a YAML document in its own words. */
  private failDecoding(message: string): never {
    this.fail(this.json ? message : yamlDecodingError(message));
  }

  private typeError(value: Json, struct: string, stack: readonly string[], type: string): void {
    this.error ??= unmarshalTypeError(jsonKind(value), type, `${struct}.${stack.join('.')}`);
  }

  private keys(o: JsonObject): string[] {
    return this.json ? Object.keys(o) : Object.keys(o).sort();
  }

  /** The fields of `o` a struct with `fields` takes: exact names first, else case-insensitive; the last key wins. */
  private fields(o: JsonObject, fields: Readonly<Record<string, Field>>, struct: string, stack: readonly string[]): Map<string, Json> {
    const out = new Map<string, Json>();
    for (const k of this.keys(o)) {
      const name = Object.hasOwn(fields, k) ? k : Object.keys(fields).find((f) => f.toLowerCase() === k.toLowerCase());
      if (name === undefined) continue;
      let v = o[k]!;
      const field = fields[name]!;
      // sigs.k8s.io/yaml hands a YAML number or bool to a Go string as its text; it does not see
      // the fields of the inlined TypeMeta (apiVersion, kind), which encoding/json names through it.
      const inlined = fields === TEMPLATE && (name === 'apiVersion' || name === 'kind');
      if (!this.json && !inlined && field === 'string' && (typeof v === 'number' || typeof v === 'boolean')) v = yamlScalarAsString(v);
      const at = inlined ? ['TypeMeta', name] : [...stack, name];
      if (v !== null && field === 'string' && typeof v !== 'string') this.typeError(v, struct, at, GO_TYPE[field]);
      else if (v !== null && field === 'bool' && typeof v !== 'boolean') this.typeError(v, struct, at, GO_TYPE[field]);
      else if (v !== null && (field === 'spec' || field === 'status') && !isPlainObject(v)) this.typeError(v, struct, at, GO_TYPE[field]);
      else if (v !== null && field === 'parameters' && !Array.isArray(v)) this.typeError(v, struct, at, GO_TYPE[field]);
      else if (field === 'metadata') {
        const problem = objectMetaError(v, struct, !this.json);
        if (problem !== undefined) this.error ??= problem;
      }
      out.set(name, v);
    }
    return out;
  }

  template(doc: Json): DecodedTemplate {
    if (doc === undefined) this.fail('EOF');
    if (!isPlainObject(doc) && doc !== null) this.failDecoding(unmarshalTypeError(jsonKind(doc), 'v1beta1.VirtualMachineTemplate'));
    const top = doc === null ? new Map<string, Json>() : this.fields(doc, TEMPLATE, 'VirtualMachineTemplate', []);
    const specValue = top.get('spec');
    const spec = isPlainObject(specValue) ? this.fields(specValue, SPEC, 'VirtualMachineTemplateSpec', ['spec']) : new Map<string, Json>();
    const parameters: TemplateParameter[] = [];
    const list = spec.get('parameters');
    if (Array.isArray(list))
      for (const item of list) {
        if (item !== null && !isPlainObject(item)) {
          this.typeError(item, 'VirtualMachineTemplateSpec', ['spec', 'parameters'], 'v1beta1.Parameter');
          parameters.push(parameter(new Map()));
          continue;
        }
        parameters.push(parameter(item === null ? new Map() : this.fields(item, PARAMETER, 'Parameter', ['spec', 'parameters'])));
      }
    if (this.error !== undefined) this.failDecoding(this.error);
    const message = spec.get('message');
    const vm = spec.get('virtualMachine');
    return { parameters, virtualMachine: vm === null ? undefined : vm, message: typeof message === 'string' ? message : '' };
  }
}

function parameter(f: Map<string, Json>): TemplateParameter {
  const s = (k: string): string => {
    const v = f.get(k);
    return typeof v === 'string' ? v : '';
  };
  return {
    name: s('name'),
    displayName: s('displayName'),
    description: s('description'),
    value: s('value'),
    generate: s('generate'),
    from: s('from'),
    required: f.get('required') === true,
  };
}
