import { KUBEVIRT_OPTION, KUBEVIRT_VERSION_OPTION, outputOption, WITH_OPTION, optionSet, optionValue, optionValues, type CommandSpec } from '../parse';
import { select as selectOf, selectCsv, selectJson, selectText } from '../../workflows/select';
import { choose, chooseJsonText, chooseText } from '../../workflows/choose';
import { finish, outputOf, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(['text', 'json', 'csv']);

export const SELECT_COMMAND: CommandSpec = {
  name: 'select',
  synopsis:
    'select [--os WORD|--preference NAME] [--intent WORD] [--size WORD] [--cpu 4..16] [--memory 8Gi..] [--arch ARCH] [--dedicated] [--hugepages SIZE] [--gpu NAME] [--family F] [--class C] [--text WORDS] [--deprecated] [-o text|json|csv]',
  summary: "the instance types that fit your needs: the explorer's filters in the terminal",
  details: [
    'Filters the instance types of the project (or of the GENERATOR files given): vCPUs and memory as',
    'ranges (MIN..MAX, MIN.., ..MAX or one value; memory as quantities, a bare number in GiB), the',
    'architecture, dedicated CPUs, a hugepage size (or any), a GPU or host device, a family (u1 or u) or',
    'class (repeatable), words in the name or description, and --preference NAME: only the instance types',
    'KubeVirt admits that preference with. Deprecated ones are left out unless --deprecated. --with FILE',
    'takes the instance types and preferences of files instead (kubectl get virtualmachineclusterinstancetypes',
    '-o yaml, a release bundle): their family is read off the name, their class off the class label.',
    '',
    'With --os (a guest OS as people say it: windows 11, rhel, fedora) or --intent (general, compute,',
    'memory, network, realtime, overcommitted, gpu, or a class of the catalog) or --size (large), select',
    "decides: one instance type and preference, the pair the one judge admits at the cluster's release,",
    'least specialised first (no dedicated CPUs, hugepages or GPUs unless asked; general purpose unless',
    'another intent is given), then the smallest, then the name; it says why, which smaller candidates',
    "were passed over in KubeVirt's words, and prints a VM to apply. An ask nothing meets (Windows 11 with",
    'one vCPU) is refused with the nearest admitted pairs, never answered with another in silence. An',
    'unknown word is refused with the known ones. --family, --class, --text and --deprecated narrow a',
    "decision's candidates as they narrow the list; --scope, --nodes and --pods are read by a decision only",
    '(listing refuses them). `itgen mcp` answers the same through its select tool.',
  ].join('\n'),
  generatorArguments: true,
  options: [
    { flag: '--os', value: 'WORD', help: 'decide for this guest OS (windows 11, win11, rhel, fedora): its preference' },
    { flag: '--intent', value: 'WORD', help: 'decide within this intent: general, compute, memory, network, realtime, overcommitted, gpu, or a class' },
    { flag: '--size', value: 'WORD', help: 'decide among this size (small, large, 2xlarge)' },
    {
      flag: '--scope',
      value: 'cluster|namespaced',
      help: 'deciding: name the cluster-wide kinds (default) or the namespaced ones',
      check: (v) => (v === 'cluster' || v === 'namespaced' ? undefined : '--scope is cluster or namespaced'),
    },
    { flag: '--nodes', value: 'FILE', help: "deciding: the cluster's nodes (kubectl get nodes -o yaml); the answer's launcher pod must fit one" },
    { flag: '--pods', value: 'FILE', help: 'deciding: what already runs on them (kubectl get pods -A -o yaml)' },
    { flag: '--cpu', value: 'RANGE', help: 'vCPUs: 4..16, 4.., ..16 or 8' },
    { flag: '--memory', value: 'RANGE', help: 'guest memory: 8Gi.., 4Gi..32Gi (a bare number is GiB, up to 65536; larger ones need their unit)' },
    { flag: '--arch', value: 'ARCH', help: 'amd64, arm64 or s390x (x86_64 and aarch64 are taken as Kubernetes names them)' },
    { flag: '--dedicated', help: 'dedicated CPUs only' },
    { flag: '--hugepages', value: 'SIZE', help: 'a hugepage size (2Mi, 1Gi) or any' },
    { flag: '--gpu', value: 'NAME', help: 'a GPU or host device name (nvidia.com/L4)' },
    { flag: '--preference', value: 'NAME', help: 'only those this preference is admitted with' },
    { flag: '--family', value: 'F', repeatable: true, help: 'a family (u1, or u)' },
    { flag: '--class', value: 'C', repeatable: true, help: 'a class (general.purpose)' },
    { flag: '--text', value: 'WORDS', help: 'words in the name, display name, description or class' },
    { flag: '--deprecated', help: 'include deprecated instance types' },
    WITH_OPTION,
    KUBEVIRT_OPTION,
    KUBEVIRT_VERSION_OPTION,
    OUTPUT,
  ],
};

export const select: Command = {
  ...SELECT_COMMAND,
  run(ctx) {
    const { line } = ctx;
    // Each flag given, by its name: `--cpu 2` is `{ cpu: '2' }`.
    const texts = (...flags: string[]): Record<string, string> =>
      Object.fromEntries(
        flags.flatMap((f) => {
          const v = optionValue(line, `--${f}`);
          return v === undefined ? [] : [[f, v]];
        }),
      );
    const filters = texts('cpu', 'memory', 'arch', 'hugepages', 'gpu', 'preference', 'text');
    const narrowing = {
      families: optionValues(line, '--family'),
      classes: optionValues(line, '--class'),
      ...(optionSet(line, '--deprecated') ? { deprecated: true } : {}),
    };
    if (['--os', '--intent', '--size'].some((f) => optionValue(line, f) !== undefined)) {
      const scope = optionValue(line, '--scope') as 'cluster' | 'namespaced' | undefined;
      const c = choose(projectOf(ctx), {
        ...filters,
        ...texts('os', 'intent', 'size', 'nodes', 'pods'),
        ...narrowing,
        ...(scope !== undefined ? { scope } : {}),
        ...(optionSet(line, '--dedicated') ? { dedicated: true } : {}),
      });
      return finish(ctx, c, outputOf(ctx, OUTPUT) === 'json' ? chooseJsonText(c) : chooseText(c));
    }
    const r = selectOf(projectOf(ctx), {
      ...filters,
      ...narrowing,
      dedicated: optionSet(line, '--dedicated'),
      decidingOnly: ['--scope', '--nodes', '--pods'].filter((f) => optionValue(line, f) !== undefined),
    });
    if (r.diagnostics.some((d) => d.severity === 'error')) return finish(ctx, r, undefined);
    const format = outputOf(ctx, OUTPUT);
    return finish(ctx, r, format === 'json' ? selectJson(r) : format === 'csv' ? selectCsv(r.instancetypes) : selectText(r));
  },
};
