import { z } from 'zod';
import { catalogJsonSchema } from '../../schema/catalog';
import { generatorJsonSchema } from '../../schema/generator';
import { lockSchema } from '../../schema/lock';
import { EXIT_OK, type Command } from '../command';

const SCHEMAS = {
  catalog: catalogJsonSchema,
  generator: generatorJsonSchema,
  lock: (): object => ({
    ...(z.toJSONSchema(lockSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
    title: 'itgen release lock',
    $id: 'https://itgen.dev/schema/lock.json',
  }),
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
