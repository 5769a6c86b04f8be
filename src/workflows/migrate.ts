import path from 'node:path';
import { hasErrors, strictify } from '../diagnostics';
import { filesInTheWay, writeFilesAtomic, writeProblem } from '../emit/write';
import { relativePath } from '../load/files';
import type * as Migrate from '../migrate';
import type { Project } from '../project';
import type { Report } from './report';
import { migrateTemplates, type MigratedTemplate, type Minimums } from '../migrate/templates';
import { kubeObject, type Json, type KubeObjectJson } from '../json';
import { mappingToYaml, serializeStream } from '../emit/serialize';

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

export interface MigrateTemplatesReport extends Report {
  readonly migrated: readonly MigratedTemplate[];
}

/**
 * `itgen migrate templates`: OpenShift Templates (common-templates') as VirtualMachineTemplates that
 * name the instance types and preferences of the project's and `--with` catalogs (src/migrate/templates.ts).
 */
export function migrateOpenShiftTemplates(project: Project, files: readonly string[]): MigrateTemplatesReport {
  const input = project.manifests(files);
  const catalogs = project.catalogs('besides');
  const problems = [...catalogs.diagnostics, ...input.diagnostics];
  if (catalogs.blocking || hasErrors(input.diagnostics)) return { migrated: [], diagnostics: problems, notes: [] };
  const cr = project.kubevirt();
  const config = project.config();
  const r = migrateTemplates(input.docs, {
    store: catalogs.store,
    judging: { configs: project.configs(), defaultsOnly: !cr.config },
    config,
  });
  return { migrated: r.migrated, diagnostics: [...problems, ...cr.diagnostics, ...r.diagnostics], notes: [] };
}

/** `migrate templates -o json`: per template, the pair it names, the minimums it kept, and where its VMI differs (null: absent). */
export type MigrateTemplatesJson = readonly {
  readonly name: string;
  readonly file: string;
  readonly preference: string | null;
  readonly instancetype: string | null;
  readonly minimums: Minimums;
  readonly differences: readonly { readonly field: string; readonly before: Json; readonly after: Json }[];
  /** The VirtualMachineTemplate, or null when the template could not be migrated. */
  readonly template: KubeObjectJson | null;
}[];

/** The migrated templates as a YAML stream (or JSON with each template's mapping and differences). */
export function migratedTemplatesText(r: MigrateTemplatesReport, output: 'yaml' | 'json'): string | undefined {
  if (output === 'json') {
    const doc: MigrateTemplatesJson = r.migrated.map((m) => ({
      name: m.name,
      file: m.file,
      preference: m.preference ?? null,
      instancetype: m.instancetype ?? null,
      minimums: m.minimums,
      differences: m.differences.map((d) => ({ field: `spec.${d.field}`, before: d.before ?? null, after: d.after ?? null })),
      template: m.template ? kubeObject(m.template) : null,
    }));
    return JSON.stringify(doc, null, 2);
  }
  const made = r.migrated.filter((m) => m.template);
  if (made.length === 0) return undefined;
  return serializeStream(
    made.map(
      (m) =>
        `# ${m.name}: ${m.preference} with ${m.instancetype}; ${m.differences.length === 0 ? 'the VMI it starts is the same' : `the VMI it starts differs at ${m.differences.length} field(s)`}\n${mappingToYaml(m.template!)}`,
    ),
  );
}
