import { validateManifests } from '../../admission';
import { strictify } from '../../diagnostics';
import { checkProject } from '../../release/project';
import { optionSet, optionValues } from '../args';
import { checkedSummary, EXIT_OK, exitCodeFor, loadManifestInputs, report, type Command, BASE_OPTION, BUNDLES_OPTION, baseOf, bundlesOf } from '../command';

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
  options: [
    BASE_OPTION,
    BUNDLES_OPTION,
    { flag: '--with', value: 'FILE', repeatable: true, help: 'instance types and preferences the VMs may reference' },
    { flag: '--allow-removals', help: 'as for generate: accept dropping objects the committed base has (before the first release)' },
    {
      flag: '--vms',
      value: 'DIR',
      repeatable: true,
      help: 'VirtualMachines kept in Git: every one judged against the catalogs, and what the change does to them (as itgen diff --vms)',
    },
  ],
  run(ctx) {
    const { io, global, root, line } = ctx;
    if (line.positionals.length === 0) {
      // Every check generate runs (the removal guard, deploy paths, GitOps syncs included).
      const { results, diagnostics } = checkProject(root, {
        generators: global.generators,
        strict: global.strict,
        allowRemovals: optionSet(line, '--allow-removals'),
        vms: optionValues(line, '--vms'),
        cwd: io.cwd,
        base: baseOf(ctx),
        bundles: bundlesOf(ctx),
      });
      report(io, global.format, diagnostics, root);
      const code = exitCodeFor(diagnostics);
      if (code === EXIT_OK && io.terminal && global.format === 'text') io.err(checkedSummary('validated', results, diagnostics));
      return code;
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
