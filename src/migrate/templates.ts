/**
 * `migrate templates`: OpenShift Templates of a VM (common-templates': one per OS x workload x
 * flavor, the size baked into the VM) turned into VirtualMachineTemplates that name the catalog's
 * instance types and preferences. What `virtctl template convert` does first (one object, the
 * parameters and metadata kept), then: the preference of the template's OS, the instance type
 * that holds its size and the minimums of its `vm.kubevirt.io/validations` (the least specialised
 * one KubeVirt admits with the preference, as the INSTANCETYPE parameter's default), the VM's size
 * fields removed (the instance type gives them), and the proof: the VMI KubeVirt starts from the
 * old template's VM against the one it starts from the new template's, field by field.
 */
import { diag, type Diagnostic } from '../diagnostics';
import { isPlainObject, obj, type Json, type JsonObject } from '../json';
import { locate, type SourceDoc } from '../load/source';
import { parseQuantity } from '../quantity';
import { previewVm } from '../expand/judge';
import { specialisationsOf, sweepTemplate, templatesAsVms } from '../expand/templates';
import type { Judging } from '../expand/judging';
import type { ObjectStore } from '../expand/references';
import type { SpecObject } from '../expand/model';
import type { ClusterDefaults } from '../kubevirt/config';
import { processTemplateDocument } from '../kubevirt/template';
import { copy } from '../kubevirt/go';
import { compareSpecs, type Difference } from './compare';

export const OPENSHIFT_TEMPLATE_API = 'template.openshift.io/v1';
const VALIDATIONS_ANNOTATION = 'vm.kubevirt.io/validations';

/** The minimums a template's validations state (osinfo's, in common-templates). */
export interface Minimums {
  readonly memory?: number;
  readonly cores?: number;
}

export interface MigratedTemplate {
  readonly name: string;
  readonly file: string;
  /** The VirtualMachineTemplate written, when the template could be migrated. */
  readonly template?: JsonObject;
  readonly preference?: string;
  readonly instancetype?: string;
  readonly minimums: Minimums;
  /** Where the VMI the new template starts differs from the old one's (spec fields). */
  readonly differences: readonly Difference[];
}

export interface TemplateMigration {
  readonly migrated: readonly MigratedTemplate[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface TemplateMigrationOptions {
  readonly store: ObjectStore;
  readonly judging: Judging;
  readonly config: ClusterDefaults;
  readonly namespace?: string;
}

const FIXED_DRAW = (): number => 0;

/** `virtctl template convert`: the Template's one object, parameters and metadata as a VirtualMachineTemplate. */
export function convertTemplate(t: JsonObject): { template: JsonObject } | { error: string } {
  const objects = Array.isArray(t['objects']) ? t['objects'] : [];
  if (objects.length !== 1) return { error: `template must contain exactly one object, found ${objects.length}` };
  const meta = obj(t['metadata']) ?? {};
  const parameters = (Array.isArray(t['parameters']) ? t['parameters'] : []).filter(isPlainObject).map((p) => {
    const out: JsonObject = {};
    for (const k of ['name', 'displayName', 'description', 'value', 'generate', 'from']) if (typeof p[k] === 'string' && p[k] !== '') out[k] = p[k];
    if (p['required'] === true) out['required'] = true;
    return out;
  });
  const metadata: JsonObject = {};
  for (const k of ['name', 'namespace', 'labels', 'annotations']) if (meta[k] !== undefined) metadata[k] = meta[k]!;
  return {
    template: {
      apiVersion: 'template.kubevirt.io/v1beta1',
      kind: 'VirtualMachineTemplate',
      metadata,
      spec: { ...(typeof t['message'] === 'string' ? { message: t['message'] } : {}), parameters, virtualMachine: objects[0]! },
    },
  };
}

/** The minimums of `vm.kubevirt.io/validations`: `integer` rules with a `min` on the guest memory and the cores. */
export function validationMinimums(vm: JsonObject): Minimums {
  const text = obj(obj(vm['metadata'])?.['annotations'])?.[VALIDATIONS_ANNOTATION];
  if (typeof text !== 'string') return {};
  let rules: unknown;
  try {
    rules = JSON.parse(text);
  } catch {
    return {};
  }
  let memory: number | undefined;
  let cores: number | undefined;
  for (const r of Array.isArray(rules) ? rules : []) {
    if (!isPlainObject(r) || r['rule'] !== 'integer' || typeof r['min'] !== 'number' || r['justWarning'] === true) continue;
    if (r['path'] === 'jsonpath::.spec.domain.memory.guest') memory = Math.max(memory ?? 0, r['min']);
    if (r['path'] === 'jsonpath::.spec.domain.cpu.cores') cores = Math.max(cores ?? 0, r['min']);
  }
  return { ...(memory !== undefined ? { memory } : {}), ...(cores !== undefined ? { cores } : {}) };
}

/** The OS a common-template is for (`os.template.kubevirt.io/win11: "true"`, or the VM's `vm.kubevirt.io/os`), and its architecture. */
function osOf(t: JsonObject, vm: JsonObject): { os?: string; arch: string } {
  const labels = obj(obj(t['metadata'])?.['labels']) ?? {};
  const fromLabel = Object.keys(labels)
    .filter((k) => k.startsWith('os.template.kubevirt.io/') && labels[k] === 'true')
    .map((k) => k.slice('os.template.kubevirt.io/'.length))[0];
  const spec = obj(obj(obj(vm['spec'])?.['template'])?.['spec']);
  const fromVm = obj(obj(obj(obj(vm['spec'])?.['template'])?.['metadata'])?.['annotations'])?.['vm.kubevirt.io/os'];
  const arch = String(labels['template.kubevirt.io/architecture'] ?? spec?.['architecture'] ?? 'amd64');
  const os = fromLabel ?? (typeof fromVm === 'string' ? fromVm : undefined);
  return { ...(os !== undefined ? { os } : {}), arch };
}

/** The catalog preference of an osinfo short id (`win11` -> windows.11, `rhel9.4` -> rhel.9, `centos-stream9` -> centos.stream9), on an architecture. */
export function preferenceFor(os: string, arch: string, names: ReadonlySet<string>): string | undefined {
  const forms: string[] = [];
  const win = /^win(2k\d+|\d+)$/.exec(os);
  if (win) forms.push(`windows.${win[1]}`);
  const versioned = /^([a-z]+?)-?(\d+)(?:\.\d+)?$/.exec(os);
  if (versioned) forms.push(`${versioned[1]}.${versioned[2]}`);
  const stream = /^centos-stream(\d+)$/.exec(os);
  if (stream) forms.push(`centos.stream${stream[1]}`);
  forms.push(os, os.replace(/-/g, '.'));
  if (os === 'opensuse') forms.push('opensuse.leap');
  const suffix = arch === 'amd64' ? '' : `.${arch}`;
  return forms.map((f) => `${f}${suffix}`).find((f) => names.has(f));
}

/** What the old VM asks of an instance type: its vCPUs and memory, and whether its CPUs are dedicated. */
function needsOf(vm: JsonObject, minimums: Minimums): { vcpus: number; memory: number; dedicated: boolean; isolate: boolean } {
  const domain = obj(obj(obj(obj(vm['spec'])?.['template'])?.['spec'])?.['domain']) ?? {};
  const cpu = obj(domain['cpu']) ?? {};
  const n = (v: Json | undefined): number => (typeof v === 'number' && v > 0 ? v : 1);
  const vcpus = n(cpu['sockets']) * n(cpu['cores']) * n(cpu['threads']);
  const guest = obj(domain['memory'])?.['guest'] ?? obj(obj(domain['resources'])?.['requests'])?.['memory'];
  const memory = typeof guest === 'string' || typeof guest === 'number' ? (parseQuantity(guest) ?? 0) : 0;
  return {
    vcpus: Math.max(vcpus, minimums.cores ?? 0),
    memory: Math.max(memory, minimums.memory ?? 0),
    dedicated: cpu['dedicatedCpuPlacement'] === true,
    isolate: cpu['isolateEmulatorThread'] === true,
  };
}

const cpuOf = (o: SpecObject): number => Number(obj(o.spec['cpu'])?.['guest'] ?? 0);
const memOf = (o: SpecObject): number => parseQuantity(String(obj(o.spec['memory'])?.['guest'] ?? '')) ?? 0;
const dedicatedOf = (o: SpecObject): boolean => obj(o.spec['cpu'])?.['dedicatedCPUPlacement'] === true;
const isolatedOf = (o: SpecObject): boolean => obj(o.spec['cpu'])?.['isolateEmulatorThread'] === true;
/** Plain: no NUMA, realtime, hugepages, overcommitted memory, GPUs or host devices (dedicated CPUs are the VM's own to ask for). */
const plainOf = (o: SpecObject): boolean => [...specialisationsOf(o)].every((x) => x === 'dedicated');

/** The VM with what the instance type gives removed (topology, dedicated CPUs, guest memory, memory request) and the matchers set. */
function withMatchers(vm: JsonObject, instancetypeKind: string, preference: { kind: string; name: string }): JsonObject {
  const out = copy(vm);
  const spec = obj(out['spec'])!;
  const domain = obj(obj(obj(spec['template'])?.['spec'])?.['domain']);
  if (domain) {
    const cpu = obj(domain['cpu']);
    if (cpu) {
      for (const k of ['sockets', 'cores', 'threads', 'dedicatedCpuPlacement', 'isolateEmulatorThread']) delete cpu[k];
      if (Object.keys(cpu).length === 0) delete domain['cpu'];
    }
    const memory = obj(domain['memory']);
    if (memory) {
      delete memory['guest'];
      if (Object.keys(memory).length === 0) delete domain['memory'];
    }
    const requests = obj(obj(domain['resources'])?.['requests']);
    if (requests) {
      delete requests['memory'];
      if (Object.keys(requests).length === 0) delete obj(domain['resources'])!['requests'];
      if (Object.keys(obj(domain['resources'])!).length === 0) delete domain['resources'];
    }
  }
  // The validations' JSONPaths name fields the instance type now gives: the minimums are the instance type's to hold.
  const annotations = obj(obj(out['metadata'])?.['annotations']);
  if (annotations) {
    delete annotations[VALIDATIONS_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete obj(out['metadata'])!['annotations'];
  }
  const rest = Object.fromEntries(Object.entries(spec).filter(([k]) => k !== 'instancetype' && k !== 'preference'));
  out['spec'] = { instancetype: { kind: instancetypeKind, name: '${INSTANCETYPE}' }, preference: { kind: preference.kind, name: preference.name }, ...rest };
  return out;
}

/** One Template migrated, or why not (diagnostics at its lines). */
// Over 80 lines: the migration's steps in order (convert, process, map, judge, prove), each a call, each failure said where it is.
function migrateOne(src: SourceDoc, opts: TemplateMigrationOptions, diagnostics: Diagnostic[]): MigratedTemplate | undefined {
  const t = src.value as JsonObject;
  const name = String(obj(t['metadata'])?.['name'] ?? '(unnamed)');
  const at = (path: readonly (string | number)[]) => locate(src, path);
  const converted = convertTemplate(t);
  if ('error' in converted) {
    diagnostics.push(
      diag('IT8208', `Template \`${name}\`: ${converted.error}`, at(['objects']), { hint: 'a VirtualMachineTemplate holds one VirtualMachine' }),
    );
    return undefined;
  }
  const old = processTemplateDocument(converted.template, { pick: FIXED_DRAW });
  if (!old.vm) {
    diagnostics.push(diag('IT8208', `Template \`${name}\`: ${old.error?.message ?? 'no VirtualMachine'}`, at(['objects', 0])));
    return undefined;
  }
  const minimums = validationMinimums(old.vm);
  const { os, arch } = osOf(t, old.vm);
  const clusterPreferences = opts.store.specObjects.filter((o) => o.kind === 'VirtualMachineClusterPreference');
  const preference = os === undefined ? undefined : preferenceFor(os, arch, new Set(clusterPreferences.map((p) => p.name)));
  if (preference === undefined) {
    diagnostics.push(
      diag(
        'IT8209',
        `Template \`${name}\`: no preference of the catalog for ${os === undefined ? 'its OS (no os.template.kubevirt.io label)' : `\`${os}\` on ${arch}`}`,
        at(['metadata', 'labels']),
        {
          hint: 'give the catalogs with --with; a preference named after the OS (windows.11, rhel.9, fedora) is what the template is mapped to',
        },
      ),
    );
    return { name, file: src.file, minimums, differences: [] };
  }
  const needs = needsOf(old.vm, minimums);
  const fitting = opts.store.specObjects
    .filter((o) => o.kind === 'VirtualMachineClusterInstancetype')
    .filter((o) => cpuOf(o) >= needs.vcpus && memOf(o) >= needs.memory && dedicatedOf(o) === needs.dedicated && isolatedOf(o) === needs.isolate && plainOf(o))
    .sort((a, b) => cpuOf(a) - cpuOf(b) || memOf(a) - memOf(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const draft = (instancetype: string): JsonObject => {
    const spec = obj(converted.template['spec'])!;
    const vm = withMatchers(obj(spec['virtualMachine'])!, 'VirtualMachineClusterInstancetype', { kind: 'VirtualMachineClusterPreference', name: preference });
    const parameters = [
      ...(Array.isArray(spec['parameters']) ? spec['parameters'] : []),
      { name: 'INSTANCETYPE', description: 'The instance type (VirtualMachineClusterInstancetype) of the VM', value: instancetype },
    ];
    return { ...converted.template, spec: { ...spec, parameters, virtualMachine: vm } };
  };
  if (fitting.length === 0) {
    diagnostics.push(
      diag(
        'IT8210',
        `Template \`${name}\`: no instance type of the catalog has ${needs.vcpus} vCPUs and ${needs.memory} bytes of memory${needs.dedicated ? ' on dedicated CPUs' : ''}`,
        at(['objects', 0]),
        {
          hint: 'add a size to the catalog, or give the catalog that has one with --with',
        },
      ),
    );
    return { name, file: src.file, preference, minimums, differences: [] };
  }
  // The one judge picks among the fitting ones: the first KubeVirt admits and starts with the preference.
  const first = draft(fitting[0]!.name);
  const doc: SourceDoc = { ...src, value: first, patched: [{ path: [], to: src, at: [] }] };
  const processed = templatesAsVms([doc], [opts.config.release ?? 'v1.9.0']).templates[0]!.processed;
  const [sweep] = sweepTemplate(doc, processed, opts.store, opts.judging, { among: (o) => fitting.includes(o) });
  const admitted = new Set((sweep?.rows ?? []).filter((r) => r.admitted).map((r) => r.value));
  const chosen = fitting.find((o) => admitted.has(o.name));
  if (!chosen) {
    diagnostics.push(
      diag(
        'IT8210',
        `Template \`${name}\`: KubeVirt starts a VM of the preference \`${preference}\` with none of the instance types that fit it`,
        at(['objects', 0]),
        {
          hint: sweep?.rows[0]?.refusal ?? 'no instance type fits',
        },
      ),
    );
    return { name, file: src.file, preference, minimums, differences: [] };
  }
  const template = draft(chosen.name);
  const made = processTemplateDocument(template, { pick: FIXED_DRAW });
  const ns = opts.namespace ?? 'default';
  const before = previewVm(old.vm, opts.store, opts.config, ns);
  const after = made.vm ? previewVm(made.vm, opts.store, opts.config, ns) : undefined;
  const differences = 'vmi' in before && after && 'vmi' in after ? compareSpecs(obj(before.vmi['spec']) ?? {}, obj(after.vmi['spec']) ?? {}) : [];
  if (after && 'error' in after)
    diagnostics.push(diag('IT8210', `Template \`${name}\`: KubeVirt would not start its migrated VM: ${after.error}`, at(['objects', 0])));
  for (const d of differences)
    diagnostics.push(
      diag(
        'IT8211',
        `Template \`${name}\`: the VMI differs at \`spec.${d.field}\`: ${JSON.stringify(d.before ?? null)} before, ${JSON.stringify(d.after ?? null)} with \`${chosen.name}\` and \`${preference}\``,
        at(['objects', 0]),
        {
          severity: 'warning',
        },
      ),
    );
  const required = obj(clusterPreferences.find((p) => p.name === preference)?.spec['requirements']);
  const needCpu = Number(obj(required?.['cpu'])?.['guest'] ?? 0);
  const needMem = parseQuantity(String(obj(required?.['memory'])?.['guest'] ?? '0')) ?? 0;
  if ((minimums.cores ?? 0) > needCpu || (minimums.memory ?? 0) > needMem)
    diagnostics.push(
      diag(
        'IT8212',
        `Template \`${name}\`: its validations ask for ${[minimums.cores !== undefined ? `${minimums.cores} cores` : '', minimums.memory !== undefined ? `${minimums.memory} bytes of memory` : ''].filter(Boolean).join(' and ')}, more than the preference \`${preference}\` requires: a VM made with a smaller INSTANCETYPE is admitted`,
        at(['objects', 0, 'metadata', 'annotations']),
        { severity: 'warning', hint: `the default \`${chosen.name}\` holds them; a preference's spec.requirements would make KubeVirt refuse less` },
      ),
    );
  return { name, file: src.file, template, preference, instancetype: chosen.name, minimums, differences };
}

/** Every OpenShift Template of `docs` migrated against the catalogs of `opts.store`. */
export function migrateTemplates(docs: readonly SourceDoc[], opts: TemplateMigrationOptions): TemplateMigration {
  const diagnostics: Diagnostic[] = [];
  const migrated: MigratedTemplate[] = [];
  const templates = docs.filter((d) => isPlainObject(d.value) && d.value['kind'] === 'Template' && d.value['apiVersion'] === OPENSHIFT_TEMPLATE_API);
  if (templates.length === 0)
    diagnostics.push(diag('IT8208', 'no OpenShift Template (template.openshift.io/v1) in the input', docs[0] ? locate(docs[0], []) : undefined));
  for (const src of templates) {
    const m = migrateOne(src, opts, diagnostics);
    if (m) migrated.push(m);
  }
  return { migrated, diagnostics };
}
