import path from 'node:path';
import { hasErrors, strictify } from '../../diagnostics';
import { filesInTheWay, writeFilesAtomic } from '../../emit/write';
import { loadManifests } from '../../load/manifests';
import { relativePath } from '../../load/files';
import type * as Migrate from '../../migrate';
import { SCAFFOLD_NAME } from '../../scaffold';
import { optionSet, optionValue } from '../args';
import { EXIT_OK, EXIT_USER, exitCodeFor, report, writeProblem, type Command } from '../command';

export const migrate: Command = {
  name: 'migrate',
  synopsis: 'migrate presets --out DIR [--cluster] [--allow-differences] [--name NAME] [--force] FILE|DIR...',
  summary: 'turn VirtualMachineInstancePresets and the VMs they select into instance types, preferences and VMs that name them',
  details: [
    'Reads VirtualMachineInstancePresets and the VirtualMachines (and VirtualMachineInstances) they select,',
    'and writes DIR as an itgen project: generators/, catalogs/ (itgen format), vms/<name>.yaml (each VM',
    'naming its instance type and preference, the fields they now provide removed), and MIGRATION.md.',
    'Every migrated VM is expanded and compared with what KubeVirt builds from it and its presets today;',
    "a difference is an error unless --allow-differences. Namespaced kinds in the presets' namespace, or",
    'cluster-wide ones with --cluster. Exit 0 when written (warnings name what needs a person).',
  ].join('\n'),
  projectless: true,
  inPlace: true,
  options: [
    { flag: '--out', value: 'DIR', help: 'the directory to write the project to (required)' },
    { flag: '--cluster', help: 'cluster-wide instance types and preferences instead of namespaced ones' },
    { flag: '--allow-differences', help: 'write and exit 0 even where a migrated VM would start differently' },
    {
      flag: '--name',
      value: 'NAME',
      help: 'generator and catalog name (default: presets)',
      check: (v) => (SCAFFOLD_NAME.test(v) ? undefined : '--name is lowercase letters, digits and -, like presets'),
    },
    { flag: '--force', help: 'replace files of an earlier migration in DIR' },
  ],
  accept: (line) => {
    if (line.positionals[0] !== 'presets') return 'migrate what? `itgen migrate presets --out DIR FILE|DIR...` is the one migration';
    if (line.positionals.length < 2) return 'migrate presets needs the preset and VM manifests: files, directories, or - for standard input';
    if (optionValue(line, '--out') === undefined) return 'migrate presets needs --out DIR, the directory to write the project to';
    return undefined;
  },
  run({ io, global, root, line }) {
    const out = optionValue(line, '--out')!;
    const outAbs = path.resolve(root, out);
    const shown = relativePath(io.cwd, outAbs) || '.';
    const loaded = loadManifests(root, line.positionals.slice(1), () => (io.stdin ? io.stdin() : ''), io.cwd);
    if (hasErrors(loaded.diagnostics)) {
      report(io, global.format, loaded.diagnostics, root);
      return exitCodeFor(loaded.diagnostics);
    }
    // The migration and its zod models of presets and VMs load with the command, not with the CLI.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { migratePresets } = require('../../migrate') as typeof Migrate;
    const result = migratePresets(loaded.docs, {
      name: optionValue(line, '--name') ?? 'presets',
      cluster: optionSet(line, '--cluster'),
      allowDifferences: optionSet(line, '--allow-differences'),
      outDir: relativePath(root, outAbs),
    });
    const diagnostics = strictify([...loaded.diagnostics, ...result.diagnostics], global.strict);
    if (result.files.length === 0) {
      report(io, global.format, diagnostics, root);
      return exitCodeFor(diagnostics);
    }
    const taken = filesInTheWay(outAbs, result.files, optionSet(line, '--force'));
    if (taken.length > 0) {
      io.err(
        `error: ${shown} already has ${taken.map((f) => f.path).join(', ')}${optionSet(line, '--force') ? ' (or they lead outside it)' : '; --force replaces them'}\nnothing written`,
      );
      return EXIT_USER;
    }
    try {
      writeFilesAtomic(outAbs, result.files);
    } catch (e) {
      const d = writeProblem(out, e);
      report(io, global.format, [d], root);
      return exitCodeFor([d]);
    }
    report(io, global.format, diagnostics, root);
    const migrated = result.vms.filter((v) => v.outcome.status === 'migrated').length;
    io.err(
      `wrote ${result.files.length} files to ${shown}: ${migrated} of ${result.vms.length} VMs migrated; ${shown}/MIGRATION.md says what became what\nnext: itgen -C ${shown} generate`,
    );
    return hasErrors(diagnostics) ? exitCodeFor(diagnostics) : EXIT_OK;
  },
};
