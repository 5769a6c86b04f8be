import path from 'node:path';
import { relativePath } from '../../load/files';
import { migratePresets } from '../../workflows/migrate';
import { optionSet, optionValue } from '../../commands/spec';
import { EXIT_USER, exitCodeFor, report, type Command, projectOf } from '../command';
import { MIGRATE_COMMAND } from '../../commands/migrate';

export const migrate: Command = {
  ...MIGRATE_COMMAND,
  run(ctx) {
    const { io, global, root, line } = ctx;
    const out = optionValue(line, '--out')!;
    const shown = relativePath(io.cwd, path.resolve(root, out)) || '.';
    const name = optionValue(line, '--name');
    const r = migratePresets(projectOf(ctx), {
      inputs: line.positionals.slice(1),
      out,
      ...(name !== undefined ? { name } : {}),
      cluster: optionSet(line, '--cluster'),
      allowDifferences: optionSet(line, '--allow-differences'),
      force: optionSet(line, '--force'),
    });
    if (r.inTheWay.length > 0) {
      io.err(
        `error: ${shown} already has ${r.inTheWay.join(', ')}${optionSet(line, '--force') ? ' (or they lead outside it)' : '; --force replaces them'}\nnothing written`,
      );
      return EXIT_USER;
    }
    report(io, global.format, r.diagnostics, root);
    if (r.written > 0)
      io.err(
        `wrote ${r.written} files to ${shown}: ${r.migrated} of ${r.vms} VMs migrated; ${shown}/MIGRATION.md says what became what\nnext: itgen -C ${shown} generate`,
      );
    return exitCodeFor(r.diagnostics);
  },
};
