/**
 * Fields KubeVirt's VirtualMachine type does not have. `kubectl apply` asks the API server for
 * strict field validation, which refuses them ("strict decoding error: unknown field ..."); Go's
 * lenient decoding would drop them in silence, so a VM, preset or migrated VM that carries
 * `dedicatedCPUPlacement` (the field is `dedicatedCpuPlacement`) must be stopped where it is written.
 */
import { closest } from '../diagnostics';
import { isPlainObject, type Json } from '../resolve/leaves';
import { VM_FIELD_NODES, VM_SPEC_ROOT } from './vm-fields';

export interface UnknownField {
  /** The path from the VM's root, e.g. ['spec', 'template', 'spec', 'domain', 'cpu', 'dedicatedCPUPlacement']. */
  readonly path: readonly (string | number)[];
  /** The known field of that place it probably meant. */
  readonly meant?: string;
}

/** Unknown fields under `value`, which is of the type at node `node` (VM_FIELD_NODES); at most `limit`. */
export function unknownFieldsAt(value: Json | undefined, node: number, at: readonly (string | number)[], limit = 20): UnknownField[] {
  const out: UnknownField[] = [];
  const stack: [Json | undefined, number, readonly (string | number)[]][] = [[value, node, at]];
  while (stack.length > 0 && out.length < limit) {
    const [v, n, p] = stack.pop()!;
    const shape = VM_FIELD_NODES[n];
    if (shape === undefined || shape === 0 || v === null || typeof v !== 'object') continue;
    if (Array.isArray(shape)) {
      const child = shape[1];
      if (Array.isArray(v)) v.forEach((item, i) => stack.push([item, child, [...p, i]]));
      else for (const [k, item] of Object.entries(v)) stack.push([item, child, [...p, k]]);
      continue;
    }
    if (!isPlainObject(v)) continue;
    const fields = shape as Readonly<Record<string, number>>;
    for (const [k, item] of Object.entries(v)) {
      if (Object.hasOwn(fields, k)) stack.push([item, fields[k]!, [...p, k]]);
      else {
        const meant = closest(k, Object.keys(fields));
        out.push({ path: [...p, k], ...(meant !== undefined ? { meant } : {}) });
      }
    }
  }
  return out;
}

/** Unknown fields of a VirtualMachine's `spec`. */
export function unknownVmFields(vm: Readonly<Record<string, Json>>): UnknownField[] {
  return unknownFieldsAt(vm['spec'], VM_SPEC_ROOT, ['spec']);
}

/** The node of the VM's `spec.template.spec.domain` (a preset's `spec.domain` is the same type). */
export function domainNode(): number | undefined {
  let n = VM_SPEC_ROOT;
  for (const k of ['template', 'spec', 'domain']) {
    const shape = VM_FIELD_NODES[n];
    if (!shape || Array.isArray(shape) || typeof shape !== 'object' || !Object.hasOwn(shape, k)) return undefined;
    n = (shape as Record<string, number>)[k]!;
  }
  return n;
}

/** `spec.template.spec.domain.cpu.dedicatedCPUPlacement` */
export function fieldPath(path: readonly (string | number)[]): string {
  return path
    .map((k) => (typeof k === 'number' ? `[${k}]` : k))
    .join('.')
    .replace(/\.\[/g, '[');
}
