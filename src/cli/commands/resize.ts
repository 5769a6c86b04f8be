import { optionSet, optionValue, KUBEVIRT_VERSION_OPTION, KUBEVIRT_OPTION, outputOption, WITH_OPTION, type CommandSpec } from '../parse';
import { resize as resizeOf, resizeJson, resizeText } from '../../workflows/resize';
import { EXIT_OK, EXIT_USER, finish, outputOf, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(['text', 'json']);

export const RESIZE_COMMAND: CommandSpec = {
  name: 'resize',
  synopsis:
    'resize VM-FILE [--to NAME] [--preference NAME] [--plan] [--with FILE]... [--vmi FILE] [--kubevirt FILE] [--not-migratable] [--exit-code] [-o text|json]',
  summary: "what changing a running VM's instance type or preference does: live, pending, restart, start, rejected or failed, and why",
  details: [
    "Runs KubeVirt's webhooks on the edited VM (UPDATE) and its VM controller, offline: `live` (CPU",
    'sockets and guest memory are hotplugged, through a live migration where the KubeVirt CR lists',
    '`LiveMigrate` in its workload update methods), `pending` (accepted; the hotplug waits for a live',
    "migration the cluster does not do), `restart` (RestartRequired, in KubeVirt's words, with the",
    'fields that set it, which KubeVirt does not name), `rejected` (admission, with its causes) or',
    '`failed` (admitted, but the VM controller cannot apply it: FailedFindInstancetype), or `start` (the',
    'VM does not run now, its current instance type or preference gone: it starts with the new ones). A NAME is a',
    "cluster-wide object, or KIND/NAME with kubectl's resource names (virtualmachineinstancetype/big).",
    'The VM may be given as the cluster stores it (`kubectl get vm -o yaml`) or as written in Git; the',
    'running VMI is the one `expand --as vmi` builds for it. --plan: every instance type of the project',
    '(or of --with files) with its outcome for this VM. Whether the running VMI can live-migrate',
    "(memory hotplug needs it) is its LiveMigratable condition (--vmi), or KubeVirt's computation of",
    'it: masquerade or passt on the pod network (not the default bridge), no host devices, every PVC',
    'ReadWriteMany (give them with --with; one not given is assumed shared, and said).',
    '--not-migratable: the running VMI cannot live-migrate.',
  ].join('\n'),
  options: [
    { flag: '--to', value: 'NAME', help: 'the instance type to switch to' },
    { flag: '--preference', value: 'NAME', help: 'the preference to switch to' },
    { flag: '--plan', help: 'the outcome of every instance type for this VM, grouped' },
    WITH_OPTION,
    KUBEVIRT_OPTION,
    KUBEVIRT_VERSION_OPTION,
    { flag: '--vmi', value: 'FILE', help: 'the running VMI (kubectl get vmi -o yaml); without it, the one the VM starts as' },
    { flag: '--not-migratable', help: 'the running VMI is not live-migratable (with --vmi, its LiveMigratable condition says)' },
    { flag: '--exit-code', help: 'exit 1 unless the change applies live (for CI: restart, pending, rejected and failed fail the job)' },
    OUTPUT,
  ],
  accept: (line) =>
    line.positionals.length !== 1
      ? 'resize needs one VirtualMachine file'
      : optionValue(line, '--to') === undefined && optionValue(line, '--preference') === undefined && !optionSet(line, '--plan')
        ? 'resize needs --to NAME, --preference NAME or --plan'
        : undefined,
};

export const resize: Command = {
  ...RESIZE_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const value = (flag: string, key: string): Record<string, string> => {
      const v = optionValue(line, flag);
      return v === undefined ? {} : { [key]: v };
    };
    const r = resizeOf(projectOf(ctx), {
      vm: line.positionals[0]!,
      ...value('--to', 'to'),
      ...value('--preference', 'preference'),
      ...value('--vmi', 'vmi'),
      plan: optionSet(line, '--plan'),
      notMigratable: optionSet(line, '--not-migratable'),
    });
    if (!r.plan && !r.options) return finish(ctx, r, undefined);
    const code = finish(ctx, r, outputOf(ctx, OUTPUT) === 'json' ? resizeJson(r) : resizeText(r));
    return code === EXIT_OK && optionSet(line, '--exit-code') && r.plan !== undefined && r.plan.outcome !== 'live' ? EXIT_USER : code;
  },
};
