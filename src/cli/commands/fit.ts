import { diag, hasErrors, type Diagnostic } from '../../diagnostics';
import { fitMarkdown, fitReport, fitText } from '../../expand/fit';
import type { JsonObject } from '../../json';
import { kubevirtConfig } from '../../kubevirt/config';
import { loadClusterDump } from '../../load/manifests';
import { optionValue, optionValues } from '../args';
import { EXIT_OK, exitCodeFor, kubevirtOption, loadManifestInputs, report, writeText, type Command } from '../command';

export const fit: Command = {
  name: 'fit',
  synopsis: 'fit --nodes FILE [--pods FILE] [--kubevirt FILE] [VM-FILE|DIR]... [--with FILE]... [-n NS] [-o text|json|markdown]',
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
  ].join('\n'),
  options: [
    { flag: '--nodes', value: 'FILE', help: 'the nodes (kubectl get nodes -o yaml)' },
    { flag: '--pods', value: 'FILE', help: 'the pods already running (kubectl get pods -A -o yaml)' },
    { flag: '--kubevirt', value: 'FILE', help: "the cluster's KubeVirt CR" },
    { flag: '--with', value: 'FILE', repeatable: true, help: 'instance types and preferences besides the project' },
    { flag: '--namespace', short: '-n', value: 'NS', help: 'the namespace of VMs that name none (default: default)' },
    {
      flag: '--output',
      short: '-o',
      value: 'text|json|markdown',
      help: 'text (default), json or markdown',
      check: (v) => (['text', 'json', 'markdown'].includes(v) ? undefined : '-o is text, json or markdown'),
    },
  ],
  accept: (line) => (optionValue(line, '--nodes') === undefined ? 'fit needs --nodes FILE (kubectl get nodes -o yaml)' : undefined),
  run(ctx) {
    const { io, global, root, line } = ctx;
    const { docs, store, problems, blocking } = loadManifestInputs(ctx, line.positionals, optionValues(line, '--with'));
    const diagnostics: Diagnostic[] = [...problems];
    const read = (flag: string, kind: string): JsonObject[] => {
      const file = optionValue(line, flag);
      if (file === undefined) return [];
      // A cluster dump: large clusters' pod lists pass the 8 MiB every other input is held to.
      const r = loadClusterDump(root, file, () => (io.stdin ? io.stdin() : ''), io.cwd);
      diagnostics.push(...r.diagnostics);
      const found = r.objects.filter((o) => o['kind'] === kind) as JsonObject[];
      if (found.length === 0 && !hasErrors(r.diagnostics)) diagnostics.push(diag('IT8004', `\`${file}\` holds no ${kind}`, { file: r.shown, line: 1, col: 1 }));
      return found;
    };
    const nodes = read('--nodes', 'Node');
    const pods = read('--pods', 'Pod');
    const cr = kubevirtOption(ctx);
    diagnostics.push(...cr.diagnostics);
    const config = cr.config ?? kubevirtConfig(null).config;
    if (blocking || hasErrors(diagnostics)) {
      report(io, global.format, diagnostics, root, true);
      return exitCodeFor(diagnostics);
    }
    const result = fitReport({ docs, store, config, nodes, pods, namespace: optionValue(line, '--namespace') ?? 'default' });
    const output = optionValue(line, '--output') ?? 'text';
    if (output === 'json') io.out(JSON.stringify(result, null, 2));
    else writeText(io, output === 'markdown' ? fitMarkdown(result) : fitText(result));
    report(io, global.format, diagnostics, root, true);
    return EXIT_OK;
  },
};
