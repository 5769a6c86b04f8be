import { mappingToYaml, serializeStream } from '../../emit/serialize';
import { generatorPolicies } from '../../policy/base';
import { optionValue } from '../args';
import { compiledOrExit, EXIT_OK, writeText, type Command } from '../command';

export const policy: Command = {
  name: 'policy',
  synopsis: 'policy [GENERATOR.yaml]... [-o yaml|json]',
  summary: 'the Kubernetes admission policies of the catalog: deny VMs naming what it lacks, warn on what it deprecates',
  details: [
    'Prints the ValidatingAdmissionPolicies, bindings and profile ConfigMaps (admissionregistration.k8s.io/v1,',
    'Kubernetes 1.30+) of each generator: those its `policy:` option asks for, which `itgen generate` also',
    'writes to <output>/policy/ (a kustomize base of its own, for cluster administrators), or the default',
    'ones for a generator without it. A VirtualMachine naming a cluster-wide instance type or preference the',
    'catalog lacks is denied with the nearest name ("u1.meduim is not an instance type of this cluster; did',
    'you mean u1.medium?"), one naming a deprecated one warned (or denied) with its replacement; opt-in:',
    'an instance type (or preference) required on every VM, and per-namespace allow-lists (profiles). An',
    "update is judged only when it changes the name; KubeVirt's own service accounts never. `itgen validate",
    '--vms DIR` says what they do to each VM.',
  ].join('\n'),
  generatorArguments: true,
  options: [
    {
      flag: '--output',
      short: '-o',
      value: 'yaml|json',
      help: 'yaml (default: a stream kubectl apply -f - takes) or json (a List)',
      check: (v) => (v === 'yaml' || v === 'json' ? undefined : '-o is yaml or json'),
    },
  ],
  run(ctx) {
    const compiled = compiledOrExit(ctx, true);
    if ('exit' in compiled) return compiled.exit;
    const all = compiled.results.map((r) => generatorPolicies(r));
    const objects = all.flatMap((p) => p.objects);
    if ((optionValue(ctx.line, '--output') ?? 'yaml') === 'json') ctx.io.out(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }, null, 2));
    else
      writeText(
        ctx.io,
        all
          .map(
            (p) =>
              `# ${p.generator}: ${p.written ? 'the policies generate writes to its output (policy:)' : 'the default policies (the generator has no policy: option)'}\n${serializeStream(p.objects.map((o) => mappingToYaml(o)))}`,
          )
          .join(''),
      );
    return EXIT_OK;
  },
};
