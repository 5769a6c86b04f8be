import { outputOption, WITH_OPTION, type CommandSpec } from '../parse';
import { policy as policyOf, policyJson, policyYaml } from '../../workflows/policy';
import { finish, outputOf, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(['yaml', 'json'], 'yaml (default: a stream kubectl apply -f - takes) or json (a List)');

export const POLICY_COMMAND: CommandSpec = {
  name: 'policy',
  synopsis: 'policy [GENERATOR.yaml]... [--with FILE]... [-o yaml|json]',
  summary: 'the Kubernetes admission policies of the catalog: deny VMs naming what it lacks, warn on what it deprecates',
  details: [
    'Prints the ValidatingAdmissionPolicies, bindings and profile ConfigMaps (admissionregistration.k8s.io/v1,',
    'Kubernetes 1.30+) of each generator: those its `policy:` option asks for, which `itgen generate` also',
    'writes to <output>/policy/ (a kustomize base of its own, for cluster administrators), or the default',
    'ones for a generator without it (or for the objects of --with files). A VirtualMachine naming a',
    'cluster-wide instance type or preference the catalog lacks is denied with the nearest name ("u1.meduim',
    'is not an instance type of this cluster; did you mean u1.medium?"), one naming a deprecated one warned',
    '(or denied) with its replacement; opt-in: an instance type (or preference) required on every VM, and',
    "per-namespace allow-lists (profiles). An update is judged only when it changes the name; KubeVirt's",
    'own service accounts never. `itgen validate --vms DIR` says what they do to each VM.',
  ].join('\n'),
  generatorArguments: true,
  options: [WITH_OPTION, OUTPUT],
};

export const policy: Command = {
  ...POLICY_COMMAND,
  run(ctx) {
    const r = policyOf(projectOf(ctx));
    return finish(ctx, r, r.policies.length === 0 ? undefined : outputOf(ctx, OUTPUT) === 'json' ? policyJson(r) : policyYaml(r));
  },
};
