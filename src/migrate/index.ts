/**
 * `migrate presets`: VirtualMachineInstancePresets and the VMs they select, turned into an itgen
 * project (instance types and preferences) and VMs that name them, with a proof per VM: the VMI
 * spec KubeVirt builds from the rewritten VM (src/expand, against the objects the written catalog
 * compiles to) compared with the one it builds today from the old VM and its presets.
 */
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics';
import type { OutputFile } from '../emit/layout';
import { expand, objectStore, resolveReferences, type ObjectStore } from '../expand';
import { setDefaultInstanceSpec, setDefaultNetworkInterface, setDefaultVolumeDisks } from '../expand/defaults';
import type { FoundObject } from '../expand/documents';
import { copy, isSet, KUBEVIRT_DEFAULTS, list, obj, type Json, type JsonObject } from '../expand/model';
import { locate, parseSource, type PathSegment, type SourceDoc } from '../load/source';
import { compileDocuments, type LoadedGenerator } from '../pipeline';
import { strict } from '../schema/lazy';
import { KINDS_OF } from '../schema/kubevirt-api';
import { compareSpecs, type Difference } from './compare';
import { withoutNulls } from './go-values';
import { nameOf, namespaceOf, readInputs, type PresetInput } from './inputs';
import { applyPlanToSpec, planVm, type VmPlan } from './mapping';
import { projectFiles, type MigratedObject, type ProjectGroup } from './project';
import { applyPresets, EXCLUDE_ANNOTATION, orderDependentRequests, presetConflicts, selects, type MergedSection, type Preset } from './presets';
import { migrationReport } from './report';
import { rewriteVmText } from './vm-file';
import { byText, compareText } from '../order';

export { EXCLUDE_ANNOTATION, mergeConflicts, mergeDomain, presetConflicts, selects, type Preset } from './presets';
export { goQuantityIdentity, semanticEqual } from './go-values';
export { topologyFor, overcommitFor } from './mapping';

export interface MigrateOptions {
  /** Generator and catalog name. */
  readonly name: string;
  /** Cluster-wide kinds instead of namespaced ones in the presets' namespace. */
  readonly cluster: boolean;
  /** Differences between the old and the new VMI spec are warnings, not errors. */
  readonly allowDifferences: boolean;
  /** Where the project is written, as shown in messages and MIGRATION.md (relative to the caller). */
  readonly outDir: string;
}

export type VmOutcome =
  | {
      readonly status: 'migrated';
      readonly plan: VmPlan;
      readonly instancetype?: string | undefined;
      readonly preference?: string | undefined;
      readonly file: string;
      readonly differences: readonly Difference[];
    }
  | { readonly status: 'excluded' | 'unselected' }
  | { readonly status: 'skipped'; readonly reason: string };

export interface VmRecord {
  readonly found: FoundObject;
  readonly name: string;
  readonly namespace: string;
  readonly presets: readonly string[];
  /** KubeVirt's warnings at VMI creation (a preset differing from the VM's own values). */
  readonly warnings: readonly string[];
  /** Which preset supplied which section (the VM had none of its own). */
  readonly supplied: readonly (readonly [MergedSection, string])[];
  readonly outcome: VmOutcome;
}

export interface Migration {
  readonly files: readonly OutputFile[];
  readonly vms: readonly VmRecord[];
  readonly presets: readonly PresetInput[];
  readonly vmis: readonly { readonly name: string; readonly namespace: string; readonly presets: readonly string[] }[];
  readonly diagnostics: readonly Diagnostic[];
}

type Group = {
  key: string;
  namespace: string | undefined;
  instancetypes: Map<string, MigratedObject & { key: string }>;
  preferences: Map<string, MigratedObject & { key: string }>;
};

/** Keys sorted, so that one spec written in two orders is one object. */
function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = obj(v);
  if (o)
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k]!)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** The name of the object with this spec in its group: shared by equal specs, suffixed when a name is taken. */
function nameFor(objects: Map<string, MigratedObject & { key: string }>, spec: JsonObject, from: readonly string[]): string {
  const key = canonical(spec);
  const existing = [...objects.values()].find((o) => o.key === key);
  if (existing) return existing.name;
  const base = from
    .join('-')
    .slice(0, 180)
    .replace(/[-.]+$/, '');
  let name = base;
  for (let i = 2; objects.has(name); i++) name = `${base}-${i}`;
  objects.set(name, { name, spec, from, key });
  return name;
}

function labelsOf(meta: JsonObject | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(meta?.['labels']) ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The template's metadata and spec, nulls read as Go reads them (absent). */
function templateOf(vm: JsonObject): { meta: JsonObject | undefined; spec: JsonObject } {
  const t = obj(obj(vm['spec'])?.['template']);
  return { meta: obj(t?.['metadata']), spec: withoutNulls(obj(t?.['spec']) ?? {}) };
}

/** The VMI spec KubeVirt builds today: disks and pod network, presets, then its defaults. */
function presetEraSpec(spec: JsonObject, presets: readonly Preset[]): JsonObject {
  const out = copy(spec);
  setDefaultVolumeDisks(out);
  setDefaultNetworkInterface(out, KUBEVIRT_DEFAULTS);
  const domain = obj(out['domain']) ?? {};
  out['domain'] = domain;
  applyPresets(presets, domain);
  setDefaultInstanceSpec(out, KUBEVIRT_DEFAULTS);
  return out;
}

function vmFileName(name: string, namespace: string, all: readonly FoundObject[]): string {
  const twice = all.filter((v) => nameOf(v) === name).length > 1;
  return twice ? `vms/${namespace}/${name}.yaml` : `vms/${name}.yaml`;
}

function at(f: FoundObject, path: readonly PathSegment[]): ReturnType<typeof locate> {
  return locate(f.src, [...f.path, ...path]);
}

/** The written project compiled as `itgen generate` would, in memory; its objects for the proof. */
function compileWritten(files: readonly OutputFile[], groups: readonly ProjectGroup[], outDir: string): { store: ObjectStore; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const objects: JsonObject[] = [];
  for (const g of groups) {
    const parse = (f: OutputFile): SourceDoc[] => parseSource(f.path, Buffer.from(f.content)).docs;
    const genFile = files.find((f) => f.path === `generators/${g.name}.yaml`)!;
    const genDoc = parse(genFile)[0]!;
    const generator: LoadedGenerator = {
      name: g.name,
      file: genFile.path,
      config: strict().generatorSchema.parse(genDoc.value),
      src: genDoc,
      catalogDir: `catalogs/${g.name}`,
      outputDir: `output/${g.name}`,
    };
    const docs = files.filter((f) => f.path.startsWith(`catalogs/${g.name}/`)).flatMap(parse);
    const result = compileDocuments(generator, docs);
    const shown = result.diagnostics.map((d) => (d.location ? { ...d, location: { ...d.location, file: `${outDir}/${d.location.file}` } } : d));
    // The catalog's form is ours: a schema or resolution error in it is a bug of the migration.
    // KubeVirt's rules (IT3xxx-IT6xxx) judge values the presets and VMs gave: the input's problem.
    const ours = (d: Diagnostic): boolean => /^IT[12]/.test(d.code);
    diagnostics.push(
      ...shown.map((d) =>
        d.severity !== 'error'
          ? d
          : ours(d)
            ? { ...d, code: 'IT9001' as const, message: `the migrated catalog does not compile: ${d.message}` }
            : { ...d, message: `${d.message} (a value the presets or VMs give; KubeVirt would refuse it too)` },
      ),
    );
    objects.push(...result.objects.map((o) => o.manifest as unknown as JsonObject));
  }
  return { store: objectStore(objects), diagnostics };
}

export function migratePresets(docs: readonly SourceDoc[], options: MigrateOptions): Migration {
  const inputs = readInputs(docs);
  const diagnostics: Diagnostic[] = [...inputs.diagnostics];
  if (hasErrors(diagnostics)) return { files: [], vms: [], presets: inputs.presets, vmis: [], diagnostics: sortDiagnostics(diagnostics) };
  const presetsIn = (ns: string): Preset[] =>
    inputs.presets
      .map((p) => p.preset)
      .filter((p) => p.namespace === ns)
      .sort(byText((x) => x.name));
  const matching = (ns: string, meta: JsonObject | undefined): Preset[] => presetsIn(ns).filter((p) => selects(p, labelsOf(meta)));
  const groups = new Map<string, Group>();
  const groupFor = (ns: string): Group => {
    const key = options.cluster ? '' : ns;
    let g = groups.get(key);
    if (!g) {
      // A namespace the presets stated is kept; presets without one stay without.
      const stated = inputs.presets.some((p) => p.preset.namespace === ns && obj(p.at.value['metadata'])?.['namespace'] !== undefined);
      g = { key, namespace: options.cluster || !stated ? undefined : ns, instancetypes: new Map(), preferences: new Map() };
      groups.set(key, g);
    }
    return g;
  };
  const order = [...inputs.vms].sort((a, b) => {
    const ka = `${namespaceOf(a)}/${nameOf(a)}`;
    const kb = `${namespaceOf(b)}/${nameOf(b)}`;
    return compareText(ka, kb);
  });
  type Pending = {
    found: FoundObject;
    name: string;
    namespace: string;
    presets: Preset[];
    warnings: string[];
    supplied: [MergedSection, string][];
    plan?: VmPlan;
    names?: { instancetype?: string | undefined; preference?: string | undefined };
    outcome?: VmOutcome;
    before?: JsonObject;
  };
  const pending: Pending[] = [];
  for (const found of order) {
    const name = nameOf(found);
    const namespace = namespaceOf(found);
    const { meta, spec } = templateOf(found.value);
    const presets = matching(namespace, meta);
    const rec: Pending = { found, name, namespace, presets, warnings: [], supplied: [] };
    pending.push(rec);
    const skip = (reason: string, code: 'IT8203' | 'IT8204', hint: string): void => {
      rec.outcome = { status: 'skipped', reason };
      diagnostics.push(diag(code, `VirtualMachine \`${name}\` is not migrated: ${reason}`, at(found, ['metadata', 'name']), { severity: 'warning', hint }));
    };
    if (obj(meta?.['annotations'])?.[EXCLUDE_ANNOTATION] === 'true') {
      rec.outcome = { status: 'excluded' };
      continue;
    }
    if (presets.length === 0) {
      rec.outcome = { status: 'unselected' };
      continue;
    }
    const vmSpec = obj(found.value['spec']);
    if (isSet(vmSpec?.['instancetype']) || isSet(vmSpec?.['preference'])) {
      skip(
        'it already names an instance type or preference; KubeVirt still merges its presets into what those leave unset',
        'IT8204',
        'move what the presets give into its instance type or preference by hand, then exclude it from the presets',
      );
      continue;
    }
    const refusal = presetConflicts(presets);
    if (refusal !== undefined) {
      skip(`KubeVirt refuses its VMI today: ${refusal}`, 'IT8203', 'make the presets agree or narrow their selectors, then migrate again');
      continue;
    }
    const racing = orderDependentRequests(presets, obj(spec['domain']) ?? {});
    if (racing) {
      skip(
        `presets '${racing[0]}' and '${racing[1]}' both give resources.requests; KubeVirt copies the map of whichever it lists first, in no defined order`,
        'IT8204',
        'give the requests in one preset only, then migrate again',
      );
      continue;
    }
    const merged = copy(spec);
    const domain = obj(merged['domain']) ?? {};
    merged['domain'] = domain;
    const applied = applyPresets(presets, domain);
    rec.warnings.push(...applied.warnings.map((w) => w.message));
    rec.supplied.push(...applied.suppliedBy);
    const planned = planVm(spec, merged, applied.suppliedBy);
    if ('refused' in planned) {
      skip(planned.refused, 'IT8204', 'migrate this VM by hand');
      continue;
    }
    const plan = planned.plan;
    const g = groupFor(namespace);
    rec.plan = plan;
    rec.names = {
      instancetype: plan.instancetype ? nameFor(g.instancetypes, plan.instancetype, plan.instancetypeFrom) : undefined,
      preference: plan.preference
        ? nameFor(g.preferences, plan.preference, plan.preferenceFrom.length > 0 ? plan.preferenceFrom : plan.instancetypeFrom)
        : undefined,
    };
    rec.before = presetEraSpec(spec, presets);
  }

  const projectGroups: ProjectGroup[] = [...groups.values()].sort(byText((x) => x.key)).map((g) => ({
    name: groups.size === 1 ? options.name : `${options.name}-${g.key}`,
    namespace: g.namespace,
    cluster: options.cluster,
    instancetypes: [...g.instancetypes.values()],
    preferences: [...g.preferences.values()],
  }));
  const files: OutputFile[] = projectFiles(projectGroups);
  const compiled = compileWritten(files, projectGroups, options.outDir);
  diagnostics.push(...compiled.diagnostics);
  const scope = options.cluster ? 'cluster' : 'namespaced';
  const kinds = { instancetype: KINDS_OF.instancetype[scope], preference: KINDS_OF.preference[scope] };

  for (const rec of pending) {
    if (rec.outcome || !rec.plan || !rec.before) continue;
    const { plan, names } = rec;
    const matchers = {
      instancetype: names?.instancetype !== undefined ? { kind: kinds.instancetype, name: names.instancetype } : undefined,
      preference: names?.preference !== undefined ? { kind: kinds.preference, name: names.preference } : undefined,
    };
    const vm = copy(rec.found.value);
    const vmSpec = obj(vm['spec'])!;
    const template = obj(vmSpec['template'])!;
    template['spec'] = applyPlanToSpec(templateOf(rec.found.value).spec, plan);
    if (matchers.instancetype) vmSpec['instancetype'] = { ...matchers.instancetype };
    if (matchers.preference) vmSpec['preference'] = { ...matchers.preference };
    vm['metadata'] = { ...obj(vm['metadata']), namespace: rec.namespace };
    let differences: Difference[];
    if (!matchers.instancetype && !matchers.preference) {
      // Nothing to expand (expand-spec returns such a VM as it is): what KubeVirt builds from it.
      differences = compareSpecs(rec.before, presetEraSpec(obj(template['spec'])!, []));
    } else {
      const resolved = resolveReferences(vm, compiled.store);
      const expanded = resolved.errors.length === 0 ? expand(vm, resolved.references) : undefined;
      if (!expanded || 'error' in expanded) {
        const why = !expanded ? resolved.errors.map((e) => e.message).join('; ') : expanded.error;
        diagnostics.push(diag('IT9001', `VirtualMachine \`${rec.name}\`: the migrated VM does not expand: ${why}`, at(rec.found, ['metadata', 'name'])));
        differences = [];
      } else differences = compareSpecs(rec.before, templateOf(expanded.vm).spec);
    }
    const file = vmFileName(rec.name, rec.namespace, inputs.vms);
    files.push({ path: file, content: rewriteVmText(rec.found, plan, matchers) });
    rec.outcome = { status: 'migrated', plan, instancetype: names?.instancetype, preference: names?.preference, file, differences };
    for (const n of plan.notCarried) {
      const source = n.preset !== undefined ? inputs.presets.find((p) => p.preset.name === n.preset && p.preset.namespace === rec.namespace) : undefined;
      const where = source
        ? at(source.at, ['spec', 'domain', ...n.field.split('.').slice(1)])
        : at(rec.found, ['spec', 'template', 'spec', ...n.field.split('.')]);
      diagnostics.push(
        diag(
          'IT8205',
          `VirtualMachine \`${rec.name}\`: ${n.field} ${JSON.stringify(n.value)}${n.preset !== undefined ? ` (from preset \`${n.preset}\`)` : ''} is not carried: ${n.why}`,
          where,
          { severity: 'warning' },
        ),
      );
    }
    for (const d of differences) {
      diagnostics.push(
        diag(
          'IT8206',
          `VirtualMachine \`${rec.name}\` would start differently: ${d.field} is ${JSON.stringify(d.before ?? null)} with presets, ${JSON.stringify(d.after ?? null)} migrated`,
          at(rec.found, ['metadata', 'name']),
          {
            severity: options.allowDifferences ? 'warning' : 'error',
            hint: options.allowDifferences
              ? 'accepted with --allow-differences; MIGRATION.md lists it'
              : 'review MIGRATION.md; --allow-differences accepts the differences and exits 0',
          },
        ),
      );
    }
  }
  // A VMI a VirtualMachine owns is created anew from the migrated VM at its next start.
  const standalone = inputs.vmis.filter((v) => !list(obj(v.value['metadata'])?.['ownerReferences']).some((o) => o['kind'] === 'VirtualMachine'));
  for (const vmi of standalone) {
    const ns = namespaceOf(vmi);
    const presets = obj(obj(vmi.value['metadata'])?.['annotations'])?.[EXCLUDE_ANNOTATION] === 'true' ? [] : matching(ns, obj(vmi.value['metadata']));
    if (presets.length > 0) {
      diagnostics.push(
        diag(
          'IT8207',
          `VirtualMachineInstance \`${nameOf(vmi)}\` is selected by ${presets.map((p) => `\`${p.name}\``).join(', ')}; a VMI cannot name an instance type`,
          at(vmi, ['metadata', 'name']),
          {
            severity: 'warning',
            hint: 'it keeps what the presets gave it while it runs; create it anew from a VirtualMachine that names the migrated instance type and preference',
          },
        ),
      );
    }
  }
  const vms: VmRecord[] = pending.map((r) => ({
    found: r.found,
    name: r.name,
    namespace: r.namespace,
    presets: r.presets.map((p) => p.name),
    warnings: r.warnings,
    supplied: r.supplied,
    outcome: r.outcome!,
  }));
  const vmis = standalone.map((v) => ({
    name: nameOf(v),
    namespace: namespaceOf(v),
    presets: matching(namespaceOf(v), obj(v.value['metadata'])).map((p) => p.name),
  }));
  const sorted = sortDiagnostics(diagnostics);
  // IT8206 alone still writes the project, for review; any other error writes nothing.
  if (hasErrors(sorted.filter((d) => d.code !== 'IT8206'))) return { files: [], vms, presets: inputs.presets, vmis, diagnostics: sorted };
  files.push({ path: 'MIGRATION.md', content: migrationReport({ vms, presets: inputs.presets, vmis, groups: projectGroups, options }) });
  return { files, vms, presets: inputs.presets, vmis, diagnostics: sorted };
}
