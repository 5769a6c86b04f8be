import { diag, hasErrors, type Diagnostic } from '../../diagnostics';
import { manifestObjects } from '../../expand/documents';
import { matcherFromName, resizeOptions, resizePlan, type ResizePlan } from '../../expand/resize';
import type { JsonObject } from '../../json';
import { kubevirtConfig } from '../../kubevirt/config';
import { loadManifests } from '../../load/manifests';
import { optionSet, optionValue, optionValues } from '../args';
import { EXIT_OK, EXIT_USER, exitCodeFor, kubevirtOption, loadManifestInputs, report, writeText, type Command } from '../command';

export const resize: Command = {
  name: 'resize',
  synopsis: 'resize VM-FILE [--to NAME] [--preference NAME] [--plan] [--with FILE]... [--vmi FILE] [--kubevirt FILE] [--not-migratable] [-o text|json]',
  summary: "what changing a running VM's instance type or preference does: live, pending, restart, rejected or failed, and why",
  details: [
    "Runs KubeVirt's webhooks on the edited VM (UPDATE) and its VM controller, offline: `live` (CPU",
    'sockets and guest memory are hotplugged, through a live migration where the KubeVirt CR lists',
    '`LiveMigrate` in its workload update methods), `pending` (accepted; the hotplug waits for a live',
    "migration the cluster does not do), `restart` (RestartRequired, in KubeVirt's words, with the",
    'fields that set it, which KubeVirt does not name), `rejected` (admission, with its causes) or',
    '`failed` (admitted, but the VM controller cannot apply it: FailedFindInstancetype). A NAME is a',
    "cluster-wide object, or KIND/NAME with kubectl's resource names (virtualmachineinstancetype/big).",
    'The VM may be given as the cluster stores it (`kubectl get vm -o yaml`) or as written in Git; the',
    'running VMI is the one `expand --as vmi` builds for it. --plan: every instance type of the project',
    '(or of --with files) with its outcome for this VM. --not-migratable: the running VMI cannot',
    'live-migrate (memory hotplug needs it).',
  ].join('\n'),
  options: [
    { flag: '--to', value: 'NAME', help: 'the instance type to switch to' },
    { flag: '--preference', value: 'NAME', help: 'the preference to switch to' },
    { flag: '--plan', help: 'the outcome of every instance type for this VM, grouped' },
    { flag: '--with', value: 'FILE', repeatable: true, help: 'instance types and preferences (a release bundle) besides the project' },
    { flag: '--kubevirt', value: 'FILE', help: "the cluster's KubeVirt CR (rollout strategy, workload update methods, hotplug limits)" },
    { flag: '--vmi', value: 'FILE', help: 'the running VMI (kubectl get vmi -o yaml); without it, the one the VM starts as' },
    { flag: '--not-migratable', help: 'the running VMI is not live-migratable (with --vmi, its LiveMigratable condition says)' },
    {
      flag: '--output',
      short: '-o',
      value: 'text|json',
      help: 'text (default) or json',
      check: (v) => (v === 'text' || v === 'json' ? undefined : '-o is text or json'),
    },
  ],
  accept: (line) =>
    line.positionals.length !== 1
      ? 'resize needs one VirtualMachine file'
      : optionValue(line, '--to') === undefined && optionValue(line, '--preference') === undefined && !optionSet(line, '--plan')
        ? 'resize needs --to NAME, --preference NAME or --plan'
        : undefined,
  run(ctx) {
    const { io, global, root, line } = ctx;
    const { docs, store, problems, blocking } = loadManifestInputs(ctx, line.positionals, optionValues(line, '--with'));
    const cr = kubevirtOption(ctx);
    const diagnostics: Diagnostic[] = [...problems, ...cr.diagnostics];
    const config = cr.config ?? kubevirtConfig(null).config;
    let vmi: JsonObject | undefined;
    const vmiFile = optionValue(line, '--vmi');
    if (vmiFile !== undefined) {
      const read = loadManifests(root, [vmiFile], () => (io.stdin ? io.stdin() : ''), io.cwd);
      diagnostics.push(...read.diagnostics);
      vmi = manifestObjects(read.docs).find((f) => f.value['kind'] === 'VirtualMachineInstance')?.value;
      if (!vmi && !hasErrors(read.diagnostics))
        diagnostics.push(
          diag('IT8004', `\`${vmiFile}\` holds no VirtualMachineInstance`, read.docs[0] ? { file: read.docs[0].file, line: 1, col: 1 } : undefined, {
            hint: 'kubectl get vmi NAME -o yaml > vmi.yaml',
          }),
        );
    }
    const vms = manifestObjects(docs).filter((f) => f.value['kind'] === 'VirtualMachine');
    if (vms.length !== 1)
      diagnostics.push(
        diag(
          'IT8004',
          vms.length === 0 ? 'no VirtualMachine found in the input' : `${vms.length} VirtualMachines in the input; resize takes one`,
          docs[0] ? { file: docs[0].file, line: 1, col: 1 } : undefined,
        ),
      );
    const to: { instancetype?: JsonObject; preference?: JsonObject } = {};
    for (const [flag, which] of [
      ['--to', 'instancetype'],
      ['--preference', 'preference'],
    ] as const) {
      const v = optionValue(line, flag);
      if (v === undefined) continue;
      const m = matcherFromName(v, which);
      if ('error' in m) diagnostics.push(diag('IT1011', `${flag} ${v}: ${String(m['error'])}`));
      else to[which] = m;
    }
    if (blocking || hasErrors(diagnostics)) {
      report(io, global.format, diagnostics, root, true);
      return hasErrors(diagnostics) ? exitCodeFor(diagnostics) : EXIT_USER;
    }
    const vm = vms[0]!.value;
    const name = String((vm['metadata'] as JsonObject | undefined)?.['name'] ?? '');
    const context = { store, config, ...(optionSet(line, '--not-migratable') ? { liveMigratable: false } : {}), ...(vmi ? { vmi } : {}) };
    const json = optionValue(line, '--output') === 'json';
    if (optionSet(line, '--plan')) {
      const options = resizeOptions(vm, context);
      const matcher = (vm['spec'] as JsonObject | undefined)?.['instancetype'] as JsonObject | undefined;
      const current = (o: (typeof options)[number]): boolean =>
        matcher?.['name'] === o.name &&
        (o.kind === 'VirtualMachineClusterInstancetype') === !/^virtualmachineinstancetypes?$/i.test(String(matcher?.['kind'] ?? ''));
      if (json) io.out(JSON.stringify({ vm: name, options: options.map((o) => ({ instancetype: { name: o.name, kind: o.kind }, ...o.plan })) }, null, 2));
      else {
        const groups: ResizePlan['outcome'][] = ['live', 'pending', 'restart', 'rejected', 'failed'];
        writeText(
          io,
          groups
            .map((g) => {
              const members = options.filter((o) => o.plan.outcome === g);
              const label = (o: (typeof options)[number]): string =>
                `${o.kind === 'VirtualMachineInstancetype' ? 'virtualmachineinstancetype/' : ''}${o.name}${current(o) ? ' (current)' : ''}`;
              return members.length === 0 ? '' : `${g} (${members.length}):\n${members.map((o) => `  ${label(o)}: ${why(o.plan)}`).join('\n')}`;
            })
            .filter((s) => s !== '')
            .join('\n'),
        );
      }
      report(io, global.format, diagnostics, root, true);
      return EXIT_OK;
    }
    const plan = resizePlan(vm, to, context);
    if (json) io.out(JSON.stringify({ vm: name, to, ...plan }, null, 2));
    else writeText(io, `${name}: ${plan.outcome}: ${why(plan)}`);
    report(io, global.format, diagnostics, root, true);
    return EXIT_OK;
  },
};

const LIMIT_WORDS: Readonly<Record<string, string>> = {
  instancetype: 'from the instance type',
  cluster: "from the KubeVirt CR's liveUpdateConfiguration",
  'default-ratio': "KubeVirt's default ratio",
};
const SOURCE_WORDS: Readonly<Record<string, string>> = {
  instancetype: 'the instance type',
  preference: 'the preference',
  cluster: "the cluster's configuration",
};

/** Why, in KubeVirt's words first, then what KubeVirt does not say. */
function why(p: ResizePlan): string {
  switch (p.outcome) {
    case 'rejected':
      return `KubeVirt's admission refuses it: ${p.admission.causes.map((c) => c.message).join(', ')}`;
    case 'failed':
      return `admitted, but the VM controller cannot apply it (${p.syncError?.reason ?? ''}): ${p.syncError?.message ?? ''}`;
    case 'restart': {
      const r = p.restartRequired;
      const set = (r?.fields ?? []).map((f, i) => `${f} (${SOURCE_WORDS[r!.sources[i] ?? 'cluster']})`).join(', ');
      return `RestartRequired: "${r?.message ?? ''}"; set by ${set}${p.toLive !== undefined ? `; live with ${p.toLive}` : ''}`;
    }
    default: {
      const parts = [
        ...(p.hotplug.sockets
          ? [
              `CPU sockets ${p.hotplug.sockets.from} -> ${p.hotplug.sockets.to} (at most ${p.hotplug.sockets.max ?? '?'}, ${LIMIT_WORDS[p.hotplug.sockets.maxFrom ?? 'default-ratio']})`,
            ]
          : []),
        ...(p.hotplug.memory
          ? [
              `memory ${p.hotplug.memory.from} -> ${p.hotplug.memory.to} (at most ${p.hotplug.memory.max ?? '?'}, ${LIMIT_WORDS[p.hotplug.memory.maxFrom ?? 'default-ratio']})`,
            ]
          : []),
      ];
      if (parts.length === 0) return 'nothing to change on the running VM';
      return `${parts.join(', ')}${p.outcome === 'live' ? ', hotplugged through a live migration' : `; the hotplug waits for a live migration the cluster does not do: live with ${p.toLive ?? ''}`}`;
    }
  }
}
