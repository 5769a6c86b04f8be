/**
 * `itgen validate FILE...`: hand-written manifests judged the way KubeVirt's admission webhooks
 * judge them, with the same rules and diagnostics the catalog checks use. Instancetype and
 * preference objects become resolved objects whose every spec field points at its manifest line,
 * so the KubeVirt API model and the KubeVirt rules (src/validate) run on them unchanged;
 * VirtualMachines get the VM webhook's matcher checks and admission (src/expand).
 */
import { diag, type Diagnostic } from '../diagnostics';
import { checkRequirements, checkSpread, expand, objectStore, resolveReferences, type ObjectStore } from '../expand';
import { documentPath, manifestObjects, type FoundObject } from '../expand/documents';
import { locate, type SourceDoc } from '../load/source';
import { parseQuantity } from '../quantity';
import type { RenderedManifest, RenderedObject } from '../render/manifests';
import { isPlainObject, toLeaves, type JsonObject } from '../resolve/leaves';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import { generatorSchema } from '../schema/generator';
import { MANIFEST_KINDS } from '../schema/manifest';
import { API_RULES } from '../validate/rules-api';
import { KUBEVIRT_RULES } from '../validate/rules-kubevirt';
import { runRules } from '../validate';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `spec.memory.guest` in bytes, 0 when it is not a quantity (the schema reports that). */
function memoryOf(spec: JsonObject): number {
  const guest = isPlainObject(spec['memory']) ? (spec['memory'] as JsonObject)['guest'] : undefined;
  return typeof guest === 'string' || typeof guest === 'number' ? (parseQuantity(guest) ?? 0) : 0;
}

/** A manifest as the resolved object the rules expect, every spec field placed at its line. */
function resolved(f: FoundObject): RenderedObject {
  const kind = str(f.value['kind']);
  const meta = (isPlainObject(f.value['metadata']) ? f.value['metadata'] : {}) as JsonObject;
  const name = str(meta['name']) || '(unnamed)';
  const spec = (isPlainObject(f.value['spec']) ? f.value['spec'] : {}) as JsonObject;
  const what = `${kind} \`${name}\``;
  const origin = { src: f.src, path: [...f.path, 'metadata', 'name'], what };
  const leaves = toLeaves(spec, f.src, [...f.path, 'spec'], what);
  const labels = (isPlainObject(meta['labels']) ? meta['labels'] : {}) as Record<string, string>;
  const annotations = (isPlainObject(meta['annotations']) ? meta['annotations'] : {}) as Record<string, string>;
  const common = {
    name,
    spec,
    labels,
    annotations,
    deprecated: undefined,
    origin,
    leaves,
    icon: undefined,
    displayName: annotations['openshift.io/display-name'] ?? name,
  };
  const source: ResolvedInstancetype | ResolvedPreference = kind.endsWith('Instancetype')
    ? {
        ...common,
        kind: 'instancetype',
        family: name,
        version: undefined,
        size: '',
        ladderSize: '',
        variant: undefined,
        sizeIndex: 0,
        cpu: typeof (spec['cpu'] as JsonObject | undefined)?.['guest'] === 'number' ? ((spec['cpu'] as JsonObject)['guest'] as number) : 0,
        memoryBytes: memoryOf(spec),
        description: '',
        class: '',
        memoryPerCPUBytes: 0,
        memoryOverridden: true,
        architectures: undefined,
      }
    : { ...common, kind: 'preference', catalogName: name, architecture: undefined, variant: undefined, inherits: [], include: [] };
  return { manifest: f.value as unknown as RenderedManifest, source, scope: kind.includes('Cluster') ? 'cluster' : 'namespaced' };
}

/** W 3: how a VM names its instance type and preference (the VM mutating webhook). */
function matcherProblems(vm: JsonObject): { message: string; field: string }[] {
  const out: { message: string; field: string }[] = [];
  for (const [which, matcher] of [
    ['instancetype', 'InstancetypeMatcher'],
    ['preference', 'PreferenceMatcher'],
  ] as const) {
    const m = (vm['spec'] as JsonObject | undefined)?.[which];
    if (!isPlainObject(m as never)) continue;
    const o = m as JsonObject;
    const infer = str(o['inferFromVolume']);
    if (str(o['name']) === '' && infer === '')
      out.push({ message: `Either Name or InferFromVolume should be provided within the ${matcher}`, field: `spec.${which}` });
    if (infer !== '' && str(o['name']) !== '')
      out.push({ message: 'Name already set, should be cleared before setting inferFromVolume', field: `spec.${which}.name` });
    if (infer !== '' && str(o['kind']) !== '')
      out.push({ message: 'Kind already set, should be cleared before setting inferFromVolume', field: `spec.${which}.kind` });
    const policy = o['inferFromVolumeFailurePolicy'];
    if (policy !== undefined && policy !== 'Ignore' && policy !== 'Reject')
      out.push({ message: `Invalid value '${String(policy)}' for InferFromVolumeFailurePolicy`, field: `spec.${which}.inferFromVolumeFailurePolicy` });
  }
  return out;
}

/**
 * Diagnostics for every instancetype, preference and VirtualMachine of `docs`; VMs resolve their
 * references against the objects of `docs` and `store` (the project's, and --with files).
 */
export function validateManifests(docs: readonly SourceDoc[], store: ObjectStore): Diagnostic[] {
  const found = manifestObjects(docs);
  const kinds = MANIFEST_KINDS as readonly string[];
  const specObjects = found.filter((f) => kinds.includes(str(f.value['kind'])));
  const rendered = specObjects.map(resolved);
  const catalog: ResolvedCatalog = {
    name: 'manifests',
    defaultArchitecture: 'amd64',
    instancetypes: rendered.flatMap((r) => (r.source.kind === 'instancetype' ? [r.source] : [])),
    preferences: rendered.flatMap((r) => (r.source.kind === 'preference' ? [r.source] : [])),
  };
  const generator = generatorSchema.parse({ catalog: '.', output: '.' });
  // KubeVirt's webhook only ever sees objects the API server's schema admitted: the KubeVirt rules
  // run on those alone (an annotation `x: 5` or `memory.guest: true` gets the schema's error, and
  // no rule is asked to read a number as a string).
  const contextOf = (objects: readonly RenderedObject[]): Parameters<typeof runRules>[0] => ({
    catalog: {
      ...catalog,
      instancetypes: objects.flatMap((r) => (r.source.kind === 'instancetype' ? [r.source] : [])),
      preferences: objects.flatMap((r) => (r.source.kind === 'preference' ? [r.source] : [])),
    },
    objects,
    generator,
  });
  const out: Diagnostic[] = [];
  const admitted: RenderedObject[] = [];
  for (const r of rendered) {
    const schema = runRules(contextOf([r]), API_RULES);
    out.push(...schema);
    if (!schema.some((d) => d.severity === 'error')) admitted.push(r);
  }
  out.push(...runRules(contextOf(admitted), KUBEVIRT_RULES));
  const given = objectStore(found.filter((f) => f.value['kind'] !== 'VirtualMachine').map((f) => f.value));
  const all: ObjectStore = { specObjects: [...given.specObjects, ...store.specObjects], volumes: [...given.volumes, ...store.volumes] };
  for (const f of found.filter((x) => x.value['kind'] === 'VirtualMachine')) {
    const name = str((f.value['metadata'] as JsonObject | undefined)?.['name']) || '(unnamed)';
    const at = (field: string): ReturnType<typeof locate> => locate(f.src, [...f.path, ...documentPath(field)]);
    const matchers = matcherProblems(f.value);
    if (matchers.length > 0) {
      out.push(...matchers.map((m) => diag('IT8005', `VirtualMachine \`${name}\`: ${m.message}`, at(m.field))));
      continue;
    }
    const { references, errors } = resolveReferences(f.value, all);
    if (errors.length > 0) {
      out.push(
        ...errors.map((e) =>
          diag('IT8001', `VirtualMachine \`${name}\`: ${e.message}`, at(e.field), {
            hint: 'pass the object in the same files or with --with FILE, or generate the project',
          }),
        ),
      );
      continue;
    }
    const { instancetype, preference } = references;
    const spread = instancetype && preference ? checkSpread(instancetype.spec, preference.spec) : undefined;
    if (spread) {
      out.push(diag('IT8003', `VirtualMachine \`${name}\` would be refused: ${spread.message}`, at(spread.field)));
      continue;
    }
    const expanded = expand(f.value, references);
    if ('error' in expanded) {
      out.push(
        ...expanded.fields.map((field) =>
          diag('IT8002', `VirtualMachine \`${name}\`: ${expanded.error}`, at(field), { hint: 'remove the field from the VM: the instance type provides it' }),
        ),
      );
      continue;
    }
    const template = ((expanded.vm['spec'] as JsonObject)['template'] as JsonObject | undefined)?.['spec'] as JsonObject | undefined;
    const unmet = checkRequirements(instancetype?.spec, preference?.spec, template ?? {});
    if (unmet) out.push(diag('IT8003', `VirtualMachine \`${name}\` would be refused: ${unmet.message}`, at(unmet.field.split(', ')[0]!)));
  }
  if (specObjects.length === 0 && !found.some((f) => f.value['kind'] === 'VirtualMachine')) {
    out.push(
      diag('IT8004', 'no instance type, preference or VirtualMachine found in the files', docs[0] ? { file: docs[0].file, line: 1, col: 1 } : undefined),
    );
  }
  return out;
}
