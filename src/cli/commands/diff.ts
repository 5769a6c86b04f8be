import { BASE_OPTION, BUNDLES_OPTION, optionValue, outputOption, VMS_OPTION, optionSet, optionValues, type CommandSpec } from '../parse';
import { diff as diffOf, diffJson, diffMarkdownComment, diffText } from '../../workflows/diff';
import { diffBundles } from '../../workflows/diff-bundles';
import { EXIT_OK, EXIT_USER, exitCodeFor, finish, report, writeText, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(
  ['text', 'markdown', 'json'],
  'text (default); markdown: a pull-request comment (summary, table of objects with their resources, folded and cut when long); json',
);

export const DIFF_COMMAND: CommandSpec = {
  name: 'diff',
  synopsis: 'diff [GENERATOR.yaml]... [--against REF|FILE] | --from OLD --to NEW [-o text|markdown|json] [--vms DIR]... [--exit-code]',
  summary: 'objects added, removed and changed, field by field, since the committed output, a Git revision or a bundle',
  generatorArguments: true,
  options: [
    BASE_OPTION,
    BUNDLES_OPTION,
    { flag: '--against', value: 'REF|FILE', help: 'a Git revision, or a bundle or other YAML file of objects' },
    { flag: '--from', value: 'OLD', help: 'a published bundle (or kubectl get -o yaml) to compare from, with --to: no project needed' },
    { flag: '--to', value: 'NEW', help: "the bundle to compare to (the platform's next release)" },
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
    "--from OLD --to NEW compares two published bundles (the platform's v1.0.0 and v1.1.0) in a repository that",
    'has no catalog of its own, and with --vms says what each VM gets; deprecation and replacements are read',
    "from the bundles' labels and annotations.",
  ].join('\n'),
  accept: (line) => {
    const from = optionValue(line, '--from');
    const to = optionValue(line, '--to');
    if ((from === undefined) !== (to === undefined)) return 'diff --from OLD needs --to NEW, and --to NEW needs --from OLD';
    if (from !== undefined && optionValue(line, '--against') !== undefined) return 'diff takes --against, or --from and --to, not both';
    return undefined;
  },
};

export const diff: Command = {
  ...DIFF_COMMAND,
  run(ctx) {
    const { io, global, root, line } = ctx;
    const against = optionValue(line, '--against');
    const from = optionValue(line, '--from');
    const to = optionValue(line, '--to');
    const r =
      from !== undefined && to !== undefined
        ? diffBundles(projectOf(ctx), { from, to, vms: optionValues(line, '--vms') })
        : diffOf(projectOf(ctx), { ...(against !== undefined ? { against } : {}), vms: optionValues(line, '--vms') });
    if (r.failed) return finish(ctx, r, undefined);
    const output = optionValue(line, '--output') ?? (global.format === 'json' ? 'json' : 'text');
    // JSON carries the diagnostics inside; markdown is the comment, with them on stderr; text after them.
    if (output === 'json') io.out(diffJson(r));
    else if (output === 'markdown') {
      report(io, global.format, r.diagnostics, root, true);
      writeText(io, diffMarkdownComment(r));
    } else {
      report(io, global.format, r.diagnostics, root);
      const text = diffText(r);
      if (text !== '') writeText(io, text);
    }
    const code = exitCodeFor(r.diagnostics);
    if (code !== EXIT_OK) return code;
    return optionSet(line, '--exit-code') && r.changed ? EXIT_USER : EXIT_OK;
  },
};
