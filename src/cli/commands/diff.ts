import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { diag, type Diagnostic } from '../../diagnostics';
import type { OutputFile } from '../../emit/layout';
import { committedObjects, readCommittedBase } from '../../emit/committed';
import { relativePath } from '../../load/files';
import { diffObjects, formatDiff, parseObjects, type ObjectDiff } from '../../release/diff';
import { generatedObjects } from '../../release/drift';
import { bundleSettings } from '../../schema/generator';
import { optionSet, optionValue } from '../args';
import { compiledOrExit, EXIT_OK, EXIT_USER, exitCodeFor, report, single, writeText, type Command } from '../command';
import { readTreeAt } from '../git';

export const diff: Command = {
  name: 'diff',
  synopsis: 'diff [GENERATOR.yaml]... [--against REF|FILE] [--exit-code]',
  summary: 'objects added, removed and changed, field by field, since the committed output, a Git revision or a bundle',
  generatorArguments: true,
  options: [
    { flag: '--against', value: 'REF|FILE', help: 'a Git revision, or a bundle or other YAML file of objects' },
    { flag: '--exit-code', help: 'exit 1 when there are differences' },
  ],
  run(ctx) {
    const { io, global, root, line } = ctx;
    const compiled = compiledOrExit(ctx);
    if ('exit' in compiled) return compiled.exit;
    const { results, diagnostics } = compiled;
    const against = optionValue(line, '--against');
    const candidate = against === undefined ? undefined : path.resolve(io.cwd, against);
    const bundleFile = candidate !== undefined && existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
    const problems: Diagnostic[] = [...diagnostics];
    const sections: { generator: string; against: string; diffs: ObjectDiff[] }[] = [];
    if (bundleFile !== undefined) {
      const s = single(results, 'diff --against FILE');
      if (!s.result) {
        report(io, global.format, s.diagnostics, root);
        return EXIT_USER;
      }
      const parsed = parseObjects(readFileSync(bundleFile, 'utf8'));
      const shown = relativePath(root, bundleFile);
      if (parsed.error !== undefined) {
        report(io, global.format, [diag('IT7301', `cannot read ${shown}: ${parsed.error}`)], root);
        return EXIT_USER;
      }
      // Comparing with a file that holds no instance types or preferences would list every object as added.
      if (parsed.objects.length === 0) {
        report(
          io,
          global.format,
          [
            diag('IT7301', `${shown} holds no instance types or preferences (instancetype.kubevirt.io objects)`, undefined, {
              hint: 'pass a release bundle, such as common-instancetypes-all-bundle-<version>.yaml, or a commit',
            }),
          ],
          root,
        );
        return EXIT_USER;
      }
      // A bundle carries the version label; the base does not.
      const ignore = [bundleSettings(s.result.generator!.name, s.result.generator!.config).versionLabel];
      sections.push({ generator: s.result.generator!.name, against: shown, diffs: diffObjects(parsed.objects, generatedObjects(s.result), ignore) });
    } else {
      for (const r of results) {
        const dir = r.generator!.outputDir;
        let before: readonly OutputFile[];
        if (against === undefined) before = readCommittedBase(root, dir).files;
        else {
          const t = readTreeAt(root, against, dir);
          if ('error' in t) {
            problems.push(
              diag('IT7301', `cannot read ${dir} at ${against}: ${t.error}`, undefined, { hint: 'pass a commit, branch or tag, or an existing YAML file' }),
            );
            continue;
          }
          before = t.files;
        }
        sections.push({
          generator: r.generator!.name,
          against: against === undefined ? `${dir} (working tree)` : `${dir} at ${against}`,
          diffs: diffObjects(committedObjects(before), generatedObjects(r)),
        });
      }
    }
    if (global.format === 'json') {
      io.out(JSON.stringify({ diagnostics: problems, generators: sections }, null, 2));
    } else {
      report(io, global.format, problems, root);
      const text = sections
        .map((s) => `${sections.length > 1 ? `# ${s.generator}: from ${s.against} to the catalogs\n` : ''}${formatDiff(s.diffs)}`)
        .join('\n');
      if (text !== '') writeText(io, text);
    }
    const code = exitCodeFor(problems);
    if (code !== EXIT_OK) return code;
    return optionSet(line, '--exit-code') && sections.some((s) => s.diffs.length > 0) ? EXIT_USER : EXIT_OK;
  },
};
