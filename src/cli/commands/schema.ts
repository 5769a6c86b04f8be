import { strict } from '../../schema/lazy';
import { EXIT_OK, type Command } from '../command';

// zod is loaded when a schema is printed, not with the CLI.
const SCHEMAS = {
  catalog: (): object => strict().catalogJsonSchema(),
  generator: (): object => strict().generatorJsonSchema(),
  lock: (): object => strict().lockJsonSchema(),
} as const;
type SchemaName = keyof typeof SCHEMAS;
const NAMES = Object.keys(SCHEMAS) as SchemaName[];

export const schema: Command = {
  name: 'schema',
  synopsis: `schema [${NAMES.join('|')}]`,
  summary: 'print the JSON Schema of catalog documents, generator files or release locks',
  options: [],
  projectless: true,
  accept: (line) =>
    line.positionals.length > 1 || (line.positionals[0] !== undefined && !NAMES.includes(line.positionals[0] as SchemaName))
      ? `schema takes one of ${NAMES.join(', ')}`
      : undefined,
  run({ io, line }) {
    const which = (line.positionals[0] ?? 'catalog') as SchemaName;
    io.out(JSON.stringify(SCHEMAS[which](), null, 2));
    return EXIT_OK;
  },
};
