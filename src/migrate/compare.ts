/**
 * The proof of a migration: the VMI spec KubeVirt built for the VM with its presets, against the
 * one it builds for the rewritten VM with its instance type and preference, field by field.
 * Compared as KubeVirt reads them: Go's zero values equal absent fields in the merged sections,
 * quantities by value, and two stated equivalences (see `comparable`).
 */
import { obj, type Json, type JsonObject } from '../json';
import { copy } from '../kubevirt/go';
import { parseQuantity } from '../quantity';
import { goNormalize } from './go-values';

export interface Difference {
  /** Dotted path under `spec.template.spec`. */
  readonly field: string;
  /** With presets (before), with the instance type and preference (after); undefined = absent. */
  readonly before: Json | undefined;
  readonly after: Json | undefined;
}

const NORMALIZED_SECTIONS = ['cpu', 'firmware', 'clock', 'features', 'memory', 'resources'];

function quantityBytes(v: Json | undefined): Json | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return v;
  const bytes = parseQuantity(v);
  return bytes === undefined ? v : bytes;
}

/**
 * The spec as the guest and the pod see it:
 * - sockets, cores and threads of 0 or absent are 1 once any is set (virt-launcher's reading);
 * - a memory request equal to the guest memory is the same as none (virt-controller requests the
 *   guest memory then, under KubeVirt's default memoryOvercommit of 100%);
 * - quantities as numbers of bytes; empty `requests`, `limits` and `resources` dropped.
 */
export function comparable(spec: JsonObject): JsonObject {
  const out = copy(spec);
  const domain = obj(out['domain']);
  if (!domain) return out;
  for (const k of NORMALIZED_SECTIONS) {
    const v = goNormalize(domain[k], k === 'features');
    if (v === undefined) delete domain[k];
    else domain[k] = v;
  }
  const devices = obj(domain['devices']);
  if (devices && devices['watchdog'] !== undefined) devices['watchdog'] = goNormalize(devices['watchdog']) ?? null;
  const cpu = obj(domain['cpu']);
  if (cpu && ['sockets', 'cores', 'threads'].some((k) => typeof cpu[k] === 'number')) {
    for (const k of ['sockets', 'cores', 'threads']) if (cpu[k] === undefined) cpu[k] = 1;
  }
  const memory = obj(domain['memory']);
  const resources = obj(domain['resources']);
  if (memory) for (const k of ['guest', 'maxGuest']) if (memory[k] !== undefined) memory[k] = quantityBytes(memory[k])!;
  for (const part of ['requests', 'limits']) {
    const map = obj(resources?.[part]);
    if (!map) continue;
    for (const k of Object.keys(map)) map[k] = quantityBytes(map[k])!;
    if (part === 'requests' && memory && map['memory'] !== undefined && map['memory'] === memory['guest']) delete map['memory'];
    if (Object.keys(map).length === 0) delete resources![part];
  }
  if (resources && Object.keys(resources).length === 0) delete domain['resources'];
  return out;
}

/** JSON text with keys sorted, so that key order never reads as a difference. */
function stableText(v: Json | undefined): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `[${v.map(stableText).join(',')}]`;
  const o = obj(v);
  if (o)
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableText(o[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function walk(a: Json | undefined, b: Json | undefined, path: string, out: Difference[]): void {
  const oa = obj(a);
  const ob = obj(b);
  if (oa && ob) {
    for (const k of [...new Set([...Object.keys(oa), ...Object.keys(ob)])].sort()) walk(oa[k], ob[k], path === '' ? k : `${path}.${k}`, out);
    return;
  }
  if (stableText(a) !== stableText(b)) out.push({ field: path, before: a, after: b });
}

/** Every field where the two template specs differ, in path order. */
export function compareSpecs(before: JsonObject, after: JsonObject): Difference[] {
  const out: Difference[] = [];
  walk(comparable(before), comparable(after), '', out);
  return out;
}
