/**
 * Replays a corpus of KubeVirt's own answers (test/fixtures/kubevirt-corpus/, made by the Go oracle
 * built from KubeVirt's source: see its README) through itgen's library, the way the CLI runs
 * (`expandDocuments` for VMs, `validateManifests` for objects), and compares by value:
 *
 * - VM cases run twice, with admission (`itgen expand`) and without (`--skip-admission`). When
 *   KubeVirt refuses (the mutating webhook, admission, expand-spec, or a Go panic, which virt-api
 *   answers with an internal error), itgen must refuse too and, except for a panic, say each of
 *   KubeVirt's messages. When KubeVirt answers a VM, itgen's must equal it by value: Go's
 *   serialization artefacts (an empty non-pointer struct, a dropped zero of an omitempty field)
 *   and quantities spelled differently (`2048Mi` for `2Gi`) are equal.
 * - Object cases: the verdict (the CRD schema, then the object webhook) and, for a webhook
 *   refusal, each of its messages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { validateManifests } from '../src/admission';
import type { Diagnostic } from '../src/diagnostics';
import { expandDocuments, objectStore } from '../src/expand';
import { parseSource } from '../src/load/source';
import { parseQuantity } from '../src/quantity';
import type { JsonObject } from '../src/json';
import { withoutNullTimestamps } from './preview-corpus';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface VmCase {
  readonly id: string;
  readonly category: string;
  readonly mode: 'expand' | 'admit';
  readonly vm: JsonObject;
  readonly objects?: JsonObject[];
  readonly objectSets?: string[];
  readonly mutate?: string;
}
interface ObjectCase {
  readonly id: string;
  readonly category: string;
  readonly mode: 'validate-object';
  readonly object: JsonObject;
}
type Case = VmCase | ObjectCase;

interface Answer {
  readonly id: string;
  readonly mutation?: { error?: string; panic?: string };
  readonly expand?: { vm?: Json; error?: string; panic?: string };
  readonly admit?: { admitted: boolean; message?: string; causes?: { message: string }[]; panic?: string };
  readonly crdErrors?: string[];
  readonly validate?: { admitted: boolean; message?: string; causes?: { message: string }[]; warnings?: string[] };
  readonly unknownFields?: string[];
  readonly vmSchemaErrors?: string[];
}

export interface CaseResult {
  readonly id: string;
  readonly category: string;
  readonly check: 'expand' | 'admit' | 'validate';
  readonly agree: boolean;
  /** Why not, generalized into a class (numbers and names replaced). */
  readonly why?: string;
}

const readLines = (file: string): unknown[] => {
  const raw = readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);
};

/** Paths of Go structs that are not pointers: encoding/json always writes them, `{}` when empty. */
const GO_STRUCTS = [
  /^status$/,
  /^spec\.template\.metadata$/,
  /\.domain\.resources$/,
  /\.features\.acpi$/,
  /^spec\.dataVolumeTemplates\[\d+\]\.(metadata|spec\.(storage|pvc)\.resources)$/,
];

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isZero = (v: unknown): boolean => v === false || v === 0 || v === '';
const isEmptyObject = (v: unknown): boolean => isObject(v) && Object.keys(v).length === 0;

/** The first difference by value between KubeVirt's VM and itgen's, generalized; undefined when equal. */
export function differenceByValue(kubevirt: Json | undefined, itgen: Json | undefined, at = ''): string | undefined {
  if (kubevirt === undefined && itgen === undefined) return undefined;
  if (kubevirt === undefined) return isZero(itgen) ? undefined : `extra-in-itgen:${at}`;
  if (itgen === undefined) return isEmptyObject(kubevirt) && GO_STRUCTS.some((re) => re.test(at)) ? undefined : `missing-in-itgen:${at}`;
  if (Array.isArray(kubevirt) || Array.isArray(itgen)) {
    if (!Array.isArray(kubevirt) || !Array.isArray(itgen)) return `type:${at}`;
    if (kubevirt.length !== itgen.length) return `array-length:${at}`;
    for (let i = 0; i < kubevirt.length; i++) {
      const d = differenceByValue(kubevirt[i], itgen[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(kubevirt) && isObject(itgen)) {
    for (const k of new Set([...Object.keys(kubevirt), ...Object.keys(itgen)])) {
      const d = differenceByValue(kubevirt[k], itgen[k], at === '' ? k : `${at}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  if (kubevirt === itgen) return undefined;
  if ((typeof kubevirt === 'string' || typeof kubevirt === 'number') && (typeof itgen === 'string' || typeof itgen === 'number')) {
    const a = parseQuantity(kubevirt);
    const b = parseQuantity(itgen);
    if (a !== undefined && b !== undefined && a === b && /\d/.test(String(kubevirt))) return undefined;
  }
  return `value:${at}`;
}

const generalize = (s: string): string =>
  s
    .replace(/\[\d+\]/g, '[]')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\bc\d{5}[-\w.]*/g, 'NAME')
    .replace(/\d+(\.\d+)?([KMGT]i?)?/g, 'N')
    .slice(0, 140);

/**
 * Codes that judge beyond expand and admission, where KubeVirt admits and expands the VM and
 * itgen says so too (it prints the VM): IT8007, a guest of one architecture placed on nodes of
 * another (KubeVirt's pod node selector renderer, not its webhooks).
 */
const BEYOND_ADMISSION: ReadonlySet<string> = new Set(['IT8007']);

/** itgen's error text, without the `VirtualMachine \`x\`: ` and ` would be refused: ` it adds. */
const errorTexts = (diagnostics: readonly Diagnostic[]): string[] =>
  diagnostics
    .filter((d) => d.severity === 'error' && !BEYOND_ADMISSION.has(d.code))
    .map((d) => d.message.replace(/^VirtualMachine `[^`]*`( would be refused)?: /, ''));

function expected(ans: Answer, admission: boolean): { kind: 'ok'; vm: Json | undefined } | { kind: 'error'; messages: string[]; panic: boolean } {
  // The API server's strict decoding (kubectl apply's default) refuses fields KubeVirt's types lack.
  // Only the VM's own: an earlier release's oracle also lists the fields of the case's objects its
  // types lack (common-instancetypes' newer preferences), which it decodes without them, as itgen does.
  const vmUnknown = (ans.unknownFields ?? []).filter((f) => f.startsWith('vm.'));
  if (vmUnknown.length) return { kind: 'error', messages: vmUnknown.map((f) => `unknown field "${f.replace(/^vm\./, '')}"`), panic: false };
  // KubeVirt's own VM schema (run first by expand-spec and admission) refuses what Go's lenient
  // decoding would take (a field in another case); the API server's strict decoding refuses it as
  // an unknown field first: itgen must name the field.
  if (ans.vmSchemaErrors?.length) return { kind: 'error', messages: ans.vmSchemaErrors.map((e) => `"${e.replace(/ in body .*$/, '')}"`), panic: false };
  if (ans.mutation?.panic) return { kind: 'error', messages: [], panic: true };
  if (ans.mutation?.error !== undefined) return { kind: 'error', messages: [ans.mutation.error], panic: false };
  if (admission) {
    if (ans.admit?.panic) return { kind: 'error', messages: [], panic: true };
    if (ans.admit && !ans.admit.admitted)
      return { kind: 'error', messages: ans.admit.causes?.length ? ans.admit.causes.map((c) => c.message) : [ans.admit.message ?? ''], panic: false };
  }
  if (ans.expand?.panic) return { kind: 'error', messages: [], panic: true };
  if (ans.expand?.error !== undefined) return { kind: 'error', messages: [ans.expand.error], panic: false };
  return { kind: 'ok', vm: ans.expand?.vm };
}

/** KubeVirt's whole path for a VM (the oracle's preview mode): where it stops, and its causes. */
interface StartAnswer {
  readonly id: string;
  readonly error?: { readonly stage: string; readonly message: string };
  readonly admit?: { readonly causes?: readonly { readonly message: string }[] };
}

function replayVm(
  c: VmCase,
  ans: Answer,
  sets: ReadonlyMap<string, JsonObject[]>,
  admission: boolean,
  release: string | undefined,
  start?: StartAnswer,
): CaseResult {
  const check = admission ? 'admit' : 'expand';
  const base = { id: c.id, category: c.category, check } as const;
  // KubeVirt's API server would refuse such a VM before any webhook: counted apart by the oracle.
  const objects = [...(c.objectSets ?? []).flatMap((s) => sets.get(s) ?? []), ...(c.objects ?? [])];
  // The instancetype admitter admits: what the rest of KubeVirt's path says (the VM created as
  // kubectl creates it, the mutating webhook first), which itgen's judge must say too.
  const exp0 = expected(ans, admission);
  if (admission && start && exp0.kind === 'ok') {
    const whole = parseSource(`${c.id}.yaml`, Buffer.from(JSON.stringify({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', ...c.vm })));
    // The oracle's cluster: these objects and nothing else (no StorageClass, no other claim).
    const cluster = { ...objectStore(objects), storageClassesGiven: true, persistentVolumeClaimsGiven: true, networkAttachmentDefinitionsGiven: true };
    const judged = expandDocuments(whole.docs, cluster, {
      admission: true,
      namespace: 'default',
      mutate: 'applied',
      ...(release !== undefined ? { cluster: { release } } : {}),
    }).outcomes[0];
    const refusals = errorTexts([...whole.diagnostics, ...(judged?.diagnostics ?? [])]).map((m) =>
      m.replace(/^VirtualMachine `[^`]*` would be stored but not start: [^:]*: /, ''),
    );
    if (start.error) {
      if (refusals.length === 0) return { ...base, agree: false, why: `itgen-starts:${start.error.stage}:${generalize(start.error.message)}` };
      const theirs = start.admit?.causes?.length ? start.admit.causes.map((x) => x.message) : [start.error.message];
      const joined = refusals.join(', ');
      const missing = theirs.filter((m) => !refusals.some((e) => e.includes(m)) && !joined.includes(m));
      return missing.length === 0
        ? { ...base, agree: true }
        : { ...base, agree: false, why: `start-differs:${start.error.stage}:${generalize(missing[0]!)} <> ${generalize(refusals[0]!)}` };
    }
    if (refusals.length > 0) return { ...base, agree: false, why: `itgen-refuses-start:${generalize(refusals[0]!)}` };
    // It starts: the VM KubeVirt's expand-spec returns is the one itgen prints (the stored run below).
    // A VM kept as stored skips the mutating webhook, whose settings (the preference's architecture) the start may need.
    if (exp0.vm !== undefined && judged?.vm && differenceByValue(withoutNullTimestamps(exp0.vm), judged.vm as unknown as Json) === undefined)
      return { ...base, agree: true };
  }
  const src = parseSource(`${c.id}.yaml`, Buffer.from(JSON.stringify({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', ...c.vm })));
  const { outcomes } = expandDocuments(src.docs, objectStore(objects), {
    admission,
    namespace: 'default',
    mutate: c.mutate === 'webhook' ? 'applied' : 'stored',
    ...(release !== undefined ? { cluster: { release } } : {}),
  });
  const out = outcomes[0];
  const errors = errorTexts([...src.diagnostics, ...(out?.diagnostics ?? [])]);
  const exp = exp0;
  if (exp.kind === 'error') {
    if (errors.length === 0) return { ...base, agree: false, why: `itgen-accepts:${generalize(exp.messages[0] ?? 'panic')}` };
    // Causes one by one, or the whole message in one diagnostic, or the causes joined as the response joins them.
    const joined = errors.join(', ');
    const missing = exp.messages.filter((m) => !errors.some((e) => e.includes(m)) && !joined.includes(m));
    return missing.length === 0
      ? { ...base, agree: true }
      : { ...base, agree: false, why: `message-differs:${generalize(missing[0]!)} <> ${generalize(errors[0]!)}` };
  }
  if (!out?.vm || errors.length > 0) return { ...base, agree: false, why: `itgen-rejects:${generalize(errors[0] ?? '(no VM)')}` };
  // An earlier release's `creationTimestamp: null` is the absent field it stands for.
  const d = differenceByValue(exp.vm === undefined ? undefined : withoutNullTimestamps(exp.vm), out.vm as unknown as Json);
  return d === undefined ? { ...base, agree: true } : { ...base, agree: false, why: `vm-${generalize(d)}` };
}

function replayObject(c: ObjectCase, ans: Answer): CaseResult {
  const base = { id: c.id, category: c.category, check: 'validate' } as const;
  const src = parseSource(`${c.id}.yaml`, Buffer.from(JSON.stringify(c.object)));
  const diagnostics = [...src.diagnostics, ...validateManifests(src.docs, objectStore([]))];
  const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  // Strict decoding (kubectl apply's default) refuses a field KubeVirt's types do not have.
  const refusedBySchema = (ans.crdErrors?.length ?? 0) > 0 || (ans.unknownFields?.length ?? 0) > 0;
  const admitted = !refusedBySchema && ans.validate?.admitted === true;
  if (admitted) return errors.length === 0 ? { ...base, agree: true } : { ...base, agree: false, why: `itgen-rejects:${generalize(errors[0]!)}` };
  if (errors.length === 0)
    return {
      ...base,
      agree: false,
      why: `itgen-accepts:${generalize(refusedBySchema ? `crd: ${ans.crdErrors![0]}` : (ans.validate?.causes?.[0]?.message ?? ans.validate?.message ?? ''))}`,
    };
  if (refusedBySchema) return { ...base, agree: true };
  const messages = ans.validate?.causes?.length ? ans.validate.causes.map((x) => x.message) : [ans.validate?.message ?? ''];
  const missing = messages.filter((m) => !errors.some((e) => e.includes(m)));
  return missing.length === 0 ? { ...base, agree: true } : { ...base, agree: false, why: `message-differs:${generalize(missing[0]!)}` };
}

/**
 * Every case of the corpus in `dir` replayed: one result per VM case and mode, one per object case.
 * `release`: the cases answered by that KubeVirt release's oracle (`kubevirt-answers*-<release>.jsonl.gz`),
 * replayed as that release; object cases are then left out (an object's verdict per release is
 * `validate`'s target range, test/releases.test.ts).
 */
export function replayCorpus(dir: string, release?: string): CaseResult[] {
  const file = (name: string): string => path.join(dir, name);
  // cases.jsonl.gz and kubevirt-answers.jsonl.gz, and supplements named alike (cases-revisions.jsonl.gz...).
  const names = readdirSync(dir).sort();
  const cases = names.filter((n) => /^cases(-[\w-]+)?\.jsonl\.gz$/.test(n)).flatMap((n) => readLines(file(n))) as (
    Case | { mode: 'objects-set'; id: string; objects: JsonObject[] }
  )[];
  const answers = new Map(
    names
      .filter((n) =>
        release === undefined ? /^kubevirt-answers(-[\w-]+)?\.jsonl\.gz$/.test(n) : n.startsWith('kubevirt-answers') && n.endsWith(`-${release}.jsonl.gz`),
      )
      .flatMap((n) => readLines(file(n)) as Answer[])
      .map((a) => [a.id, a]),
  );
  // KubeVirt's whole path for the admission cases (start-answers[-release].jsonl.gz, the oracle's preview mode).
  const startFile = release === undefined ? 'start-answers.jsonl.gz' : `start-answers-${release}.jsonl.gz`;
  const starts = new Map(names.includes(startFile) ? (readLines(file(startFile)) as StartAnswer[]).map((a) => [a.id, a] as const) : []);
  const sets = new Map<string, JsonObject[]>();
  const results: CaseResult[] = [];
  for (const c of cases) {
    if (c.mode === 'objects-set') {
      sets.set(c.id, c.objects);
      continue;
    }
    const ans = answers.get(c.id);
    if (!ans) continue;
    if (c.mode === 'validate-object') {
      if (release === undefined) results.push(replayObject(c, ans));
    } else results.push(replayVm(c, ans, sets, false, release), replayVm(c, ans, sets, true, release, starts.get(c.id)));
  }
  return results;
}

/** Agreement per check, and the disagreements by class with a count and example ids. */
export function summarize(results: readonly CaseResult[]): string {
  const lines: string[] = [];
  for (const check of ['expand', 'admit', 'validate'] as const) {
    const mine = results.filter((r) => r.check === check);
    const agree = mine.filter((r) => r.agree).length;
    lines.push(`${check}: ${agree}/${mine.length} agree (${((100 * agree) / Math.max(1, mine.length)).toFixed(2)}%)`);
  }
  const classes = new Map<string, { n: number; ids: string[]; categories: Set<string> }>();
  for (const r of results.filter((x) => !x.agree)) {
    const key = `${r.check} ${r.why}`;
    const e = classes.get(key) ?? { n: 0, ids: [], categories: new Set() };
    e.n++;
    if (e.ids.length < 3) e.ids.push(r.id);
    e.categories.add(r.category);
    classes.set(key, e);
  }
  for (const [k, e] of [...classes].sort((a, b) => b[1].n - a[1].n))
    lines.push(`${String(e.n).padStart(5)}  ${k}  [${[...e.categories].join(',')}] e.g. ${e.ids.join(' ')}`);
  return lines.join('\n');
}
