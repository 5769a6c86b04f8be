import { optionValue, KUBEVIRT_OPTION, WITH_OPTION, type CommandSpec } from '../parse';
import { site as siteOf } from '../../workflows/site';
import { finish, projectOf, type Command } from '../command';

export const SITE_COMMAND: CommandSpec = {
  name: 'site',
  synopsis: 'site --out DIR [GENERATOR.yaml]... [--with FILE]... [--title TEXT] [--kubevirt FILE]',
  summary: 'a catalog explorer: one self-contained index.html to filter, sort and compare instance types',
  details: [
    'Writes DIR/index.html: every instance type in a sortable table (columns of your choice: vCPUs, memory,',
    'memory per vCPU, hugepages, dedicated CPUs, GPUs and devices, architecture, class, scope, pod requests',
    'with the overhead, node labels, deprecation), filters (ranges, architecture, family, class, features,',
    'the preference it must be admitted with, free text) kept in the URL so a view is a link, a side-by-side',
    'comparison of 2 to 4, a VM snippet per instance type, the preferences with the instance types KubeVirt',
    'admits them with (and its reason for the others), the release history, and CSV or JSON of the rows shown.',
    'The data, style and script are inline (no request to any host: it works from file://, GitHub or GitLab',
    'Pages) under a Content-Security-Policy that allows only them; catalog text is never HTML. An index.html',
    'in DIR that itgen did not write is left alone (IT1010). --with FILE takes the instance types and',
    'preferences of files (a release bundle, kubectl get ... -o yaml) instead of the project.',
  ].join('\n'),
  generatorArguments: true,
  options: [
    { flag: '--out', value: 'DIR', help: 'where to write index.html' },
    { flag: '--title', value: 'TEXT', help: 'the page title (default: Instance types of <generator>)' },
    WITH_OPTION,
    KUBEVIRT_OPTION,
  ],
  accept: (line) => (optionValue(line, '--out') === undefined ? 'site needs --out DIR' : undefined),
};

export const site: Command = {
  ...SITE_COMMAND,
  run(ctx) {
    const title = optionValue(ctx.line, '--title');
    const r = siteOf(projectOf(ctx), { out: optionValue(ctx.line, '--out')!, ...(title !== undefined ? { title } : {}) });
    const code = finish(ctx, r, undefined);
    if (r.written !== undefined) ctx.io.err(`wrote ${r.written}`);
    return code;
  },
};
