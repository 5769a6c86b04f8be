import { strict } from '../schema/lazy';
import type { CommandSpec } from './spec';

// zod is loaded when a schema is printed, not with the CLI.
export const SCHEMAS = {
  catalog: (): object => strict().catalogJsonSchema(),
  generator: (): object => strict().generatorJsonSchema(),
  lock: (): object => strict().lockJsonSchema(),
} as const;
export type SchemaName = keyof typeof SCHEMAS;
export const NAMES = Object.keys(SCHEMAS) as SchemaName[];

export const SCHEMA_COMMAND: CommandSpec = {
  name: 'schema',
  synopsis: `schema [${NAMES.join('|')}]`,
  summary: 'print the JSON Schema of catalog documents, generator files or release locks',
  options: [],
  projectless: true,
  accept: (line) =>
    line.positionals.length > 1 || (line.positionals[0] !== undefined && !NAMES.includes(line.positionals[0] as SchemaName))
      ? `schema takes one of ${NAMES.join(', ')}`
      : undefined,
};
