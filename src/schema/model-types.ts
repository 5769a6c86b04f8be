/**
 * The catalog's schemas as plain data (schema/model.ts writes it from the zod schemas, the fast
 * parser in schema/fast.ts compiles it): what zod checks and what it makes of a value, for the
 * parts the schemas are made of. A node is an index into `nodes`, so shared and recursive schemas
 * are written once. `decline` stands for anything not modelled: the fast parser then asks zod.
 */
import type { HookName } from './hooks';

export type ModelCheck =
  | { readonly k: 'min' | 'max' | 'len'; readonly n: number }
  | { readonly k: 'gt' | 'ge' | 'lt' | 'le'; readonly n: number }
  | { readonly k: 'int'; readonly min: number; readonly max: number }
  | { readonly k: 're'; readonly s: string; readonly f: string }
  /** A refinement: the hook must answer truthy. */
  | { readonly k: 'hook'; readonly f: HookName }
  /** A refinement with issues (`superRefine`): the hook must report none. */
  | { readonly k: 'issues'; readonly f: HookName };

/** A field of an object: its name, its node, and zod's optin/optout markers for it. */
export type ModelField = readonly [name: string, node: number, optin: string | null, optout: string | null];

export type ModelNode = (
  | { readonly t: 'decline' }
  | { readonly t: 'any' }
  | { readonly t: 'string' }
  | { readonly t: 'number' }
  | { readonly t: 'boolean' }
  | { readonly t: 'values'; readonly v: readonly (string | number | boolean | null)[] }
  | { readonly t: 'optional' | 'nullable'; readonly i: number }
  | { readonly t: 'default' | 'prefault'; readonly i: number; readonly v: string }
  | { readonly t: 'array'; readonly e: number }
  | { readonly t: 'object'; readonly s: readonly ModelField[]; readonly x: 'strict' | 'strip' | number }
  | { readonly t: 'record'; readonly k: number; readonly v: number }
  | { readonly t: 'union'; readonly o: readonly number[] }
  | { readonly t: 'pipe'; readonly a: number; readonly b: number }
  | { readonly t: 'transform'; readonly f: HookName }
) & {
  /** Checks run on what the node made of the value. */
  readonly c?: readonly ModelCheck[];
};

export interface SchemaModel {
  readonly nodes: readonly ModelNode[];
  /** `catalog:Family`, `generator`, `lock`, `manifest:VirtualMachineClusterInstancetype`... */
  readonly roots: Readonly<Record<string, number>>;
}
