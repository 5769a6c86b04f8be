import path from 'node:path';
import { hasErrors, strictify } from '../diagnostics';
import { filesInTheWay, writeFilesAtomic, writeProblem } from '../emit/write';
import { relativePath } from '../load/files';
import type * as Migrate from '../migrate';
import type { Project } from '../project';
import type { Report } from './report';

export interface MigrateOptions {
  /** Preset and VM manifests: files, directories, `-`. */
  readonly inputs: readonly string[];
  /** The directory to write the project to (relative to the project's cwd). */
  readonly out: string;
  readonly name?: string;
  readonly cluster?: boolean;
  readonly allowDifferences?: boolean;
  /** Replace files of an earlier migration. */
  readonly force?: boolean;
}

export interface MigrateReport extends Report {
  /** Files written; none when refused. */
  readonly written: number;
  /** Files of DIR in the way (without --force). */
  readonly inTheWay: readonly string[];
  readonly migrated: number;
  readonly vms: number;
}

/**
 * `itgen migrate presets`: VirtualMachineInstancePresets and the VMs they select become an itgen
 * project in `out` (catalogs, generator, VMs naming their instance type and preference,
 * MIGRATION.md), every VM proven to start as before, written atomically.
 */
export function migratePresets(project: Project, opts: MigrateOptions): MigrateReport {
  const none = { written: 0, inTheWay: [], migrated: 0, vms: 0, notes: [] };
  const outAbs = path.resolve(project.root, opts.out);
  const loaded = project.manifests(opts.inputs);
  if (hasErrors(loaded.diagnostics)) return { ...none, diagnostics: loaded.diagnostics };
  // The migration and its zod models of presets and VMs load with the command, not with the CLI.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { migratePresets: migrate } = require('../migrate') as typeof Migrate;
  const result = migrate(loaded.docs, {
    name: opts.name ?? 'presets',
    cluster: opts.cluster ?? false,
    allowDifferences: opts.allowDifferences ?? false,
    outDir: relativePath(project.root, outAbs),
  });
  const diagnostics = strictify([...loaded.diagnostics, ...result.diagnostics], project.inputs.strict ?? false);
  if (result.files.length === 0) return { ...none, diagnostics };
  const taken = filesInTheWay(outAbs, result.files, opts.force ?? false);
  if (taken.length > 0) return { ...none, diagnostics, inTheWay: taken.map((f) => f.path) };
  try {
    writeFilesAtomic(outAbs, result.files);
  } catch (e) {
    return { ...none, diagnostics: [writeProblem(opts.out, e)] };
  }
  const migrated = result.vms.filter((v) => v.outcome.status === 'migrated').length;
  return { ...none, written: result.files.length, migrated, vms: result.vms.length, diagnostics };
}

export { SCAFFOLD_NAME } from '../scaffold';
export { relativePath } from '../load/files';
