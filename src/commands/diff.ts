import { BASE_OPTION, BUNDLES_OPTION, outputOption, VMS_OPTION } from './spec';
import type { CommandSpec } from './spec';

export const OUTPUT = outputOption(
  ['text', 'markdown', 'json'],
  'text (default); markdown: a pull-request comment (summary, table of objects with their resources, folded and cut when long); json',
);

export const DIFF_COMMAND: CommandSpec = {
  name: 'diff',
  synopsis: 'diff [GENERATOR.yaml]... [--against REF|FILE] [-o text|markdown|json] [--vms DIR]... [--exit-code]',
  summary: 'objects added, removed and changed, field by field, since the committed output, a Git revision or a bundle',
  generatorArguments: true,
  options: [
    BASE_OPTION,
    BUNDLES_OPTION,
    { flag: '--against', value: 'REF|FILE', help: 'a Git revision, or a bundle or other YAML file of objects' },
    { flag: '--exit-code', help: 'exit 1 when there are differences' },
    OUTPUT,
    VMS_OPTION,
  ],
  details: [
    'Compares what the catalogs generate with the committed output (or --against a Git revision or a bundle),',
    'object by object. With --vms, the VMs that use a removed, deprecated or changed object are listed with',
    'what each becomes at its next start (expanded before and after) and whether KubeVirt still admits it:',
    'removing an object a VM uses is an error, even after a deprecation release (IT8301); a deprecated one a',
    'warning (IT8302). Every VM is also judged as KubeVirt would on apply, against what the catalogs generate.',
  ].join('\n'),
};
