import type { CommandSpec } from '../parse';
import { jsonSchemaText, SCHEMA_NAMES, type SchemaName } from '../../workflows/schema';
import { EXIT_OK, type Command } from '../command';

export const SCHEMA_COMMAND: CommandSpec = {
  name: 'schema',
  synopsis: `schema [${SCHEMA_NAMES.join('|')}]`,
  summary: 'print the JSON Schema of catalog documents, generator files or release locks',
  options: [],
  projectless: true,
  accept: (line) =>
    line.positionals.length > 1 || (line.positionals[0] !== undefined && !SCHEMA_NAMES.includes(line.positionals[0] as SchemaName))
      ? `schema takes one of ${SCHEMA_NAMES.join(', ')}`
      : undefined,
};

export const schema: Command = {
  ...SCHEMA_COMMAND,
  run({ io, line }) {
    io.out(jsonSchemaText((line.positionals[0] ?? 'catalog') as SchemaName));
    return EXIT_OK;
  },
};
