import path from 'node:path';
import { hasErrors } from '../../diagnostics';
import { kubevirtConfig } from '../../kubevirt/config';
import { objectsSiteData, projectSite, sitePage, writeSite } from '../../site';
import { optionValue, optionValues } from '../args';
import { compiledOrExit, EXIT_OK, exitCodeFor, kubevirtOption, objectsOfFiles, report, type Command } from '../command';

export const site: Command = {
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
    { flag: '--with', value: 'FILE', repeatable: true, help: 'instance types and preferences from files instead of the project' },
    { flag: '--kubevirt', value: 'FILE', help: "the clusters' KubeVirt CR, for the pod requests (default: the generator's, else KubeVirt's defaults)" },
  ],
  accept: (line) => (optionValue(line, '--out') === undefined ? 'site needs --out DIR' : undefined),
  run(ctx) {
    const { io, line, global, root } = ctx;
    const cr = kubevirtOption(ctx);
    report(io, global.format, cr.diagnostics, root, true);
    if (hasErrors(cr.diagnostics)) return exitCodeFor(cr.diagnostics);
    const config = cr.config ?? kubevirtConfig(null).config;
    let page: string;
    const withFiles = optionValues(line, '--with');
    if (withFiles.length > 0) {
      const read = objectsOfFiles(ctx, withFiles);
      if (hasErrors(read.diagnostics)) {
        report(io, global.format, read.diagnostics, root, true);
        return exitCodeFor(read.diagnostics);
      }
      page = sitePage(objectsSiteData(read.objects, config, optionValue(line, '--title')));
    } else {
      const compiled = compiledOrExit(ctx, true);
      if ('exit' in compiled) return compiled.exit;
      // --kubevirt, else the CR each generator names, else KubeVirt's defaults.
      const results = cr.config ? compiled.results.map((r) => ({ ...r, kubevirt: config })) : compiled.results;
      page = projectSite(results, config, optionValue(line, '--title'));
    }
    const out = optionValue(line, '--out')!;
    const problems = writeSite(path.resolve(io.cwd, out), out, page);
    report(io, global.format, problems, root, true);
    if (hasErrors(problems)) return exitCodeFor(problems);
    io.err(`wrote ${path.join(out, 'index.html')}`);
    return EXIT_OK;
  },
};
