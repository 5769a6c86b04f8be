import { optionValue, optionSet, outputOption, WITH_OPTION, type CommandSpec } from '../parse';
import path from 'node:path';
import { migratedTemplatesText, migrateOpenShiftTemplates, migratePresets, relativePath, SCAFFOLD_NAME } from '../../workflows/migrate';
import { EXIT_USER, exitCodeFor, finish, report, projectOf, type Command } from '../command';

export const MIGRATE_COMMAND: CommandSpec = {
  name: 'migrate',
  synopsis:
    'migrate presets --out DIR [--cluster] [--allow-differences] [--name NAME] [--force] FILE|DIR... | migrate templates FILE|DIR... [--with FILE]... [-o yaml|json]',
  summary: 'turn VirtualMachineInstancePresets (and the VMs they select) or OpenShift VM templates into instance types, preferences and what names them',
  details: [
    'Reads VirtualMachineInstancePresets and the VirtualMachines (and VirtualMachineInstances) they select,',
    'and writes DIR as an itgen project: generators/, catalogs/ (itgen format), vms/<name>.yaml (each VM',
    'naming its instance type and preference, the fields they now provide removed), and MIGRATION.md.',
    'Every migrated VM is expanded and compared with what KubeVirt builds from it and its presets today;',
    "a difference is an error unless --allow-differences. Namespaced kinds in the presets' namespace, or",
    'cluster-wide ones with --cluster. Exit 0 when written (warnings name what needs a person).',
    '',
    'migrate templates: OpenShift Templates of a VM (common-templates: one per OS, workload and flavor)',
    'become VirtualMachineTemplates printed as a YAML stream: the parameters kept, the preference of the',
    "template's OS (os.template.kubevirt.io/win11 -> windows.11) and the smallest plain instance type of",
    "the project's and --with catalogs that holds its size and its vm.kubevirt.io/validations minimums and",
    "that KubeVirt admits with the preference, as the INSTANCETYPE parameter's default; the size fields the",
    'instance type gives are removed from the VM. Each is proved: the VMI KubeVirt starts from the old',
    "template's VM against the new one's, and every field that differs is a warning (IT8211).",
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
    WITH_OPTION,
    outputOption(['yaml', 'json'], 'migrate templates: the templates as YAML, or JSON with each mapping and its differences'),
  ],
  accept: (line) => {
    if (line.positionals[0] === 'templates')
      return line.positionals.length < 2 ? 'migrate templates needs the OpenShift Template files: files, directories, or - for standard input' : undefined;
    if (line.positionals[0] !== 'presets') return 'migrate what? `itgen migrate presets --out DIR FILE|DIR...` or `itgen migrate templates FILE|DIR...`';
    if (line.positionals.length < 2) return 'migrate presets needs the preset and VM manifests: files, directories, or - for standard input';
    if (optionValue(line, '--out') === undefined) return 'migrate presets needs --out DIR, the directory to write the project to';
    return undefined;
  },
};

export const migrate: Command = {
  ...MIGRATE_COMMAND,
  run(ctx) {
    const { io, global, root, line } = ctx;
    if (line.positionals[0] === 'templates') {
      const r = migrateOpenShiftTemplates(projectOf(ctx), line.positionals.slice(1));
      return finish(ctx, r, migratedTemplatesText(r, optionValue(line, '--output') === 'json' ? 'json' : 'yaml'));
    }
    const out = optionValue(line, '--out')!;
    const shown = relativePath(io.cwd, path.resolve(root, out)) || '.';
    const name = optionValue(line, '--name');
    const r = migratePresets(projectOf(ctx), {
      inputs: line.positionals.slice(1),
      out,
      ...(name !== undefined ? { name } : {}),
      cluster: optionSet(line, '--cluster'),
      allowDifferences: optionSet(line, '--allow-differences'),
      force: optionSet(line, '--force'),
    });
    if (r.inTheWay.length > 0) {
      io.err(
        `error: ${shown} already has ${r.inTheWay.join(', ')}${optionSet(line, '--force') ? ' (or they lead outside it)' : '; --force replaces them'}\nnothing written`,
      );
      return EXIT_USER;
    }
    report(io, global.format, r.diagnostics, root);
    if (r.written > 0)
      io.err(
        `wrote ${r.written} files to ${shown}: ${r.migrated} of ${r.vms} VMs migrated; ${shown}/MIGRATION.md says what became what\nnext: itgen -C ${shown} generate`,
      );
    return exitCodeFor(r.diagnostics);
  },
};
