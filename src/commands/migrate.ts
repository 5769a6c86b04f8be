import { SCAFFOLD_NAME } from '../scaffold';
import { optionValue } from './spec';
import type { CommandSpec } from './spec';

export const MIGRATE_COMMAND: CommandSpec = {
  name: 'migrate',
  synopsis: 'migrate presets --out DIR [--cluster] [--allow-differences] [--name NAME] [--force] FILE|DIR...',
  summary: 'turn VirtualMachineInstancePresets and the VMs they select into instance types, preferences and VMs that name them',
  details: [
    'Reads VirtualMachineInstancePresets and the VirtualMachines (and VirtualMachineInstances) they select,',
    'and writes DIR as an itgen project: generators/, catalogs/ (itgen format), vms/<name>.yaml (each VM',
    'naming its instance type and preference, the fields they now provide removed), and MIGRATION.md.',
    'Every migrated VM is expanded and compared with what KubeVirt builds from it and its presets today;',
    "a difference is an error unless --allow-differences. Namespaced kinds in the presets' namespace, or",
    'cluster-wide ones with --cluster. Exit 0 when written (warnings name what needs a person).',
  ].join('\n'),
  projectless: true,
  inPlace: true,
  options: [
    { flag: '--out', value: 'DIR', help: 'the directory to write the project to (required)' },
    { flag: '--cluster', help: 'cluster-wide instance types and preferences instead of namespaced ones' },
    { flag: '--allow-differences', help: 'write and exit 0 even where a migrated VM would start differently' },
    {
      flag: '--name',
      value: 'NAME',
      help: 'generator and catalog name (default: presets)',
      check: (v) => (SCAFFOLD_NAME.test(v) ? undefined : '--name is lowercase letters, digits and -, like presets'),
    },
    { flag: '--force', help: 'replace files of an earlier migration in DIR' },
  ],
  accept: (line) => {
    if (line.positionals[0] !== 'presets') return 'migrate what? `itgen migrate presets --out DIR FILE|DIR...` is the one migration';
    if (line.positionals.length < 2) return 'migrate presets needs the preset and VM manifests: files, directories, or - for standard input';
    if (optionValue(line, '--out') === undefined) return 'migrate presets needs --out DIR, the directory to write the project to';
    return undefined;
  },
};
