/**
 * zod's answer for a catalog, generator, lock or manifest, without zod: the model schema/model.ts
 * writes of the schemas, compiled into plain functions that check a value and build what zod's
 * parse returns for it (defaults filled in, transforms run, keys in the schema's order, optional
 * keys left out as zod leaves them out). It answers only for values it is sure of; for anything
 * else (a value zod would refuse, a part of a schema the model does not carry) it answers
 * undefined and the caller asks zod, which also gives the issues. So a sound catalog is read
 * without loading zod at all: zod and its schemas are about 1.5 MB of the startup snapshot, and
 * 7 ms of every start. test/fast-parse.test.ts holds every answer to zod's.
 */
import { HOOKS, type IssueSink } from './hooks';
import type { ModelCheck, ModelNode, SchemaModel } from './model-types';

/** What a part of a schema made of a value; FAIL when unsure (zod decides). */
const FAIL: unique symbol = Symbol('ask zod');
type Parse = (value: unknown) => unknown;

/** The model as JSON, written into the bundle by tools/bundle.mjs (absent when src runs unbundled). */
declare const ITGEN_SCHEMA_MODEL: string | undefined;

let model: SchemaModel | undefined = typeof ITGEN_SCHEMA_MODEL === 'string' ? (JSON.parse(ITGEN_SCHEMA_MODEL) as SchemaModel) : undefined;
let compiled: (Parse | undefined)[] = [];

/** Installs a model (the tests', made from the zod schemas in the same process), or none. */
export function installModel(m: SchemaModel | undefined): void {
  model = m;
  compiled = [];
}

/**
 * Compiles every root now, which compiles every node they reach, and lets the description go: the
 * startup snapshot keeps the compiled functions only.
 */
export function compileModel(): void {
  if (!model) return;
  for (const index of Object.values(model.roots)) parser(index);
  model = { roots: model.roots, nodes: [] };
}

/** What zod's parse of `value` against the root schema returns, when the fast parser is sure; else undefined. */
export function fastParse(root: string, value: unknown): { data: unknown } | undefined {
  if (model === undefined || !Object.hasOwn(model.roots, root)) return undefined;
  const index = model.roots[root]!;
  const out = parser(index)(value);
  return out === FAIL ? undefined : { data: out };
}

function parser(index: number): Parse {
  const known = compiled[index];
  if (known !== undefined) return known;
  // A schema reached again while its own parser is being built (a recursive model) calls it lazily.
  const pending: { parse?: Parse } = {};
  compiled[index] = (v) => pending.parse!(v);
  const node = model?.nodes[index];
  const built = node === undefined ? (): unknown => FAIL : build(node);
  pending.parse = built;
  compiled[index] = built;
  return built;
}

/** A mapping made by a literal or JSON.parse (no class instance): what the fast checks accept. */
function isLiteralObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const length = (v: unknown): number | undefined => (typeof v === 'string' || Array.isArray(v) ? v.length : undefined);

function checkTest(c: ModelCheck): (v: unknown) => boolean {
  switch (c.k) {
    case 'min':
      return (v) => (length(v) ?? -1) >= c.n;
    case 'max':
      return (v) => (length(v) ?? Infinity) <= c.n;
    case 'len':
      return (v) => length(v) === c.n;
    case 'gt':
      return (v) => typeof v === 'number' && v > c.n;
    case 'ge':
      return (v) => typeof v === 'number' && v >= c.n;
    case 'lt':
      return (v) => typeof v === 'number' && v < c.n;
    case 'le':
      return (v) => typeof v === 'number' && v <= c.n;
    case 'int':
      return (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= c.min && v <= c.max;
    case 're': {
      const re = new RegExp(c.s, c.f);
      return (v) => {
        if (typeof v !== 'string') return false;
        re.lastIndex = 0;
        return re.test(v);
      };
    }
    case 'hook': {
      const fn = HOOKS[c.f] as (v: unknown) => unknown;
      return (v) => Boolean(fn(v));
    }
    case 'issues': {
      const fn = HOOKS[c.f] as (v: unknown, ctx: IssueSink) => void;
      return (v) => {
        let clean = true;
        fn(v, {
          addIssue: () => {
            clean = false;
          },
        });
        return clean;
      };
    }
  }
}

function build(node: ModelNode): Parse {
  const parse = shape(node);
  const checks = (node.c ?? []).map(checkTest);
  if (checks.length === 0) return parse;
  return (v) => {
    const out = parse(v);
    if (out === FAIL) return FAIL;
    for (let i = 0; i < checks.length; i++) if (!checks[i]!(out)) return FAIL;
    return out;
  };
}

/** Over 80 lines: one switch over the schema node kinds of the fast checker. */
function shape(node: ModelNode): Parse {
  switch (node.t) {
    case 'decline':
      return () => FAIL;
    case 'any':
      return (v) => v;
    case 'string':
      return (v) => (typeof v === 'string' ? v : FAIL);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : FAIL);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : FAIL);
    case 'values': {
      const values = new Set<unknown>(node.v);
      return (v) => (values.has(v) ? v : FAIL);
    }
    case 'optional': {
      const inner = parser(node.i);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case 'nullable': {
      const inner = parser(node.i);
      return (v) => (v === null ? null : inner(v));
    }
    case 'default': {
      const inner = parser(node.i);
      const text = node.v;
      return (v) => {
        if (v === undefined) return JSON.parse(text) as unknown;
        const out = inner(v);
        return out === undefined ? (JSON.parse(text) as unknown) : out;
      };
    }
    case 'prefault': {
      const inner = parser(node.i);
      const text = node.v;
      return (v) => inner(v === undefined ? (JSON.parse(text) as unknown) : v);
    }
    case 'array': {
      const element = parser(node.e);
      return (v) => {
        if (!Array.isArray(v)) return FAIL;
        const out: unknown[] = [];
        for (let i = 0; i < v.length; i++) {
          const e = element(v[i]);
          if (e === FAIL) return FAIL;
          out.push(e);
        }
        return out;
      };
    }
    case 'object':
      return objectParser(node);
    case 'record': {
      const key = parser(node.k);
      const value = parser(node.v);
      return (v) => {
        if (!isLiteralObject(v)) return FAIL;
        const out: Record<string, unknown> = {};
        const keys = Object.keys(v);
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          if (k === '__proto__' || key(k) !== k) return FAIL;
          const r = value(v[k]);
          if (r === FAIL) return FAIL;
          out[k] = r;
        }
        return out;
      };
    }
    case 'union': {
      const options = node.o.map(parser);
      return (v) => {
        for (let i = 0; i < options.length; i++) {
          const r = options[i]!(v);
          if (r !== FAIL) return r;
        }
        return FAIL;
      };
    }
    case 'pipe': {
      const a = parser(node.a);
      const b = parser(node.b);
      return (v) => {
        const r = a(v);
        return r === FAIL ? FAIL : b(r);
      };
    }
    case 'transform': {
      const fn = HOOKS[node.f] as (v: unknown) => unknown;
      return (v) => fn(v);
    }
  }
}

/** zod's object: the fields in the schema's order, as zod decides each (see handlePropertyResult in zod). */
function objectParser(node: Extract<ModelNode, { t: 'object' }>): Parse {
  const fields = node.s.map(([name, index, optin, optout]) => ({ name, parse: parser(index), optin, optout }));
  const known = new Set(node.s.map(([name]) => name));
  const rest = typeof node.x === 'number' ? parser(node.x) : node.x;
  return (v) => {
    if (!isLiteralObject(v) || Object.hasOwn(v, '__proto__')) return FAIL;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      const present = f.name in v;
      const optionalOut = f.optout === 'optional';
      if (!present && optionalOut && f.optin === 'optional') continue;
      const r = f.parse(v[f.name]);
      // zod ignores the issues of some absent keys; unsure whether this is one, zod decides.
      if (r === FAIL) return FAIL;
      if (!present && f.optin === null) return FAIL;
      if (r === undefined) {
        if (present || (f.optin === 'defaulted' && !optionalOut)) out[f.name] = undefined;
      } else out[f.name] = r;
    }
    if (rest !== 'strip') {
      const keys = Object.keys(v);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (known.has(k)) continue;
        if (rest === 'strict') return FAIL;
        const r = rest(v[k]);
        if (r === FAIL) return FAIL;
        out[k] = r;
      }
    }
    return out;
  };
}
