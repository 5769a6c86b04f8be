import { closest, diag, shownNames, type Diagnostic } from '../diagnostics';
import type { Json, JsonObject } from '../json';
import { locate, type SourceDoc } from '../load/source';
import { paramsFromFile, processTemplateDocument, type ProcessedTemplate } from '../kubevirt/template';
import { mappingToYaml } from '../emit/serialize';
import type { Project } from '../project';
import type { Report } from './report';

export interface ProcessTemplateOptions {
  /** The template file (or `-`). */
  readonly file: string;
  /** `NAME=VALUE` as given with -p, in order. */
  readonly params?: readonly string[];
  /** A YAML or JSON map of parameter values (--params-file). */
  readonly paramsFile?: string;
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
  const params = new Map<string, string>();
  for (const p of opts.params ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0) return { diagnostics: [diag('IT8401', `-p ${p}: a parameter is NAME=VALUE`)], notes: [] };
    params.set(p.slice(0, eq), p.slice(eq + 1));
  }
  if (opts.paramsFile !== undefined) {
    const pf = project.manifests([opts.paramsFile]);
    if (pf.diagnostics.length > 0) return { diagnostics: pf.diagnostics, notes: [] };
    const read = paramsFromFile(pf.docs[0]?.value as Json | undefined, /\.json$/i.test(opts.paramsFile));
    if ('error' in read) return { diagnostics: [diag('IT8401', read.error.message, pf.docs[0] ? locate(pf.docs[0], []) : undefined)], notes: [] };
    for (const [k, v] of read.params) params.set(k, v);
  }
  const processed = processTemplateDocument(doc.value as Json, { params, json: /\.json$/i.test(doc.file) });
  return { processed, diagnostics: [...diagnostics, ...templateDiagnostics(doc, processed)], notes: [] };
}

/** The engine's answer as diagnostics at the template's lines. */
export function templateDiagnostics(doc: SourceDoc, r: ProcessedTemplate): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const w of r.warnings)
    out.push(diag(w.kind === 'unused' ? 'IT8402' : 'IT8403', w.message, locate(doc, w.path, { key: w.kind === 'dropped' }), { severity: 'warning' }));
  if (r.error) {
    const declared = r.error.declared ?? [];
    const meant = r.error.parameter !== undefined ? closest(r.error.parameter, declared) : undefined;
    const hint =
      r.error.parameter === undefined
        ? undefined
        : `${meant !== undefined ? `did you mean ${meant}? ` : ''}the template declares ${declared.length > 0 ? shownNames(declared) : 'no parameters'}`;
    const path = r.error.path ?? [];
    out.push(
      diag(
        'IT8401',
        r.error.message,
        locate(doc, path, { key: r.error.stage === 'process' && typeof path[path.length - 1] === 'string' }),
        hint !== undefined ? { hint } : {},
      ),
    );
  }
  return out;
}

/** The processed VM as virtctl prints it (YAML, or JSON), with the generated values and the message as comments. */
export function templateText(r: ProcessTemplateReport, output: 'yaml' | 'json'): string | undefined {
  const p = r.processed;
  if (!p?.vm) return undefined;
  if (output === 'json')
    return JSON.stringify(
      { vm: p.vm, message: p.message ?? '', generated: Object.fromEntries(Object.entries(p.generated).map(([k, g]) => [k, { value: g.value, from: g.from }])) },
      null,
      2,
    );
  const comments = [
    ...Object.entries(p.generated).map(([k, g]) => `# ${k}: generated ${JSON.stringify(g.value)} from ${JSON.stringify(g.from)}`),
    ...(p.message ? [`# message: ${JSON.stringify(p.message)}`] : []),
  ];
  return [...comments, mappingToYaml(p.vm as JsonObject)].join('\n');
}
