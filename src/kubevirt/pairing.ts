/**
 * The pairing key: the fields of an instance type and of a preference that decide whether a VM
 * naming both is admitted and starts (VM admission's spread check and requirements, the launch
 * checks of dedicated threads and hugepage sizes). The matrix shares outcomes and the catalog
 * rules share pairing classes under these keys, so they live beside the checks that read those
 * fields; test/properties.test.ts holds that a change outside a key changes no outcome. The
 * explorer page runs `pairOutcome` itself (bundled from here), so the page and `select` decide a
 * pair with the same code.
 */
import type { JsonObject } from '../json';
import { dedicatedThreadsProblem, hugepageProblem } from './launch';
import { GoPanic } from './panic';
import { checkRequirements } from './requirements';
import { guestTopology, spreadProblem } from './topology';

type Architecture = 'amd64' | 'arm64' | 's390x';

/** An instance type decides by its CPU and memory (vCPUs, dedicated placement, guest memory, hugepages). */
export function instancetypePairingKey(spec: JsonObject): string {
  return JSON.stringify([spec['cpu'], spec['memory']]);
}

/** A preference decides by its CPU preferences (topology, spread), its requirements and its preferred architecture. */
export function preferencePairingKey(spec: JsonObject): string {
  return JSON.stringify([spec['cpu'], spec['requirements'], spec['preferredArchitecture'], spec['preferSpreadSocketToCoreRatio']]);
}

/**
 * What KubeVirt answers for a VM that names only `it` and `p` (nothing of its own that could
 * conflict), from the two specs alone: VM admission's spread check, then the preference's
 * requirements against what the pair provides after the defaults (the instance type's vCPUs and
 * guest memory, the preferred or the cluster's architecture), then what VMI validation refuses when
 * the VM starts (threads with dedicated CPUs, hugepage sizes). The same functions admission and the
 * catalog rules use (expand/admission.ts); test/matrix.test.ts holds it to `admit`.
 */
export function pairOutcome(it: JsonObject, p: JsonObject, architecture: Architecture, clusterArchitecture: string): { admitted: boolean; reason?: string } {
  const cpu = (it['cpu'] ?? {}) as JsonObject;
  const guest = typeof cpu['guest'] === 'number' ? cpu['guest'] : 0;
  let reason: string | undefined;
  try {
    reason = spreadProblem(guest, p);
  } catch (e) {
    if (e instanceof GoPanic) return { admitted: false, reason: e.message };
    throw e;
  }
  if (reason === undefined) {
    const preferred = p['preferredArchitecture'];
    const spec: JsonObject = {
      architecture: typeof preferred === 'string' && preferred !== '' ? preferred : clusterArchitecture,
      domain: { memory: { guest: ((it['memory'] ?? {}) as JsonObject)['guest'] ?? 0 } },
    };
    reason = checkRequirements(it, p, spec)?.message;
  }
  if (reason === undefined && cpu['dedicatedCPUPlacement'] === true) reason = dedicatedThreadsProblem(guestTopology(guest, p).threads, architecture);
  const size = (((it['memory'] ?? {}) as JsonObject)['hugepages'] as JsonObject | undefined)?.['pageSize'];
  if (reason === undefined && typeof size === 'string') reason = hugepageProblem(size, architecture);
  return reason === undefined ? { admitted: true } : { admitted: false, reason };
}
