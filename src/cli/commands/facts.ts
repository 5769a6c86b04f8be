import { factsCsv } from '../../expand/facts';
import { facts as factsOf, factsText } from '../../workflows/facts';
import { finish, type Command, outputOf, projectOf } from '../command';
import { FACTS_COMMAND, OUTPUT } from '../../commands/facts';

export const facts: Command = {
  ...FACTS_COMMAND,
  run(ctx) {
    const r = factsOf(projectOf(ctx));
    const format = outputOf(ctx, OUTPUT);
    const text =
      r.catalogs.length === 0
        ? undefined
        : format === 'json'
          ? JSON.stringify({ generators: r.catalogs }, null, 2)
          : format === 'csv'
            ? factsCsv(r.catalogs)
            : factsText(r);
    return finish(ctx, r, text);
  },
};
