/**
 * Writes the zod schemas of catalogs, generators, locks and manifests as plain data
 * (model-types.ts) for the fast parser. Everything it does not recognise becomes `decline`, so
 * that the fast parser hands those values to zod: the model may be incomplete, never different.
 * Held to zod by test/fast-parse.test.ts on every catalog, generator and manifest of the
 * repository and on mutations of them.
 */
import type { z } from 'zod';
import { CATALOG_KINDS } from './catalog';
import { generatorSchema } from './generator';
import { HOOKS, tagOf, type HookName } from './hooks';
import { lockSchema } from './lock';
import { MANIFEST_KINDS, manifestSchemaFor } from './manifest';
import type { Json } from '../json';
import type { ModelCheck, ModelField, ModelNode, SchemaModel } from './model-types';

type Def = Record<string, unknown> & { type: string; checks?: readonly z.core.$ZodCheck[] };

const HOOK_NAMES = new Map<unknown, HookName>(Object.entries(HOOKS).map(([name, fn]) => [fn, name as HookName]));

/** Integer formats zod gives `z.int()`, `z.uint32()`... and their ranges. */
const INT_FORMATS: Readonly<Record<string, readonly [number, number]>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

function isJson(v: unknown): v is Json {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.values(v).every(isJson);
  return false;
}

class Writer {
  readonly nodes: ModelNode[] = [];
  private readonly seen = new Map<z.core.$ZodType, number>();

  node(schema: z.core.$ZodType): number {
    const known = this.seen.get(schema);
    if (known !== undefined) return known;
    const index = this.nodes.length;
    this.seen.set(schema, index);
    this.nodes.push({ t: 'decline' });
    this.nodes[index] = this.describe(schema);
    return index;
  }

  /** The checks of a schema, all of them modelled, or undefined. */
  private checks(schema: z.core.$ZodType, def: Def): ModelCheck[] | undefined {
    const out: ModelCheck[] = [];
    for (const check of def.checks ?? []) {
      const d = check._zod.def as unknown as Record<string, unknown> & { check: string };
      const n = (key: string): number | undefined => (typeof d[key] === 'number' ? (d[key] as number) : undefined);
      switch (d.check) {
        case 'min_length':
        case 'max_length':
        case 'length_equals': {
          const value = n(d.check === 'min_length' ? 'minimum' : d.check === 'max_length' ? 'maximum' : 'length');
          if (value === undefined) return undefined;
          out.push({ k: d.check === 'min_length' ? 'min' : d.check === 'max_length' ? 'max' : 'len', n: value });
          break;
        }
        case 'greater_than':
        case 'less_than': {
          const value = n('value');
          if (value === undefined) return undefined;
          const inclusive = d['inclusive'] === true;
          out.push({ k: d.check === 'greater_than' ? (inclusive ? 'ge' : 'gt') : inclusive ? 'le' : 'lt', n: value });
          break;
        }
        case 'number_format': {
          const range = INT_FORMATS[String(d['format'])];
          if (!range) return undefined;
          out.push({ k: 'int', min: range[0], max: range[1] });
          break;
        }
        case 'string_format': {
          if (d['format'] !== 'regex' || !(d['pattern'] instanceof RegExp)) return undefined;
          out.push({ k: 're', s: d['pattern'].source, f: d['pattern'].flags });
          break;
        }
        case 'custom': {
          const hook = HOOK_NAMES.get(d['fn']);
          const tag = tagOf(schema);
          if (hook !== undefined && d['fn'] !== undefined) out.push({ k: 'hook', f: hook });
          else if (d['fn'] === undefined && tag !== undefined) out.push({ k: 'issues', f: tag });
          else return undefined;
          break;
        }
        default:
          return undefined;
      }
    }
    return out;
  }

  private describe(schema: z.core.$ZodType): ModelNode {
    const def = schema._zod.def as unknown as Def;
    const checks = this.checks(schema, def);
    if (checks === undefined || def['coerce'] === true) return { t: 'decline' };
    const c = checks.length > 0 ? { c: checks } : {};
    switch (def.type) {
      case 'any':
      case 'unknown':
        return { t: 'any', ...c };
      case 'string':
        return def['format'] === undefined ? { t: 'string', ...c } : { t: 'decline' };
      case 'number': {
        if (def['format'] === undefined) return { t: 'number', ...c };
        const range = INT_FORMATS[String(def['format'])];
        return range ? { t: 'number', c: [{ k: 'int', min: range[0], max: range[1] }, ...checks] } : { t: 'decline' };
      }
      case 'boolean':
        return { t: 'boolean', ...c };
      case 'enum':
      case 'literal': {
        const values = schema._zod.values;
        if (!(values instanceof Set) || ![...values].every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) return { t: 'decline' };
        return { t: 'values', v: [...values] as (string | number | boolean | null)[], ...c };
      }
      case 'optional':
      case 'nullable': {
        const inner = def['innerType'] as z.core.$ZodType;
        // zod's optional runs an inner schema that is optional itself even on undefined (which may
        // turn it into something); the fast parser answers undefined, so it leaves those to zod.
        if (def.type === 'optional' && inner._zod.optin === 'optional') return { t: 'decline' };
        return { t: def.type, i: this.node(inner), ...c };
      }
      case 'default':
      case 'prefault': {
        const value: unknown = (def as { defaultValue?: unknown }).defaultValue;
        if (!isJson(value)) return { t: 'decline' };
        return { t: def.type, i: this.node(def['innerType'] as z.core.$ZodType), v: JSON.stringify(value), ...c };
      }
      case 'array':
        return { t: 'array', e: this.node(def['element'] as z.core.$ZodType), ...c };
      case 'object': {
        const shape = def['shape'] as Record<string, z.core.$ZodType>;
        const fields: ModelField[] = Object.keys(shape).map((k) => {
          const field = shape[k]!;
          return [k, this.node(field), field._zod.optin ?? null, field._zod.optout ?? null];
        });
        const catchall = def['catchall'] as z.core.$ZodType | undefined;
        const x = catchall === undefined ? 'strip' : (catchall._zod.def as { type: string }).type === 'never' ? 'strict' : this.node(catchall);
        return { t: 'object', s: fields, x, ...c };
      }
      case 'record': {
        const keyType = def['keyType'] as z.core.$ZodType;
        // A record keyed by an enum requires every key unless partial: zod's own business.
        if (keyType._zod.values !== undefined && def['partial'] !== true) return { t: 'decline' };
        return { t: 'record', k: this.node(keyType), v: this.node(def['valueType'] as z.core.$ZodType), ...c };
      }
      case 'union':
        if (def['discriminator'] !== undefined) return { t: 'decline' };
        return { t: 'union', o: (def['options'] as readonly z.core.$ZodType[]).map((o) => this.node(o)), ...c };
      case 'pipe':
        return { t: 'pipe', a: this.node(def['in'] as z.core.$ZodType), b: this.node(def['out'] as z.core.$ZodType), ...c };
      case 'transform': {
        const hook = HOOK_NAMES.get(def['transform']);
        return hook !== undefined ? { t: 'transform', f: hook, ...c } : { t: 'decline' };
      }
      default:
        return { t: 'decline' };
    }
  }
}

/** The model of some schemas, each under its root name. */
export function modelOf(schemas: Readonly<Record<string, z.core.$ZodType>>): SchemaModel {
  const w = new Writer();
  const roots: Record<string, number> = {};
  for (const [name, schema] of Object.entries(schemas)) roots[name] = w.node(schema);
  return { nodes: w.nodes, roots };
}

/** The model of every schema the fast parser answers for. */
export function schemaModel(): SchemaModel {
  return modelOf({
    ...Object.fromEntries(Object.entries(CATALOG_KINDS).map(([kind, schema]) => [`catalog:${kind}`, schema])),
    generator: generatorSchema,
    lock: lockSchema,
    ...Object.fromEntries(MANIFEST_KINDS.map((kind) => [`manifest:${kind}`, manifestSchemaFor(kind)])),
  });
}
