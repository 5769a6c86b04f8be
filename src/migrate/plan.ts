/**
 * The plan of `migrate presets`: for each VM, what its presets give it today (KubeVirt's merge),
 * whether it can be migrated, and the instance type and preference that carry the same, shared by
 * the VMs whose specs are equal; grouped by namespace (or for the cluster).
 */
import { obj, type JsonObject } from '../json';
import { diag, type Diagnostic } from '../diagnostics';
import { setDefaultInstanceSpec, setDefaultNetworkInterface, setDefaultVolumeDisks } from '../kubevirt/defaults';
import type { FoundObject } from '../expand/documents';
import { canonicalJson } from '../digest';
import { copy, isSet } from '../kubevirt/go';
import { KUBEVIRT_DEFAULTS } from '../kubevirt/config';
import { locate, type PathSegment } from '../load/source';
import { byText, compareText } from '../order';
import { withoutNulls } from './go-values';
import { nameOf, namespaceOf, type Inputs } from './inputs';
import { planVm } from './mapping';
import type { MigratedObject, ProjectGroup } from './project';
import { applyPresets, EXCLUDE_ANNOTATION, orderDependentRequests, presetConflicts, selects, type Preset } from './presets';
import type { Group, MigrateOptions, PlannedVm } from './types';

/** A planned VM while its warnings and supplied sections are being collected. */
type Planning = PlannedVm & { warnings: string[]; supplied: PlannedVm['supplied'][number][] };

/** The name of the object with this spec in its group: shared by equal specs, suffixed when a name is taken. */
function nameFor(objects: Map<string, MigratedObject & { key: string }>, spec: JsonObject, from: readonly string[]): string {
  // Keys sorted, so that one spec written in two orders is one object.
  const key = canonicalJson(spec);
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
export function templateOf(vm: JsonObject): { meta: JsonObject | undefined; spec: JsonObject } {
  const t = obj(obj(vm['spec'])?.['template']);
  return { meta: obj(t?.['metadata']), spec: withoutNulls(obj(t?.['spec']) ?? {}) };
}

/** The VMI spec KubeVirt builds today: disks and pod network, presets, then its defaults. */
export function presetEraSpec(spec: JsonObject, presets: readonly Preset[]): JsonObject {
  const out = copy(spec);
  setDefaultVolumeDisks(out);
  setDefaultNetworkInterface(out, KUBEVIRT_DEFAULTS);
  const domain = obj(out['domain']) ?? {};
  out['domain'] = domain;
  applyPresets(presets, domain);
  setDefaultInstanceSpec(out, KUBEVIRT_DEFAULTS);
  return out;
}

/** Where a path of a found object was written. */
export function at(f: FoundObject, path: readonly PathSegment[]): ReturnType<typeof locate> {
  return locate(f.src, [...f.path, ...path]);
}

/**
 * Every VM's plan (or why it is not migrated, with IT8203/IT8204), the project groups its objects
 * go to, and which presets select what (for the standalone VMIs).
 */
export function planMigration(
  inputs: Inputs,
  options: MigrateOptions,
  diagnostics: Diagnostic[],
): { planned: PlannedVm[]; groups: ProjectGroup[]; matching: (ns: string, meta: JsonObject | undefined) => Preset[] } {
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
  const vms = order.map((found) => planOne(found, matching, groupFor, diagnostics));

  const projectGroups: ProjectGroup[] = [...groups.values()].sort(byText((x) => x.key)).map((g) => ({
    name: groups.size === 1 ? options.name : `${options.name}-${g.key}`,
    namespace: g.namespace,
    cluster: options.cluster,
    instancetypes: [...g.instancetypes.values()],
    preferences: [...g.preferences.values()],
  }));
  return { planned: vms, groups: projectGroups, matching };
}

/** Why KubeVirt's presets keep this VM from being migrated as it is (IT8203/IT8204), or undefined. */
function blocker(found: FoundObject, spec: JsonObject, presets: readonly Preset[]): { reason: string; code: 'IT8203' | 'IT8204'; hint: string } | undefined {
  const vmSpec = obj(found.value['spec']);
  if (isSet(vmSpec?.['instancetype']) || isSet(vmSpec?.['preference'])) {
    return {
      reason: 'it already names an instance type or preference; KubeVirt still merges its presets into what those leave unset',
      code: 'IT8204',
      hint: 'move what the presets give into its instance type or preference by hand, then exclude it from the presets',
    };
  }
  const refusal = presetConflicts(presets);
  if (refusal !== undefined) {
    return {
      reason: `KubeVirt refuses its VMI today: ${refusal}`,
      code: 'IT8203',
      hint: 'make the presets agree or narrow their selectors, then migrate again',
    };
  }
  const racing = orderDependentRequests(presets, obj(spec['domain']) ?? {});
  if (racing) {
    return {
      reason: `presets '${racing[0]}' and '${racing[1]}' both give resources.requests; KubeVirt copies the map of whichever it lists first, in no defined order`,
      code: 'IT8204',
      hint: 'give the requests in one preset only, then migrate again',
    };
  }
  return undefined;
}

/** One VM: not migrated (and why), or its plan, the names of its objects in its group, and the spec KubeVirt builds today. */
function planOne(
  found: FoundObject,
  matching: (ns: string, meta: JsonObject | undefined) => Preset[],
  groupFor: (ns: string) => Group,
  diagnostics: Diagnostic[],
): Planning {
  const name = nameOf(found);
  const namespace = namespaceOf(found);
  const { meta, spec } = templateOf(found.value);
  const presets = matching(namespace, meta);
  const rec: Planning = { found, name, namespace, presets, warnings: [], supplied: [] };
  const skip = (reason: string, code: 'IT8203' | 'IT8204', hint: string): Planning => {
    diagnostics.push(diag(code, `VirtualMachine \`${name}\` is not migrated: ${reason}`, at(found, ['metadata', 'name']), { severity: 'warning', hint }));
    return { ...rec, outcome: { status: 'skipped', reason } };
  };
  if (obj(meta?.['annotations'])?.[EXCLUDE_ANNOTATION] === 'true') return { ...rec, outcome: { status: 'excluded' } };
  if (presets.length === 0) return { ...rec, outcome: { status: 'unselected' } };
  const blocked = blocker(found, spec, presets);
  if (blocked) return skip(blocked.reason, blocked.code, blocked.hint);
  const merged = copy(spec);
  const domain = obj(merged['domain']) ?? {};
  merged['domain'] = domain;
  const applied = applyPresets(presets, domain);
  rec.warnings.push(...applied.warnings.map((w) => w.message));
  rec.supplied.push(...applied.suppliedBy);
  const planned = planVm(spec, merged, applied.suppliedBy);
  if ('refused' in planned) return skip(planned.refused, 'IT8204', 'migrate this VM by hand');
  const plan = planned.plan;
  const g = groupFor(namespace);
  return {
    ...rec,
    plan,
    names: {
      instancetype: plan.instancetype ? nameFor(g.instancetypes, plan.instancetype, plan.instancetypeFrom) : undefined,
      preference: plan.preference
        ? nameFor(g.preferences, plan.preference, plan.preferenceFrom.length > 0 ? plan.preferenceFrom : plan.instancetypeFrom)
        : undefined,
    },
    before: presetEraSpec(spec, presets),
  };
}
