import { EXIT_OK, type Command } from '../command';
import { SCHEMA_COMMAND, SCHEMAS, type SchemaName } from '../../commands/schema';

export const schema: Command = {
  ...SCHEMA_COMMAND,
  run({ io, line }) {
    const which = (line.positionals[0] ?? 'catalog') as SchemaName;
    io.out(JSON.stringify(SCHEMAS[which](), null, 2));
    return EXIT_OK;
  },
};
