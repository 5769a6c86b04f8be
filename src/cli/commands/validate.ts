import { existsSync } from 'node:fs';
import path from 'node:path';
import { validateManifests } from '../../admission';
import { hasErrors, strictify } from '../../diagnostics';
import { objectStore } from '../../expand';
import { loadManifests, loadProjectManifests } from '../../load/manifests';
import { syncWarnings } from '../../release/gitops';
import type { JsonObject } from '../../resolve/leaves';
import { optionValues } from '../args';
import { compileAll, exitCodeFor, report, type Command } from '../command';

export const validate: Command = {
  name: 'validate',
  synopsis: 'validate [FILE|DIR|-]... [--with FILE]... [-g FILE]...',
  summary: 'run every check, write nothing; with files, judge their manifests as KubeVirt admission does',
  details: [
    'Without files: every check of the project, as generate runs them.',
    'With files: hand-written instance types and preferences get the KubeVirt API model and the same',
    'KubeVirt rules the catalogs get; VirtualMachines get the VM webhook checks of their matchers and',
    'admission against the objects of the files, --with files and the project (when it has generators).',
  ].join('\n'),
  options: [{ flag: '--with', value: 'FILE', repeatable: true, help: 'instance types and preferences the VMs may reference' }],
  run(ctx) {
    const { io, global, root, line } = ctx;
    if (line.positionals.length === 0) {
      const { results, diagnostics } = compileAll(ctx);
      // What the project's Flux Kustomizations and Argo CD Applications do with the bases.
      const skip = results.flatMap((r) => (r.generator ? [r.generator.outputDir, r.generator.catalogDir] : []));
      const all = hasErrors(diagnostics) ? diagnostics : strictify([...diagnostics, ...syncWarnings(results, loadProjectManifests(root, skip))], global.strict);
      report(io, global.format, all, root);
      return exitCodeFor(all);
    }
    const stdin = (): string => (io.stdin ? io.stdin() : '');
    const useProject = global.generators.length > 0 || existsSync(path.join(root, 'generators'));
    const compiled = useProject ? compileAll(ctx) : { results: [], diagnostics: [] };
    const extra = loadManifests(root, optionValues(line, '--with'), stdin);
    const input = loadManifests(root, line.positionals, stdin);
    const loading = strictify([...compiled.diagnostics, ...extra.diagnostics, ...input.diagnostics], global.strict);
    if (hasErrors(loading)) {
      report(io, global.format, loading, root);
      return exitCodeFor(loading);
    }
    const objects: JsonObject[] = [
      ...compiled.results.flatMap((r) => r.objects.map((o) => o.manifest as unknown as JsonObject)),
      ...extra.docs.flatMap((d) => (d.value !== null && typeof d.value === 'object' ? [d.value as JsonObject] : [])),
    ];
    const all = strictify([...loading, ...validateManifests(input.docs, objectStore(objects))], global.strict);
    report(io, global.format, all, root);
    return exitCodeFor(all);
  },
};
