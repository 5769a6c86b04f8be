/**
 * The one door to zod (schema/strict.ts), opened on first use. The startup snapshot is built
 * without opening it (src/cli/snapshot.ts checks), so a run that never needs zod never loads it:
 * zod and its schemas are about 1.5 MB of heap, 7 ms of every start.
 */
import type * as Strict from './strict';

let strictModule: typeof Strict | undefined;

export function strict(): typeof Strict {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (strictModule ??= require('./strict') as typeof Strict);
}

/** Whether anything has opened it yet. */
export function strictLoaded(): boolean {
  return strictModule !== undefined;
}
