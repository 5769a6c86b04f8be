import { outputOption, WITH_OPTION, optionSet, optionValue, optionValues, type CommandSpec } from '../parse';
import { select as selectOf, selectCsv, selectJson, selectText } from '../../workflows/select';
import { finish, outputOf, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(['text', 'json', 'csv']);

export const SELECT_COMMAND: CommandSpec = {
  name: 'select',
  synopsis:
    'select [--cpu 4..16] [--memory 8Gi..] [--arch ARCH] [--dedicated] [--hugepages SIZE] [--gpu NAME] [--preference NAME] [--family F] [--class C] [--text WORDS] [--deprecated] [-o text|json|csv]',
  summary: "the instance types that fit your needs: the explorer's filters in the terminal",
  details: [
    'Filters the instance types of the project (or of the GENERATOR files given): vCPUs and memory as',
    'ranges (MIN..MAX, MIN.., ..MAX or one value; memory as quantities, a bare number in GiB), the',
    'architecture, dedicated CPUs, a hugepage size (or any), a GPU or host device, a family (u1 or u) or',
    'class (repeatable), words in the name or description, and --preference NAME: only the instance types',
    'KubeVirt admits that preference with. Deprecated ones are left out unless --deprecated. --with FILE',
    'takes the instance types and preferences of files instead (kubectl get virtualmachineclusterinstancetypes',
    '-o yaml, a release bundle): their family is read off the name, their class off the class label.',
  ].join('\n'),
  generatorArguments: true,
  options: [
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
    OUTPUT,
  ],
};

export const select: Command = {
  ...SELECT_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const text = (flag: string): Record<string, string> => {
      const v = optionValue(line, `--${flag}`);
      return v === undefined ? {} : { [flag]: v };
    };
    const r = selectOf(projectOf(ctx), {
      ...text('cpu'),
      ...text('memory'),
      ...text('arch'),
      ...text('hugepages'),
      ...text('gpu'),
      ...text('preference'),
      ...text('text'),
      dedicated: optionSet(line, '--dedicated'),
      deprecated: optionSet(line, '--deprecated'),
      families: optionValues(line, '--family'),
      classes: optionValues(line, '--class'),
    });
    if (r.diagnostics.some((d) => d.severity === 'error')) return finish(ctx, r, undefined);
    const format = outputOf(ctx, OUTPUT);
    return finish(ctx, r, format === 'json' ? selectJson(r) : format === 'csv' ? selectCsv(r.instancetypes) : selectText(r));
  },
};
