import { diff as diffOf, diffJson, diffMarkdownComment, diffText } from '../../workflows/diff';
import { optionSet, optionValue, optionValues } from '../args';
import { EXIT_OK, EXIT_USER, exitCodeFor, finish, report, writeText, type Command } from '../command';
import { BASE_OPTION, BUNDLES_OPTION, outputOption, projectOf, VMS_OPTION } from '../options';

const OUTPUT = outputOption(
  ['text', 'markdown', 'json'],
  'text (default); markdown: a pull-request comment (summary, table of objects with their resources, folded and cut when long); json',
);

export const diff: Command = {
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
  run(ctx) {
    const { io, global, root, line } = ctx;
    const against = optionValue(line, '--against');
    const r = diffOf(projectOf(ctx), { ...(against !== undefined ? { against } : {}), vms: optionValues(line, '--vms') });
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
