import { closest, diag, shownNames, type Diagnostic } from '../diagnostics';
import { sweepTemplate, templateDiagnostics, templatesAsVms, type Sweep } from '../expand/templates';
import { kubeObject, type Json, type JsonObject, type KubeObjectJson } from '../json';
import { locate } from '../load/source';
import { paramsFromFile, processTemplateDocument, type ProcessedTemplate } from '../kubevirt/template';
import { paramFlags } from '../kubevirt/template/param-flag';
import { mappingToYaml } from '../emit/serialize';
import type { Project } from '../project';
import { NEWEST_RELEASE } from '../kubevirt/releases';
import type { Report } from './report';

export interface ProcessTemplateOptions {
  /** The template file (or `-`). */
  readonly file: string;
  /** The values of -p as typed, in order (virtctl's: `-p A=1,B=2` is two; see kubevirt/template/param-flag.ts). */
  readonly params?: readonly string[];
  /** A YAML or JSON map of parameter values (--params-file). */
  readonly paramsFile?: string;
  /** Parameter values already apart (an agent's map), besides -p and the file. */
  readonly values?: Readonly<Record<string, string>>;
}

export interface ProcessTemplateReport extends Report {
  readonly processed?: ProcessedTemplate;
}

/**
 * `itgen template process`: a VirtualMachineTemplate file processed as `virtctl template process
 * --local` processes it (src/kubevirt/template/), each error of the engine in its words at the line
 * of the parameter or field it is about.
 */
export function processTemplate(project: Project, opts: ProcessTemplateOptions): ProcessTemplateReport {
  const input = project.manifests([opts.file]);
  const diagnostics: Diagnostic[] = [...input.diagnostics];
  const doc = input.docs[0];
  if (!doc) return { diagnostics: diagnostics.length > 0 ? diagnostics : [diag('IT8004', `${opts.file}: no document to process`)], notes: [] };
  // virtctl refuses both ways of giving parameters at once (cobra's mutually exclusive flags).
  if ((opts.params ?? []).length > 0 && opts.paramsFile !== undefined)
    return {
      diagnostics: [diag('IT8401', 'if any flags in the group [param params-file] are set none of the others can be; [param params-file] were all set')],
      notes: [],
    };
  const flags = paramFlags(opts.params ?? []);
  if ('error' in flags) return { diagnostics: [diag('IT8401', flags.error)], notes: [] };
  const params = new Map([...flags.params, ...Object.entries(opts.values ?? {})]);
  if (opts.paramsFile !== undefined) {
    const pf = project.manifests([opts.paramsFile]);
    if (pf.diagnostics.length > 0) return { diagnostics: pf.diagnostics, notes: [] };
    const read = paramsFromFile(pf.docs[0]?.value as Json | undefined, /\.json$/i.test(opts.paramsFile));
    if ('error' in read) return { diagnostics: [diag('IT8401', read.error.message, pf.docs[0] ? locate(pf.docs[0], []) : undefined)], notes: [] };
    for (const [k, v] of read.params) params.set(k, v);
  }
  const processed = processTemplateDocument(doc.value as Json, { params, json: /\.json$/i.test(doc.file) });
  const found = templateDiagnostics(doc, processed);
  // A parameter the template does not declare: the names it does, and the one probably meant.
  const declared = processed.error?.declared ?? [];
  const meant = processed.error?.parameter !== undefined ? closest(processed.error.parameter, declared) : undefined;
  const hint =
    processed.error?.parameter === undefined
      ? undefined
      : `${meant !== undefined ? `did you mean ${meant}? ` : ''}the template declares ${declared.length > 0 ? shownNames(declared) : 'no parameters'}`;
  return { processed, diagnostics: [...diagnostics, ...found.map((d) => (d.code === 'IT8401' && hint !== undefined ? { ...d, hint } : d))], notes: [] };
}

/** `template process -o json`: the VirtualMachine made, as virtctl prints it (the template's message goes to standard error). */
export type TemplateProcessJson = KubeObjectJson;

/** A processed template as data: the VirtualMachine, the template's message, and each generated value and its expression. */
export interface ProcessedTemplateJson {
  readonly vm: KubeObjectJson;
  readonly message: string;
  readonly generated: { readonly [parameter: string]: { readonly value: string; readonly from: string } };
}

/** The processed template as data (what `itgen mcp`'s template_process answers), or undefined when no VM was made. */
export function processedTemplateJson(r: ProcessTemplateReport): ProcessedTemplateJson | undefined {
  const p = r.processed;
  if (!p?.vm) return undefined;
  return {
    vm: kubeObject(p.vm),
    message: p.message ?? '',
    generated: Object.fromEntries(Object.entries(p.generated).map(([k, g]) => [k, { value: g.value, from: g.from }])),
  };
}

/**
 * The processed VM as virtctl prints it: JSON, the VM alone (`kubectl apply -f -` takes it); YAML,
 * with the generated values and the message as comments above it.
 */
export function templateText(r: ProcessTemplateReport, output: 'yaml' | 'json'): string | undefined {
  const p = r.processed;
  if (!p?.vm) return undefined;
  if (output === 'json') {
    const doc: TemplateProcessJson = kubeObject(p.vm);
    return JSON.stringify(doc, null, 2);
  }
  const comments = [
    ...Object.entries(p.generated).map(([k, g]) => `# ${k}: generated ${JSON.stringify(g.value)} from ${JSON.stringify(g.from)}`),
    ...(p.message ? [`# message: ${JSON.stringify(p.message)}`] : []),
  ];
  return [...comments, mappingToYaml(p.vm as JsonObject)].join('\n');
}

export interface SweepTemplateReport extends Report {
  readonly sweeps: readonly Sweep[];
}

/**
 * `itgen template sweep`: each value a template's instance type or preference parameter can take
 * among the project's and `--with` objects, its VM judged by the one judge: the template x value
 * matrix, the default's verdict, and the least specialised admitted value when the default is refused.
 */
export function sweepTemplateFile(project: Project, file: string): SweepTemplateReport {
  const input = project.manifests([file]);
  const catalogs = project.catalogs('besides');
  const problems = [...catalogs.diagnostics, ...input.diagnostics];
  if (catalogs.blocking) return { sweeps: [], diagnostics: problems, notes: [] };
  const cr = project.kubevirt();
  const templated = templatesAsVms(
    input.docs,
    project.configs().map((c) => c.release ?? NEWEST_RELEASE),
  );
  const judging = { configs: project.configs(), defaultsOnly: !cr.config };
  const sweeps = templated.templates.flatMap((t) => (t.processed.vm ? sweepTemplate(t.src, t.processed, catalogs.store, judging) : []));
  const none =
    templated.templates.length > 0 && sweeps.length === 0
      ? [
          diag('IT8004', `${file}: no parameter names the instance type or preference (\`name: \${PARAMETER}\`): nothing to sweep`, undefined, {
            severity: 'warning',
          }),
        ]
      : templated.templates.length === 0
        ? [diag('IT8004', `${file}: no VirtualMachineTemplate`)]
        : [];
  return { sweeps, diagnostics: [...problems, ...cr.diagnostics, ...templated.diagnostics, ...none], notes: [] };
}

/** `template sweep -o json`: per instance type or preference parameter, each value's verdict. */
export type TemplateSweepJson = readonly Sweep[];

/** The sweep as a table (text) or JSON. */
export function sweepText(r: SweepTemplateReport, output: 'text' | 'json'): string | undefined {
  if (output === 'json') {
    const doc: TemplateSweepJson = r.sweeps;
    return JSON.stringify(doc, null, 2);
  }
  if (r.sweeps.length === 0) return undefined;
  return r.sweeps
    .map((s) => {
      const admitted = s.rows.filter((x) => x.admitted).length;
      const head = `${s.parameter} (spec.${s.matcher}.name): ${admitted} of ${s.rows.length} values admitted; default ${s.defaultValue}: ${s.rows.find((x) => x.isDefault)?.admitted ? 'admitted' : 'refused'}${s.suggestion !== undefined ? `; suggested: ${s.suggestion}` : ''}`;
      const rows = s.rows.map(
        (x) => `  ${x.admitted ? 'admitted' : 'refused '}  ${x.value}${x.isDefault ? ' (default)' : ''}${x.refusal !== undefined ? `: ${x.refusal}` : ''}`,
      );
      return [head, ...rows].join('\n');
    })
    .join('\n\n');
}
