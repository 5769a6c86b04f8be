import {
  KUBEVIRT_OPTION,
  NAMESPACE_OPTION,
  outputOption,
  WITH_OPTION,
  KUBEVIRT_VERSION_OPTION,
  optionSet,
  optionValue,
  optionValues,
  type CommandSpec,
} from '../parse';
import { expandText, expandVms } from '../../workflows/expand';
import { finish, outputOf, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(['yaml', 'json'], 'output format (yaml: a stream; json: one object or a List)');

export const EXPAND_COMMAND: CommandSpec = {
  name: 'expand',
  synopsis: 'expand [FILE|DIR|-]... [--with FILE]... [-n NS] [--stored] [--as vm|vmi|pod] [--kubevirt FILE] [--nodes FILE] [-o yaml|json] [--skip-admission]',
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
    '',
    "--as vmi prints the VirtualMachineInstance each VM starts as (the VM controller's start, then the",
    "VMI webhooks: KubeVirt's defaults, CPU model, machine type, hotplug limits, status memory and",
    'topology); --as pod the virt-launcher pod KubeVirt renders for it, reduced to what decides where',
    "and whether it is scheduled: every container's and init container's resources (the memory",
    "request includes KubeVirt's overhead, also in the kubevirt.io/memory-overhead-bytes annotation),",
    'the node selector, affinity, tolerations, scheduler, priority and runtime class. --kubevirt FILE',
    "is the cluster's KubeVirt CR (kubectl get kubevirt -n kubevirt kubevirt -o yaml): its",
    "spec.configuration changes the answers; without it, KubeVirt's defaults on amd64. Namespaces,",
    'ResourceQuotas and Nodes given with --with count as KubeVirt reads them (auto limits, TSC).',
    'What KubeVirt draws at random or from the running cluster is a fixed placeholder: the VMI UID',
    '00000000-0000-0000-0000-000000000001, the VM UID ...0002 (when the VM has none), the firmware',
    'UUID ...0003 and serial ...0004 (when the VM sets none); the start ControllerRevision is named',
    'from those; the launcher image and qemu timeout are not printed. What the answer assumes is',
    'printed as a comment (-o json: `notes`). Where KubeVirt would refuse to start the VM (the VMI',
    'webhook, or the render: "GPU ... is not permitted in permittedHostDevices configuration") it is',
    'an error (IT8008) in its words, exit 1.',
  ].join('\n'),
  options: [
    WITH_OPTION,
    OUTPUT,
    { flag: '--skip-admission', help: 'only expand, as the expand-spec subresource does' },
    NAMESPACE_OPTION,
    { flag: '--stored', help: 'VMs as the cluster stores them: skip the mutating webhook unless a matcher infers from a volume' },
    {
      flag: '--as',
      value: 'vm|vmi|pod',
      help: 'print the VM expanded (default), the VMI it starts as, or its virt-launcher pod',
      check: (v) => (v === 'vm' || v === 'vmi' || v === 'pod' ? undefined : '--as is vm, vmi or pod'),
    },
    KUBEVIRT_OPTION,
    KUBEVIRT_VERSION_OPTION,
    {
      flag: '--nodes',
      value: 'FILE',
      repeatable: true,
      help: "the cluster's nodes (kubectl get nodes -o yaml), as a --with file: the pod's TSC selector reads them",
    },
  ],
  accept: (line) => (line.positionals.length === 0 ? 'expand needs VirtualMachine files, directories, or - for standard input' : undefined),
};

export const expand: Command = {
  ...EXPAND_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const namespace = optionValue(line, '--namespace');
    const r = expandVms(projectOf(ctx), {
      files: line.positionals,
      as: (optionValue(line, '--as') ?? 'vm') as 'vm' | 'vmi' | 'pod',
      ...(namespace !== undefined ? { namespace } : {}),
      stored: optionSet(line, '--stored'),
      skipAdmission: optionSet(line, '--skip-admission'),
      nodes: optionValues(line, '--nodes'),
    });
    return finish(ctx, r, expandText(r, outputOf(ctx, OUTPUT)));
  },
};
