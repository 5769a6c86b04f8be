import { POLICIES_OPTION, BASE_OPTION, BUNDLES_OPTION, KUBEVIRT_OPTION, VMS_OPTION, WITH_OPTION, KUBEVIRT_VERSION_OPTION } from './spec';
import type { CommandSpec } from './spec';

export const VALIDATE_COMMAND: CommandSpec = {
  name: 'validate',
  synopsis: 'validate [FILE|DIR|-]... [--with FILE]... [-g FILE]...',
  summary: 'run every check, write nothing; with files, judge their manifests as KubeVirt admission does',
  details: [
    'Without files: every check of the project, as generate runs them.',
    'With files: hand-written instance types and preferences get the KubeVirt API model and the same',
    'KubeVirt rules the catalogs get; VirtualMachines get the VM webhook checks of their matchers and',
    'admission against the objects of the files, --with files and the project (when it has generators).',
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
