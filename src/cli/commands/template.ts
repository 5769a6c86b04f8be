import { optionValue, optionValues, outputOption, WITH_OPTION, type CommandSpec } from '../parse';
import { processTemplate, sweepTemplateFile, sweepText, templateText } from '../../workflows/template';
import { finish, outputOf, projectOf, type Command } from '../command';

export const TEMPLATE_OUTPUT = outputOption(
  ['yaml', 'json', 'text'],
  'output format (process: yaml, with the generated values and the message as comments, or json, the VM alone as virtctl prints it; sweep: text or json)',
);

export const TEMPLATE_COMMAND: CommandSpec = {
  name: 'template',
  synopsis: 'template process|sweep FILE|- [-p NAME=VALUE]... [--params-file FILE] [--with FILE]... [-o yaml|json|text]',
  summary: 'process a VirtualMachineTemplate as virtctl template process --local does, or sweep its instance type',
  details: [
    'Processes the first document of FILE, a template.kubevirt.io VirtualMachineTemplate (v1beta1 or',
    'v1alpha1), exactly as virt-template-engine v0.2.0 does (KubeVirt v1.9): parameters given with -p or',
    'in --params-file merged (one the template does not declare is refused), references checked (an',
    'undeclared ${X} is an error, a declared parameter nobody references a warning), values generated',
    "(the expression generator's alphabet and lengths; each generated value is printed as a comment),",
    '`required` enforced, ${X} substituted inside strings and ${{X}} decoded as JSON, a hard-coded',
    "namespace dropped, and the VM converted into KubeVirt's types: an unknown field above the VMI spec",
    'refused in its words, one inside it dropped in silence by the engine (itgen warns, IT8403). Each',
    "error is the engine's text (IT8401) at the line of the parameter or field. -p reads as virtctl's:",
    'a value with one = is one parameter (-p A=1,2), one with more is a comma-separated list (-p',
    'A=1,B=2; quote a whole pair holding commas: -p \'"A=1,2",B=3\'); -p and --params-file exclude each other.',
    '',
    "sweep FILE: a parameter that is the whole name of the VM's instance type or preference",
    '(`name: ${INSTANCETYPE}`) is tried with every value the project and the --with files offer, each VM',
    'judged by the one judge (admission, start) for the targeted releases: which values KubeVirt admits,',
    "the default's verdict, and, when the default is refused, the least specialised admitted value",
    "(no dedicated CPUs, hugepages, GPUs or host devices; the default's family first; then fewest",
    'vCPUs, least memory, name). `itgen validate` judges template files too and gives that suggestion.',
  ].join('\n'),
  options: [
    { flag: '--param', short: '-p', value: 'NAME=VALUE', repeatable: true, help: 'parameter values (NAME=VALUE, or N1=V1,N2=V2 as virtctl reads them)' },
    { flag: '--params-file', value: 'FILE', help: 'a YAML or JSON map of parameter values' },
    WITH_OPTION,
    TEMPLATE_OUTPUT,
  ],
  accept: (line) =>
    (line.positionals[0] !== 'process' && line.positionals[0] !== 'sweep') || line.positionals.length !== 2
      ? 'template takes: process FILE or sweep FILE (a VirtualMachineTemplate file, or - for standard input)'
      : undefined,
};

export const template: Command = {
  ...TEMPLATE_COMMAND,
  run(ctx) {
    const { line } = ctx;
    if (line.positionals[0] === 'sweep') {
      const r = sweepTemplateFile(projectOf(ctx), line.positionals[1]!);
      const output = optionValue(line, '--output');
      return finish(ctx, r, sweepText(r, output === 'json' ? 'json' : 'text'));
    }
    const paramsFile = optionValue(line, '--params-file');
    const r = processTemplate(projectOf(ctx), {
      file: line.positionals[1]!,
      params: optionValues(line, '--param'),
      ...(paramsFile !== undefined ? { paramsFile } : {}),
    });
    const output = outputOf(ctx, TEMPLATE_OUTPUT);
    const code = finish(ctx, r, templateText(r, output === 'json' ? 'json' : 'yaml'));
    // As virtctl: with JSON on standard output, the template's message on standard error.
    if (output === 'json' && r.processed?.vm && r.processed.message) ctx.io.err(r.processed.message);
    return code;
  },
};
