import { mappingToYaml } from '../../emit/serialize';
import type { ExpandOutcome } from '../../expand/documents';
import { expandVms, type ExpandVmsReport } from '../../workflows/expand';
import { optionSet, optionValue, optionValues } from '../args';
import { finish, type Command } from '../command';
import { KUBEVIRT_OPTION, NAMESPACE_OPTION, outputOf, outputOption, projectOf, WITH_OPTION } from '../options';

const OUTPUT = outputOption(['yaml', 'json'], 'output format (yaml: a stream; json: one object or a List)');

export const expand: Command = {
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
    {
      flag: '--nodes',
      value: 'FILE',
      repeatable: true,
      help: "the cluster's nodes (kubectl get nodes -o yaml), as a --with file: the pod's TSC selector reads them",
    },
  ],
  accept: (line) => (line.positionals.length === 0 ? 'expand needs VirtualMachine files, directories, or - for standard input' : undefined),
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

/** The VMs (or VMIs, or pods) as YAML with what was applied as comments, or JSON with it beside them. */
function expandText(r: ExpandVmsReport, output: 'yaml' | 'json'): string | undefined {
  const { as, outcomes } = r;
  if (as !== 'vm') {
    const started = outcomes.filter((o) => (as === 'vmi' ? o.vmi : o.pod));
    const objects = started.map((o) => (as === 'vmi' ? o.vmi! : o.pod!));
    if (output === 'json')
      return JSON.stringify(
        {
          apiVersion: 'v1',
          kind: 'List',
          items: objects,
          notes: started.map((o) => ({ name: o.name, memoryOverhead: o.memoryOverhead, notes: o.notes ?? [] })),
        },
        null,
        2,
      );
    return objects.length > 0 ? started.map((o, i) => `${previewComment(o, as)}${mappingToYaml(objects[i]!)}`).join('---\n') : undefined;
  }
  const done = outcomes.filter((o) => o.vm);
  const vms = done.map((o) => o.vm!);
  if (vms.length === 0) return undefined;
  // What was applied is said beside each VM (a comment, or the List's `references`), never in it.
  if (output === 'json')
    return JSON.stringify(
      vms.length === 1 ? vms[0] : { apiVersion: 'v1', kind: 'List', items: vms, references: done.map((o) => ({ name: o.name, ...o.applied })) },
      null,
      2,
    );
  return done.map((o) => `${appliedComment(o)}${mappingToYaml(o.vm!)}`).join('---\n');
}

/** What a preview assumed, as comments above the object (the memory overhead for a pod). */
function previewComment(o: ExpandOutcome, as: 'vmi' | 'pod'): string {
  const lines = [
    `# ${o.name}: the ${as === 'vmi' ? 'VirtualMachineInstance it starts as' : `virt-launcher pod KubeVirt renders for it (memory overhead ${o.memoryOverhead ?? '?'})`}`,
    ...(o.notes ?? []).map((n) => `# note: ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `# expanded with VirtualMachineClusterInstancetype u1.medium and VirtualMachineClusterPreference fedora (preference inferred from volume rootdisk: DataSource fedora)` */
function appliedComment(o: ExpandOutcome): string {
  const a = o.applied;
  if (!a || (!a.instancetype && !a.preference)) return '';
  const parts = [a.instancetype, a.preference].filter((x): x is string => x !== undefined);
  const inferred = a.inferred.map((i) => `${i.which} inferred from volume ${i.volume}: ${i.from}`);
  return `# ${o.name}: expanded with ${parts.join(' and ')}${inferred.length > 0 ? ` (${inferred.join('; ')})` : ''}\n`;
}
