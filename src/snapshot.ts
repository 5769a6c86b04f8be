/**
 * Entry of the V8 startup snapshot (tools/build-snapshot.mjs bundles this file and runs
 * `node --build-snapshot` on it). Loading the compiler's modules and compiling its hot paths
 * are most of a cold run; the snapshot holds a heap where both are done. A warm-up compiles a
 * small in-memory catalog through every stage, then runs the commands CI runs most (generate twice,
 * validate, check) on a scratch project it writes to the temporary directory and removes, so that
 * V8 has compiled the file-reading and output paths too (a function not compiled costs a parse and
 * a compile on its first call: about 15 ms of one generate). The heap keeps no reference to that
 * project: the commands get their own discarding Io, the directory is removed before node writes the
 * snapshot, and the only process-wide memos are keyed by catalog text (templates, quoted scalars,
 * quantities, plain keys). V8 may still carry a few dead strings naming the temporary path, which
 * tell nothing but where the installing machine keeps its temporary files. The warm-up needs neither
 * zod nor Handlebars (a sound catalog of plain text), and the build fails if either was loaded.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startupSnapshot } from 'node:v8';
import { formatGithub, formatJson, formatText } from './format';
import { main, run } from './cli/main';
import { parseCommandLine } from './cli/parse';
import { COMMANDS } from './cli/commands';
import { parseSource } from './load/source';
import { compileDocuments, generatorFromDocument } from './pipeline';
import { explainObject } from './render/explain';
import { compileModel } from './schema/fast';
import { strictLoaded } from './schema/lazy';
import { keepCachesIn } from './load/judged-cache';

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
description: "{{family}} {{size}}: {{cpu}} vCPU, {{memory}}"
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
spec: {devices: {preferredDiskBus: virtio}}
`;

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
  // The fast parser compiles a schema on first use: every one now.
  compileModel();
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

/**
 * The warm-up catalog as files of a scratch project, and the commands a CI job runs on it. Failures
 * are ignored: the warm-up only compiles code, and a snapshot without it is merely slower.
 */
function warmUpProject(): void {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(path.join(tmpdir(), 'itgen-snapshot-'));
    const catalog = path.join(dir, 'catalogs', 'warm-up');
    mkdirSync(catalog, { recursive: true });
    mkdirSync(path.join(dir, 'generators'));
    writeFileSync(path.join(dir, 'generators', 'warm-up.yaml'), WARM_UP_GENERATOR);
    const docs = WARM_UP_CATALOG.split('\n---\n');
    writeFileSync(path.join(catalog, 'catalog.yaml'), docs.slice(0, 3).join('\n---\n'));
    writeFileSync(path.join(catalog, 'families.yaml'), docs[3]!);
    writeFileSync(path.join(catalog, 'preferences.yaml'), `${docs.slice(4, -1).join('\n---\n')}\n`);
    const io = { out: () => undefined, err: () => undefined, cwd: dir, color: false, terminal: false, stdin: () => '' };
    // Caches in the scratch project, not the user's (a file for a directory about to go): the judge's
    // answers, and the checks' kept results, which the second generate and the validates take
    // (load/check-cache.ts), so that replaying a log is compiled too.
    keepCachesIn({ dir: path.join(dir, '.cache'), build: 'warm-up' });
    for (const argv of [['generate'], ['generate'], ['validate'], ['check'], ['validate', '--format', 'json']]) run(['-C', dir, ...argv], io);
  } catch {
    /* a snapshot without this warm-up is slower, nothing else */
  } finally {
    keepCachesIn(undefined);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** Called by the bundle's entry while node builds the snapshot: warm up, then name the main function. */
export function prepareSnapshot(): void {
  if (!process.env['ITGEN_SNAPSHOT_COLD']) {
    warmUp();
    warmUpProject();
  }
  // Neither the warm-up nor module loading may bring zod or Handlebars in: they would sit in every
  // start's heap, and Handlebars makes Node 22's snapshot builder abort. tools/bundle.mjs marks
  // their entries; schema/lazy.ts counts its own door.
  const loaded = (name: string): boolean => (globalThis as Record<symbol, unknown>)[Symbol.for(`itgen.loaded.${name}`)] === true;
  for (const name of ['zod', 'handlebars']) {
    if (loaded(name) || (name === 'zod' && strictLoaded())) {
      throw new Error(`${name} was loaded while building the startup snapshot: something on the path of a sound catalog needs it`);
    }
  }
  startupSnapshot.setDeserializeMainFunction(() => main(process.argv.slice(1)));
}
