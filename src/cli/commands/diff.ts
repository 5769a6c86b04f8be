import { withPolicyVerdicts } from '../../policy/vms';
import { projectPolicies } from '../../release/project';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { diag, type Diagnostic } from '../../diagnostics';
import type { OutputFile } from '../../emit/layout';
import { committedObjects, readCommittedBase } from '../../emit/committed';
import { relativePath } from '../../load/files';
import { diffObjects, formatDiff, parseObjects, type KubeObject, type ObjectDiff } from '../../release/diff';
import {
  boundedComment,
  diffMarkdown,
  impactMarkdown,
  impactOptions,
  judgeVms,
  problemsMarkdown,
  resizeMarkdown,
  reviewedChanges,
  vmImpact,
  vmResizes,
} from '../../release/review';
import { kubevirtConfig } from '../../kubevirt/config';
import { parseSource, type SourceDoc } from '../../load/source';
import { loadManifests } from '../../load/manifests';
import type { CompileResult } from '../../pipeline';
import { generatedObjects } from '../../release/drift';
import { bundleSettings } from '../../schema/names';
import { optionSet, optionValue, optionValues } from '../args';
import { compileAll, EXIT_OK, EXIT_USER, exitCodeFor, report, single, writeText, type Command, BASE_OPTION, BUNDLES_OPTION } from '../command';
import { readTreeAt } from '../git';

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
    {
      flag: '--output',
      short: '-o',
      value: 'text|markdown|json',
      help: 'text (default); markdown: a pull-request comment (summary, table of objects with their resources, folded and cut when long); json',
      check: (v) => (['text', 'markdown', 'json'].includes(v) ? undefined : '-o is text, markdown or json'),
    },
    { flag: '--vms', value: 'DIR', repeatable: true, help: 'VirtualMachines kept in Git: every one judged, and which of them the change touches, and how' },
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
    // The release lock's refusals are part of what a reviewer needs beside the diff: they do not stop it.
    const { results, diagnostics } = compileAll(ctx);
    if (diagnostics.some((d) => d.severity === 'error' && !/^IT710[1-7]$/.test(d.code))) {
      report(io, global.format, diagnostics, root, true);
      return exitCodeFor(diagnostics);
    }
    const against = optionValue(line, '--against');
    const candidate = against === undefined ? undefined : path.resolve(io.cwd, against);
    const bundleFile = candidate !== undefined && existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
    let problems: Diagnostic[] = [...diagnostics];
    const sections: { generator: string; against: string; diffs: ObjectDiff[]; before: KubeObject[]; after: KubeObject[]; result: CompileResult }[] = [];
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
      const after = generatedObjects(s.result);
      sections.push({
        generator: s.result.generator!.name,
        against: shown,
        diffs: diffObjects(parsed.objects, after, ignore),
        before: parsed.objects,
        after,
        result: s.result,
      });
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
        const old = committedObjects(before);
        const after = generatedObjects(r);
        sections.push({
          generator: r.generator!.name,
          against: against === undefined ? `${dir} (working tree)` : `${dir} at ${against}`,
          diffs: diffObjects(old, after),
          before: old,
          after,
          result: r,
        });
      }
    }
    // The VMs a team keeps in Git, judged against the objects before and after.
    const vmDirs = optionValues(line, '--vms');
    const vms = vmDirs.length > 0 ? loadManifests(root, vmDirs, () => '', io.cwd) : undefined;
    if (vms) problems.push(...vms.diagnostics);
    const impacts = sections.map((s) => (vms ? vmImpact(vms.docs, s.before, s.after, impactOptions(s.result)) : undefined));
    for (const i of impacts) if (i) problems.push(...i.diagnostics);
    // The VMs the change moves to another instance type or preference: what applying each does,
    // from the base revision's VM files (--against a Git revision only).
    const baseVms: SourceDoc[] = [];
    if (vms && against !== undefined && !(candidate !== undefined && existsSync(candidate) && statSync(candidate).isFile()))
      for (const d of vmDirs) {
        const rel = relativePath(root, path.resolve(io.cwd, d));
        const t = readTreeAt(root, against, rel);
        if ('error' in t) continue;
        for (const f of t.files) if (/\.(ya?ml|json)$/.test(f.path)) baseVms.push(...parseSource(`${rel}/${f.path}`, Buffer.from(f.content, 'utf8')).docs);
      }
    const resizes =
      vms && baseVms.length > 0
        ? vmResizes(
            baseVms,
            vms.docs,
            sections.flatMap((s) => s.before),
            sections.flatMap((s) => s.after),
            kubevirtConfig(null).config,
          )
        : [];
    // Every VM, touched or not, judged against everything the change generates.
    if (vms)
      problems.push(
        ...judgeVms(
          vms.docs,
          sections.flatMap((s) => s.after),
          impacts.flatMap((i) => i?.impacts ?? []),
        ),
      );
    // What the admission policies the project writes would do to them.
    if (vms) problems = withPolicyVerdicts(vms.docs, projectPolicies(results), problems);
    const output = optionValue(line, '--output') ?? (global.format === 'json' ? 'json' : 'text');
    if (output === 'json') {
      io.out(
        JSON.stringify(
          {
            diagnostics: problems,
            generators: sections.map((s, i) => ({
              generator: s.generator,
              against: s.against,
              summary: {
                added: s.diffs.filter((d) => d.change === 'added').length,
                removed: s.diffs.filter((d) => d.change === 'removed').length,
                changed: s.diffs.filter((d) => d.change === 'changed').length,
              },
              diffs: reviewedChanges(s.diffs, s.before, s.after),
              ...(impacts[i] ? { vms: { touched: impacts[i]!.impacts, unaffected: impacts[i]!.unaffected } } : {}),
            })),
            ...(resizes.length > 0 ? { resizes } : {}),
          },
          null,
          2,
        ),
      );
    } else if (output === 'markdown') {
      report(io, global.format, problems, root, true);
      const parts = sections.map((s, i) => {
        const table = diffMarkdown(`${s.generator}: ${s.against} → the catalogs`, reviewedChanges(s.diffs, s.before, s.after));
        return impacts[i] ? `${table}\n${impactMarkdown(impacts[i]!.impacts, impacts[i]!.unaffected)}` : table;
      });
      writeText(
        io,
        boundedComment(
          `### itgen: what this change does to the instance types and preferences\n\n${problemsMarkdown(problems)}${problems.length > 0 ? '\n' : ''}${parts.join('\n')}${resizeMarkdown(resizes)}`,
        ),
      );
    } else {
      report(io, global.format, problems, root);
      const text = [
        ...sections.map((s) => `${sections.length > 1 ? `# ${s.generator}: from ${s.against} to the catalogs\n` : ''}${formatDiff(s.diffs)}`),
        ...resizes.map(
          (r) =>
            `VirtualMachine ${r.name} (${r.file}): ${r.from} -> ${r.to}: ${r.plan.outcome}${r.plan.restartRequired ? ` (RestartRequired: ${r.plan.restartRequired.message}; ${r.plan.restartRequired.fields.slice(0, 4).join(', ')})` : ''}`,
        ),
      ]
        .filter((t) => t !== '')
        .join('\n');
      if (text !== '') writeText(io, text);
    }
    const code = exitCodeFor(problems);
    if (code !== EXIT_OK) return code;
    return optionSet(line, '--exit-code') && sections.some((s) => s.diffs.length > 0) ? EXIT_USER : EXIT_OK;
  },
};
