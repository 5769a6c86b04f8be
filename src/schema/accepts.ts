/**
 * "Would zod accept this value?" answered without zod's parse when the schema is made of the plain
 * parts the KubeVirt model is made of (strict objects, optionals, strings with length and pattern
 * checks, numbers with bounds, integers, booleans, enums, literals, arrays, records with string
 * keys, unions). zod's parse copies every object it accepts and builds its issue list as it goes;
 * the rules only need a verdict for the objects that pass, which are nearly all of them, and zod's
 * own issues for the others.
 *
 * The answer is never yes where zod says no: anything this module does not model (string formats,
 * refinements, transforms, defaults, non-plain objects...) is handed to zod's `safeParse` for that
 * part of the value, and a "no" here is only a cue to ask zod for its issues.
 * test/accepts.test.ts holds it to zod on every generated object and on random mutations of them.
 */
import { z } from 'zod';

type Test = (value: unknown) => boolean;

// Tests by schema; schemas are immutable, so a test is built once per schema per process.
const tests = new WeakMap<z.core.$ZodType, Test>();

/** True only if `schema.safeParse(value)` succeeds; false means "ask zod" (it may still succeed). */
export function accepts(schema: z.core.$ZodType, value: unknown): boolean {
  return testFor(schema)(value);
}

function testFor(schema: z.core.$ZodType): Test {
  const known = tests.get(schema);
  if (known !== undefined) return known;
  // A schema reached again while its own test is being built (a recursive model) asks for it lazily.
  const pending: { test?: Test } = {};
  tests.set(schema, (v) => pending.test!(v));
  const built = build(schema);
  pending.test = built;
  tests.set(schema, built);
  return built;
}

/** zod's own verdict, for what is not modelled here. */
function exact(schema: z.core.$ZodType): Test {
  return (v) => z.safeParse(schema, v).success;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

type CheckDef = {
  readonly check?: string;
  readonly format?: string;
  readonly maximum?: number;
  readonly minimum?: number;
  readonly length?: number;
  readonly value?: number;
  readonly inclusive?: boolean;
  readonly pattern?: RegExp;
};

/** The test of one zod check on a value of the right type; undefined for a check not modelled. */
type Checked = string | number | readonly unknown[];
const len = (v: Checked): number => (v as { length: number }).length;

function checkTest(check: z.core.$ZodCheck): ((v: Checked) => boolean) | undefined {
  const d = check._zod.def as CheckDef;
  switch (d.check) {
    case 'max_length':
      return typeof d.maximum === 'number' ? (v) => len(v) <= d.maximum! : undefined;
    case 'min_length':
      return typeof d.minimum === 'number' ? (v) => len(v) >= d.minimum! : undefined;
    case 'length_equals':
      return typeof d.length === 'number' ? (v) => len(v) === d.length : undefined;
    case 'greater_than':
      return typeof d.value === 'number' ? (d.inclusive ? (v) => (v as number) >= d.value! : (v) => (v as number) > d.value!) : undefined;
    case 'less_than':
      return typeof d.value === 'number' ? (d.inclusive ? (v) => (v as number) <= d.value! : (v) => (v as number) < d.value!) : undefined;
    case 'number_format':
      return d.format === 'safeint' ? (v) => Number.isSafeInteger(v) : undefined;
    case 'string_format': {
      const re = d.pattern;
      if (d.format !== 'regex' || !(re instanceof RegExp)) return undefined;
      return (v) => {
        re.lastIndex = 0;
        return re.test(v as string);
      };
    }
    default:
      return undefined;
  }
}

/** The tests of a schema's checks, all of them modelled, or undefined. */
function checksTest(schema: z.core.$ZodType): ((v: Checked) => boolean) | undefined {
  const checks = (schema._zod.def as { checks?: readonly z.core.$ZodCheck[] }).checks ?? [];
  const fns: ((v: Checked) => boolean)[] = [];
  for (const c of checks) {
    const fn = checkTest(c);
    if (fn === undefined) return undefined;
    fns.push(fn);
  }
  return fns.length === 0 ? () => true : (v) => fns.every((fn) => fn(v));
}

function build(schema: z.core.$ZodType): Test {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const checks = checksTest(schema);
  const checked = ((def as { checks?: readonly unknown[] }).checks ?? []).length > 0;
  // Checks are modelled on strings, numbers and arrays; anywhere else (refinements) zod answers.
  if (checks === undefined || (checked && def.type !== 'string' && def.type !== 'number' && def.type !== 'array')) return exact(schema);
  // `z.coerce.*` turns the value into its type first: zod answers.
  if (def['coerce'] === true) return exact(schema);
  switch (def.type) {
    case 'any':
    case 'unknown':
      return () => true;
    case 'string':
      // A string format (`z.email()`...) carries its format on the schema itself.
      if (def['format'] !== undefined) return exact(schema);
      return (v) => typeof v === 'string' && checks(v);
    case 'number':
      // `z.int()` is a number whose own definition carries the integer format.
      if (def['format'] === 'safeint') return (v) => typeof v === 'number' && Number.isSafeInteger(v) && checks(v);
      if (def['format'] !== undefined) return exact(schema);
      return (v) => typeof v === 'number' && Number.isFinite(v) && checks(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'enum':
    case 'literal': {
      // The values zod itself computed from the definition (an enum of a TypeScript enum drops its reverse keys).
      const values = schema._zod.values;
      return values instanceof Set ? (v) => values.has(v as never) : exact(schema);
    }
    case 'optional': {
      const inner = testFor(def['innerType'] as z.core.$ZodType);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = testFor(def['innerType'] as z.core.$ZodType);
      return (v) => v === null || inner(v);
    }
    case 'array': {
      const element = testFor(def['element'] as z.core.$ZodType);
      return (v) => Array.isArray(v) && checks(v) && v.every((e) => element(e));
    }
    case 'union': {
      const options = (def['options'] as readonly z.core.$ZodType[]).map(testFor);
      return (v) => options.some((o) => o(v));
    }
    case 'record': {
      const keyType = def['keyType'] as z.core.$ZodType;
      // Only string keys: an enum key makes every key of the enum required, which zod checks.
      if ((keyType._zod.def as { type: string }).type !== 'string') return exact(schema);
      const key = testFor(keyType);
      const value = testFor(def['valueType'] as z.core.$ZodType);
      return (v) => isPlainObject(v) && Object.keys(v).every((k) => key(k) && value(v[k]));
    }
    case 'object': {
      const shape = def['shape'] as Record<string, z.core.$ZodType>;
      const keys = Object.keys(shape);
      const fields = keys.map((k) => testFor(shape[k]!));
      const known = new Set(keys);
      const catchall = def['catchall'] as z.core.$ZodType | undefined;
      // No catchall: zod drops unknown keys; `never`: unknown keys are errors; else they are checked.
      const rest: Test | undefined =
        catchall === undefined ? undefined : (catchall._zod.def as { type: string }).type === 'never' ? () => false : testFor(catchall);
      return (v) => {
        if (!isPlainObject(v)) return false;
        for (let i = 0; i < keys.length; i++) if (!fields[i]!(v[keys[i]!])) return false;
        if (rest !== undefined) {
          const own = Object.keys(v);
          for (let i = 0; i < own.length; i++) if (!known.has(own[i]!) && !rest(v[own[i]!])) return false;
        }
        return true;
      };
    }
    default:
      return exact(schema);
  }
}
