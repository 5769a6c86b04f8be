import { hasErrors, strictify } from '../../diagnostics';
import { mappingToYaml } from '../../emit/serialize';
import { expandDocuments, type ExpandOutcome } from '../../expand/documents';
import { optionSet, optionValue, optionValues } from '../args';
import { EXIT_OK, exitCodeFor, loadManifestInputs, report, writeText, type Command } from '../command';

export const expand: Command = {
  name: 'expand',
  synopsis: 'expand [FILE|DIR|-]... [--with FILE]... [-n NS] [--stored] [-o yaml|json] [--skip-admission]',
  summary: 'what VirtualMachines become with their instance type and preference, and whether KubeVirt admits them',
  details: [
    'Prints each VirtualMachine as the expand-spec subresource returns it (virtctl expand), offline. The',
    'instance types and preferences come from the project (every generator, or -g) and from --with files',
    '(a release bundle, say); with only --with no project is needed. Objects in the input files count too.',
    'By default each VM is taken as `kubectl apply` would store it: through the instancetype mutating',
    "webhook first (matchers checked, inferFromVolume resolved, the preference's architecture, machine",
    'type and storage class set), then expand-spec; --stored takes VMs as the cluster holds them',
    '(`kubectl get vm -o yaml`), where that webhook already ran. A VM without a namespace is in -n NS',
    '(default: `default`, as kubectl without a context namespace). VM admission runs as well (spread,',
    'conflicts, preference requirements); --skip-admission prints exactly what expand-spec returns.',
    'Errors quote KubeVirt and point at the VM field.',
  ].join('\n'),
  options: [
    { flag: '--with', value: 'FILE', repeatable: true, help: 'instance types and preferences (and PVCs, DataSources) to resolve against' },
    {
      flag: '--output',
      short: '-o',
      value: 'yaml|json',
      help: 'output format (yaml: a stream; json: one object or a List)',
      check: (v) => (v === 'yaml' || v === 'json' ? undefined : '-o is yaml or json'),
    },
    { flag: '--skip-admission', help: 'only expand, as the expand-spec subresource does' },
    { flag: '--namespace', short: '-n', value: 'NS', help: 'the namespace of VMs that name none (default: default)' },
    { flag: '--stored', help: 'VMs as the cluster stores them: skip the mutating webhook unless a matcher infers from a volume' },
  ],
  accept: (line) => (line.positionals.length === 0 ? 'expand needs VirtualMachine files, directories, or - for standard input' : undefined),
  run(ctx) {
    const { io, global, root, line } = ctx;
    const { docs, store, problems, blocking } = loadManifestInputs(ctx, line.positionals, optionValues(line, '--with'));
    if (blocking) {
      report(io, global.format, problems, root, true);
      return exitCodeFor(problems);
    }
    const { outcomes, diagnostics } = expandDocuments(docs, store, {
      admission: !optionSet(line, '--skip-admission'),
      namespace: optionValue(line, '--namespace') ?? 'default',
      mutate: optionSet(line, '--stored') ? 'stored' : 'applied',
    });
    const all = strictify([...problems, ...diagnostics, ...outcomes.flatMap((o) => o.diagnostics)], global.strict);
    const done = outcomes.filter((o) => o.vm);
    const vms = done.map((o) => o.vm!);
    if (vms.length > 0) {
      // What was applied is said beside each VM (a comment, or the List's `references`), never in it.
      if (optionValue(line, '--output') === 'json')
        io.out(
          JSON.stringify(
            vms.length === 1 ? vms[0] : { apiVersion: 'v1', kind: 'List', items: vms, references: done.map((o) => ({ name: o.name, ...o.applied })) },
            null,
            2,
          ),
        );
      else writeText(io, done.map((o) => `${appliedComment(o)}${mappingToYaml(o.vm!)}`).join('---\n'));
    }
    report(io, global.format, all, root, true);
    return hasErrors(all) ? exitCodeFor(all) : EXIT_OK;
  },
};

/** `# expanded with VirtualMachineClusterInstancetype u1.medium and VirtualMachineClusterPreference fedora (preference inferred from volume rootdisk: DataSource fedora)` */
function appliedComment(o: ExpandOutcome): string {
  const a = o.applied;
  if (!a || (!a.instancetype && !a.preference)) return '';
  const parts = [a.instancetype, a.preference].filter((x): x is string => x !== undefined);
  const inferred = a.inferred.map((i) => `${i.which} inferred from volume ${i.volume}: ${i.from}`);
  return `# ${o.name}: expanded with ${parts.join(' and ')}${inferred.length > 0 ? ` (${inferred.join('; ')})` : ''}\n`;
}
