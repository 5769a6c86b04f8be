/**
 * VirtualMachineTemplates (template.kubevirt.io) as KubeVirt's virt-template processes them:
 * engine.ts (virtctl template process --local over virt-template-engine), the parameters'
 * sources, and the API versions each KubeVirt release serves.
 */
import { isPlainObject, type Json } from '../../json';
import { jsonKind, yamlScalarAsString } from './go-values';
import type { TemplateProblem } from './types';

export { processTemplateDocument } from './engine';
export { generateValue, generatedPattern, alphabetOf, rangesAndLength, GeneratorError } from './generator';
export type { DecodedTemplate, ProcessedTemplate, ProcessOptions, TemplateParameter, TemplateProblem, TemplateStage, TemplateWarning } from './types';

export const TEMPLATE_GROUP = 'template.kubevirt.io';
export const TEMPLATE_KIND = 'VirtualMachineTemplate';

/** Whether a document is a VirtualMachineTemplate (any version of the group). */
export function isTemplateDocument(v: unknown): boolean {
  return isPlainObject(v) && v['kind'] === TEMPLATE_KIND && typeof v['apiVersion'] === 'string' && v['apiVersion'].startsWith(`${TEMPLATE_GROUP}/`);
}

/**
 * A params file as virtctl reads one (`--params-file`: YAML or JSON decoded into
 * map[string]string): the values, or the error in its words. `json`: the file is JSON (a YAML
 * number or bool becomes its text; a JSON one is refused).
 */
export function paramsFromFile(doc: Json | undefined, json = false): { params: Map<string, string> } | { error: TemplateProblem } {
  const asJson = readParams(doc, true);
  // YAMLOrJSONDecoder reads a JSON file again as YAML when JSON fails, and keeps JSON's error when both do.
  if (!json || !('error' in asJson)) return json ? asJson : readParams(doc, false);
  const asYaml = readParams(doc, false);
  return 'error' in asYaml ? asJson : asYaml;
}

function readParams(doc: Json | undefined, json: boolean): { params: Map<string, string> } | { error: TemplateProblem } {
  const fail = (m: string): { error: TemplateProblem } => ({ error: { stage: 'params-file', message: `error reading params file: ${m}` } });
  if (doc === undefined) return fail('EOF');
  if (doc === null) return { params: new Map() };
  if (!isPlainObject(doc))
    return fail(
      `${json ? '' : 'error unmarshaling JSON: while decoding JSON: '}json: cannot unmarshal ${jsonKind(doc)} into Go value of type map[string]string`,
    );
  const params = new Map<string, string>();
  for (const [k, v] of Object.entries(doc)) {
    if (v === null) {
      params.set(k, '');
      continue;
    }
    if (!json && (typeof v === 'number' || typeof v === 'boolean')) {
      // sigs.k8s.io/yaml hands a YAML number or bool to a Go string as its text.
      params.set(k, yamlScalarAsString(v));
      continue;
    }
    if (typeof v !== 'string')
      return fail(`${json ? '' : 'error unmarshaling JSON: while decoding JSON: '}json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
    params.set(k, v);
  }
  return { params };
}

/**
 * The API versions of template.kubevirt.io a KubeVirt release serves (virt-template as its
 * operator deploys it): none before v1.8; v1.8 serves v1alpha1 behind the Alpha `Template` gate
 * (virt-template v0.1.x); v1.9 deploys it by default (Beta gate) and serves v1beta1, with v1alpha1
 * still served, stored and deprecated (virt-template v0.2.x).
 */
export const TEMPLATE_API_VERSIONS: readonly {
  readonly since: string;
  readonly served: readonly string[];
  readonly deprecated: readonly string[];
  readonly gate: string;
  readonly engine: string;
}[] = [
  {
    since: '1.8',
    served: ['v1alpha1'],
    deprecated: [],
    gate: 'Template (Alpha: off unless the KubeVirt CR enables it)',
    engine: 'virt-template-engine v0.1.7',
  },
  { since: '1.9', served: ['v1beta1', 'v1alpha1'], deprecated: ['v1alpha1'], gate: 'Template (Beta: on by default)', engine: 'virt-template-engine v0.2.0' },
];
