/**
 * The proof of `migrate presets`: each migrated VM is expanded against the objects its written
 * catalog compiles to (as `itgen generate` would compile it, in memory) and the VMI spec KubeVirt
 * would build from it compared with the one it builds today from the old VM and its presets; every
 * difference is IT8206, every value the project cannot carry IT8205.
 */
import { obj, type JsonObject } from '../json';
import { diag, type Diagnostic } from '../diagnostics';
import type { OutputFile } from '../emit/layout';
import { expand, objectStore, resolveReferences, type ObjectStore } from '../expand';
import type { FoundObject } from '../expand/documents';
import { copy } from '../kubevirt/go';
import { parseSource, type SourceDoc } from '../load/source';
import { compileDocuments, type LoadedGenerator } from '../pipeline';
import { strict } from '../schema/lazy';
import { KINDS_OF } from '../schema/kubevirt-api';
import { compareSpecs, type Difference } from './compare';
import { nameOf, type Inputs } from './inputs';
import { applyPlanToSpec } from './mapping';
import { at, presetEraSpec, templateOf } from './plan';
import type { ProjectGroup } from './project';
import { rewriteVmText } from './vm-file';
import type { MigrateOptions, PlannedVm, VmOutcome, VmRecord } from './types';

function vmFileName(name: string, namespace: string, all: readonly FoundObject[]): string {
  const twice = all.filter((v) => nameOf(v) === name).length > 1;
  return twice ? `vms/${namespace}/${name}.yaml` : `vms/${name}.yaml`;
}

/** The written project compiled as `itgen generate` would, in memory; its objects for the proof. */
export function compileWritten(
  files: readonly OutputFile[],
  groups: readonly ProjectGroup[],
  outDir: string,
): { store: ObjectStore; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const objects: JsonObject[] = [];
  for (const g of groups) {
    const parse = (f: OutputFile): SourceDoc[] => parseSource(f.path, Buffer.from(f.content)).docs;
    const genFile = files.find((f) => f.path === `generators/${g.name}.yaml`)!;
    const genDoc = parse(genFile)[0]!;
    const generator: LoadedGenerator = {
      name: g.name,
      file: genFile.path,
      config: strict().generatorSchema.parse(genDoc.value),
      src: genDoc,
      catalogDir: `catalogs/${g.name}`,
      outputDir: `output/${g.name}`,
    };
    const docs = files.filter((f) => f.path.startsWith(`catalogs/${g.name}/`)).flatMap(parse);
    const result = compileDocuments(generator, docs);
    const shown = result.diagnostics.map((d) => (d.location ? { ...d, location: { ...d.location, file: `${outDir}/${d.location.file}` } } : d));
    // The catalog's form is ours: a schema or resolution error in it is a bug of the migration.
    // KubeVirt's rules (IT3xxx-IT6xxx) judge values the presets and VMs gave: the input's problem.
    const ours = (d: Diagnostic): boolean => /^IT[12]/.test(d.code);
    diagnostics.push(
      ...shown.map((d) =>
        d.severity !== 'error'
          ? d
          : ours(d)
            ? { ...d, code: 'IT9001' as const, message: `the migrated catalog does not compile: ${d.message}` }
            : { ...d, message: `${d.message} (a value the presets or VMs give; KubeVirt would refuse it too)` },
      ),
    );
    objects.push(...result.objects.map((o) => o.manifest as unknown as JsonObject));
  }
  return { store: objectStore(objects), diagnostics };
}

/**
 * Each planned VM's record: migrated (its file written into `files`, its differences proven against
 * `store`), or as the plan left it. Diagnostics go to `diagnostics`.
 */
export function proveMigration(
  planned: readonly PlannedVm[],
  store: ObjectStore,
  inputs: Inputs,
  options: MigrateOptions,
  files: OutputFile[],
  diagnostics: Diagnostic[],
): VmRecord[] {
  const scope = options.cluster ? 'cluster' : 'namespaced';
  const kinds = { instancetype: KINDS_OF.instancetype[scope], preference: KINDS_OF.preference[scope] };
  return planned.map((rec): VmRecord => {
    const record = (outcome: VmOutcome): VmRecord => ({
      found: rec.found,
      name: rec.name,
      namespace: rec.namespace,
      presets: rec.presets.map((p) => p.name),
      warnings: rec.warnings,
      supplied: rec.supplied,
      outcome,
    });
    if (rec.outcome || !rec.plan || !rec.before) return record(rec.outcome!);
    const { plan, names } = rec;
    const matchers = {
      instancetype: names?.instancetype !== undefined ? { kind: kinds.instancetype, name: names.instancetype } : undefined,
      preference: names?.preference !== undefined ? { kind: kinds.preference, name: names.preference } : undefined,
    };
    const vm = copy(rec.found.value);
    const vmSpec = obj(vm['spec'])!;
    const template = obj(vmSpec['template'])!;
    template['spec'] = applyPlanToSpec(templateOf(rec.found.value).spec, plan);
    if (matchers.instancetype) vmSpec['instancetype'] = { ...matchers.instancetype };
    if (matchers.preference) vmSpec['preference'] = { ...matchers.preference };
    vm['metadata'] = { ...obj(vm['metadata']), namespace: rec.namespace };
    let differences: Difference[];
    if (!matchers.instancetype && !matchers.preference) {
      // Nothing to expand (expand-spec returns such a VM as it is): what KubeVirt builds from it.
      differences = compareSpecs(rec.before, presetEraSpec(obj(template['spec'])!, []));
    } else {
      const resolved = resolveReferences(vm, store);
      const expanded = resolved.errors.length === 0 ? expand(vm, resolved.references) : undefined;
      if (!expanded || 'error' in expanded) {
        const why = !expanded ? resolved.errors.map((e) => e.message).join('; ') : expanded.error;
        diagnostics.push(diag('IT9001', `VirtualMachine \`${rec.name}\`: the migrated VM does not expand: ${why}`, at(rec.found, ['metadata', 'name'])));
        differences = [];
      } else differences = compareSpecs(rec.before, templateOf(expanded.vm).spec);
    }
    const file = vmFileName(rec.name, rec.namespace, inputs.vms);
    files.push({ path: file, content: rewriteVmText(rec.found, plan, matchers) });
    const outcome: VmOutcome = { status: 'migrated', plan, instancetype: names?.instancetype, preference: names?.preference, file, differences };
    for (const n of plan.notCarried) {
      const source = n.preset !== undefined ? inputs.presets.find((p) => p.preset.name === n.preset && p.preset.namespace === rec.namespace) : undefined;
      const where = source
        ? at(source.at, ['spec', 'domain', ...n.field.split('.').slice(1)])
        : at(rec.found, ['spec', 'template', 'spec', ...n.field.split('.')]);
      diagnostics.push(
        diag(
          'IT8205',
          `VirtualMachine \`${rec.name}\`: ${n.field} ${JSON.stringify(n.value)}${n.preset !== undefined ? ` (from preset \`${n.preset}\`)` : ''} is not carried: ${n.why}`,
          where,
          { severity: 'warning' },
        ),
      );
    }
    for (const d of differences) {
      diagnostics.push(
        diag(
          'IT8206',
          `VirtualMachine \`${rec.name}\` would start differently: ${d.field} is ${JSON.stringify(d.before ?? null)} with presets, ${JSON.stringify(d.after ?? null)} migrated`,
          at(rec.found, ['metadata', 'name']),
          {
            severity: options.allowDifferences ? 'warning' : 'error',
            hint: options.allowDifferences
              ? 'accepted with --allow-differences; MIGRATION.md lists it'
              : 'review MIGRATION.md; --allow-differences accepts the differences and exits 0',
          },
        ),
      );
    }
    return record(outcome);
  });
}
