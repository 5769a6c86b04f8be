import { isPlainObject, type Json, type JsonObject } from '../json';
import type { PathSegment, SourceDoc } from '../load/source';

/**
 * Specs are merged as maps of leaves (path -> value) so that every value keeps the place it
 * came from. A leaf is a scalar, an array, or an empty object (`preferredRng: {}`).
 */

/** Where a value came from: a node in a catalog document, or a computation explained in words. */
export interface Origin {
  readonly src: SourceDoc;
  /** Path of the node inside the document. */
  readonly path: readonly PathSegment[];
  /** Human description: "fragment `efi`", "family `c`", "size `large` x memoryPerCPU". */
  readonly what: string;
}

export interface Leaf {
  readonly path: readonly string[];
  readonly value: Json;
  readonly origin: Origin;
}

export type Leaves = ReadonlyMap<string, Leaf>;

const SEP = '\u0001';
export function leafKey(path: readonly string[]): string {
  return path.join(SEP);
}

/** Break a written spec into leaves; `originPath` is where `value` sits in its document. */
export function toLeaves(value: JsonObject | undefined, src: SourceDoc, originPath: readonly PathSegment[], what: string): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  if (!value) return out;
  const walk = (v: Json, path: string[]): void => {
    if (isPlainObject(v) && Object.keys(v).length > 0) {
      for (const k of Object.keys(v)) walk(v[k]!, [...path, k]);
      return;
    }
    if (path.length === 0) return;
    out.set(leafKey(path), { path, value: v, origin: { src, path: [...originPath, ...path], what } });
  };
  walk(value, []);
  return out;
}

export function leaf(path: readonly string[], value: Json, origin: Origin): Leaf {
  return { path, value, origin };
}

export function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]!));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && sameJson(a[k]!, b[k]!));
  }
  return false;
}

const isEmptyObject = (v: Json): boolean => isPlainObject(v) && Object.keys(v).length === 0;

export interface Conflict {
  readonly path: readonly string[];
  readonly first: Leaf;
  readonly second: Leaf;
}

function ancestors(path: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < path.length; i++) out.push(leafKey(path.slice(0, i)));
  return out;
}

function hasDescendant(map: ReadonlyMap<string, Leaf>, key: string): boolean {
  const prefix = key + SEP;
  for (const k of map.keys()) if (k.startsWith(prefix)) return true;
  return false;
}

/**
 * Merge sources that sit at one level (several bases, several fragments). Setting one field to
 * two different values is a conflict, never resolved by order: that silent merging is what made
 * VirtualMachineInstancePresets hard to reason about.
 */
export function mergeLevel(layers: readonly Leaves[]): { leaves: Map<string, Leaf>; conflicts: Conflict[] } {
  const out = new Map<string, Leaf>();
  const conflicts: Conflict[] = [];
  if (layers.length === 1) return { leaves: new Map(layers[0]!), conflicts };
  for (const layer of layers) {
    for (const [key, l] of layer) {
      const existing = out.get(key);
      if (existing) {
        if (!sameJson(existing.value, l.value)) conflicts.push({ path: l.path, first: existing, second: l });
        continue;
      }
      let blocked = false;
      for (const a of ancestors(l.path)) {
        const anc = out.get(a);
        if (!anc) continue;
        if (isEmptyObject(anc.value)) out.delete(a);
        else {
          conflicts.push({ path: l.path, first: anc, second: l });
          blocked = true;
        }
      }
      if (blocked) continue;
      if (hasDescendant(out, key)) {
        if (isEmptyObject(l.value)) continue;
        const prefix = key + SEP;
        const first = [...out.entries()].find(([k]) => k.startsWith(prefix))![1];
        conflicts.push({ path: l.path, first, second: l });
        continue;
      }
      out.set(key, l);
    }
  }
  return { leaves: out, conflicts };
}

/** Child over base: the child's values win; `null` removes what the base set. */
export function overlay(base: Leaves, child: Leaves): Map<string, Leaf> {
  if (child.size === 0) return base as Map<string, Leaf>;
  const out = new Map(base);
  for (const [key, l] of child) {
    for (const a of ancestors(l.path)) {
      const anc = out.get(a);
      if (anc) out.delete(a);
    }
    const descendants = hasDescendant(out, key);
    if (isEmptyObject(l.value) && descendants) continue;
    if (descendants) {
      const prefix = key + SEP;
      for (const k of [...out.keys()]) if (k.startsWith(prefix)) out.delete(k);
    }
    if (l.value === null) out.delete(key);
    else out.set(key, l);
  }
  return out;
}

// A key segment holding either character could sort before the separator: see fromLeaves.
const BELOW_SEPARATOR = /[\u0000\u0001]/;

/**
 * Rebuild the nested object; keys sorted for deterministic output. Leaves are visited in the order
 * of their keys, and since the separator sorts below every character a key holds, that inserts
 * each object's keys in sorted order already: only values (arrays, which may hold objects) are
 * sorted, and the whole tree only when a key holds a character at or below the separator.
 */
export function fromLeaves(leaves: Leaves): JsonObject {
  const root: JsonObject = {};
  const keys = [...leaves.keys()].sort();
  let inOrder = true;
  for (const k of keys) {
    const l = leaves.get(k)!;
    let node = root;
    for (let i = 0; i < l.path.length - 1; i++) {
      const seg = l.path[i]!;
      if (BELOW_SEPARATOR.test(seg)) inOrder = false;
      let next = node[seg];
      if (!isPlainObject(next)) {
        next = {};
        node[seg] = next;
      }
      node = next;
    }
    const last = l.path[l.path.length - 1];
    if (last === undefined) continue;
    if (BELOW_SEPARATOR.test(last)) inOrder = false;
    node[last] = l.value !== null && typeof l.value === 'object' ? sortKeysDeep(l.value) : l.value;
  }
  return inOrder ? root : (sortKeysDeep(root) as JsonObject);
}

export function sortKeysDeep(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (isPlainObject(v)) {
    const out: JsonObject = {};
    const keys = Object.keys(v).sort();
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = sortKeysDeep(v[keys[i]!]!);
    return out;
  }
  return v;
}

/** The leaf that decided `path`, or the closest one below or above it. */
export function originOf(leaves: Leaves, path: readonly string[]): Leaf | undefined {
  const exact = leaves.get(leafKey(path));
  if (exact) return exact;
  for (let i = path.length - 1; i > 0; i--) {
    const anc = leaves.get(leafKey(path.slice(0, i)));
    if (anc) return anc;
  }
  const prefix = leafKey(path) + SEP;
  for (const [k, l] of leaves) if (k.startsWith(prefix)) return l;
  return undefined;
}
