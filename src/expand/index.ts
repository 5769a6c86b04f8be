/**
 * Offline expansion and admission of VirtualMachines, as KubeVirt does them (v1.9):
 * `expand` is the expand-spec subresource (pkg/instancetype/expand), `admit` the VM admission
 * webhook's instancetype part (pkg/instancetype/webhooks/vm/admitter.go), `mutateOnCreate` the
 * instancetype mutating webhook. Pure functions over plain JSON; rule numbers (R x.y) are those of
 * docs/design.md's expand section. This file only re-exports.
 */
export { admit, admissionMessage, expand, type AdmissionResult, type ExpandOptions, type ExpandResult } from './expand';
export { objectStore, resolveReferences, type ObjectStore, type ReferenceError } from './references';
export { overcommittedRequest } from './instancetype';
export { expandDocuments, type ExpandOutcome } from './documents';
export { infersFromVolume, matcherCauses, mutateOnCreate, type MutationRefusal } from './mutate';
export { type References, type SpecObject } from './model';
