import { diag, didYouMean } from '../../diagnostics';
import { factsComment, launcherFacts } from '../../expand/facts';
import { objectStore } from '../../expand/references';
import type { JsonObject } from '../../json';
import { kubevirtConfig } from '../../kubevirt/config';
import { explainObject } from '../../render/explain';
import { KIND_ORDER, kindByName } from '../../schema/kubevirt-api';
import { optionValue } from '../args';
import { compileAll, EXIT_OK, EXIT_USER, report, type Command } from '../command';

export const explain: Command = {
  name: 'explain',
  synopsis: 'explain NAME [--kind KIND]',
  summary: 'print the resolved object with the source of every field',
  details: 'Without --kind, every object of that name: an instance type or preference and its namespaced twin.',
  options: [{ flag: '--kind', value: 'KIND', help: "only the object of this kind (kubectl's names too: vmcf, vmf, vmcp, vmp, plurals)" }],
  accept: (line) => (line.positionals.length === 1 ? undefined : 'explain needs exactly one object name'),
  run(ctx) {
    const { io, global, root, line } = ctx;
    const name = line.positionals[0]!;
    const written = optionValue(line, '--kind');
    const kinds = KIND_ORDER as readonly string[];
    const kind = written === undefined ? undefined : kindByName(written);
    if (written !== undefined && kind === undefined) {
      io.err(`unknown kind \`${written}\`; ${didYouMean(written, kinds) ?? `one of ${kinds.join(', ')} (or kubectl's vmcf, vmf, vmcp, vmp)`}`);
      return EXIT_USER;
    }
    const { results, diagnostics } = compileAll(ctx);
    const matches = results.flatMap((r) => r.objects.filter((o) => o.manifest.metadata.name === name && (kind === undefined || o.manifest.kind === kind)));
    if (matches.length === 0) {
      const suggestion = didYouMean(name, new Set(results.flatMap((r) => r.objects.map((o) => o.manifest.metadata.name))));
      const missing = diag(
        'IT1011',
        `no object named \`${name}\`${kind !== undefined ? ` of kind ${kind}` : ''}`,
        undefined,
        suggestion ? { hint: suggestion } : {},
      );
      report(io, global.format, [...diagnostics, missing], root);
      return EXIT_USER;
    }
    // Every object of the name: the cluster object and its namespaced twin are both what users deploy.
    // What a VM of it asks of a node (the same code as `expand --as pod`), after each object.
    const launcher = (m: (typeof matches)[number]): string => {
      const owner = results.find((r) => r.objects.includes(m))!;
      const manifests = owner.objects.map((o) => o.manifest as unknown as JsonObject);
      const f = launcherFacts(
        [m.manifest as unknown as JsonObject],
        objectStore(manifests),
        kubevirtConfig(null).config,
        String((m.manifest.metadata as { namespace?: string }).namespace ?? 'default'),
      )[0];
      return f ? `${factsComment(f)}\n` : '';
    };
    io.out(matches.map((m) => `${explainObject(m)}${launcher(m)}`).join('---\n'));
    return EXIT_OK;
  },
};
