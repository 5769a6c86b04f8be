/**
 * Semantic diff of instance type and preference objects: which objects were added or removed, and
 * which fields changed, by kind and name. Works on parsed objects, so formatting, document order
 * and file layout never show up as differences.
 */
import { isPlainObject, type Json, type JsonObject } from '../json';
import { parseAllDocuments } from 'yaml';
import { sameJson } from '../resolve/leaves';
import { KIND_ORDER } from '../schema/kubevirt-api';
import { compareText } from '../order';
import { printable } from '../printable';
import { INSTANCETYPE_GROUP, type KubeObject } from '../emit/committed';

export { INSTANCETYPE_GROUP, type KubeObject } from '../emit/committed';

export interface FieldChange {
  readonly path: string;
  /** `undefined`: the field is absent on that side. */
  readonly before: Json | undefined;
  readonly after: Json | undefined;
}

export interface ObjectDiff {
  readonly kind: string;
  readonly name: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly fields: readonly FieldChange[];
}

const isObject = isPlainObject;

/**
 * The instancetype.kubevirt.io objects of a YAML stream; other documents (kustomizations, a
 * GitOps tool's objects) are not part of the comparison.
 */
export function parseObjects(text: string): { objects: KubeObject[]; error?: string } {
  const objects: KubeObject[] = [];
  let docs;
  try {
    docs = parseAllDocuments(text, { uniqueKeys: false });
  } catch (e) {
    return { objects, error: (e as Error).message };
  }
  const list = Array.isArray(docs) ? docs : [];
  for (const d of list) {
    if (d.errors.length > 0) return { objects, error: d.errors[0]!.message.split('\n')[0] ?? 'YAML error' };
    let v: unknown;
    try {
      v = d.toJS({ maxAliasCount: 100 });
    } catch (e) {
      return { objects, error: (e as Error).message };
    }
    if (!isObject(v)) continue;
    const meta = v['metadata'];
    if (typeof v['apiVersion'] !== 'string' || !v['apiVersion'].startsWith(INSTANCETYPE_GROUP)) continue;
    if (typeof v['kind'] !== 'string' || !isObject(meta) || typeof meta['name'] !== 'string') continue;
    objects.push(v as unknown as KubeObject);
  }
  return { objects };
}

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (SIMPLE_KEY.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Leaf-level changes between two JSON values; arrays of equal length compare element by element. */
export function diffFields(before: Json | undefined, after: Json | undefined, path = '', out: FieldChange[] = []): FieldChange[] {
  if (before !== undefined && after !== undefined && sameJson(before, after)) return out;
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const k of keys) diffFields(before[k], after[k], join(path, k), out);
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((b, i) => diffFields(b, after[i], join(path, i), out));
    return out;
  }
  out.push({ path, before, after });
  return out;
}

function withoutLabels(o: KubeObject, ignore: readonly string[]): KubeObject {
  const labels = o.metadata['labels'];
  if (ignore.length === 0 || !isObject(labels)) return o;
  const kept: JsonObject = {};
  for (const k of Object.keys(labels)) if (!ignore.includes(k)) kept[k] = labels[k]!;
  return { ...o, metadata: { ...o.metadata, labels: kept } };
}

/**
 * What changes from `before` to `after`, by kind (in itgen's kind order) then name. Labels named
 * in `ignoreLabels` (a bundle's version label) are left out of the comparison.
 */
export function diffObjects(before: readonly KubeObject[], after: readonly KubeObject[], ignoreLabels: readonly string[] = []): ObjectDiff[] {
  const keyOf = (o: KubeObject): string => `${o.kind}\u0000${o.metadata.name}`;
  const b = new Map(before.map((o) => [keyOf(o), withoutLabels(o, ignoreLabels)] as const));
  const a = new Map(after.map((o) => [keyOf(o), withoutLabels(o, ignoreLabels)] as const));
  const out: ObjectDiff[] = [];
  for (const [k, o] of a) {
    const old = b.get(k);
    if (!old) out.push({ kind: o.kind, name: o.metadata.name, change: 'added', fields: [] });
    else {
      const fields = diffFields(old as unknown as Json, o as unknown as Json);
      if (fields.length > 0) out.push({ kind: o.kind, name: o.metadata.name, change: 'changed', fields });
    }
  }
  for (const [k, o] of b) if (!a.has(k)) out.push({ kind: o.kind, name: o.metadata.name, change: 'removed', fields: [] });
  const rank = (kind: string): number => {
    const i = (KIND_ORDER as readonly string[]).indexOf(kind);
    return i < 0 ? KIND_ORDER.length : i;
  };
  return out.sort((x, y) => rank(x.kind) - rank(y.kind) || compareText(x.kind, y.kind) || compareText(x.name, y.name));
}

/** Text from the input on one line: line breaks and other controls as JSON escapes. */
export function oneLine(s: string): string {
  return /^[\x20-\x7e]*$/.test(s) ? s : JSON.stringify(s).slice(1, -1);
}

function show(v: Json | undefined): string {
  if (v === undefined) return '(absent)';
  const s = printable(JSON.stringify(v));
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** Human-readable: one block per kind, `+` added, `-` removed, `~` changed with its fields. */
export function formatDiff(diffs: readonly ObjectDiff[]): string {
  if (diffs.length === 0) return 'no differences\n';
  const lines: string[] = [];
  let kind = '';
  for (const d of diffs) {
    if (d.kind !== kind) {
      kind = d.kind;
      lines.push(`${oneLine(kind)}:`);
    }
    const mark = d.change === 'added' ? '+' : d.change === 'removed' ? '-' : '~';
    // Kinds, names and paths come from the committed output, which a pull request controls.
    lines.push(`  ${mark} ${oneLine(d.name)}`);
    for (const f of d.fields) lines.push(`      ${oneLine(f.path)}: ${show(f.before)} -> ${show(f.after)}`);
  }
  const count = (c: ObjectDiff['change']): number => diffs.filter((d) => d.change === c).length;
  lines.push(`${count('added')} added, ${count('removed')} removed, ${count('changed')} changed`);
  return `${lines.join('\n')}\n`;
}
