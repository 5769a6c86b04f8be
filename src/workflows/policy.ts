import { mappingToYaml, serializeStream } from '../emit/serialize';
import { kubeObject, type JsonObject, type KubeObjectJson } from '../json';
import { policyObjects } from '../policy';
import type { Project } from '../project';
import { catalogsOrReport, fromNote, type Report } from './report';

export interface PolicyReport extends Report {
  readonly policies: readonly { readonly generator: string; readonly written: boolean; readonly objects: readonly JsonObject[] }[];
}

/**
 * `itgen policy`: the admission policies of each catalog: those a generator's `policy:` asks for, or
 * the default ones (of a generator without it, or of instance types and preferences from files).
 */
export function policy(project: Project): PolicyReport {
  const got = catalogsOrReport(project);
  if (!got.ok) return { policies: [], ...got.report };
  const policies = project.policies().map((p) => {
    const source = got.catalogs.sources.find((s) => s.name === p.generator);
    const objects = (p.written ? source?.result?.policy?.objects : undefined) ?? policyObjects(p.catalog, p.options);
    return { generator: p.generator, written: p.written, objects };
  });
  return { policies, diagnostics: got.catalogs.diagnostics, notes: fromNote(got.catalogs.from) };
}

/** A YAML stream `kubectl apply -f -` takes, each generator's under a comment saying which policies they are. */
export function policyYaml(report: PolicyReport): string {
  return report.policies
    .map(
      (p) =>
        `# ${p.generator}: ${p.written ? 'the policies generate writes to its output (policy:)' : p.generator === 'files' ? 'the default policies of the instance types and preferences given' : 'the default policies (the generator has no policy: option)'}\n${serializeStream(p.objects.map((o) => mappingToYaml(o)))}`,
    )
    .join('');
}

/** `policy -o json`: a List of the admission policies and their bindings. */
export interface PolicyJson {
  readonly apiVersion: 'v1';
  readonly kind: 'List';
  readonly items: readonly KubeObjectJson[];
}

/** A `List` of every policy object. */
export function policyJson(report: PolicyReport): string {
  const doc: PolicyJson = { apiVersion: 'v1', kind: 'List', items: report.policies.flatMap((p) => p.objects.map(kubeObject)) };
  return JSON.stringify(doc, null, 2);
}
