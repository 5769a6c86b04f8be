import { validateManifests } from '../../admission';
import { hasErrors, strictify } from '../../diagnostics';
import { loadProjectManifests } from '../../load/manifests';
import { syncWarnings } from '../../release/gitops';
import { optionValues } from '../args';
import { compileAll, exitCodeFor, loadManifestInputs, report, type Command } from '../command';

export const validate: Command = {
  name: 'validate',
  synopsis: 'validate [FILE|DIR|-]... [--with FILE]... [-g FILE]...',
  summary: 'run every check, write nothing; with files, judge their manifests as KubeVirt admission does',
  details: [
    'Without files: every check of the project, as generate runs them.',
    'With files: hand-written instance types and preferences get the KubeVirt API model and the same',
    'KubeVirt rules the catalogs get; VirtualMachines get the VM webhook checks of their matchers and',
    'admission against the objects of the files, --with files and the project (when it has generators).',
  ].join('\n'),
  options: [{ flag: '--with', value: 'FILE', repeatable: true, help: 'instance types and preferences the VMs may reference' }],
  run(ctx) {
    const { io, global, root, line } = ctx;
    if (line.positionals.length === 0) {
      const { results, diagnostics } = compileAll(ctx);
      // What the project's Flux Kustomizations and Argo CD Applications do with the bases.
      const skip = results.flatMap((r) => (r.generator ? [r.generator.outputDir, r.generator.catalogDir] : []));
      const all = hasErrors(diagnostics) ? diagnostics : strictify([...diagnostics, ...syncWarnings(results, loadProjectManifests(root, skip))], global.strict);
      report(io, global.format, all, root);
      return exitCodeFor(all);
    }
    const { docs, store, problems, blocking } = loadManifestInputs(ctx, line.positionals, optionValues(line, '--with'));
    if (blocking) {
      report(io, global.format, problems, root);
      return exitCodeFor(problems);
    }
    const all = strictify([...problems, ...validateManifests(docs, store)], global.strict);
    report(io, global.format, all, root);
    return exitCodeFor(all);
  },
};
