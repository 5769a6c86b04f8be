import {
  POLICIES_OPTION,
  BASE_OPTION,
  BUNDLES_OPTION,
  KUBEVIRT_OPTION,
  VMS_OPTION,
  WITH_OPTION,
  KUBEVIRT_VERSION_OPTION,
  optionSet,
  optionValues,
  type CommandSpec,
} from '../parse';
import { checkedSummary, validate as validateOf } from '../../workflows/validate';
import { EXIT_OK, finish, projectOf, type Command } from '../command';

export const VALIDATE_COMMAND: CommandSpec = {
  name: 'validate',
  synopsis: 'validate [FILE|DIR|-]... [--with FILE]... [-g FILE]...',
  summary: 'run every check, write nothing; with files, judge their manifests as KubeVirt admission does',
  details: [
    'Without files: every check of the project, as generate runs them.',
    'With files: hand-written instance types and preferences get the KubeVirt API model and the same',
    'KubeVirt rules the catalogs get; VirtualMachines get the VM webhook checks of their matchers and',
    'admission against the objects of the files, --with files and the project (when it has generators).',
    'A VirtualMachineTemplate (template.kubevirt.io) is processed with its defaults as virt-template-engine',
    "processes it (itgen template process) and its VM judged like a VM file, at the template's lines; when",
    'KubeVirt refuses the default instance type, the least specialised value it admits is suggested.',
  ].join('\n'),
  options: [
    BASE_OPTION,
    BUNDLES_OPTION,
    WITH_OPTION,
    KUBEVIRT_OPTION,
    KUBEVIRT_VERSION_OPTION,
    POLICIES_OPTION,
    { flag: '--allow-removals', help: 'as for generate: accept dropping objects the committed base has (before the first release)' },
    VMS_OPTION,
  ],
};

export const validate: Command = {
  ...VALIDATE_COMMAND,
  run(ctx) {
    const { io, global, line } = ctx;
    const r = validateOf(projectOf(ctx), { files: line.positionals, vms: optionValues(line, '--vms'), allowRemovals: optionSet(line, '--allow-removals') });
    const code = finish(ctx, r, undefined, false);
    if (line.positionals.length === 0 && code === EXIT_OK && io.terminal && global.format === 'text')
      io.err(checkedSummary('validated', r.generators, r.diagnostics));
    return code;
  },
};
