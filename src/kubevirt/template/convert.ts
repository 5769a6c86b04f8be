/**
 * What virt-template-engine's last step does with a processed VM: apimachinery's
 * `DefaultUnstructuredConverter.FromUnstructuredWithValidation(obj, &VirtualMachine{}, true)`
 * (runtime/converter.go) over KubeVirt's Go types (vm-go-types.ts). Two decoders meet there:
 * - the converter's own reflection, for every type that does not decode itself: strict (a key no
 *   field has is collected, and all of them are refused at the end, sorted), stopping at the first
 *   value of the wrong kind in its terse words ("unrecognized type: string", "cannot restore
 *   struct from: string", "cannot convert float64 to int64");
 * - encoding/json, for a type that decodes itself: the VMI spec (`spec.template.spec`, whose
 *   UnmarshalJSON decodes an alias type) and the quantities and times. Lenient: an unknown key is
 *   dropped in silence (collected here as `dropped`, which the engine never says), keys match
 *   field names case-insensitively, and the first value of the wrong type is reported in its words
 *   ("json: cannot unmarshal string into Go struct field CPU.domain.cpu.cores of type uint32")
 *   after the whole value is read.
 */
import { isPlainObject, type Json, type JsonObject } from '../../json';
import { isQuantity } from '../../quantity';
import { jsonKind, unmarshalTypeError } from './go-values';
import { VM_GO_ROOT, VM_GO_TYPES, type GoTypeRow } from './vm-go-types';

export type Path = readonly (string | number)[];

export interface ConvertProblem {
  readonly message: string;
  /** Where in the VM (for a location). */
  readonly path: Path;
}

export interface Converted {
  /** The conversion's error in its words, or undefined. */
  readonly error?: ConvertProblem;
  /** Fields encoding/json dropped in silence (unknown inside a type that decodes itself). */
  readonly dropped: readonly Path[];
  /** Keys encoding/json matched to a field case-insensitively: the typed VM holds the field's own name. */
  readonly renamed: readonly { readonly path: Path; readonly to: string }[];
}

const QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

type Row = GoTypeRow;
const row = (i: number): Row => VM_GO_TYPES[i]!;
const kindOf = (r: Row): string => r[0];
const nameOf = (r: Row): string => r[1];
const elemOf = (r: Row): number => r[3] ?? -1;
const fieldsOf = (r: Row): readonly (readonly [string, number, 1?])[] => r[5] ?? [];

/** The Go kind encoding/json gives a decoded JSON value in an unstructured map. */
function sourceKind(v: Json): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'slice' : 'map';
}

const INT_KINDS = new Set(['int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr']);
const FLOAT_KINDS = new Set(['float32', 'float64']);
const SIMPLE_KINDS = new Set([...INT_KINDS, ...FLOAT_KINDS, 'string', 'bool']);

class Stop {
  constructor(readonly problem: ConvertProblem) {}
}

/** The reflective converter (converter.go fromUnstructured); unknown keys collected with the converter's path text. */
class Reflective {
  readonly unknown: { text: string; path: Path }[] = [];
  readonly dropped: Path[] = [];
  readonly renamed: { path: Path; to: string }[] = [];

  convert(v: Json | undefined, t: number, path: Path, text: string): void {
    if (v === undefined || v === null) return;
    const r = row(t);
    const kind = kindOf(r);
    if (SIMPLE_KINDS.has(kind)) return this.simple(v, r, path);
    // A type that decodes itself (encoding/json from here down).
    if (r[2] === 1 && kind !== 'ptr') {
      const json = new JsonDecoder(this.dropped, this.renamed);
      json.decode(v, t, path, [], undefined);
      if (json.error) throw new Stop(json.error);
      return;
    }
    const sk = sourceKind(v);
    if (kind === 'ptr') return this.convert(v, elemOf(r), path, text);
    if (kind === 'interface') return;
    if (kind === 'map') {
      if (sk !== 'map') throw new Stop({ message: `cannot restore map from ${sk}`, path });
      // Map values: the converter does not add the key to its path text.
      for (const [k, x] of Object.entries(v as JsonObject)) this.convert(x, elemOf(r), [...path, k], text);
      return;
    }
    if (kind === 'slice' || kind === 'array') {
      if (sk === 'string' && kindOf(row(elemOf(r))) === 'uint8') return;
      if (sk !== 'slice') throw new Stop({ message: `cannot restore slice from ${sk}`, path });
      (v as Json[]).forEach((x, i) => this.convert(x, elemOf(r), [...path, i], `${text}[${i}]`));
      return;
    }
    if (kind === 'struct') {
      if (sk !== 'map') throw new Stop({ message: `cannot restore struct from: ${sk}`, path });
      const matched = new Set<string>();
      this.struct(v as JsonObject, t, path, text, matched);
      for (const k of Object.keys(v as JsonObject))
        if (!matched.has(k)) this.unknown.push({ text: `unknown field "${text === '' ? k : `${text}.${k}`}"`, path: [...path, k] });
      return;
    }
    throw new Stop({ message: `unrecognized type: ${kind}`, path });
  }

  private struct(v: JsonObject, t: number, path: Path, text: string, matched: Set<string>): void {
    for (const [name, ft, inline] of fieldsOf(row(t))) {
      if (inline === 1) {
        // An inlined struct reads the same map and shares its matched keys.
        const fr = row(ft);
        if (kindOf(fr) === 'struct' && fr[2] !== 1) this.struct(v, ft, path, text, matched);
        else this.convert(v, ft, path, text);
        continue;
      }
      matched.add(name);
      if (Object.hasOwn(v, name)) this.convert(v[name], ft, [...path, name], text === '' ? name : `${text}.${name}`);
    }
  }

  /** converter.go's simple kinds: assignable, or convertible within JSON's four groups. */
  private simple(v: Json, r: Row, path: Path): void {
    const kind = kindOf(r);
    const sk = sourceKind(v);
    if (sk === 'string' && kind === 'string') return;
    if (sk === 'bool' && kind === 'bool') return;
    if (sk === 'float64' && FLOAT_KINDS.has(kind)) return;
    if (sk === 'float64' && INT_KINDS.has(kind)) {
      if (Number.isInteger(v)) return;
      throw new Stop({ message: `cannot convert float64 to ${nameOf(r)}`, path });
    }
    throw new Stop({ message: `unrecognized type: ${kind}`, path });
  }
}

/** encoding/json decoding a value (already Go-marshalled: map keys sorted) into a type. */
class JsonDecoder {
  error?: ConvertProblem;
  /** sigs.k8s.io/yaml's reading: a YAML number or bool decodes into a Go string as its text. */
  scalarsAsStrings = false;
  constructor(
    private readonly dropped: Path[],
    private readonly renamed: { path: Path; to: string }[] = [],
  ) {}

  private typeError(value: string, t: number, path: Path, stack: readonly string[], struct: string | undefined): void {
    if (this.error) return;
    const type = nameOf(row(t));
    const message = unmarshalTypeError(value, type, struct !== undefined || stack.length > 0 ? `${struct ?? ''}.${stack.join('.')}` : undefined);
    this.error = { message, path };
  }

  /** A type's own UnmarshalJSON: its error aborts the decoding (undefined when it takes the value). */
  private custom(v: Json, r: Row): string | undefined {
    const name = nameOf(r);
    if (name === 'resource.Quantity') {
      if (v === null) return undefined;
      const text = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
      return text !== undefined && isQuantity(text) ? undefined : QUANTITY_FORMAT;
    }
    if (name === 'v1.Time') {
      // metav1.Time: null, or a string time.Parse reads as RFC 3339.
      if (v === null) return undefined;
      if (typeof v !== 'string') return unmarshalTypeError(jsonKind(v), 'string');
      return undefined;
    }
    if (name === 'intstr.IntOrString') {
      if (typeof v === 'string' || v === null) return undefined;
      if (typeof v === 'number' && Number.isInteger(v)) return undefined;
      return unmarshalTypeError(jsonKind(v), 'int32');
    }
    return undefined;
  }

  decode(v: Json | undefined, t: number, path: Path, stack: readonly string[], struct: string | undefined): boolean {
    if (v === undefined) return true;
    const r = row(t);
    const kind = kindOf(r);
    if (kind === 'ptr') return v === null ? true : this.decode(v, elemOf(r), path, stack, struct);
    if (r[2] === 1 && nameOf(r) !== 'v1.VirtualMachineInstanceSpec') {
      const problem = this.custom(v, r);
      if (problem !== undefined) {
        this.error = { message: problem, path };
        return false;
      }
      return true;
    }
    if (v === null || kind === 'interface') return true;
    const jk = jsonKind(v);
    if (kind === 'string') {
      if (this.scalarsAsStrings && (jk === 'number' || jk === 'bool')) return true;
      if (jk !== 'string') this.typeError(jk, t, path, stack, struct);
      return true;
    }
    if (kind === 'bool') {
      if (jk !== 'bool') this.typeError(jk, t, path, stack, struct);
      return true;
    }
    if (INT_KINDS.has(kind) || FLOAT_KINDS.has(kind)) {
      if (jk !== 'number') this.typeError(jk, t, path, stack, struct);
      else if (!FLOAT_KINDS.has(kind) && !fitsInt(v as number, kind)) this.typeError(`number ${goNumberText(v as number)}`, t, path, stack, struct);
      return true;
    }
    if (kind === 'slice' || kind === 'array') {
      if (!Array.isArray(v)) {
        this.typeError(jk, t, path, stack, struct);
        return true;
      }
      return v.every((x, i) => this.decode(x, elemOf(r), [...path, i], stack, struct));
    }
    if (kind === 'map') {
      if (!isPlainObject(v)) {
        this.typeError(jk, t, path, stack, struct);
        return true;
      }
      return Object.keys(v)
        .sort()
        .every((k) => this.decode(v[k], elemOf(r), [...path, k], stack, struct));
    }
    if (kind === 'struct') {
      if (!isPlainObject(v)) {
        // The VMI spec decodes an alias of itself: its own name is the alias's.
        if (stack.length === 0 && nameOf(r) === 'v1.VirtualMachineInstanceSpec') this.error ??= { message: unmarshalTypeError(jk, 'v1.VMISpecAlias'), path };
        else this.typeError(jk, t, path, stack, struct);
        return true;
      }
      const fields = flatFields(t);
      for (const k of Object.keys(v).sort()) {
        const f = fields.find((x) => x.name === k) ?? fields.find((x) => x.name.toLowerCase() === k.toLowerCase());
        if (!f) {
          this.dropped.push([...path, k]);
          continue;
        }
        if (f.name !== k) this.renamed.push({ path: [...path, k], to: f.name });
        if (!this.decode(v[k], f.type, [...path, k], [...stack, ...f.via, f.name], structName(f.owner))) return false;
      }
      return true;
    }
    return true;
  }
}

/** A struct's fields as encoding/json sees them: inlined structs' fields promoted (with the Go field names on the way). */
function flatFields(t: number): { name: string; type: number; owner: number; via: string[] }[] {
  const out: { name: string; type: number; owner: number; via: string[] }[] = [];
  for (const [name, ft, inline] of fieldsOf(row(t))) {
    if (inline === 1) {
      const inner = kindOf(row(ft)) === 'ptr' ? elemOf(row(ft)) : ft;
      for (const f of flatFields(inner)) out.push({ ...f, owner: t, via: [nameOf(row(inner)).replace(/^.*\./, ''), ...f.via] });
    } else out.push({ name, type: ft, owner: t, via: [] });
  }
  return out;
}

/** The struct type's own name as reflect's Name() gives it (VMISpecAlias for the VMI spec's alias). */
function structName(t: number): string {
  const name = nameOf(row(t)).replace(/^.*\./, '');
  return name === 'VirtualMachineInstanceSpec' ? 'VMISpecAlias' : name;
}

function fitsInt(n: number, kind: string): boolean {
  if (!Number.isInteger(n)) return false;
  const bits = kind === 'int8' || kind === 'uint8' ? 8 : kind === 'int16' || kind === 'uint16' ? 16 : kind === 'int32' || kind === 'uint32' ? 32 : 64;
  if (kind.startsWith('u')) return n >= 0 && n < 2 ** bits;
  return n >= -(2 ** (bits - 1)) && n < 2 ** (bits - 1);
}

/** The text json.Marshal gave the number (the decoder quotes it back). */
function goNumberText(n: number): string {
  const abs = Math.abs(n);
  return abs !== 0 && (abs < 1e-6 || abs >= 1e21) ? n.toExponential() : String(n);
}

/** The engine's conversion of a processed VM into KubeVirt's VirtualMachine type. */
export function convertVirtualMachine(vm: JsonObject): Converted {
  const r = new Reflective();
  try {
    r.convert(vm, VM_GO_ROOT, [], '');
  } catch (e) {
    if (e instanceof Stop) return { error: e.problem, dropped: r.dropped, renamed: r.renamed };
    throw e;
  }
  if (r.unknown.length > 0) {
    const sorted = [...r.unknown].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    return {
      error: { message: `strict decoding error: ${sorted.map((u) => u.text).join(', ')}`, path: sorted[0]!.path },
      dropped: r.dropped,
      renamed: r.renamed,
    };
  }
  return { dropped: r.dropped, renamed: r.renamed };
}

/** The VM as the engine's typed VM holds it: the fields encoding/json dropped removed, those it matched by case renamed. */
export function typedView(vm: JsonObject, c: Pick<Converted, 'dropped' | 'renamed'>): JsonObject {
  const out = structuredClone(vm);
  const parentOf = (p: Path): Json | undefined => {
    let at: Json | undefined = out;
    for (const k of p.slice(0, -1)) at = isPlainObject(at) ? at[k as string] : Array.isArray(at) ? at[k as number] : undefined;
    return at;
  };
  // Deepest first: a renamed key's path names its parent's keys as written.
  const ops = [...c.dropped.map((path) => ({ path, to: undefined as string | undefined })), ...c.renamed].sort((a, b) => b.path.length - a.path.length);
  for (const { path, to } of ops) {
    const parent = parentOf(path);
    const key = path[path.length - 1] as string;
    if (!isPlainObject(parent) || !Object.hasOwn(parent, key)) continue;
    const v = parent[key]!;
    delete parent[key];
    if (to !== undefined && !Object.hasOwn(parent, to)) Object.defineProperty(parent, to, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const OBJECT_META = VM_GO_TYPES.findIndex((r) => r[0] === 'struct' && r[1] === 'v1.ObjectMeta' && (r[5] ?? []).some((f) => f[0] === 'generateName'));

/** encoding/json's first error decoding `v` into ObjectMeta, as the field `metadata` of a struct named `owner`. */
export function objectMetaError(v: Json, owner: string, yaml: boolean): string | undefined {
  const d = new JsonDecoder([]);
  d.scalarsAsStrings = yaml;
  if (!isPlainObject(v) && v !== null) return unmarshalTypeError(jsonKind(v), 'v1.ObjectMeta', `${owner}.metadata`);
  d.decode(v, OBJECT_META, ['metadata'], ['metadata'], 'ObjectMeta');
  return d.error?.message;
}
