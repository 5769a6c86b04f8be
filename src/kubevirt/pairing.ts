/**
 * The pairing key: the fields of an instance type and of a preference that decide whether a VM
 * naming both is admitted and starts (VM admission's spread check and requirements, the launch
 * checks of dedicated threads and hugepage sizes). The matrix shares outcomes and the catalog
 * rules share pairing classes under these keys, so they live beside the checks that read those
 * fields; test/properties.test.ts holds that a change outside a key changes no outcome.
 */
import type { JsonObject } from '../json';

/** An instance type decides by its CPU and memory (vCPUs, dedicated placement, guest memory, hugepages). */
export function instancetypePairingKey(spec: JsonObject): string {
  return JSON.stringify([spec['cpu'], spec['memory']]);
}

/** A preference decides by its CPU preferences (topology, spread), its requirements and its preferred architecture. */
export function preferencePairingKey(spec: JsonObject): string {
  return JSON.stringify([spec['cpu'], spec['requirements'], spec['preferredArchitecture'], spec['preferSpreadSocketToCoreRatio']]);
}
