/**
 * The data expand works on: VirtualMachines and instancetype objects as plain JSON, the way the
 * API server would hold them. Only the fields KubeVirt's apply, expand and admission code reads are
 * interpreted; everything else of a VM is carried through untouched.
 */
import type { JsonObject } from '../json';

/** An instancetype or preference object (either scope) as found in manifests. */
export interface SpecObject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string | undefined;
  readonly spec: JsonObject;
  /** The architecture the object says it is for (`instancetype.kubevirt.io/arch`), when it names one. */
  readonly architecture?: string | undefined;
}

/** The instance type and preference a VM resolved to; either may be absent. */
export interface References {
  readonly instancetype?: SpecObject | undefined;
  readonly preference?: SpecObject | undefined;
}
