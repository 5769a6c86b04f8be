/**
 * Expanding the VirtualMachines of manifest documents, with every KubeVirt error placed at the VM
 * field it is about (file:line:col). Documents that are instancetype objects, PVCs, DataVolumes or
 * DataSources join the object store, so a VM file can carry what it references.
 */
import { diag, type Diagnostic } from '../diagnostics';
import { locate, type PathSegment, type SourceDoc } from '../load/source';
import { isPlainObject, type JsonObject } from '../resolve/leaves';
import { checkRequirements, checkSpread } from './admission';
import { expand, type ExpandOptions } from './index';
import { obj, type Cause } from './model';
import { objectStore, resolveReferences, type ObjectStore } from './references';

export interface ExpandOutcome {
  readonly file: string;
  readonly name: string;
  /** The expanded VM; absent when expansion or admission failed. */
  readonly vm?: JsonObject;
  readonly diagnostics: Diagnostic[];
}

/** An object of a manifest file, with the document and path where it stands. */
export interface FoundObject {
  readonly src: SourceDoc;
  readonly path: readonly PathSegment[];
  readonly value: JsonObject;
}

/** Every object of the documents, `List` items included, with where it stands. */
export function manifestObjects(docs: readonly SourceDoc[]): FoundObject[] {
  const out: FoundObject[] = [];
  for (const src of docs) {
    if (!isPlainObject(src.value as never)) continue;
    const value = src.value as JsonObject;
    if (value['kind'] === 'List' && Array.isArray(value['items'])) {
      value['items'].forEach((item, i) => {
        if (isPlainObject(item)) out.push({ src, path: ['items', i], value: item });
      });
    } else out.push({ src, path: [], value });
  }
  return out;
}

/** The document path of a field KubeVirt names (`spec.template.spec.domain.cpu.dedicatedCPUPlacement`). */
export function documentPath(field: string): PathSegment[] {
  if (field.startsWith('annotations.')) return ['spec', 'template', 'metadata', 'annotations', field.slice('annotations.'.length)];
  // The spread check names the instancetype's field; the VM's matcher is where to look.
  if (field.startsWith('instancetype.')) return ['spec', 'instancetype', 'name'];
  // Go spells this one field differently in conflict paths and in the VM's JSON.
  return field.replace('domain.cpu.dedicatedCPUPlacement', 'domain.cpu.dedicatedCpuPlacement').split('.');
}

/**
 * Expands (and by default admits) every VirtualMachine of `docs` against `store` plus the objects
 * the documents themselves hold. Diagnostics: IT8001 a reference that cannot be resolved, IT8002
 * conflicts with the instance type, IT8003 admission refused, IT8004 nothing to expand.
 */
export function expandDocuments(
  docs: readonly SourceDoc[],
  store: ObjectStore,
  options: ExpandOptions & { readonly admission: boolean },
): { outcomes: ExpandOutcome[]; diagnostics: Diagnostic[] } {
  const found = manifestObjects(docs);
  const vms = found.filter((f) => f.value['kind'] === 'VirtualMachine');
  const given = objectStore(found.filter((f) => f.value['kind'] !== 'VirtualMachine').map((f) => f.value));
  const all: ObjectStore = { specObjects: [...given.specObjects, ...store.specObjects], volumes: [...given.volumes, ...store.volumes] };
  const diagnostics: Diagnostic[] = [];
  if (vms.length === 0) {
    diagnostics.push(
      diag('IT8004', 'no VirtualMachine found in the input', docs[0] ? { file: docs[0].file, line: 1, col: 1 } : undefined, {
        hint: 'pass VirtualMachine manifests (kind: VirtualMachine, apiVersion: kubevirt.io/v1), as files, directories or - for standard input',
      }),
    );
  }
  const outcomes = vms.map((f): ExpandOutcome => {
    const at = (field: string): ReturnType<typeof locate> => locate(f.src, [...f.path, ...documentPath(field)]);
    const name = String(obj(f.value['metadata'])?.['name'] ?? '(unnamed)');
    const file = f.src.file;
    const resolved = resolveReferences(f.value, all);
    if (resolved.errors.length > 0) {
      return {
        file,
        name,
        diagnostics: resolved.errors.map((e) =>
          diag('IT8001', `VirtualMachine \`${name}\`: ${e.message}`, at(e.field), {
            hint: 'generate the project (its objects are read from the generators), or pass the object with --with FILE',
          }),
        ),
      };
    }
    const { instancetype, preference } = resolved.references;
    const refused = (c: Cause): ExpandOutcome => ({
      file,
      name,
      diagnostics: [diag('IT8003', `VirtualMachine \`${name}\` would be refused: ${c.message}`, at(c.field.split(', ')[0]!))],
    });
    // Admission's order (R 0.3): spread before applying, conflicts, requirements after defaults.
    // Expansion applies and defaults exactly as admission does, so its result is what the
    // requirements are checked against: one application per VM, not two.
    const spread = options.admission && instancetype && preference ? checkSpread(instancetype.spec, preference.spec) : undefined;
    if (spread) return refused(spread);
    const expanded = expand(f.value, resolved.references, options);
    if ('error' in expanded) {
      return {
        file,
        name,
        diagnostics: expanded.fields.map((field) =>
          diag('IT8002', `VirtualMachine \`${name}\`: ${expanded.error}`, at(field), { hint: 'remove the field from the VM: the instance type provides it' }),
        ),
      };
    }
    const templateSpec = obj(obj(obj(expanded.vm['spec'])?.['template'])?.['spec']) ?? {};
    const unmet = options.admission ? checkRequirements(instancetype?.spec, preference?.spec, templateSpec) : undefined;
    if (unmet) return refused(unmet);
    return { file, name, vm: expanded.vm, diagnostics: [] };
  });
  return { outcomes, diagnostics };
}
