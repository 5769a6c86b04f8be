import { optionSet, optionValue, type CommandSpec } from '../parse';
import { notes as notesOf, notesJson, notesText } from '../../workflows/notes';
import { RELEASE_VERSION } from '../../workflows/release';
import { finish, writeText, projectOf, type Command } from '../command';

export const NOTES_COMMAND: CommandSpec = {
  name: 'notes',
  synopsis: 'notes [GENERATOR.yaml]... [--since vX.Y.Z] [-o markdown|json]',
  summary: 'release notes from the release lock: added, deprecated, removed and changed objects per release',
  details:
    'Newest release first; objects added with their vCPUs, memory and features, deprecated with their replacement, removed, and changed in place through a reviewed override with its reason. The base of a generator with a lock carries the same notes as CHANGELOG.md, which release updates.',
  generatorArguments: true,
  options: [
    {
      flag: '--since',
      value: 'vX.Y.Z',
      help: 'only the releases after this one',
      check: (v) => (RELEASE_VERSION.test(v) ? undefined : '--since needs a release version like v1.2.0'),
    },
    { flag: '--unreleased', help: 'also what the next `itgen release` would record, as a section `unreleased` on top' },
    {
      flag: '--output',
      short: '-o',
      value: 'markdown|json',
      help: 'markdown (default) or json',
      check: (v) => (v === 'markdown' || v === 'json' ? undefined : '-o is markdown or json'),
    },
  ],
};

export const notes: Command = {
  ...NOTES_COMMAND,
  run(ctx) {
    const { io, line } = ctx;
    const since = optionValue(line, '--since');
    const r = notesOf(projectOf(ctx), { unreleased: optionSet(line, '--unreleased'), ...(since ? { since } : {}) });
    // Past releases are the lock's: they print even while the working tree has errors (a lock error
    // included), which the exit code still reports.
    if (r.generators.length === 0) return finish(ctx, r, undefined);
    if (optionValue(line, '--output') === 'json') io.out(notesJson(r));
    else writeText(io, notesText(r));
    return finish(ctx, r, undefined);
  },
};
