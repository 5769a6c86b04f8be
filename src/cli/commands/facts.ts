import { KUBEVIRT_OPTION, outputOption, WITH_OPTION, type CommandSpec } from '../parse';
import { facts as factsOf, factsCsv, factsJson, factsText } from '../../workflows/facts';
import { finish, outputOf, projectOf, type Command } from '../command';

export const OUTPUT = outputOption(['text', 'json', 'csv'], 'text (default), json (per generator) or csv (a row per object)');

export const FACTS_COMMAND: CommandSpec = {
  name: 'facts',
  synopsis: 'facts [GENERATOR.yaml]... [--with FILE]... [--kubevirt FILE] [-o text|json|csv]',
  summary: "what each instance type and preference asks of a node: the launcher pod's requests and the node labels it needs",
  details: [
    'For every instance type (a VM naming it alone: a pod network and a graphics device) and every',
    "preference (a VM of its required size naming it alone), what KubeVirt's virt-launcher pod requests",
    '(CPU, memory with the overhead, hugepages, devices) and the node labels its node selector needs,',
    'computed as `itgen expand --as pod` computes them, for quota webhooks, UIs and capacity',
    'dashboards. A preference also says what it adds to the memory overhead (a TPM: 53Mi). --kubevirt',
    "FILE is the cluster's KubeVirt CR; without it, the generator's, else KubeVirt's defaults. --with FILE",
    "takes the objects of files (the platform's bundle) instead of the project.",
  ].join('\n'),
  generatorArguments: true,
  options: [WITH_OPTION, KUBEVIRT_OPTION, OUTPUT],
};

export const facts: Command = {
  ...FACTS_COMMAND,
  run(ctx) {
    const r = factsOf(projectOf(ctx));
    const format = outputOf(ctx, OUTPUT);
    const text = r.catalogs.length === 0 ? undefined : format === 'json' ? factsJson(r) : format === 'csv' ? factsCsv(r.catalogs) : factsText(r);
    return finish(ctx, r, text);
  },
};
