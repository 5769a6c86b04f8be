import { didYouMean } from '../../diagnostics';
import { explainObject } from '../../render/explain';
import { onePerSource } from '../../render/manifests';
import { KIND_ORDER } from '../../schema/manifest';
import { optionValue } from '../args';
import { compileAll, EXIT_OK, EXIT_USER, report, type Command } from '../command';

export const explain: Command = {
  name: 'explain',
  synopsis: 'explain NAME [--kind KIND]',
  summary: 'print the resolved object with the source of every field',
  options: [{ flag: '--kind', value: 'KIND', help: 'only the object of this kind' }],
  accept: (line) => (line.positionals.length === 1 ? undefined : 'explain needs exactly one object name'),
  run(ctx) {
    const { io, global, root, line } = ctx;
    const name = line.positionals[0]!;
    const kind = optionValue(line, '--kind');
    const { results, diagnostics } = compileAll(ctx);
    const matches = results.flatMap((r) => r.objects.filter((o) => o.manifest.metadata.name === name && (kind === undefined || o.manifest.kind === kind)));
    if (matches.length === 0) {
      report(io, global.format, diagnostics, root);
      const kinds = KIND_ORDER as readonly string[];
      if (kind !== undefined && !kinds.includes(kind)) {
        io.err(`unknown kind \`${kind}\`; ${didYouMean(kind, kinds) ?? `one of ${kinds.join(', ')}`}`);
        return EXIT_USER;
      }
      const suggestion = didYouMean(name, new Set(results.flatMap((r) => r.objects.map((o) => o.manifest.metadata.name))));
      io.err(`no object named \`${name}\`${kind !== undefined ? ` of kind ${kind}` : ''}${suggestion ? `; ${suggestion}` : ''}`);
      return EXIT_USER;
    }
    // One explanation per object; the namespaced twin is the same object under another kind.
    io.out(onePerSource(matches).map(explainObject).join('---\n'));
    return EXIT_OK;
  },
};
