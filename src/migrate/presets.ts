/**
 * VirtualMachineInstancePresets as KubeVirt applies them (v1.9,
 * pkg/virt-api/webhooks/mutating-webhook/mutators/preset.go): on VMI creation only, presets of the
 * VMI's namespace whose selector matches its labels; none when the VMI carries the exclude
 * annotation; the VMI refused when two matching presets conflict; each of seven domain sections
 * copied only when the VMI has none, a difference with the VMI's own being a warning.
 */
import { obj, type Json, type JsonObject } from '../json';
import { copy, isSet } from '../kubevirt/go';
import { goNormalize, quantitiesDiffer, semanticEqual } from './go-values';

export const EXCLUDE_ANNOTATION = 'virtualmachineinstancepresets.admission.kubevirt.io/exclude';

/** The namespace kubectl applies a manifest without one to. */
export const DEFAULT_NAMESPACE = 'default';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: readonly string[];
}

export interface Preset {
  readonly name: string;
  readonly namespace: string;
  readonly matchLabels: Readonly<Record<string, string>>;
  readonly matchExpressions: readonly LabelRequirement[];
  readonly domain: JsonObject;
}

/** metav1.LabelSelectorAsSelector's reading: every label and every expression must hold; `{}` selects everything. */
export function selects(preset: Preset, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(preset.matchLabels)) if (labels[k] !== v) return false;
  return preset.matchExpressions.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    switch (r.operator) {
      case 'In':
        return has && r.values.includes(labels[r.key]!);
      case 'NotIn':
        return !has || !r.values.includes(labels[r.key]!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
    }
  });
}

/** The sections the preset webhook merges, in its order. */
export const MERGED_SECTIONS = ['resources.requests', 'cpu', 'firmware', 'clock', 'features', 'devices.watchdog', 'ioThreadsPolicy'] as const;
export type MergedSection = (typeof MERGED_SECTIONS)[number] | 'clock.timer';

function requests(domain: JsonObject): JsonObject | undefined {
  const r = obj(obj(domain['resources'])?.['requests']);
  return r && Object.keys(r).length > 0 ? r : undefined;
}

function watchdog(domain: JsonObject): Json | undefined {
  return obj(domain['devices'])?.['watchdog'] ?? undefined;
}

function show(v: Json | undefined): string {
  return JSON.stringify(goNormalize(v) ?? null);
}

/** Offset part of a clock (`utc`, `timezone`): Clock embeds ClockOffset inline. */
function clockOffset(clock: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of ['utc', 'timezone']) if (isSet(clock[k])) out[k] = clock[k]!;
  return out;
}

/** checkMergeConflicts: what differs between a preset's domain and another domain, in KubeVirt's words (values as JSON). */
export function mergeConflicts(preset: JsonObject, other: JsonObject): string[] {
  const errors: string[] = [];
  const pr = requests(preset);
  const or = obj(obj(other['resources'])?.['requests']);
  if (pr && or) {
    for (const key of Object.keys(pr).sort()) {
      if (Object.hasOwn(or, key) && quantitiesDiffer(pr[key], or[key]))
        errors.push(`spec.resources.requests[${key}]: ${String(pr[key])} != ${String(or[key])}`);
    }
  }
  const both = (k: string): boolean => isSet(preset[k]) && isSet(other[k]);
  if (both('cpu') && !semanticEqual(preset['cpu'], other['cpu'])) errors.push(`spec.cpu: ${show(preset['cpu'])} != ${show(other['cpu'])}`);
  if (both('firmware') && !semanticEqual(preset['firmware'], other['firmware']))
    errors.push(`spec.firmware: ${show(preset['firmware'])} != ${show(other['firmware'])}`);
  if (both('clock')) {
    const pc = obj(preset['clock']) ?? {};
    const oc = obj(other['clock']) ?? {};
    if (!semanticEqual(clockOffset(pc), clockOffset(oc))) errors.push(`spec.clock.clockoffset: ${show(clockOffset(pc))} != ${show(clockOffset(oc))}`);
    if (isSet(pc['timer']) && isSet(oc['timer']) && !semanticEqual(pc['timer'], oc['timer']))
      errors.push(`spec.clock.timer: ${show(pc['timer'])} != ${show(oc['timer'])}`);
  }
  if (both('features') && !semanticEqual(preset['features'], other['features'], 'features'))
    errors.push(`spec.features: ${show(preset['features'])} != ${show(other['features'])}`);
  const pw = watchdog(preset);
  const ow = watchdog(other);
  if (isSet(pw) && isSet(ow) && !semanticEqual(pw, ow)) errors.push(`spec.devices.watchdog: ${show(pw)} != ${show(ow)}`);
  if (both('ioThreadsPolicy') && preset['ioThreadsPolicy'] !== other['ioThreadsPolicy'])
    errors.push(`spec.ioThreadsPolicy: ${String(preset['ioThreadsPolicy'])} != ${String(other['ioThreadsPolicy'])}`);
  return errors;
}

/** utilerrors.NewAggregate's message: one error as it is, several in brackets. */
function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
}

/**
 * Whether any two of `presets` conflict, without comparing every pair: presets with the same domain
 * (as written) are one class, so only a class with itself (a request KubeVirt compares by pointer
 * conflicts with its twin) and distinct classes pairwise are compared. 2,000 presets that select
 * one VM and share a handful of domains cost a handful of comparisons, not two million.
 */
function anyConflict(presets: readonly Preset[]): boolean {
  const classes = new Map<string, { domain: JsonObject; count: number }>();
  for (const p of presets) {
    const key = JSON.stringify(p.domain);
    const c = classes.get(key);
    if (c) c.count++;
    else classes.set(key, { domain: p.domain, count: 1 });
  }
  const reps = [...classes.values()];
  for (const [i, a] of reps.entries()) {
    if (a.count > 1 && mergeConflicts(a.domain, a.domain).length > 0) return true;
    for (const b of reps.slice(0, i)) if (mergeConflicts(a.domain, b.domain).length > 0 || mergeConflicts(b.domain, a.domain).length > 0) return true;
  }
  return false;
}

/** checkPresetConflicts over presets in the order given: KubeVirt's refusal message, or undefined. */
export function presetConflicts(presets: readonly Preset[]): string | undefined {
  if (!anyConflict(presets)) return undefined;
  const errors: string[] = [];
  presets.forEach((p, i) => {
    for (const visited of presets.slice(0, i)) {
      const found = mergeConflicts(p.domain, visited.domain);
      if (found.length > 0) errors.push(`presets '${p.name}' and '${visited.name}' conflict: ${aggregate(found)}`);
    }
  });
  return errors.length > 0 ? `VirtualMachinePresets cannot be applied due to conflicts: ${aggregate(errors)}` : undefined;
}

/**
 * Presets merge `resources.requests` as a whole map, and only into a VMI with none: when two matching
 * presets bring different maps without conflicting (different keys), the VMI gets the map of the
 * one KubeVirt lists first, an order its informer does not define. The names of such a pair.
 */
export function orderDependentRequests(presets: readonly Preset[], domain: JsonObject): [string, string] | undefined {
  if (requests(domain)) return undefined;
  const withRequests = presets.filter((p) => requests(p.domain));
  for (let i = 1; i < withRequests.length; i++) {
    const first = withRequests[0]!;
    if (!semanticEqual(requests(first.domain), requests(withRequests[i]!.domain))) return [first.name, withRequests[i]!.name];
  }
  return undefined;
}

export interface MergeOutcome {
  /** Whether the preset counts as applied (KubeVirt annotates the VMI with it). */
  readonly applied: boolean;
  /** Differences with the VMI's own values: KubeVirt keeps the VMI's and logs a warning. */
  readonly conflicts: readonly string[];
  /** Sections this preset supplied (the VMI had none). */
  readonly supplied: readonly MergedSection[];
}

/** mergeDomainSpec: copies each section the preset has into `domain` when `domain` has none. Mutates `domain`. */
export function mergeDomain(preset: JsonObject, domain: JsonObject): MergeOutcome {
  const conflicts = mergeConflicts(preset, domain);
  const supplied: MergedSection[] = [];
  let applied = false;
  const fill = (section: MergedSection, has: () => Json | undefined, set: () => void, same: () => boolean): void => {
    if (!isSet(has())) {
      set();
      supplied.push(section);
    }
    if (same()) applied = true;
  };
  const pr = requests(preset);
  if (pr) {
    const resources = obj(domain['resources']) ?? {};
    domain['resources'] = resources;
    fill(
      'resources.requests',
      () => requests(domain),
      () => (resources['requests'] = copy(pr)),
      () => semanticEqual(resources['requests'], pr),
    );
  }
  for (const section of ['cpu', 'firmware'] as const) {
    if (isSet(preset[section]))
      fill(
        section,
        () => domain[section],
        () => (domain[section] = copy(preset[section]!)),
        () => semanticEqual(domain[section], preset[section]),
      );
  }
  const pc = obj(preset['clock']);
  if (pc) {
    fill(
      'clock',
      () => domain['clock'],
      () => (domain['clock'] = copy(clockOffset(pc))),
      () => semanticEqual(domain['clock'], pc),
    );
    const dc = obj(domain['clock'])!;
    if (isSet(pc['timer']))
      fill(
        'clock.timer',
        () => dc['timer'],
        () => (dc['timer'] = copy(pc['timer']!)),
        () => semanticEqual(dc['timer'], pc['timer']),
      );
  }
  if (isSet(preset['features']))
    fill(
      'features',
      () => domain['features'],
      () => (domain['features'] = copy(preset['features']!)),
      () => semanticEqual(domain['features'], preset['features'], 'features'),
    );
  const pw = watchdog(preset);
  if (isSet(pw)) {
    const devices = obj(domain['devices']) ?? {};
    domain['devices'] = devices;
    fill(
      'devices.watchdog',
      () => devices['watchdog'],
      () => (devices['watchdog'] = copy(pw!)),
      () => semanticEqual(devices['watchdog'], pw),
    );
  }
  if (isSet(preset['ioThreadsPolicy'])) {
    fill(
      'ioThreadsPolicy',
      () => domain['ioThreadsPolicy'],
      () => (domain['ioThreadsPolicy'] = preset['ioThreadsPolicy']!),
      () => domain['ioThreadsPolicy'] === preset['ioThreadsPolicy'],
    );
  }
  // A section filled by an earlier preset shows up as supplied by the first only.
  return { applied, conflicts, supplied: supplied.filter((s, i) => supplied.indexOf(s) === i) };
}

export interface PresetApplication {
  /** Which preset supplied each section. */
  readonly suppliedBy: ReadonlyMap<MergedSection, string>;
  /** Presets KubeVirt would record as applied, and those it would warn about. */
  readonly applied: readonly string[];
  readonly warnings: readonly { readonly preset: string; readonly message: string }[];
}

/** applyPresets' merge loop over presets already known not to conflict; mutates `domain`. */
export function applyPresets(presets: readonly Preset[], domain: JsonObject): PresetApplication {
  const suppliedBy = new Map<MergedSection, string>();
  const applied: string[] = [];
  const warnings: { preset: string; message: string }[] = [];
  for (const p of presets) {
    const r = mergeDomain(p.domain, domain);
    for (const s of r.supplied) if (!suppliedBy.has(s)) suppliedBy.set(s, p.name);
    if (r.applied) {
      applied.push(p.name);
      if (r.conflicts.length > 0)
        warnings.push({ preset: p.name, message: `Some settings were not applied for VirtualMachineInstancePreset '${p.name}': ${aggregate(r.conflicts)}` });
    } else
      warnings.push({
        preset: p.name,
        message: `Unable to apply VirtualMachineInstancePreset '${p.name}': ${r.conflicts.length > 0 ? aggregate(r.conflicts) : '<nil>'}`,
      });
  }
  return { suppliedBy, applied, warnings };
}
