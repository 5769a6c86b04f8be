import { diag, hasErrors, type Diagnostic } from '../../diagnostics';
import { kubevirtConfig } from '../../kubevirt/config';
import { instancetypesCsv, objectsSiteData, parseRange, projectSiteData, selectInstancetypes, type SelectFilter, type SiteData } from '../../site';
import { optionSet, optionValue, optionValues } from '../args';
import { compiledOrExit, EXIT_OK, exitCodeFor, objectsOfFiles, report, writeText, type Command } from '../command';

export const select: Command = {
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
    { flag: '--memory', value: 'RANGE', help: 'guest memory: 8Gi.., 4Gi..32Gi (a bare number is GiB)' },
    { flag: '--arch', value: 'ARCH', help: 'amd64, arm64 or s390x' },
    { flag: '--dedicated', help: 'dedicated CPUs only' },
    { flag: '--hugepages', value: 'SIZE', help: 'a hugepage size (2Mi, 1Gi) or any' },
    { flag: '--gpu', value: 'NAME', help: 'a GPU or host device name (nvidia.com/L4)' },
    { flag: '--preference', value: 'NAME', help: 'only those this preference is admitted with' },
    { flag: '--family', value: 'F', repeatable: true, help: 'a family (u1, or u)' },
    { flag: '--class', value: 'C', repeatable: true, help: 'a class (general.purpose)' },
    { flag: '--text', value: 'WORDS', help: 'words in the name, display name, description or class' },
    { flag: '--deprecated', help: 'include deprecated instance types' },
    {
      flag: '--with',
      value: 'FILE',
      repeatable: true,
      help: 'instance types and preferences from files (kubectl get ... -o yaml, a bundle) instead of the project',
    },
    {
      flag: '--output',
      short: '-o',
      value: 'text|json|csv',
      help: 'text (default), json or csv',
      check: (v) => (['text', 'json', 'csv'].includes(v) ? undefined : '-o is text, json or csv'),
    },
  ],
  run(ctx) {
    const { io, line, global, root } = ctx;
    const problems: Diagnostic[] = [];
    const range = (flag: string, what: 'count' | 'bytes'): readonly [number | undefined, number | undefined] | undefined => {
      const v = optionValue(line, flag);
      if (v === undefined) return undefined;
      const r = parseRange(v, what);
      if ('error' in r) {
        problems.push(diag('IT1011', `${flag}: ${r.error}`));
        return undefined;
      }
      return r;
    };
    const many = (flag: string): string[] => [...optionValues(line, flag)];
    const filter: SelectFilter = {
      ...(range('--cpu', 'count') ? { cpu: range('--cpu', 'count')! } : {}),
      ...(range('--memory', 'bytes') ? { memory: range('--memory', 'bytes')! } : {}),
      ...(optionValue(line, '--arch') !== undefined ? { arch: optionValue(line, '--arch')! } : {}),
      ...(optionSet(line, '--dedicated') ? { dedicated: true } : {}),
      ...(optionValue(line, '--hugepages') !== undefined ? { hugepages: optionValue(line, '--hugepages')! } : {}),
      ...(optionValue(line, '--gpu') !== undefined ? { gpu: optionValue(line, '--gpu')! } : {}),
      ...(optionValue(line, '--preference') !== undefined ? { preference: optionValue(line, '--preference')! } : {}),
      ...(optionValue(line, '--text') !== undefined ? { text: optionValue(line, '--text')! } : {}),
      families: many('--family'),
      classes: many('--class'),
      ...(optionSet(line, '--deprecated') ? { deprecated: true } : {}),
    };
    if (problems.length > 0) {
      report(io, global.format, problems, root, true);
      return exitCodeFor(problems);
    }
    let data: SiteData;
    const withFiles = optionValues(line, '--with');
    if (withFiles.length > 0) {
      const read = objectsOfFiles(ctx, withFiles);
      if (hasErrors(read.diagnostics)) {
        report(io, global.format, read.diagnostics, root, true);
        return exitCodeFor(read.diagnostics);
      }
      data = objectsSiteData(read.objects, kubevirtConfig(null).config);
    } else {
      const compiled = compiledOrExit(ctx, true);
      if ('exit' in compiled) return compiled.exit;
      data = projectSiteData(compiled.results, kubevirtConfig(null).config);
    }
    if (filter.preference !== undefined && !data.preferences.some((p) => p.name === filter.preference)) {
      const unknown = [diag('IT1011', `--preference: \`${filter.preference}\` is not a preference of the project`)];
      report(io, global.format, unknown, root, true);
      return exitCodeFor(unknown);
    }
    const rows = selectInstancetypes(data, filter);
    const output = optionValue(line, '--output') ?? 'text';
    if (output === 'json') io.out(JSON.stringify({ instancetypes: rows }, null, 2));
    else if (output === 'csv') writeText(io, instancetypesCsv(rows));
    else
      writeText(
        io,
        rows.length === 0
          ? 'no instance type matches'
          : rows
              .map(
                (r) =>
                  `${r.name}: ${r.cpu} vCPU${r.cpu === 1 ? '' : 's'}, ${r.memory}${r.dedicatedCpu ? ', dedicated CPUs' : ''}${r.hugepages ? `, hugepages ${r.hugepages}` : ''}${[...r.gpus, ...r.hostDevices].length > 0 ? `, ${[...r.gpus, ...r.hostDevices].join(' ')}` : ''} (${r.class}; pod requests cpu ${r.podCpu || '?'}, memory ${r.podMemory || '?'})${r.deprecated ? `; deprecated${r.replacement ? `, use ${r.replacement}` : ''}` : ''}`,
              )
              .join('\n'),
      );
    return EXIT_OK;
  },
};
