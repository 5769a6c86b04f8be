/**
 * Walking zod schemas through zod's public classes (`ZodObject.shape`, `ZodArray.element`,
 * `unwrap()`...), for what the diagnostics need to know about a path: the keys a mapping may
 * hold, and which schema a value was checked against.
 */
import { z } from 'zod';

export type AnySchema = z.ZodType;

/** The schemas a value is checked against through wrappers: optional, default, pipes, unions. */
export function unwrap(s: AnySchema): AnySchema[] {
  if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodReadonly) {
    return unwrap(s.unwrap() as AnySchema);
  }
  if (s instanceof z.ZodPipe) return unwrap(s.in as AnySchema);
  if (s instanceof z.ZodUnion) return (s.options as readonly AnySchema[]).flatMap(unwrap);
  return [s];
}

/** The direct children of a schema, wrappers included (for walks over a whole schema). */
export function children(s: AnySchema): AnySchema[] {
  if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodReadonly) {
    return [s.unwrap() as AnySchema];
  }
  if (s instanceof z.ZodPipe) return [s.in as AnySchema, s.out as AnySchema];
  if (s instanceof z.ZodUnion) return [...(s.options as readonly AnySchema[])];
  if (s instanceof z.ZodObject) return Object.values(s.shape as Record<string, AnySchema>);
  if (s instanceof z.ZodArray) return [s.element as AnySchema];
  if (s instanceof z.ZodRecord) return [s.keyType as AnySchema, s.valueType as AnySchema];
  return [];
}

/** Schemas reachable at `path` (unions can offer several), unwrapped. */
export function schemasAt(schema: AnySchema, path: readonly (string | number)[]): AnySchema[] {
  let current: AnySchema[] = [schema];
  for (const seg of path) {
    const next: AnySchema[] = [];
    for (const s of current.flatMap(unwrap)) {
      if (s instanceof z.ZodObject && typeof seg === 'string' && Object.hasOwn(s.shape, seg)) next.push(s.shape[seg] as AnySchema);
      else if (s instanceof z.ZodArray && typeof seg === 'number') next.push(s.element as AnySchema);
      else if (s instanceof z.ZodRecord) next.push(s.valueType as AnySchema);
    }
    current = next;
  }
  return current.flatMap(unwrap);
}

/** The key schemas of the records at `path`. */
export function recordKeysAt(schema: AnySchema, path: readonly (string | number)[]): AnySchema[] {
  return schemasAt(schema, path).flatMap((s) => (s instanceof z.ZodRecord ? unwrap(s.keyType as AnySchema) : []));
}

/** Keys a mapping at `path` may hold: object fields, or the values of a record's enum key. */
export function knownKeysAt(schema: AnySchema, path: readonly (string | number)[]): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(schema, path)) if (s instanceof z.ZodObject) for (const k of Object.keys(s.shape)) keys.add(k);
  for (const k of recordKeysAt(schema, path)) if (k instanceof z.ZodEnum) for (const v of k.options) keys.add(String(v));
  keys.delete('$schema');
  return [...keys];
}

/**
 * One schema, whatever `.describe()` or `.optional()` made of it: zod's clones share the
 * definition object of the schema they were made from.
 */
export function sameSchema(a: AnySchema, b: AnySchema): boolean {
  return a.def === b.def;
}
