import path from 'node:path';
import { diag } from '../../diagnostics';
import { writeTree } from '../../emit/write';
import { compileAll, EXIT_INTERNAL, EXIT_OK, exitCodeFor, noPositionals, report, type Command } from '../command';

export const generate: Command = {
  name: 'generate',
  synopsis: 'generate [-g FILE]...',
  summary: "validate every generator, then write its kustomize base and README (atomically)",
  options: [],
  accept: noPositionals,
  run(ctx) {
    const { io, global, root } = ctx;
    const { results, diagnostics } = compileAll(ctx);
    report(io, global.format, diagnostics, root);
    const code = exitCodeFor(diagnostics);
    if (code !== EXIT_OK) {
      if (global.format === 'text') io.err('nothing written');
      return code;
    }
    // Everything validated: only now touch the disk, one generator directory at a time, each atomically.
    for (const r of results) {
      try {
        writeTree(path.resolve(root, r.generator!.outputDir), r.files);
      } catch (e) {
        report(io, global.format, [diag('IT9002', `cannot write ${r.generator!.outputDir}: ${(e as Error).message}`)], root);
        return EXIT_INTERNAL;
      }
      if (global.format === 'text') io.err(`${r.generator!.name}: wrote ${r.objects.length} objects to ${r.generator!.outputDir}`);
    }
    return EXIT_OK;
  },
};
