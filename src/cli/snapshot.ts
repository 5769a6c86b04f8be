/**
 * Entry of the V8 startup snapshot (tools/build-snapshot.mjs bundles this file and runs
 * `node --build-snapshot` on it). Loading the compiler's modules and compiling its hot paths
 * are most of a cold run; the snapshot holds a heap where both are done. A warm-up compiles a
 * small in-memory catalog through every stage, so that V8 has compiled those functions; it
 * touches no file, so no state about the machine ends up in the snapshot.
 */
import { startupSnapshot } from 'node:v8';
import { formatGithub, formatJson, formatText } from './format';
import { main } from './main';
import { parseCommandLine } from './args';
import { COMMANDS } from './commands';
import { parseSource } from '../load/source';
import { compileDocuments, generatorFromDocument } from '../pipeline';
import { explainObject } from '../render/explain';
import { z } from 'zod';
import { CATALOG_KINDS } from '../schema/catalog';
import { generatorSchema } from '../schema/generator';
import { lockSchema } from '../schema/lock';
import { MANIFEST_KINDS, manifestSchemaFor } from '../schema/manifest';
import { children } from '../schema/walk';

const WARM_UP_GENERATOR = `apiVersion: itgen.dev/v1alpha1
kind: Generator
metadata:
  name: warm-up
catalog: ../catalogs/warm-up
output: ../output/warm-up
vendor: kubevirt.io
`;

const WARM_UP_CATALOG = `kind: Catalog
name: warm-up
naming: {instancetype: "{family}{version}.{size}", preference: "{name}"}
---
kind: SizeLadder
name: ladder
sizes: [{name: small, cpu: 1}, {name: large, cpu: 2}]
---
kind: InstancetypeFragment
name: dedicated
spec: {cpu: {dedicatedCPUPlacement: true, isolateEmulatorThread: true}}
---
kind: Family
name: w
version: 1
displayName: Warm
description: "{{family}} {{size}}{{#if variant}} ({{variant}}){{/if}}: {{cpu}} vCPU, {{memory}}"
class: warm
memoryPerCPU: 2Gi
include: [dedicated]
spec: {memory: {hugepages: {pageSize: 2Mi}}}
variants: [{name: 1gi, spec: {memory: {hugepages: {pageSize: 1Gi}}}}]
---
kind: PreferenceFragment
name: efi
spec: {firmware: {preferredEfi: {secureBoot: true}}, features: {preferredSmm: {}}}
---
kind: Preference
name: base
abstract: true
spec: {annotations: {vm.kubevirt.io/os: linux}, devices: {preferredDiskBus: virtio, preferredRng: {}}}
---
kind: Preference
name: os
inherits: base
displayName: OS
architectures: [amd64, arm64]
architectureOverrides: {amd64: {include: [efi]}}
spec: {requirements: {cpu: {guest: 1}, memory: {guest: 1Gi}}, cpu: {preferredCPUTopology: spread}}
---
kind: Preference
name: broken
inherits: [base, missing]
displayName: Broken
spec: {devices: {preferredDiskBuss: virtio}}
`;

/**
 * zod prepares an object schema (normalizes its shape, generates its fast path) the first time it
 * parses an object. The sample catalog reaches only part of the KubeVirt model, so parse an empty
 * object with every object schema once, so that all of them are ready in the snapshot.
 */
function warmSchemas(schema: z.ZodType, seen = new Set<z.ZodType>()): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  if (schema instanceof z.ZodObject) schema.safeParse({});
  for (const c of children(schema)) warmSchemas(c, seen);
}

/** Block-style YAML as catalogs are usually written: comments, block maps and sequences,
 * literal block scalars, quoted strings. Parsed only to compile the parser's paths for them. */
const WARM_UP_BLOCK_YAML = `# a comment
kind: Family
name: b
version: 1
displayName: "Block {{size}}"
description: |-
  A description over
  several lines.

  With a blank line.
class: block
memoryPerCPU: 4Gi
sizes:
  - small
  - large
overrides:
  small:
    memory: 1Gi
spec:
  cpu:
    dedicatedCPUPlacement: true
  annotations:
    'cpu-quota.crio.io': disable
---
kind: Preference
name: blocky
displayName: Blocky
spec:
  requirements:
    cpu:
      guest: 1
    memory:
      guest: 1.5Gi
  devices:
    preferredDiskBus: virtio
...
`;

function warmUp(): void {
  parseSource('catalogs/warm-up/block.yaml', Buffer.from(WARM_UP_BLOCK_YAML));
  // The fast reader declines a document that is a flow mapping: this warms the library's path,
  // which reads such files and reports every YAML error.
  parseSource('catalogs/warm-up/flow.yaml', Buffer.from('{kind: Catalog, name: flow, anchors: &a [x], alias: *a}\n'));
  for (const s of [...Object.values(CATALOG_KINDS), generatorSchema, lockSchema, ...MANIFEST_KINDS.map((k) => manifestSchemaFor(k))])
    warmSchemas(s as z.ZodType);
  const gen = generatorFromDocument('/warm-up', 'generators/warm-up.yaml', parseSource('generators/warm-up.yaml', Buffer.from(WARM_UP_GENERATOR)).docs[0]!);
  if (!gen.generator) return;
  const docs = parseSource('catalogs/warm-up/catalog.yaml', Buffer.from(WARM_UP_CATALOG)).docs;
  const good = compileDocuments(
    gen.generator,
    docs.filter((d) => (d.value as { name?: string }).name !== 'broken'),
  );
  const bad = compileDocuments(gen.generator, docs);
  const first = good.objects[0];
  if (first) explainObject(first);
  formatText(bad.diagnostics, () => undefined);
  formatJson(bad.diagnostics);
  formatGithub(bad.diagnostics);
  parseCommandLine(['generate', '-g', 'generators/x.yaml', '--format', 'json'], COMMANDS);
}

/** Called by the bundle's entry while node builds the snapshot: warm up, then name the main function. */
export function prepareSnapshot(): void {
  if (!process.env['ITGEN_SNAPSHOT_COLD']) warmUp();
  startupSnapshot.setDeserializeMainFunction(() => main(process.argv.slice(1)));
}
