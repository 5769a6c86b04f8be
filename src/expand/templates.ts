/**
 * VirtualMachineTemplates among the VM inputs: each processed as virt-template-engine processes it
 * (src/kubevirt/template/) and its VM judged by the one judge like a VM file, every finding at the
 * template's own lines. The template webhook never resolves the instance type or preference and
 * never runs KubeVirt's VM admission (only `/create` does): a template whose defaults KubeVirt
 * refuses is accepted and published. The sweep tries each value a parameter that names the
 * instance type or preference can take, and suggests the least specialised one KubeVirt admits.
 */
import { diag, type Diagnostic } from '../diagnostics';
import { isPlainObject, type Json, type JsonObject } from '../json';
import { locate, type SourceDoc } from '../load/source';
import { isTemplateDocument, processTemplateDocument, templateApiVersionProblems, templateServed, type ProcessedTemplate } from '../kubevirt/template';
import { NEWEST_RELEASE } from '../kubevirt/releases';
import { apiServerErrors } from '../kubevirt/crd';
import { judgeDocuments, type Judging } from './judging';
import type { ObjectStore } from './references';
import type { SpecObject } from './model';
import { parseQuantity } from '../quantity';

/** Generated values are drawn at random by the engine; judging draws the alphabet's first character, so that its words are the same on every run. */
const FIXED_DRAW = (): number => 0;

const VM_PATH = ['spec', 'virtualMachine'];

/** A template's VM as a document of its own, whose every path is located in the template. */
function vmDocument(src: SourceDoc, vm: JsonObject): SourceDoc {
  return { ...src, value: vm, patched: [{ path: [], to: src, at: VM_PATH }] };
}

export interface TemplateVms {
  /** The documents, each template replaced by its VM (when the engine made one). */
  readonly docs: SourceDoc[];
  /** The engine's findings (IT8401, IT8402, IT8403) at the templates' lines. */
  readonly diagnostics: Diagnostic[];
  /** Each template processed: its document and what the engine answered. */
  readonly templates: readonly { readonly src: SourceDoc; readonly processed: ProcessedTemplate }[];
}

/** The engine's answer as diagnostics at the template's lines. */
export function templateDiagnostics(doc: SourceDoc, r: ProcessedTemplate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const codes = { unused: 'IT8402', dropped: 'IT8403', skipped: 'IT8405' } as const;
  for (const w of r.warnings) out.push(diag(codes[w.kind], w.message, locate(doc, w.path, { key: w.kind === 'dropped' }), { severity: 'warning' }));
  if (r.error) {
    const path = r.error.path ?? [];
    out.push(diag('IT8401', r.error.message, locate(doc, path, { key: r.error.stage === 'process' && typeof path[path.length - 1] === 'string' })));
  }
  return out;
}

/**
 * The templates of `docs` processed with their defaults, each replaced by the VM it makes; each
 * template's apiVersion said of the `releases` judged (IT8404, a finding every release gives said once).
 * `door`: whose words (virtctl's processing, or virt-template's webhook on the template as applied).
 */
export function templatesAsVms(
  docs: readonly SourceDoc[],
  releases: readonly string[] = [NEWEST_RELEASE],
  door: 'virtctl' | 'webhook' = 'virtctl',
): TemplateVms {
  const out: SourceDoc[] = [];
  const diagnostics: Diagnostic[] = [];
  const templates: { src: SourceDoc; processed: ProcessedTemplate }[] = [];
  for (const src of docs) {
    if (!isTemplateDocument(src.value)) {
      out.push(src);
      continue;
    }
    const apiVersion = (src.value as JsonObject)['apiVersion'];
    for (const { severity, message } of templateApiVersionProblems(apiVersion, releases))
      diagnostics.push(diag('IT8404', message, locate(src, ['apiVersion']), severity === 'warning' ? { severity } : {}));
    // Applied where no targeted release serves the template's version: refused outright (IT8404), nothing else to say.
    if (door === 'webhook' && !releases.some((r) => templateServed(apiVersion, r))) continue;
    // Applied, the API server checks the CRD's schema first (strict decoding, then the schema) and stops a refused template there.
    const refused = door === 'webhook' ? apiServerVerdict(src) : [];
    if (refused.length > 0) {
      diagnostics.push(...refused);
      continue;
    }
    const processed = processTemplateDocument(src.value as Json, { pick: FIXED_DRAW, json: /\.json$/i.test(src.file), door });
    templates.push({ src, processed });
    diagnostics.push(...templateDiagnostics(src, processed));
    if (processed.vm) out.push(vmDocument(src, processed.vm));
  }
  return { docs: out, diagnostics, templates };
}

/** What the API server says of a template as applied (kubevirt/crd.ts over the template CRD), in its words at the field. */
function apiServerVerdict(src: SourceDoc): Diagnostic[] {
  return apiServerErrors('VirtualMachineTemplate', src.value).map((e) =>
    diag('IT3001', e.stage === 'strict' ? `strict decoding error: ${e.message}` : e.message, locate(src, e.path, { key: e.stage === 'strict' }), {
      hint:
        e.stage === 'strict'
          ? "the API server decodes strictly (kubectl apply's default) and refuses fields the VirtualMachineTemplate CRD does not have"
          : "the API server checks the VirtualMachineTemplate CRD's schema (the virt-template bundle KubeVirt installs) and refuses the template",
    }),
  );
}

/** The matcher a parameter fills: `instancetype` or `preference`, when a parameter is the whole name. */
export interface SweptParameter {
  readonly parameter: string;
  readonly matcher: 'instancetype' | 'preference';
  /** The kind the VM's matcher names (cluster-wide unless it says otherwise). */
  readonly kind: string;
  readonly defaultValue: string;
}

/** The parameters whose whole value is a matcher's name (`name: ${INSTANCETYPE}`). */
export function sweptParameters(src: SourceDoc, processed: ProcessedTemplate): SweptParameter[] {
  const out: SweptParameter[] = [];
  const vm = isPlainObject(src.value) && isPlainObject(src.value['spec']) ? src.value['spec']['virtualMachine'] : undefined;
  const spec = isPlainObject(vm) && isPlainObject(vm['spec']) ? vm['spec'] : undefined;
  for (const matcher of ['instancetype', 'preference'] as const) {
    const m = spec?.[matcher];
    const name = isPlainObject(m) ? m['name'] : undefined;
    const whole = typeof name === 'string' ? /^\$\{([a-zA-Z0-9_]+)\}$/.exec(name) : null;
    if (!whole || !Object.hasOwn(processed.values, whole[1]!)) continue;
    const written = isPlainObject(m) && typeof m['kind'] === 'string' ? m['kind'].toLowerCase() : '';
    const cluster = matcher === 'instancetype' ? 'virtualmachineclusterinstancetype' : 'virtualmachineclusterpreference';
    const namespaced = matcher === 'instancetype' ? 'virtualmachineinstancetype' : 'virtualmachinepreference';
    const kind = written === namespaced ? namespaced : cluster;
    out.push({ parameter: whole[1]!, matcher, kind, defaultValue: processed.values[whole[1]!]! });
  }
  return out;
}

export interface SweepRow {
  readonly value: string;
  readonly admitted: boolean;
  /** KubeVirt's words for the first refusal. */
  readonly refusal?: string;
  readonly isDefault: boolean;
}

export interface Sweep extends SweptParameter {
  readonly rows: readonly SweepRow[];
  /** The least specialised admitted value of the objects (the instance types' order: unspecialised, fewest vCPUs, least memory, name). */
  readonly best?: string;
  /** `best`, when the default is refused. */
  readonly suggestion?: string;
}

/**
 * What makes an instance type more than general purpose: dedicated CPUs (or an isolated emulator
 * thread), NUMA or realtime, hugepages, overcommitted memory, GPUs, host devices.
 */
export function specialisationsOf(o: SpecObject): Set<'dedicated' | 'numa' | 'realtime' | 'hugepages' | 'overcommit' | 'gpus' | 'hostDevices'> {
  const cpu = isPlainObject(o.spec['cpu']) ? o.spec['cpu'] : {};
  const memory = isPlainObject(o.spec['memory']) ? o.spec['memory'] : {};
  const out = new Set<'dedicated' | 'numa' | 'realtime' | 'hugepages' | 'overcommit' | 'gpus' | 'hostDevices'>();
  if (cpu['dedicatedCPUPlacement'] === true || cpu['isolateEmulatorThread'] === true) out.add('dedicated');
  if (isPlainObject(cpu['numa'])) out.add('numa');
  if (isPlainObject(cpu['realtime'])) out.add('realtime');
  if (isPlainObject(memory['hugepages'])) out.add('hugepages');
  // Overcommitted memory: the guest is promised more than the pod requests.
  if (typeof memory['overcommitPercent'] === 'number' && memory['overcommitPercent'] > 0) out.add('overcommit');
  if (Array.isArray(o.spec['gpus']) && o.spec['gpus'].length > 0) out.add('gpus');
  if (Array.isArray(o.spec['hostDevices']) && o.spec['hostDevices'].length > 0) out.add('hostDevices');
  return out;
}

/**
 * How specialised an instance type is, for ordering (least first): the CPU's (dedicated, NUMA,
 * realtime) count once, then hugepages, overcommitted memory, GPUs and host devices. The one order of
 * `select`'s decision, a template's sweep and `migrate templates`.
 */
export function specialisation(o: SpecObject): number {
  const s = specialisationsOf(o);
  return (
    Number(s.has('dedicated') || s.has('numa') || s.has('realtime')) +
    Number(s.has('hugepages')) +
    Number(s.has('overcommit')) +
    Number(s.has('gpus')) +
    Number(s.has('hostDevices'))
  );
}

const family = (name: string): string => name.split('.')[0] ?? name;

/** Every value a swept parameter can take among the objects, each judged as the template's VM with it. */
export function sweepTemplate(
  src: SourceDoc,
  processed: ProcessedTemplate,
  store: ObjectStore,
  judging: Judging,
  options: {
    /** Prefer the default's family among equally specialised instance types (validate's suggestion); a catalog's own choice does not. */
    readonly preferDefaultFamily?: boolean;
    /** Which of the store's objects are values to try (default: every one of the matcher's kind). */
    readonly among?: (o: SpecObject) => boolean;
  } = {},
): Sweep[] {
  const preferDefaultFamily = options.preferDefaultFamily ?? true;
  const out: Sweep[] = [];
  for (const p of sweptParameters(src, processed)) {
    const candidates = store.specObjects.filter((o) => o.kind.toLowerCase() === p.kind && (options.among?.(o) ?? true));
    const byName = new Map(candidates.map((o) => [o.name, o]));
    const rows: SweepRow[] = [...new Set([p.defaultValue, ...candidates.map((o) => o.name)])].map((value) => {
      const r = processTemplateDocument(src.value as Json, { pick: FIXED_DRAW, params: new Map([[p.parameter, value]]), json: /\.json$/i.test(src.file) });
      if (!r.vm) return { value, admitted: false, refusal: r.error?.message ?? 'the engine made no VM', isDefault: value === p.defaultValue };
      const found = judgeDocuments([vmDocument(src, r.vm)], store, { admission: true, revisionsInCluster: 'said' }, judging).filter(
        (d) => d.severity === 'error',
      );
      return { value, admitted: found.length === 0, ...(found[0] ? { refusal: found[0].message } : {}), isDefault: value === p.defaultValue };
    });
    const def = rows.find((r) => r.isDefault);
    const admitted = rows.filter((r) => r.admitted && byName.has(r.value));
    const objectOf = (v: string): SpecObject => byName.get(v)!;
    const cpuOf = (o: SpecObject): number => Number((isPlainObject(o.spec['cpu']) ? o.spec['cpu']['guest'] : 0) ?? 0);
    const memOf = (o: SpecObject): string => String((isPlainObject(o.spec['memory']) ? o.spec['memory']['guest'] : '') ?? '');
    const order = (a: SweepRow, b: SweepRow): number => {
      const x = objectOf(a.value);
      const y = objectOf(b.value);
      return (
        specialisation(x) - specialisation(y) ||
        (preferDefaultFamily ? Number(family(y.name) === family(p.defaultValue)) - Number(family(x.name) === family(p.defaultValue)) : 0) ||
        cpuOf(x) - cpuOf(y) ||
        (parseQuantity(memOf(x)) ?? 0) - (parseQuantity(memOf(y)) ?? 0) ||
        (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)
      );
    };
    const best = p.matcher === 'instancetype' ? [...admitted].sort(order)[0]?.value : admitted[0]?.value;
    const suggestion = def && !def.admitted ? best : undefined;
    out.push({ ...p, rows, ...(best !== undefined ? { best } : {}), ...(suggestion !== undefined ? { suggestion } : {}) });
  }
  return out;
}

/** The judge's refusals of a template's VM with the sweep's suggestion as their hint. */
export function withSweepHints(diagnostics: readonly Diagnostic[], sweeps: readonly { readonly file: string; readonly sweep: Sweep }[]): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.severity !== 'error' || !/^IT800[238]$/.test(d.code)) return d;
    const s = sweeps.find((x) => x.file === d.location?.file && x.sweep.suggestion !== undefined);
    if (!s) return d;
    const { parameter, defaultValue, suggestion } = s.sweep;
    // The judge's own hint may already name it (the smallest size of the family that meets the preference).
    if (d.hint?.includes(`\`${suggestion}\``)) return d;
    const hint = `the template's default ${parameter}=${defaultValue} is refused; ${suggestion} is the least specialised value of the catalog KubeVirt admits with this template (itgen template sweep ${s.file} lists every value)`;
    return { ...d, hint: d.hint ? `${d.hint}; ${hint}` : hint };
  });
}
