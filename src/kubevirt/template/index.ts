/**
 * VirtualMachineTemplates (template.kubevirt.io) as KubeVirt's virt-template processes them:
 * engine.ts (virtctl template process --local over virt-template-engine), the parameters'
 * sources, and the API versions each KubeVirt release serves.
 */
import { isPlainObject, type Json } from '../../json';
import { jsonKind, unmarshalTypeError, yamlDecodingError, yamlScalarAsString } from './go-values';
import type { TemplateProblem } from './types';
import { hasSince } from '../releases';

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
    return fail(json ? unmarshalTypeError(jsonKind(doc), 'map[string]string') : yamlDecodingError(unmarshalTypeError(jsonKind(doc), 'map[string]string')));
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
    if (typeof v !== 'string') return fail(json ? unmarshalTypeError(jsonKind(v), 'string') : yamlDecodingError(unmarshalTypeError(jsonKind(v), 'string')));
    params.set(k, v);
  }
  return { params };
}

/**
 * The versions of template.kubevirt.io/VirtualMachineTemplate each KubeVirt release's virt-operator
 * deploys (pkg/virt-operator/resource/generate/components/data/virt-template/install-virt-operator.yaml):
 * none before v1.8; v1.8.x (virt-template v0.1.7) serves v1alpha1, deployed only when the KubeVirt CR
 * enables the Alpha `Template` gate; v1.9 (v0.2.x, the Beta gate on by default) serves v1beta1 and
 * v1alpha1, which is the storage version and deprecated.
 */
export const TEMPLATE_API_VERSIONS: readonly {
  readonly since: string;
  readonly served: readonly string[];
  readonly deprecated: readonly string[];
  readonly gate: 'Alpha' | 'Beta';
  readonly engine: string;
}[] = [
  { since: 'v1.8.0', served: ['v1alpha1'], deprecated: [], gate: 'Alpha', engine: 'virt-template-engine v0.1.7' },
  { since: 'v1.9.0', served: ['v1beta1', 'v1alpha1'], deprecated: ['v1alpha1'], gate: 'Beta', engine: 'virt-template-engine v0.2.0' },
];

/** The template API a KubeVirt release deploys (the newest row it has reached), or undefined before v1.8. */
function templateApiAt(release: string): (typeof TEMPLATE_API_VERSIONS)[number] | undefined {
  return [...TEMPLATE_API_VERSIONS].reverse().find((v) => hasSince(v.since, release));
}

/** Whether a KubeVirt release serves the template's apiVersion (deprecated or behind a gate included). */
export function templateServed(apiVersion: unknown, release: string): boolean {
  const at = templateApiAt(release);
  return at !== undefined && typeof apiVersion === 'string' && at.served.some((v) => apiVersion === `${TEMPLATE_GROUP}/${v}`);
}

/**
 * What the KubeVirt releases say of a template's apiVersion: an error where one serves no such
 * version (kubectl: no matches for kind), a warning where the version is deprecated or deployed only
 * behind an Alpha feature gate; each finding once, naming the releases that give it.
 */
export function templateApiVersionProblems(
  apiVersion: unknown,
  releases: readonly string[],
): { readonly severity: 'error' | 'warning'; readonly message: string }[] {
  const version =
    typeof apiVersion === 'string' && apiVersion.startsWith(`${TEMPLATE_GROUP}/`) ? apiVersion.slice(TEMPLATE_GROUP.length + 1) : String(apiVersion);
  // Each release's finding as what decides it and its words for the releases that share it (a finding said once).
  const found = new Map<string, { severity: 'error' | 'warning'; say: (at: string) => string; releases: string[] }>();
  for (const release of releases) {
    const at = templateApiAt(release);
    const served = at?.served.map((v) => `${TEMPLATE_GROUP}/${v}`).join(' and ') ?? '';
    const problem: { key: string; severity: 'error' | 'warning'; say: (at: string) => string } | undefined = !at
      ? {
          key: 'none',
          severity: 'error',
          say: (r) => `KubeVirt ${r} deploys no template.kubevirt.io API (virt-template arrives in v1.8, behind the Template feature gate)`,
        }
      : !at.served.includes(version)
        ? {
            key: `unserved ${served}`,
            severity: 'error',
            say: (r) => `no matches for kind "VirtualMachineTemplate" in version "${String(apiVersion)}": KubeVirt ${r} serves ${served}`,
          }
        : at.deprecated.includes(version)
          ? {
              key: `deprecated ${at.served[0]}`,
              severity: 'warning',
              say: (r) => `${TEMPLATE_GROUP}/${version} VirtualMachineTemplate is deprecated at KubeVirt ${r}: write ${TEMPLATE_GROUP}/${at.served[0]}`,
            }
          : at.gate === 'Alpha'
            ? {
                key: 'alpha',
                severity: 'warning',
                say: (r) =>
                  `KubeVirt ${r} deploys virt-template only when its KubeVirt CR enables the Alpha Template feature gate (spec.configuration.developerConfiguration.featureGates)`,
              }
            : undefined;
    if (!problem) continue;
    const entry = found.get(problem.key) ?? { severity: problem.severity, say: problem.say, releases: [] };
    entry.releases.push(release);
    found.set(problem.key, entry);
  }
  return [...found.values()].map((f) => ({ severity: f.severity, message: f.say(f.releases.join(', ')) }));
}
