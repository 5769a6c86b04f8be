/**
 * The one door to zod (schema/strict.ts), opened on first use. The startup snapshot is built
 * without opening it (src/snapshot.ts checks), so a run that never needs zod never loads it:
 * zod and its schemas are about 1.5 MB of heap, 7 ms of every start.
 */
import type { z } from 'zod';
import type { Diagnostic } from '../diagnostics';
import type { SourceDoc } from '../load/source';
import { fastParse } from './fast';
import type { ManifestKind } from './kubevirt-api';
import type * as Strict from './strict';
import type { AnySchema } from './walk';

let strictModule: typeof Strict | undefined;

export function strict(): typeof Strict {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (strictModule ??= require('./strict') as typeof Strict);
}

/** Whether anything has opened it yet. */
export function strictLoaded(): boolean {
  return strictModule !== undefined;
}

/**
 * A document checked against a schema: the fast parser's answer (under `root`) for a sound one;
 * for any other, zod's check, with a diagnostic per issue.
 */
export function checkDocument<S extends AnySchema>(
  root: string,
  src: SourceDoc,
  schemaOf: (zod: typeof Strict) => S,
): { ok: true; data: z.infer<S> } | { ok: false; diagnostics: Diagnostic[] } {
  const fast = fastParse(root, src.value);
  if (fast !== undefined) return { ok: true, data: fast.data as z.infer<S> };
  const zod = strict();
  return zod.checkAgainst(schemaOf(zod), src);
}

/** What the strict model of its kind finds wrong with a manifest: nothing for a sound one, without loading zod. */
export function manifestIssues(kind: ManifestKind, manifest: unknown): readonly z.core.$ZodIssue[] {
  if (fastParse(`manifest:${kind}`, manifest) !== undefined) return [];
  const r = strict().manifestSchemaFor(kind).safeParse(manifest);
  return r.success ? [] : r.error.issues;
}
