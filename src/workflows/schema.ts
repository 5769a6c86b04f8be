/** `itgen schema`: the JSON Schemas of catalog documents, generator files and release locks. */
import { strict } from '../schema/lazy';

// zod is loaded when a schema is printed, not with the CLI.
const SCHEMAS = {
  catalog: (): object => strict().catalogJsonSchema(),
  generator: (): object => strict().generatorJsonSchema(),
  lock: (): object => strict().lockJsonSchema(),
} as const;
export type SchemaName = keyof typeof SCHEMAS;
export const SCHEMA_NAMES = Object.keys(SCHEMAS) as SchemaName[];

export function jsonSchema(which: SchemaName): object {
  return SCHEMAS[which]();
}

/** A schema as the JSON `itgen schema` prints. */
export function jsonSchemaText(which: SchemaName): string {
  return JSON.stringify(jsonSchema(which), null, 2);
}
