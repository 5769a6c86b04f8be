/**
 * Replays the VirtualMachineTemplate corpus (test/fixtures/template-corpus/README.md) through
 * itgen's engine and compares with virt-template-engine's answers: the stage that stopped, the
 * error in its words, the warnings, the processed VM (by value, as the other corpora compare
 * KubeVirt's typed VMs) and the message. Generated values are random on both sides: a text of the
 * engine matches itgen's where itgen's generated values are read as the patterns of their
 * expressions (alphabet and length).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { isPlainObject, type Json, type JsonObject } from '../src/json';
import { parseSource } from '../src/load/source';
import { generatedPattern, generateValue, GeneratorError, paramsFromFile, processTemplateDocument, type ProcessedTemplate } from '../src/kubevirt/template';
import { differenceByValue } from './kubevirt-corpus';
import { withoutNullTimestamps } from './preview-corpus';

interface TemplateCase {
  id: string;
  mode: 'template' | 'generate';
  category: string;
  template?: string;
  params?: Record<string, string>;
  paramsFile?: string;
  from?: string;
}
interface TemplateAnswer {
  id: string;
  template?: { stage: string; error?: string; warnings?: string[]; vm?: JsonObject; message?: string };
  value?: string;
  generateError?: string;
  error?: string;
}
export interface TemplateResult {
  id: string;
  category: string;
  stage: string;
  agree: boolean;
  why?: string;
  /** The YAML holds a line separator (U+0085, U+2028, U+2029) outside quotes: YAML 1.1 breaks the line there, YAML 1.2 does not. */
  yaml11Break?: boolean;
}

function readLines<T>(file: string): T[] {
  const bytes = readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether the engine's text is itgen's with other draws of the generated values. */
export function sameModuloGenerated(itgen: string, engine: string, r: Pick<ProcessedTemplate, 'generated'>): boolean {
  if (itgen === engine) return true;
  const values = Object.entries(r.generated).sort(([, a], [, b]) => b.value.length - a.value.length);
  if (values.length === 0) return false;
  let source = escape(itgen);
  for (const [, g] of values) {
    const inner = generatedPattern(g.from).source.replace(/^\^/, '').replace(/\$$/, '');
    source = source.split(escape(g.value)).join(`(?:${inner})`);
  }
  return new RegExp(`^${source}$`, 'u').test(engine);
}

/** Whether a value is Go's zero of a struct as encoding/json writes it: objects holding only such objects. */
const zeroStruct = (v: Json | undefined): boolean => v === null || (isPlainObject(v) && Object.values(v).every(zeroStruct));

/** The engine's typed VM without the zero structs Go writes where the processed VM has nothing. */
function withoutZeroStructs(engine: Json, itgen: Json | undefined): Json {
  if (!isPlainObject(engine)) return engine;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(engine)) {
    const mine = isPlainObject(itgen) ? itgen[k] : undefined;
    if (mine === undefined && zeroStruct(v)) continue;
    out[k] = withoutZeroStructs(v, mine);
  }
  return out;
}

/** The engine's VM with each string that differs only by generated values set to itgen's. */
function alignGenerated(engine: Json, itgen: Json | undefined, r: ProcessedTemplate): Json {
  if (typeof engine === 'string' && typeof itgen === 'string') return sameModuloGenerated(itgen, engine, r) ? itgen : engine;
  if (Array.isArray(engine)) return engine.map((x, i) => alignGenerated(x, Array.isArray(itgen) ? itgen[i] : undefined, r));
  if (isPlainObject(engine)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(engine)) {
      let key = k;
      if (isPlainObject(itgen) && !Object.hasOwn(itgen, k)) key = Object.keys(itgen).find((ik) => sameModuloGenerated(ik, k, r)) ?? k;
      out[key] = alignGenerated(v, isPlainObject(itgen) ? itgen[key] : undefined, r);
    }
    return out;
  }
  return engine;
}

/** itgen on one case, as `itgen template process` reads the file and the parameters. */
export function processCase(c: TemplateCase): ProcessedTemplate {
  const text = c.template ?? '';
  const json = /^\s*\{/.test(text);
  const parsed = parseSource(`${c.id}.${json ? 'json' : 'yaml'}`, Buffer.from(text));
  const params = new Map(Object.entries(c.params ?? {}));
  if (c.paramsFile !== undefined) {
    const pf = parseSource(`${c.id}-params.yaml`, Buffer.from(c.paramsFile));
    const read = paramsFromFile(pf.docs[0]?.value as Json | undefined, /^\s*\{/.test(c.paramsFile));
    if ('error' in read) return { error: read.error, warnings: [], generated: {}, values: {}, references: {} };
    for (const [k, v] of read.params) params.set(k, v);
  }
  return processTemplateDocument(parsed.docs[0]?.value as Json, { params, json });
}

function compareTemplate(c: TemplateCase, a: NonNullable<TemplateAnswer['template']>): string | undefined {
  const r = processCase(c);
  const stage = r.error?.stage ?? '';
  if (stage !== a.stage) return `stage ${stage || 'processed'} <> ${a.stage || 'processed'}: ${r.error?.message ?? ''} <> ${a.error ?? ''}`;
  if (a.error !== undefined && !sameModuloGenerated(r.error!.message, a.error, r)) {
    const x = r.error!.message;
    let i = 0;
    while (i < x.length && x[i] === a.error[i]) i++;
    return `error differs at ${i}: …${x.slice(Math.max(0, i - 60), i + 100)} <> …${a.error.slice(Math.max(0, i - 60), i + 100)}`;
  }
  const warnings = r.warnings.filter((w) => w.kind === 'unused').map((w) => w.message);
  if (JSON.stringify(warnings) !== JSON.stringify(a.warnings ?? [])) return `warnings: ${JSON.stringify(warnings)} <> ${JSON.stringify(a.warnings ?? [])}`;
  if (a.vm !== undefined) {
    const engine = withoutZeroStructs(alignGenerated(withoutNullTimestamps(a.vm) as Json, r.vm, r), r.vm);
    const d = differenceByValue(engine, r.vm);
    if (d !== undefined) return `vm ${d}`;
    if (!sameModuloGenerated(r.message ?? '', a.message ?? '', r)) return `message: ${r.message} <> ${a.message}`;
  }
  return undefined;
}

function compareGenerate(c: TemplateCase, a: TemplateAnswer): string | undefined {
  let value: string | undefined;
  let error: string | undefined;
  try {
    value = generateValue(c.from!).value;
  } catch (e) {
    if (!(e instanceof GeneratorError)) throw e;
    error = e.message;
  }
  if (a.generateError !== undefined) return error === a.generateError ? undefined : `error: ${error} <> ${a.generateError}`;
  if (error !== undefined) return `itgen refuses: ${error}`;
  const pattern = generatedPattern(c.from!);
  if (!pattern.test(a.value!)) return `the engine's ${JSON.stringify(a.value)} is not of ${pattern}`;
  return pattern.test(value!) ? undefined : `itgen's ${JSON.stringify(value)} is not of ${pattern}`;
}

export function replayTemplates(dir: string): TemplateResult[] {
  const cases = readLines<TemplateCase>(path.join(dir, 'cases.jsonl.gz'));
  const answers = new Map(readLines<TemplateAnswer>(path.join(dir, 'answers.jsonl.gz')).map((a) => [a.id, a]));
  return cases.map((c) => {
    const a = answers.get(c.id);
    if (!a || a.error) return { id: c.id, category: c.category, stage: 'oracle', agree: false, why: `no answer: ${a?.error ?? 'missing'}` };
    const why = c.mode === 'generate' ? compareGenerate(c, a) : compareTemplate(c, a.template!);
    const yaml11Break = c.template !== undefined && !/^\s*\{/.test(c.template) && /^[^"'\n]*[\u0085\u2028\u2029]/mu.test(c.template);
    return {
      id: c.id,
      category: c.category,
      stage: c.mode === 'generate' ? 'generate' : a.template!.stage || 'processed',
      agree: why === undefined,
      ...(why ? { why } : {}),
      ...(yaml11Break ? { yaml11Break } : {}),
    };
  });
}

/**
 * Each template of the corpus as applied: itgen's webhook door against virt-template's validating
 * webhook (webhook-answers.jsonl.gz): the stage, the refusal in its words, the warnings. A template
 * the oracle could not decode is left out: the API server decodes an applied one, which neither side
 * models here.
 */
export function replayWebhook(dir: string): TemplateResult[] {
  const cases = new Map(readLines<TemplateCase>(path.join(dir, 'cases.jsonl.gz')).map((c) => [c.id, c]));
  return readLines<TemplateAnswer>(path.join(dir, 'webhook-answers.jsonl.gz')).flatMap((a) => {
    const c = cases.get(a.id)!;
    if (a.error || !a.template) return [{ id: a.id, category: c.category, stage: 'oracle', agree: false, why: `no answer: ${a.error ?? 'missing'}` }];
    if (a.template.stage === 'decode') return [];
    const text = c.template ?? '';
    const json = /^\s*\{/.test(text);
    const r = processTemplateDocument(parseSource(`${c.id}.${json ? 'json' : 'yaml'}`, Buffer.from(text)).docs[0]?.value as Json, { json, door: 'webhook' });
    const skipped = r.warnings.filter((w) => w.kind === 'skipped');
    const stage = r.error?.stage ?? (skipped.length > 0 ? 'skipped' : '');
    const warnings = [...r.warnings.filter((w) => w.kind === 'unused').map((w) => w.message), ...skipped.map((w) => w.message)];
    const why =
      stage !== a.template.stage
        ? `stage ${stage || 'processed'} <> ${a.template.stage || 'processed'}: ${r.error?.message ?? ''} <> ${a.template.error ?? ''}`
        : a.template.error !== undefined && !sameModuloGenerated(r.error!.message, a.template.error, r)
          ? `error: ${r.error!.message.slice(0, 200)} <> ${a.template.error.slice(0, 200)}`
          : JSON.stringify(warnings) !== JSON.stringify(a.template.warnings ?? [])
            ? `warnings: ${JSON.stringify(warnings)} <> ${JSON.stringify(a.template.warnings ?? [])}`
            : undefined;
    const yaml11Break = !json && /^[^"'\n]*[\u0085\u2028\u2029]/mu.test(text);
    return [
      {
        id: c.id,
        category: c.category,
        stage: a.template.stage || 'processed',
        agree: why === undefined,
        ...(why ? { why } : {}),
        ...(yaml11Break ? { yaml11Break } : {}),
      },
    ];
  });
}
