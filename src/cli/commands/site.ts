import { site as siteOf } from '../../workflows/site';
import { optionValue } from '../../commands/spec';
import { finish, type Command, projectOf } from '../command';
import { SITE_COMMAND } from '../../commands/site';

export const site: Command = {
  ...SITE_COMMAND,
  run(ctx) {
    const title = optionValue(ctx.line, '--title');
    const r = siteOf(projectOf(ctx), { out: optionValue(ctx.line, '--out')!, ...(title !== undefined ? { title } : {}) });
    const code = finish(ctx, r, undefined);
    if (r.written !== undefined) ctx.io.err(`wrote ${r.written}`);
    return code;
  },
};
