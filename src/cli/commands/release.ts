import { hasErrors } from '../../diagnostics';
import { writeFilesAtomic } from '../../emit/write';
import { outputDrift } from '../../release/drift';
import { currentObjects, lockFileFor, recordRelease, serializeLock } from '../../release/lock';
import { RELEASE_VERSION } from '../../schema/common';
import { optionValue, type CommandLine, type OptionSpec } from '../args';
import { compileAll, EXIT_OK, exitCodeFor, report, writeProblem, type Command } from '../command';

export const VERSION_OPTION: OptionSpec = {
  flag: '--version',
  value: 'vX.Y.Z',
  help: 'the release version',
  check: (v) => (RELEASE_VERSION.test(v) ? undefined : '--version needs a release version like v1.2.0'),
};

/** Release and bundle name a version; the parser has checked its form. */
export function requireVersion(command: string, line: CommandLine): string | undefined {
  return optionValue(line, '--version') === undefined ? `${command} needs --version vX.Y.Z` : undefined;
}

export const release: Command = {
  name: 'release',
  synopsis: 'release --version vX.Y.Z [GENERATOR.yaml]...',
  summary: 'record the current objects in the release lock',
  generatorArguments: true,
  options: [VERSION_OPTION],
  accept: (line) => requireVersion('release', line),
  run(ctx) {
    const { io, global, root } = ctx;
    const version = optionValue(ctx.line, '--version')!;
    const { results, diagnostics } = compileAll(ctx);
    const all = [...diagnostics];
    // A release records what is committed: the output must be current.
    if (!hasErrors(all)) for (const r of results) all.push(...outputDrift(root, r).diagnostics);
    const updates: { file: string; content: string; text: string }[] = [];
    if (!hasErrors(all)) {
      for (const r of results) {
        const g = r.generator!;
        const rec = recordRelease(r.lock, g.name, currentObjects(r.objects), version);
        all.push(...rec.diagnostics);
        if (!rec.lock) continue;
        const s = rec.summary!;
        updates.push({
          file: lockFileFor(g.file, g.name),
          content: serializeLock(rec.lock),
          text: `${g.name}: release ${version}: ${s.added} added, ${s.deprecated} newly deprecated, ${s.removed} removed, ${s.changed} changed by override`,
        });
      }
    }
    report(io, global.format, all, root);
    const code = exitCodeFor(all);
    if (code !== EXIT_OK) {
      if (global.format === 'text') io.err('nothing written');
      return code;
    }
    try {
      writeFilesAtomic(
        root,
        updates.map((u) => ({ path: u.file, content: u.content })),
      );
    } catch (e) {
      const problem = writeProblem('the release lock', e);
      report(io, global.format, [problem], root);
      return exitCodeFor([problem]);
    }
    if (global.format === 'text') for (const u of updates) io.err(`${u.text}; wrote ${u.file}`);
    return EXIT_OK;
  },
};
