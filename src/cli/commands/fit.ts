import { optionValue, KUBEVIRT_VERSION_OPTION, KUBEVIRT_OPTION, NAMESPACE_OPTION, outputOption, WITH_OPTION, optionSet, type CommandSpec } from '../parse';
import { fit as fitOf, fitMarkdown, fitText, togetherJson, togetherMarkdown, togetherText, fitJson, type CapacityScope } from '../../workflows/fit';
import { EXIT_OK, EXIT_USER, finish, outputOf, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(['text', 'json', 'markdown']);

export const FIT_COMMAND: CommandSpec = {
  name: 'fit',
  synopsis:
    'fit --nodes FILE [--pods FILE] [--kubevirt FILE] [VM-FILE|DIR]... [--together] [--scope cluster|namespaced|all] [--exit-code] [--with FILE]... [-n NS] [-o text|json|markdown]',
  summary: "where VMs run and how many fit: kube-scheduler's filters on their launcher pods against a node dump",
  details: [
    '--nodes is `kubectl get nodes -o yaml`, --pods `kubectl get pods -A -o yaml` (what already runs:',
    'its requests are taken from the nodes; -o json reads faster, and either may be up to 1 GiB). With VM files: for each VM, the nodes its virt-launcher pod',
    "fits on and, for every other node, the scheduler's reasons in its words, and its summary when none",
    'fits (`0/5 nodes are available: 2 Insufficient hugepages-1Gi, ...`). Without: for every instance type',
    'of the project (or of --with files), a VM of it alone with a container disk: how many more fit on each',
    'node and in total, which nodes are full now and which can never take one, and why, and what a node',
    "needs when none can. The pod is `expand --as pod`'s, rendered with these nodes as the cluster (a TSC",
    'frequency selector comes from their labels). Not modelled: host ports, volume topology, topology',
    "spread, inter-pod affinity, DRA, kubelet's CPU and topology managers, preemption.",
    'With --together the VMs are placed one after another, in the order given, as kube-scheduler would',
    'place their launcher pods (its filters, then its default score plugins and weights), each counted on',
    "its node before the next: each VM's node, or every node's blocker named (the untolerated taint, the",
    'label wanted, the resource short and by how much); what is left per node; and how many more of each',
    'instance type fit after them. Instance types count per architecture the nodes have; --scope picks',
    'the cluster-wide or namespaced ones (default: cluster-wide when there are any).',
  ].join('\n'),
  options: [
    { flag: '--nodes', value: 'FILE', help: 'the nodes (kubectl get nodes -o yaml)' },
    { flag: '--pods', value: 'FILE', help: 'the pods already running (kubectl get pods -A -o yaml)' },
    { flag: '--together', help: 'place the VMs together, one after another, as the scheduler would' },
    { flag: '--scope', value: 'cluster|namespaced|all', help: 'which instance types the capacity table lists' },
    { flag: '--exit-code', help: 'exit 1 when some VM fits no node (with --together: is not placed)' },
    KUBEVIRT_OPTION,
    KUBEVIRT_VERSION_OPTION,
    WITH_OPTION,
    NAMESPACE_OPTION,
    OUTPUT,
  ],
  accept: (line) => {
    if (optionValue(line, '--nodes') === undefined) return 'fit needs --nodes FILE (kubectl get nodes -o yaml)';
    const scope = optionValue(line, '--scope');
    if (scope !== undefined && !['cluster', 'namespaced', 'all'].includes(scope)) return `--scope ${scope}: choose cluster, namespaced or all`;
    return undefined;
  },
};

export const fit: Command = {
  ...FIT_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const pods = optionValue(line, '--pods');
    const namespace = optionValue(line, '--namespace');
    const scope = optionValue(line, '--scope') as CapacityScope | undefined;
    const r = fitOf(projectOf(ctx), {
      vms: line.positionals,
      nodes: optionValue(line, '--nodes')!,
      ...(pods !== undefined ? { pods } : {}),
      ...(namespace !== undefined ? { namespace } : {}),
      ...(scope !== undefined ? { scope } : {}),
      together: optionSet(line, '--together'),
    });
    const format = outputOf(ctx, OUTPUT);
    const text = r.together
      ? format === 'json'
        ? togetherJson(r.together)
        : format === 'markdown'
          ? togetherMarkdown(r.together)
          : togetherText(r.together)
      : r.fit === undefined
        ? undefined
        : format === 'json'
          ? fitJson(r.fit)
          : format === 'markdown'
            ? fitMarkdown(r.fit)
            : fitText(r.fit);
    const code = finish(ctx, r, text);
    if (code !== EXIT_OK || !optionSet(line, '--exit-code')) return code;
    const unplaced = r.together ? r.together.placed < r.together.total : r.fit !== undefined && 'vms' in r.fit && r.fit.vms.some((v) => v.fits.length === 0);
    return unplaced ? EXIT_USER : EXIT_OK;
  },
};
