import { hasErrors } from '../../diagnostics';
import { catalogFacts, factsCsv, type LauncherFacts } from '../../expand/facts';
import { kubevirtConfig } from '../../kubevirt/config';
import { optionValue } from '../args';
import { compiledOrExit, EXIT_OK, exitCodeFor, kubevirtOption, report, writeText, type Command } from '../command';

export const facts: Command = {
  name: 'facts',
  synopsis: 'facts [GENERATOR.yaml]... [--kubevirt FILE] [-o text|json|csv]',
  summary: "what each instance type and preference asks of a node: the launcher pod's requests and the node labels it needs",
  details: [
    'For every instance type (a VM naming it alone: a pod network and a graphics device) and every',
    "preference (a VM of its required size naming it alone), what KubeVirt's virt-launcher pod requests",
    '(CPU, memory with the overhead, hugepages, devices) and the node labels its node selector needs,',
    'computed as `itgen expand --as pod` computes them, for quota webhooks, UIs and capacity',
    'dashboards. A preference also says what it adds to the memory overhead (a TPM: 53Mi). --kubevirt',
    "FILE is the cluster's KubeVirt CR; without it, KubeVirt's defaults.",
  ].join('\n'),
  generatorArguments: true,
  options: [
    { flag: '--kubevirt', value: 'FILE', help: "the cluster's KubeVirt CR (kubectl get kubevirt -n kubevirt kubevirt -o yaml)" },
    {
      flag: '--output',
      short: '-o',
      value: 'text|json|csv',
      help: 'text (default), json (per generator) or csv (a row per object)',
      check: (v) => (['text', 'json', 'csv'].includes(v) ? undefined : '-o is text, json or csv'),
    },
  ],
  run(ctx) {
    const { io, line, global, root } = ctx;
    const file = optionValue(line, '--kubevirt');
    const cr = kubevirtOption(ctx);
    report(io, global.format, cr.diagnostics, root, true);
    if (hasErrors(cr.diagnostics)) return exitCodeFor(cr.diagnostics);
    const config = cr.config ?? kubevirtConfig(null).config;
    const compiled = compiledOrExit(ctx, true);
    if ('exit' in compiled) return compiled.exit;
    // --kubevirt, else the CR the generator names, else KubeVirt's defaults.
    const rows = compiled.results.map((r) => ({
      generator: r.generator!.name,
      facts: catalogFacts(
        r.objects.map((o) => o.manifest as never),
        file !== undefined ? config : (r.kubevirt ?? config),
      ),
    }));
    const format = optionValue(line, '--output') ?? 'text';
    if (format === 'json') io.out(JSON.stringify({ generators: rows }, null, 2));
    else if (format === 'csv') writeText(io, factsCsv(rows));
    else writeText(io, rows.map((r) => (rows.length > 1 ? `# ${r.generator}\n${text(r.facts)}` : text(r.facts))).join('\n\n'));
    return EXIT_OK;
  },
};

function text(all: readonly LauncherFacts[]): string {
  return all
    .map((f) => {
      if (f.refused !== undefined) return `${f.name}: not started: ${f.refused}`;
      const r = f.requests ?? {};
      const res = Object.entries(r)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      const labels = Object.keys(f.nodeLabels ?? {}).join(' ');
      return `${f.name}: requests ${res}; overhead ${f.memoryOverhead ?? '?'}${f.overheadDelta !== undefined ? ` (the preference adds ${f.overheadDelta})` : ''}; node labels ${labels}`;
    })
    .join('\n');
}
