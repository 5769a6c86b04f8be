import { notes as notesOf, notesText } from '../../workflows/notes';
import { optionSet, optionValue } from '../../commands/spec';
import { finish, writeText, type Command, projectOf } from '../command';
import { NOTES_COMMAND } from '../../commands/notes';

export const notes: Command = {
  ...NOTES_COMMAND,
  run(ctx) {
    const { io, line } = ctx;
    const since = optionValue(line, '--since');
    const r = notesOf(projectOf(ctx), { unreleased: optionSet(line, '--unreleased'), ...(since ? { since } : {}) });
    // Past releases are the lock's: they print even while the working tree has errors (a lock error
    // included), which the exit code still reports.
    if (r.generators.length === 0) return finish(ctx, r, undefined);
    if (optionValue(line, '--output') === 'json') io.out(JSON.stringify({ generators: r.generators }, null, 2));
    else writeText(io, notesText(r));
    return finish(ctx, r, undefined);
  },
};
