/**
 * `migrate presets`: VirtualMachineInstancePresets and the VMs they select, turned into an itgen
 * project (instance types and preferences) and VMs that name them, with a proof per VM: the VMI
 * spec KubeVirt builds from the rewritten VM (src/expand, against the objects the written catalog
 * compiles to) compared with the one it builds today from the old VM and its presets. The plan is
 * plan.ts, the proof proof.ts, what they share types.ts; this file puts them in order.
 */
import { list, obj } from '../json';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics';
import type { OutputFile } from '../emit/layout';

import type { SourceDoc } from '../load/source';
import { nameOf, namespaceOf, readInputs } from './inputs';
import { at, planMigration } from './plan';
import { projectFiles } from './project';
import { EXCLUDE_ANNOTATION } from './presets';
import { compileWritten, proveMigration } from './proof';
import { migrationReport } from './report';
import type { MigrateOptions, Migration } from './types';

export { EXCLUDE_ANNOTATION, mergeConflicts, mergeDomain, presetConflicts, selects, type Preset } from './presets';
export { goQuantityIdentity, semanticEqual } from './go-values';
export { topologyFor, overcommitFor } from './mapping';

export type { MigrateOptions, Migration, VmOutcome, VmRecord } from './types';

/**
 * The migration of `docs` (presets, VMs, VMIs): the plan, the project it writes, the proof of every
 * migrated VM against that project compiled in memory, the standalone VMIs presets still select
 * (IT8207), and MIGRATION.md. Any error but a proven difference (IT8206) writes nothing.
 */
export function migratePresets(docs: readonly SourceDoc[], options: MigrateOptions): Migration {
  const inputs = readInputs(docs);
  const diagnostics: Diagnostic[] = [...inputs.diagnostics];
  if (hasErrors(diagnostics)) return { files: [], vms: [], presets: inputs.presets, vmis: [], diagnostics: sortDiagnostics(diagnostics) };
  const { planned, groups: projectGroups, matching } = planMigration(inputs, options, diagnostics);
  const files: OutputFile[] = projectFiles(projectGroups);
  const compiled = compileWritten(files, projectGroups, options.outDir);
  diagnostics.push(...compiled.diagnostics);
  const vms = proveMigration(planned, compiled.store, inputs, options, files, diagnostics);
  // A VMI a VirtualMachine owns is created anew from the migrated VM at its next start.
  const standalone = inputs.vmis.filter((v) => !list(obj(v.value['metadata'])?.['ownerReferences']).some((o) => o['kind'] === 'VirtualMachine'));
  for (const vmi of standalone) {
    const ns = namespaceOf(vmi);
    const presets = obj(obj(vmi.value['metadata'])?.['annotations'])?.[EXCLUDE_ANNOTATION] === 'true' ? [] : matching(ns, obj(vmi.value['metadata']));
    if (presets.length > 0) {
      diagnostics.push(
        diag(
          'IT8207',
          `VirtualMachineInstance \`${nameOf(vmi)}\` is selected by ${presets.map((p) => `\`${p.name}\``).join(', ')}; a VMI cannot name an instance type`,
          at(vmi, ['metadata', 'name']),
          {
            severity: 'warning',
            hint: 'it keeps what the presets gave it while it runs; create it anew from a VirtualMachine that names the migrated instance type and preference',
          },
        ),
      );
    }
  }
  const vmis = standalone.map((v) => ({
    name: nameOf(v),
    namespace: namespaceOf(v),
    presets: matching(namespaceOf(v), obj(v.value['metadata'])).map((p) => p.name),
  }));
  const sorted = sortDiagnostics(diagnostics);
  // IT8206 alone still writes the project, for review; any other error writes nothing.
  if (hasErrors(sorted.filter((d) => d.code !== 'IT8206'))) return { files: [], vms, presets: inputs.presets, vmis, diagnostics: sorted };
  files.push({ path: 'MIGRATION.md', content: migrationReport({ vms, presets: inputs.presets, vmis, groups: projectGroups, options }) });
  return { files, vms, presets: inputs.presets, vmis, diagnostics: sorted };
}
