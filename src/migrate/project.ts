/**
 * The itgen project a migration writes: per namespace (or once, with --cluster) a generator and a
 * catalog in itgen's own format. Every instance type is a family of one size, named literally
 * after the presets it came from; every preference a Preference. Built as objects and serialized
 * by the YAML writer, never templated.
 */
import { obj, type JsonObject } from '../json';
import { GENERATOR_API_VERSION, GENERATOR_KIND } from '../schema/names';
import { toYaml } from '../emit/serialize';
import type { OutputFile } from '../emit/layout';
import { copy } from '../kubevirt/go';
import { formatBinary, formatQuantity, parseQuantity, quantityFormat } from '../quantity';

export interface MigratedObject {
  readonly name: string;
  readonly spec: JsonObject;
  /** Presets it was made from. */
  readonly from: readonly string[];
}

export interface ProjectGroup {
  /** Generator and catalog name. */
  readonly name: string;
  /** metadata.namespace of the namespaced objects; none with --cluster or when the presets named none. */
  readonly namespace?: string | undefined;
  readonly cluster: boolean;
  readonly instancetypes: readonly MigratedObject[];
  readonly preferences: readonly MigratedObject[];
}

const SCHEMA = (kind: 'catalog' | 'generator', depth: number): string =>
  `# yaml-language-server: $schema=${'../'.repeat(depth)}node_modules/itgen/schema/${kind}.schema.json\n`;

function stream(docs: readonly JsonObject[]): string {
  return docs.map((d) => toYaml(d)).join('---\n');
}

/** A family name (letters and digits, a letter first, at most 32) unique among `taken`. */
function familyName(objectName: string, taken: Set<string>): string {
  const base = `p${objectName.replace(/[^a-z0-9]/g, '')}`.slice(0, 28);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}

function presetList(from: readonly string[]): string {
  return from.length === 1 ? `VirtualMachineInstancePreset ${from[0]}` : `VirtualMachineInstancePresets ${from.join(', ')}`;
}

function familyDoc(it: MigratedObject, family: string, ladder: string, sizeName: string): JsonObject {
  const spec = copy(it.spec);
  const cpu = obj(spec['cpu'])!;
  const memory = obj(spec['memory'])!;
  const vcpus = cpu['guest'] as number;
  const guest = memory['guest'] as string | number;
  const bytes = parseQuantity(guest)!;
  delete cpu['guest'];
  delete memory['guest'];
  for (const k of ['cpu', 'memory']) if (Object.keys(obj(spec[k]) ?? {}).length === 0) delete spec[k];
  // The ratio reads naturally when it divides evenly; otherwise the size states its memory.
  const even = bytes % vcpus === 0;
  const perCpu = even ? formatQuantity(bytes / vcpus, quantityFormat(guest)) : formatBinary(bytes);
  const doc: JsonObject = {
    kind: 'Family',
    name: family,
    naming: it.name,
    displayName: it.name,
    description: `Migrated from ${presetList(it.from)}.`,
    class: 'migrated',
    memoryPerCPU: perCpu,
    ladder,
    sizes: [sizeName],
  };
  if (!even) doc['overrides'] = { [sizeName]: { memory: typeof guest === 'number' ? String(guest) : guest } };
  if (Object.keys(spec).length > 0) doc['spec'] = spec;
  return doc;
}

function catalogFiles(group: ProjectGroup): OutputFile[] {
  const dir = `catalogs/${group.name}`;
  const files: OutputFile[] = [];
  const catalog: JsonObject = {
    kind: 'Catalog',
    name: group.name,
    description: `Instance types and preferences migrated from VirtualMachineInstancePresets by \`itgen migrate presets\` (MIGRATION.md says what came from where).`,
  };
  files.push({ path: `${dir}/catalog.yaml`, content: `${SCHEMA('catalog', 2)}${stream([catalog])}` });
  if (group.instancetypes.length > 0) {
    const vcpus = [...new Set(group.instancetypes.map((it) => obj(it.spec['cpu'])!['guest'] as number))].sort((a, b) => a - b);
    const ladder: JsonObject = { kind: 'SizeLadder', name: 'vcpus', sizes: vcpus.map((n) => ({ name: `cpu${n}`, cpu: n })) };
    const taken = new Set<string>();
    const families = group.instancetypes.map((it) => familyDoc(it, familyName(it.name, taken), 'vcpus', `cpu${obj(it.spec['cpu'])!['guest'] as number}`));
    files.push({
      path: `${dir}/instancetypes.yaml`,
      content: `${SCHEMA('catalog', 2)}# One family of one size per instance type: the vCPU count comes from the size, guest memory from\n# memoryPerCPU (or the size's override), the rest from the family's spec.\n${stream([ladder, ...families])}`,
    });
  }
  if (group.preferences.length > 0) {
    const prefs = group.preferences.map((p): JsonObject => ({ kind: 'Preference', name: p.name, displayName: p.name, spec: copy(p.spec) }));
    files.push({
      path: `${dir}/preferences.yaml`,
      content: `${SCHEMA('catalog', 2)}# One preference per combination of presets, as migrated.\n${stream(prefs)}`,
    });
  }
  return files;
}

function generatorFile(group: ProjectGroup): OutputFile {
  const gen: JsonObject = {
    apiVersion: GENERATOR_API_VERSION,
    kind: GENERATOR_KIND,
    metadata: { name: group.name },
    catalog: `../catalogs/${group.name}`,
    output: `../output/${group.name}`,
    scopes: [group.cluster ? 'cluster' : 'namespaced'],
  };
  if (group.namespace !== undefined) gen['namespace'] = group.namespace;
  const empty = [...(group.instancetypes.length === 0 ? ['instancetypes'] : []), ...(group.preferences.length === 0 ? ['preferences'] : [])];
  if (empty.length > 0) gen['allowEmpty'] = empty;
  // A spread topology reproduces one VM's sockets x cores x threads; other sizes of the catalog
  // may not divide by it, which is fine: each VM names the pair it was migrated to.
  const spread = group.preferences.some((p) => obj(p.spec['cpu'])?.['preferredCPUTopology'] === 'spread');
  if (spread) gen['suppressWarnings'] = ['IT5005'];
  const why = group.cluster
    ? '# Cluster-wide kinds (--cluster): every namespace can use them.\n'
    : `# Namespaced kinds, in the namespace the presets were in${group.namespace === undefined ? ' (they named none: the namespace the base is applied to)' : ''}.\n`;
  return {
    path: `generators/${group.name}.yaml`,
    content: `${SCHEMA('generator', 1)}# Written by \`itgen migrate presets\`. Run \`itgen generate\`, then commit generators/, catalogs/ and output/.\n${why}${toYaml(gen)}`,
  };
}

/** Every file of the project but the VMs and MIGRATION.md. */
export function projectFiles(groups: readonly ProjectGroup[]): OutputFile[] {
  const files = groups.flatMap((g) => [generatorFile(g), ...catalogFiles(g)]);
  const kustomization: JsonObject = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: groups.map((g) => `output/${g.name}`) };
  files.push({
    path: 'kustomization.yaml',
    content: `# What a GitOps tool syncs: the generated bases (itgen generate writes them).\n${toYaml(kustomization)}`,
  });
  return files;
}
