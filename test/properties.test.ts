/**
 * Property tests for the compiler's promises: byte-identical output whatever the order the files
 * and documents arrive in; the matrix has exactly the expected objects; names are unique; and what
 * is emitted parses back to the rendered objects.
 */
import path from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { loadCatalogFiles } from '../src/load/files';
import { parseSource, type SourceDoc } from '../src/load/source';
import { compileDocuments, loadGenerator } from '../src/pipeline';
import { REPO } from './helpers';
import type { JsonObject } from '../src/json';
import { instancetypePairingKey, preferencePairingKey } from '../src/kubevirt/pairing';
import { pairOutcome } from '../src/matrix';

const defaultGenerator = loadGenerator(REPO, 'generators/default.yaml').generator!;
/** Synthetic catalogs may hold only families: this generator accepts an empty preference base. */
const generator = { ...defaultGenerator, config: { ...defaultGenerator.config, allowEmpty: ['preferences' as const] } };
const defaultDocs = loadCatalogFiles(REPO, 'catalogs/default').docs;

function shuffled<T>(items: readonly T[], order: readonly number[]): T[] {
  return items
    .map((item, i) => ({ item, key: order[i % order.length]! * 1000 + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);
}

describe('determinism', () => {
  const reference = compileDocuments(generator, defaultDocs).files;

  it('output is identical when compiled twice', () => {
    expect(compileDocuments(generator, defaultDocs).files).toEqual(reference);
  });

  it('output is identical for any order of documents', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { minLength: 1, maxLength: defaultDocs.length }), (order) => {
        expect(compileDocuments(generator, shuffled(defaultDocs, order)).files).toEqual(reference);
      }),
      { numRuns: 50 },
    );
  });

  it('output is identical however documents are split into files and named', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(5), { minLength: defaultDocs.length, maxLength: defaultDocs.length }), fc.nat(1000), (bins, seed) => {
        // Redistribute the same documents over up to six files with arbitrary names.
        const files = new Map<number, string[]>();
        defaultDocs.forEach((d, i) => {
          const b = bins[i]!;
          files.set(b, [...(files.get(b) ?? []), d.doc.toString()]);
        });
        const docs: SourceDoc[] = [];
        for (const [b, texts] of files) docs.push(...parseSource(`catalogs/x/f${(b * 7919 + seed) % 97}-${b}.yaml`, Buffer.from(texts.join('---\n'))).docs);
        const out = compileDocuments(generator, docs);
        expect(out.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(out.files).toEqual(reference);
      }),
      { numRuns: 30 },
    );
  });
});

/** A random but valid catalog: one ladder, several families with subsets of sizes and variants. */
const catalogArb = fc
  .record({
    ladder: fc.uniqueArray(fc.stringMatching(/^[a-z]{2,6}$/), { minLength: 1, maxLength: 6 }),
    families: fc.uniqueArray(
      fc.record({
        name: fc.stringMatching(/^[a-z]{1,3}$/),
        ratio: fc.constantFrom('1Gi', '2Gi', '4Gi', '8Gi'),
        take: fc.nat(5),
        variants: fc.uniqueArray(fc.stringMatching(/^v[0-9]$/), { maxLength: 2 }),
      }),
      { minLength: 1, maxLength: 5, selector: (f) => f.name },
    ),
  })
  .map((c) => ({
    ...c,
    families: c.families.map((f) => ({ ...f, sizes: c.ladder.slice(0, Math.max(1, Math.min(c.ladder.length, f.take + 1))) })),
  }));

type RandomCatalog = typeof catalogArb extends fc.Arbitrary<infer T> ? T : never;

function catalogText(c: RandomCatalog): string {
  const ladder = c.ladder.map((s, i) => `  - {name: ${s}, cpu: ${2 ** i}}`).join('\n');
  const fams = c.families
    .map(
      (f) => `kind: Family
name: ${f.name}
displayName: F ${f.name}
description: family ${f.name}
class: c${f.name}
memoryPerCPU: ${f.ratio}
sizes: [${f.sizes.join(', ')}]
${f.variants.length > 0 ? `variants:\n${f.variants.map((v) => `  - name: ${v}\n    spec: {memory: {hugepages: {pageSize: 2Mi}}}`).join('\n')}` : ''}`,
    )
    .join('\n---\n');
  return `kind: Catalog\nname: prop\nnaming: {instancetype: "{family}.{size}"}\n---\nkind: SizeLadder\nname: l\nsizes:\n${ladder}\n---\n${fams}\n`;
}

describe('matrix expansion', () => {
  it('emits one instance type per family x offered size x (1 + variants), with unique names, in both scopes', () => {
    fc.assert(
      fc.property(catalogArb, (c) => {
        const docs = parseSource('catalogs/prop/c.yaml', Buffer.from(catalogText(c))).docs;
        const out = compileDocuments(generator, docs);
        const errors = out.diagnostics.filter((d) => d.severity === 'error');
        // Family names may collide with sizes to produce duplicate names; the compiler must say so.
        const expected = c.families.reduce((n, f) => n + f.sizes.length * (1 + f.variants.length), 0);
        if (errors.length > 0) {
          expect(errors.every((e) => e.code === 'IT2006')).toBe(true);
          return;
        }
        expect(out.catalog!.instancetypes).toHaveLength(expected);
        const cluster = out.objects.filter((o) => o.manifest.kind === 'VirtualMachineClusterInstancetype').map((o) => o.manifest.metadata.name);
        const namespaced = out.objects.filter((o) => o.manifest.kind === 'VirtualMachineInstancetype').map((o) => o.manifest.metadata.name);
        expect(cluster).toHaveLength(expected);
        expect(new Set(cluster).size).toBe(expected);
        expect(namespaced).toEqual(cluster);
      }),
      { numRuns: 100 },
    );
  });
});

describe('round trip', () => {
  it('parse(emit(objects)) equals the rendered objects', () => {
    const out = compileDocuments(generator, defaultDocs);
    const emitted = out.files
      .filter((f) => !f.path.endsWith('kustomization.yaml') && f.path.endsWith('.yaml'))
      .flatMap((f) => parseAllDocuments(f.content).map((d) => d.toJS() as unknown));
    const rendered = out.objects.map((o) => JSON.parse(JSON.stringify(o.manifest)) as unknown);
    const key = (m: unknown): string => `${(m as { kind: string }).kind}/${(m as { metadata: { name: string } }).metadata.name}`;
    expect(new Map(emitted.map((m) => [key(m), m]))).toEqual(new Map(rendered.map((m) => [key(m), m])));
    expect(emitted).toHaveLength(rendered.length);
  });
});

describe('path handling', () => {
  it('diagnostic paths are project-relative', () => {
    const out = compileDocuments(generator, parseSource('catalogs/x/a.yaml', Buffer.from('kind: Nope\n')).docs);
    for (const d of out.diagnostics) if (d.location) expect(path.isAbsolute(d.location.file)).toBe(false);
  });
});

describe('the pairing key (kubevirt/pairing.ts): a change outside it changes no pair outcome', () => {
  const vcpus = fc.integer({ min: 1, max: 16 });
  const memory = fc.constantFrom('1Gi', '2Gi', '3Gi', '8Gi', '512Mi');
  const instancetype = fc.record({
    cpu: fc.record({ guest: vcpus, dedicatedCPUPlacement: fc.boolean() }, { requiredKeys: ['guest'] }),
    memory: fc.record({ guest: memory, hugepages: fc.record({ pageSize: fc.constantFrom('2Mi', '1Gi', '16Gi') }) }, { requiredKeys: ['guest'] }),
  });
  const preference = fc.record(
    {
      cpu: fc.record(
        {
          preferredCPUTopology: fc.constantFrom('preferSockets', 'preferCores', 'preferThreads', 'preferSpread', 'preferAny', 'spread'),
          spreadOptions: fc.record({ across: fc.constantFrom('SocketsCores', 'CoresThreads', 'SocketsCoresThreads'), ratio: fc.integer({ min: 1, max: 4 }) }),
        },
        { requiredKeys: [] },
      ),
      requirements: fc.record({ cpu: fc.record({ guest: vcpus }), memory: fc.record({ guest: memory }) }, { requiredKeys: [] }),
      preferredArchitecture: fc.constantFrom('amd64', 'arm64'),
    },
    { requiredKeys: [] },
  );
  // Fields outside the keys: what a preference or instance type sets besides CPU, memory and requirements.
  const elsewhere = fc.record(
    {
      devices: fc.record(
        { preferredDiskBus: fc.constantFrom('virtio', 'sata', 'scsi'), preferredInterfaceModel: fc.constantFrom('virtio', 'e1000e') },
        { requiredKeys: [] },
      ),
      features: fc.record({ preferredSmm: fc.record({ enabled: fc.boolean() }) }, { requiredKeys: [] }),
      firmware: fc.record({ preferredUseEfi: fc.boolean(), preferredUseSecureBoot: fc.boolean() }, { requiredKeys: [] }),
      clock: fc.record({ preferredClockOffset: fc.record({ utc: fc.record({ offsetSeconds: fc.integer({ min: 0, max: 3600 }) }) }) }, { requiredKeys: [] }),
      machine: fc.record({ preferredMachineType: fc.constantFrom('q35', 'pc-q35-rhel9.4.0') }),
    },
    { requiredKeys: [] },
  );
  const itElsewhere = fc.record(
    {
      ioThreadsPolicy: fc.constantFrom('auto', 'shared'),
      gpus: fc.constant([{ name: 'gpu1', deviceName: 'nvidia.com/A10' }]),
      annotations: fc.record({ 'example.com/x': fc.string({ maxLength: 5 }) }),
      nodeSelector: fc.record({ 'example.com/pool': fc.constantFrom('a', 'b') }),
    },
    { requiredKeys: [] },
  );

  it('holds for random pairs and random changes to every field outside the keys', () => {
    fc.assert(
      fc.property(instancetype, preference, elsewhere, itElsewhere, fc.constantFrom('amd64', 'arm64'), (it, p, more, itMore, arch) => {
        const outcome = pairOutcome(it as JsonObject, p as JsonObject, arch, 'amd64');
        const changedPref = { ...p, ...more } as JsonObject;
        const changedIt = { ...it, ...itMore } as unknown as JsonObject;
        expect(preferencePairingKey(changedPref)).toBe(preferencePairingKey(p as JsonObject));
        expect(instancetypePairingKey(changedIt)).toBe(instancetypePairingKey(it as JsonObject));
        expect(pairOutcome(changedIt, changedPref, arch, 'amd64')).toEqual(outcome);
      }),
      { numRuns: 500 },
    );
  });

  it('and a change inside a key can change the outcome (the key is not too wide to matter)', () => {
    const small = { cpu: { guest: 1 }, memory: { guest: '1Gi' } };
    const needsTwo = { requirements: { cpu: { guest: 2 } } };
    expect(pairOutcome(small, needsTwo, 'amd64', 'amd64').admitted).toBe(false);
    expect(pairOutcome({ ...small, cpu: { guest: 2 } }, needsTwo, 'amd64', 'amd64').admitted).toBe(true);
  });
});
