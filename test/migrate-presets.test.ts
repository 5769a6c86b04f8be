/**
 * `migrate presets`: KubeVirt's preset semantics (cases transcribed from
 * pkg/virt-api/webhooks/mutating-webhook/mutators/preset_test.go at kubevirt d923fdb815, each named
 * by its It()), the mapping to instance types and preferences, and the fixture project end to end:
 * it generates, and its VMs expand to the domain their presets gave them.
 */
import fc from 'fast-check';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expandDocuments } from '../src/expand/documents';
import { objectStore } from '../src/expand';
import { checkSpread } from '../src/kubevirt/requirements';
import { guestTopology } from '../src/kubevirt/topology';
import type { JsonObject } from '../src/json';
import { writeFilesAtomic, readTree } from '../src/emit/write';
import { loadManifests } from '../src/load/manifests';
import { parseSource } from '../src/load/source';
import { goQuantityIdentity, migratePresets, overcommitFor, presetConflicts, selects, topologyFor, type Preset } from '../src/migrate';
import { compareSpecs } from '../src/migrate/compare';
import { applyPresets, mergeConflicts, mergeDomain } from '../src/migrate/presets';
import { compile } from '../src/pipeline';
import { itgen, assertBuilt } from './e2e-helpers';
import { REPO, UPDATE_GOLDEN, removeDir, scratchProject } from './helpers';

const FIXTURE = path.join(REPO, 'test', 'fixtures', 'migrate', 'presets');

function preset(name: string, domain: JsonObject, matchLabels: Record<string, string> = {}): Preset {
  return { name, namespace: 'default', matchLabels, matchExpressions: [], domain };
}

describe('KubeVirt preset semantics (preset_test.go)', () => {
  // "Conflict detection" context: memory-64, memory-128, cpu-4, duplicate-mem.
  const m64 = preset('memory-64', { resources: { requests: { memory: '64M' } } });
  const m128 = preset('memory-128', { resources: { requests: { memory: '128M' } } });
  const cpu4 = preset('cpu-4', { cpu: { cores: 4 } });
  const dup = preset('duplicate-mem', { resources: { requests: { memory: '64M' } } });

  it('should detect conflicts between presets', () => {
    expect(presetConflicts([m64, m128])).toBe(
      "VirtualMachinePresets cannot be applied due to conflicts: presets 'memory-128' and 'memory-64' conflict: spec.resources.requests[memory]: 128M != 64M",
    );
  });
  it('should not return an error for no conflict', () => {
    expect(presetConflicts([m64, cpu4])).toBeUndefined();
  });
  it('should not consider presets with same settings to conflict', () => {
    expect(presetConflicts([m64, dup])).toBeUndefined();
  });
  it("should apply presets that don't conflict", () => {
    const domain: JsonObject = {};
    const r = applyPresets([m64, cpu4, dup], domain);
    expect(r.applied).toEqual(['memory-64', 'cpu-4', 'duplicate-mem']);
    expect(domain).toEqual({ resources: { requests: { memory: '64M' } }, cpu: { cores: 4 } });
  });

  // "Override detection" context: the VMI's own values win, a differing preset is not applied.
  const vmiDomain = (): JsonObject => ({
    resources: { requests: { memory: '64M' } },
    cpu: { cores: 4 },
    firmware: { uuid: '11112222-3333-4444-5555-666677778888' },
    clock: { timer: { hpet: { tickPolicy: 'delay' } } },
    features: { acpi: { enabled: true }, apic: { enabled: false }, hyperv: {} },
    devices: { watchdog: { name: 'testcase', i6300esb: { action: 'reset' } }, disks: [{ name: 'testdisk', disk: { bus: 'virtio', readonly: true } }] },
  });
  it.each([
    ['Should detect CPU overrides', { cpu: { cores: 6 } }, { cpu: { cores: 4 } }],
    ['Should detect Resource overrides', { resources: { requests: { memory: '128M' } } }, { resources: { requests: { memory: '64M' } } }],
    [
      'Should detect Firmware overrides',
      { firmware: { uuid: '88887777-6666-5555-4444-333322221111' } },
      { firmware: { uuid: '11112222-3333-4444-5555-666677778888' } },
    ],
    ['Should detect Clock overrides', { clock: { timer: { hpet: { tickPolicy: 'catchup' } } } }, { clock: { timer: { hpet: { tickPolicy: 'delay' } } } }],
    [
      'Should detect Feature overrides',
      { features: { acpi: { enabled: false } } },
      { features: { acpi: { enabled: true }, apic: { enabled: false }, hyperv: {} } },
    ],
    [
      'Should detect Watchdog overrides',
      { devices: { watchdog: { name: 'foo', i6300esb: { action: 'poweroff' } } } },
      { devices: { watchdog: { name: 'testcase', i6300esb: { action: 'reset' } } } },
    ],
  ] as const)('%s', (_name, overriding, matching) => {
    const domain = vmiDomain();
    expect(mergeConflicts(overriding as JsonObject, domain)).toHaveLength(1);
    const before = JSON.stringify(domain);
    expect(mergeDomain(overriding as JsonObject, domain).applied).toBe(false);
    expect(JSON.stringify(domain)).toBe(before);
    expect(mergeConflicts(matching as JsonObject, domain)).toEqual([]);
    expect(mergeDomain(matching as JsonObject, domain).applied).toBe(true);
    expect(JSON.stringify(domain)).toBe(before);
  });
  it('Should detect ioThreadsPolicy overrides', () => {
    const domain: JsonObject = { ioThreadsPolicy: 'auto' };
    expect(mergeConflicts({ ioThreadsPolicy: 'shared' }, domain)).toEqual(['spec.ioThreadsPolicy: shared != auto']);
    expect(mergeDomain({ ioThreadsPolicy: 'shared' }, domain)).toMatchObject({ applied: false });
    expect(mergeDomain({ ioThreadsPolicy: 'auto' }, domain)).toMatchObject({ applied: true, conflicts: [] });
    expect(domain).toEqual({ ioThreadsPolicy: 'auto' });
  });

  // "Filter Matching" context.
  it('Should match preset with the correct selector / not with the incorrect one', () => {
    const labels = { 'kubevirt.io/flavor': 'matching' };
    expect(selects(preset('test-preset', {}, { 'kubevirt.io/flavor': 'matching' }), labels)).toBe(true);
    expect(selects(preset('unrelated-preset', {}, { 'kubevirt.io/flavor': 'unrelated' }), labels)).toBe(false);
  });
  it('Should not ignore bogus selectors: the preset is refused (IT8202) at the value', () => {
    const text =
      'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstancePreset\nmetadata: {name: broken-preset}\nspec:\n  selector:\n    matchLabels: {kubevirt.io/flavor: "!"}\n  domain: {}\n';
    const r = migratePresets(parseSource('p.yaml', Buffer.from(text)).docs, { name: 'presets', cluster: false, allowDifferences: false, outDir: 'out' });
    expect(r.files).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.location?.line, d.location?.col])).toEqual([['IT8202', 6, 39]]);
  });
});

describe('preset semantics no KubeVirt test pins (read off preset.go)', () => {
  it('matchExpressions: In, NotIn, Exists, DoesNotExist all hold', () => {
    const p: Preset = {
      ...preset('x', {}),
      matchExpressions: [
        { key: 'os', operator: 'In', values: ['a', 'b'] },
        { key: 'tier', operator: 'NotIn', values: ['gold'] },
        { key: 'team', operator: 'Exists', values: [] },
        { key: 'legacy', operator: 'DoesNotExist', values: [] },
      ],
    };
    expect(selects(p, { os: 'a', team: 'x' })).toBe(true);
    expect(selects(p, { os: 'a', team: 'x', tier: 'gold' })).toBe(false);
    expect(selects(p, { os: 'c', team: 'x' })).toBe(false);
    expect(selects(p, { os: 'a' })).toBe(false);
    expect(selects(p, { os: 'a', team: 'x', legacy: '' })).toBe(false);
    expect(selects(preset('all', {}), {})).toBe(true);
  });
  it('requests compare as Go compares Quantity structs: same canonical text equal, 1Gi and 1024Mi not, fractions of binary suffixes never', () => {
    expect(goQuantityIdentity('64M')).toBe(goQuantityIdentity('64M'));
    expect(goQuantityIdentity('1Gi')).not.toBe(goQuantityIdentity('1024Mi'));
    expect(goQuantityIdentity('1024Mi')).toBe(goQuantityIdentity('1024Mi'));
    expect(goQuantityIdentity('1.5Gi')).toBeUndefined();
    expect(
      presetConflicts([preset('a', { resources: { requests: { memory: '1.5Gi' } } }), preset('b', { resources: { requests: { memory: '1.5Gi' } } })]),
    ).toContain("presets 'b' and 'a' conflict");
    expect(
      presetConflicts([preset('a', { resources: { requests: { memory: '1Gi' } } }), preset('b', { resources: { requests: { memory: '1024Mi' } } })]),
    ).toContain('1024Mi != 1Gi');
  });
  it('a clock is copied offset first, then its timer; a VMI with its own timer keeps it', () => {
    const domain: JsonObject = { clock: { utc: {}, timer: { rtc: { tickPolicy: 'catchup' } } } };
    const r = mergeDomain({ clock: { utc: {}, timer: { hpet: { present: false } } } }, domain);
    expect(r.conflicts).toEqual(['spec.clock.timer: {"hpet":{"present":false}} != {"rtc":{"tickPolicy":"catchup"}}']);
    expect(domain).toEqual({ clock: { utc: {}, timer: { rtc: { tickPolicy: 'catchup' } } } });
    const empty: JsonObject = {};
    mergeDomain({ clock: { utc: {}, timer: { hpet: { present: false } } } }, empty);
    expect(empty).toEqual({ clock: { utc: {}, timer: { hpet: { present: false } } } });
  });
  it('Go zero values: cpu {sockets: 0} equals {}, features.acpi {} equals none, enabled: false does not', () => {
    expect(mergeConflicts({ cpu: { sockets: 0, model: '' } }, { cpu: {} })).toEqual([]);
    expect(mergeConflicts({ features: { acpi: {} } }, { features: {} })).toEqual([]);
    expect(mergeConflicts({ features: { smm: { enabled: false } } }, { features: { smm: {} } })).toHaveLength(1);
  });
});

describe('mapping', () => {
  it('topologyFor runs applyGuestCPUTopology backwards', () => {
    expect(topologyFor(4, 1, 1)).toEqual({});
    expect(topologyFor(1, 4, 1)).toEqual({ preferredCPUTopology: 'cores' });
    expect(topologyFor(1, 1, 2)).toEqual({ preferredCPUTopology: 'threads' });
    expect(topologyFor(2, 2, 1)).toEqual({ preferredCPUTopology: 'spread' });
    expect(topologyFor(2, 4, 1)).toEqual({ preferredCPUTopology: 'spread', spreadOptions: { ratio: 4 } });
    expect(topologyFor(1, 4, 2)).toEqual({ preferredCPUTopology: 'spread', spreadOptions: { across: 'CoresThreads' } });
    expect(topologyFor(2, 2, 2)).toEqual({ preferredCPUTopology: 'spread', spreadOptions: { across: 'SocketsCoresThreads' } });
    expect(topologyFor(1, 4, 2)).toEqual({ preferredCPUTopology: 'spread', spreadOptions: { across: 'CoresThreads' } });
    expect(topologyFor(2, 2, 4)).toBeUndefined();
  });
  it('every shape topologyFor maps is the shape KubeVirt lays the vCPUs out in, and admission accepts the pair', () => {
    let mapped = 0;
    for (let sockets = 1; sockets <= 6; sockets++) {
      for (let cores = 1; cores <= 6; cores++) {
        for (let threads = 1; threads <= 4; threads++) {
          const cpu = topologyFor(sockets, cores, threads);
          if (cpu === undefined) {
            // Unmappable: more than two threads with more than one socket or core.
            expect([threads > 2, sockets > 1 || cores > 1]).toEqual([true, true]);
            continue;
          }
          mapped++;
          const vcpus = sockets * cores * threads;
          const preference = { cpu };
          expect([sockets, cores, threads, guestTopology(vcpus, preference)]).toEqual([sockets, cores, threads, { sockets, cores, threads }]);
          expect(checkSpread({ cpu: { guest: vcpus }, memory: { guest: '1Gi' } }, preference)).toBeUndefined();
        }
      }
    }
    expect(mapped).toBe(6 * 6 * 2 + 2);
  });
  it('overcommitFor finds the percent whose float32 request is exactly the preset request', () => {
    expect(overcommitFor('4Gi', '2Gi')).toBe(50);
    expect(overcommitFor('2Gi', '1932735232')).toBe(10);
    expect(overcommitFor('4Gi', '3000000000')).toBeUndefined();
  });
});

describe('the fixture project (test/fixtures/migrate/presets)', () => {
  const loaded = loadManifests(REPO, [path.relative(REPO, path.join(FIXTURE, 'input'))], () => '');
  const result = migratePresets(loaded.docs, { name: 'presets', cluster: false, allowDifferences: true, outDir: 'out' });

  it('writes the expected project (UPDATE_GOLDEN=1 rewrites test/fixtures/migrate/presets/expected)', () => {
    const expectedDir = path.join(FIXTURE, 'expected');
    if (UPDATE_GOLDEN) {
      removeDir(expectedDir);
      mkdirSync(expectedDir, { recursive: true });
      writeFilesAtomic(expectedDir, result.files);
    }
    const expected = readTree(expectedDir);
    expect(result.files.map((f) => f.path).sort()).toEqual(expected.map((f) => f.path).sort());
    for (const f of result.files) expect(f.content).toBe(expected.find((e) => e.path === f.path)!.content);
  });

  it('migrates, skips and leaves alone the VMs KubeVirt treats so', () => {
    const status = Object.fromEntries(result.vms.map((v) => [v.name, v.outcome.status]));
    expect(status).toEqual({
      'already-typed': 'skipped',
      'appliance-1': 'migrated',
      'build-runner': 'skipped',
      'db-conflicting': 'skipped',
      'fedora-small': 'migrated',
      'hand-tuned': 'excluded',
      unrelated: 'unselected',
      'win10-build': 'migrated',
      'win11-desktop': 'migrated',
    });
    expect(result.diagnostics.map((d) => `${d.code} ${d.severity} ${d.location?.file}:${d.location?.line}`)).toEqual([
      'IT8205 warning test/fixtures/migrate/presets/input/presets.yaml:112',
      'IT8206 warning test/fixtures/migrate/presets/input/vms.yaml:82',
      'IT8203 warning test/fixtures/migrate/presets/input/vms.yaml:98',
      'IT8204 warning test/fixtures/migrate/presets/input/vms.yaml:153',
      'IT8204 warning test/fixtures/migrate/presets/input/vms.yaml:170',
      'IT8207 warning test/fixtures/migrate/presets/input/vms.yaml:188',
    ]);
    expect(result.diagnostics.find((d) => d.code === 'IT8204')!.message).toBe(
      "VirtualMachine `build-runner` is not migrated: presets 'scratch' and 'small' both give resources.requests; KubeVirt copies the map of whichever it lists first, in no defined order",
    );
  });

  it('identical combinations of presets share one instance type and one preference', () => {
    const names = (vm: string): [string | undefined, string | undefined] => {
      const o = result.vms.find((v) => v.name === vm)!.outcome;
      return o.status === 'migrated' ? [o.instancetype, o.preference] : [undefined, undefined];
    };
    expect(names('win10-build')).toEqual(['medium', 'medium-windows']);
    expect(names('win11-desktop')).toEqual(['medium', 'medium-windows']);
  });

  it('generates with itgen, and every migrated VM expands to the domain its presets gave it', () => {
    const dir = scratchProject(Object.fromEntries(result.files.map((f) => [f.path, f.content])));
    try {
      const compiled = compile(dir, 'generators/presets.yaml');
      expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const store = objectStore(compiled.objects.map((o) => o.manifest as unknown as JsonObject));
      const vmFiles = result.files.filter((f) => f.path.startsWith('vms/')).map((f) => f.path);
      const docs = loadManifests(dir, vmFiles, () => '').docs;
      const { outcomes } = expandDocuments(docs, store, { admission: true });
      expect(outcomes.flatMap((o) => o.diagnostics)).toEqual([]);
      const domain = (name: string): JsonObject => (outcomes.find((o) => o.name === name)!.vm!['spec'] as JsonObject)['template'] as JsonObject;
      const d = (name: string): JsonObject => (domain(name)['spec'] as JsonObject)['domain'] as JsonObject;
      // What KubeVirt's preset merge and defaults give each VM today, written out by hand.
      expect(d('win11-desktop')).toMatchObject({
        cpu: { sockets: 2, cores: 2, threads: 1 },
        memory: { guest: '8Gi' },
        firmware: { bootloader: { efi: { secureBoot: true } } },
        clock: { utc: {}, timer: { hpet: { present: false }, pit: { tickPolicy: 'delay' }, rtc: { tickPolicy: 'catchup' }, hyperv: {} } },
        features: { acpi: {}, apic: {}, smm: {}, hyperv: { relaxed: {}, vapic: {}, spinlocks: { spinlocks: 8191 } } },
      });
      expect(d('fedora-small')).toMatchObject({
        cpu: { sockets: 1, cores: 1, threads: 1 },
        memory: { guest: '2Gi' },
        firmware: { bootloader: { bios: { useSerial: true } } },
      });
      expect(d('fedora-small')['devices']).toEqual({ interfaces: [{ name: 'default', masquerade: {} }], disks: [{ name: 'root' }] });
      expect(d('appliance-1')).toMatchObject({
        cpu: { model: 'host-passthrough', sockets: 1, cores: 2, threads: 1 },
        memory: { guest: '1Gi' },
        firmware: { serial: 'appliance-0001' },
        devices: { watchdog: { name: 'watchdog', i6300esb: { action: 'poweroff' } } },
      });
      // And field by field against the library's own preset-era spec: only the CPU request differs.
      for (const vm of result.vms) {
        if (vm.outcome.status !== 'migrated') continue;
        expect([vm.name, vm.outcome.differences.map((x) => x.field)]).toEqual([vm.name, vm.name === 'appliance-1' ? ['domain.resources'] : []]);
      }
      const before = JSON.parse(JSON.stringify(domain('win11-desktop')['spec'])) as JsonObject;
      expect(compareSpecs(before, domain('win11-desktop')['spec'] as JsonObject)).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('keeps the VM as written: comments, labels, volumes; only the matchers added and the taken-over fields removed', () => {
    const win11 = result.files.find((f) => f.path === 'vms/win11-desktop.yaml')!.content;
    const input = readFileSync(path.join(FIXTURE, 'input', 'vms.yaml'), 'utf8').split('---\n')[0]!;
    expect(win11.replace(/ {2}instancetype:\n(?: {4}.*\n)+ {2}preference:\n(?: {4}.*\n)+/, '')).toBe(input);
  });
});

describe('--cluster and namespaces', () => {
  const text = (ns: string, name: string): string =>
    `apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstancePreset\nmetadata: {name: ${name}, namespace: ${ns}}\nspec: {selector: {matchLabels: {app: x}}, domain: {cpu: {cores: 2}, resources: {requests: {memory: 2Gi}}}}\n---\n` +
    `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: vm, namespace: ${ns}}\nspec: {runStrategy: Always, template: {metadata: {labels: {app: x}}, spec: {domain: {devices: {}}}}}\n`;
  const docs = parseSource('in.yaml', Buffer.from(`${text('a', 'p')}---\n${text('b', 'p')}`)).docs;
  it('namespaced: one generator per namespace, VMs name the namespaced kinds', () => {
    const r = migratePresets(docs, { name: 'presets', cluster: false, allowDifferences: false, outDir: 'out' });
    expect(r.diagnostics).toEqual([]);
    expect(r.files.map((f) => f.path).filter((p) => p.startsWith('generators/') || p.startsWith('vms/'))).toEqual([
      'generators/presets-a.yaml',
      'generators/presets-b.yaml',
      'vms/a/vm.yaml',
      'vms/b/vm.yaml',
    ]);
    expect(r.files.find((f) => f.path === 'generators/presets-a.yaml')!.content).toContain('scopes:\n  - namespaced\nnamespace: a\n');
    expect(r.files.find((f) => f.path === 'vms/a/vm.yaml')!.content).toContain(
      'spec: { instancetype: { kind: VirtualMachineInstancetype, name: p }, preference: { kind: VirtualMachinePreference, name: p }, runStrategy: Always',
    );
  });
  it('--cluster: one generator, cluster kinds, the same spec shared across namespaces', () => {
    const r = migratePresets(docs, { name: 'presets', cluster: true, allowDifferences: false, outDir: 'out' });
    expect(r.diagnostics).toEqual([]);
    expect(r.files.find((f) => f.path === 'generators/presets.yaml')!.content).toContain('scopes:\n  - cluster\n');
    expect(r.files.find((f) => f.path === 'vms/b/vm.yaml')!.content).toContain('instancetype: { kind: VirtualMachineClusterInstancetype, name: p }');
    expect(r.files.find((f) => f.path === 'catalogs/presets/instancetypes.yaml')!.content.match(/kind: Family/g)).toHaveLength(1);
  });
});

describe('migrate presets on the command line', () => {
  beforeAll(assertBuilt);
  it('writes the project, exits 1 on a difference unless --allow-differences, never overwrites without --force', () => {
    const dir = scratchProject({
      'in/presets.yaml': readFileSync(path.join(FIXTURE, 'input', 'presets.yaml'), 'utf8'),
      'in/vms.yaml': readFileSync(path.join(FIXTURE, 'input', 'vms.yaml'), 'utf8'),
    });
    try {
      const strict = itgen(dir, 'migrate', 'presets', '--out', 'out', 'in');
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain('error IT8206 VirtualMachine `appliance-1` would start differently');
      const again = itgen(dir, 'migrate', 'presets', '--out', 'out', '--allow-differences', 'in');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('--force replaces them');
      const forced = itgen(dir, 'migrate', 'presets', '--out', 'out', '--allow-differences', '--force', 'in');
      expect([forced.code, forced.stderr]).toEqual([0, expect.stringContaining('4 of 9 VMs migrated')]);
      const gen = itgen(dir, '-C', 'out', 'generate');
      expect([gen.code, gen.stderr]).toEqual([0, 'presets: wrote 6 objects to output/presets\n']);
      // As the issue types it: the shell expands DIR/vms/*.yaml from where the command runs.
      const expanded = itgen(dir, '-C', 'out', 'expand', 'out/vms/win11-desktop.yaml', 'out/vms/fedora-small.yaml');
      expect(expanded.code).toBe(0);
      expect(expanded.stdout).toContain('secureBoot: true');
      // A file the operator names outside the project is read (their choice); its VMs are judged against the project.
      const outside = itgen(dir, '-C', 'out', 'expand', 'in/vms.yaml');
      expect([outside.code, outside.stderr]).toEqual([1, expect.stringContaining('in/vms.yaml:175:11 error IT8001 VirtualMachine `already-typed`')]);
    } finally {
      removeDir(dir);
    }
  });
  it('refuses input without presets (IT8201) and a preset without domain (IT8202), writing nothing', () => {
    const dir = scratchProject({
      'vm.yaml': 'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: a}\nspec: {template: {spec: {}}}\n',
      'p.yaml': 'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstancePreset\nmetadata: {name: p}\nspec:\n  selector: {}\n',
    });
    try {
      const none = itgen(dir, 'migrate', 'presets', '--out', 'out', 'vm.yaml');
      expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('vm.yaml:1:1 error IT8201 no VirtualMachineInstancePreset found in the input')]);
      const bad = itgen(dir, 'migrate', 'presets', '--out', 'out', 'p.yaml', 'vm.yaml');
      expect([bad.code, bad.stderr]).toEqual([
        1,
        expect.stringContaining('p.yaml:5:3 error IT8202 VirtualMachineInstancePreset `p`: required key `domain` is missing in `spec`'),
      ]);
      expect(() => readFileSync(path.join(dir, 'out', 'MIGRATION.md'))).toThrow();
      writeFileSync(path.join(dir, 'unused'), '');
    } finally {
      removeDir(dir);
    }
  });
});

describe('migrate presets on generated input (fast-check, fixed seed)', () => {
  const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });
  const compact = (o: Record<string, unknown>): JsonObject => JSON.parse(JSON.stringify(o)) as JsonObject;
  const cpu = fc
    .record({
      sockets: opt(fc.integer({ min: 0, max: 4 })),
      cores: opt(fc.integer({ min: 0, max: 4 })),
      threads: opt(fc.integer({ min: 0, max: 2 })),
      model: opt(fc.constantFrom('host-passthrough', 'Haswell')),
      features: opt(fc.constant([{ name: 'pcid', policy: 'require' }])),
    })
    .map(compact);
  const domain = fc
    .record({
      cpu: opt(cpu),
      resources: opt(
        fc.record({ requests: fc.record({ memory: opt(fc.constantFrom('1Gi', '2Gi', '512Mi', '3G')), cpu: opt(fc.constantFrom('1', '500m')) }).map(compact) }),
      ),
      firmware: opt(fc.constantFrom({ bootloader: { efi: { secureBoot: false } } }, { bootloader: { bios: { useSerial: true } } }, { serial: 's-1' })),
      clock: opt(
        fc.constantFrom(
          { utc: {} },
          { timezone: 'Europe/Berlin', timer: { rtc: { tickPolicy: 'catchup' } } },
          { utc: { offsetSeconds: 0 }, timer: { hpet: { present: false } } },
        ),
      ),
      features: opt(fc.constantFrom({ acpi: {} }, { apic: {}, hyperv: { relaxed: {} } }, { smm: { enabled: true } })),
      devices: opt(fc.constant({ watchdog: { name: 'w', i6300esb: { action: 'reset' } } })),
      ioThreadsPolicy: opt(fc.constantFrom('shared', 'auto')),
    })
    .map(compact);
  const labels = fc.oneof(
    fc.constant({}),
    fc.constant({ a: '1' }),
    fc.record({ a: opt(fc.constantFrom('1', '2')), b: opt(fc.constantFrom('x', 'y')) }).map(compact),
  );
  const vmDomain = fc.record({ memory: opt(fc.record({ guest: fc.constantFrom('1Gi', '4Gi') })), cpu: opt(cpu), devices: fc.constant({}) }).map(compact);

  it('never throws nor fails inside; where nothing is left behind, every migrated VM starts as before', () => {
    let proved = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(labels, domain), { minLength: 1, maxLength: 2 }),
        fc.array(fc.tuple(labels, vmDomain), { minLength: 1, maxLength: 3 }),
        (presets, vms) => {
          const objects: JsonObject[] = [
            ...presets.map(([matchLabels, d], i) => ({
              apiVersion: 'kubevirt.io/v1',
              kind: 'VirtualMachineInstancePreset',
              metadata: { name: `p${i}` },
              spec: { selector: { matchLabels }, domain: d },
            })),
            ...vms.map(([l, d], i) => ({
              apiVersion: 'kubevirt.io/v1',
              kind: 'VirtualMachine',
              metadata: { name: `vm${i}` },
              spec: { runStrategy: 'Always', template: { metadata: { labels: l }, spec: { domain: d } } },
            })),
          ];
          const text = objects.map((o) => JSON.stringify(o)).join('\n---\n');
          const r = migratePresets(parseSource('in.yaml', Buffer.from(text)).docs, { name: 'presets', cluster: false, allowDifferences: true, outDir: 'out' });
          expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          for (const vm of r.vms) {
            if (vm.outcome.status !== 'migrated' || vm.outcome.plan.notCarried.length > 0) continue;
            proved++;
            expect([vm.name, vm.outcome.differences]).toEqual([vm.name, []]);
          }
        },
      ),
      { seed: Number(process.env['MIGRATE_SEED'] ?? 13), numRuns: Number(process.env['MIGRATE_RUNS'] ?? 600) },
    );
    // The property is about migrated VMs: enough of them must have been checked.
    expect(proved).toBeGreaterThan(100);
  });
});

describe('names from untrusted input', () => {
  it('a VM or preset name that is no Kubernetes name is refused at its line (IT8202), nothing planned', () => {
    const text =
      'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstancePreset\nmetadata: {name: Small_Preset}\nspec: {selector: {}, domain: {cpu: {cores: 2}}}\n---\n' +
      'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ../../escape}\nspec: {template: {spec: {domain: {}}}}\n';
    const r = migratePresets(parseSource('in.yaml', Buffer.from(text)).docs, { name: 'presets', cluster: false, allowDifferences: false, outDir: 'out' });
    expect(r.files).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.location?.line])).toEqual([
      ['IT8202', 3],
      ['IT8202', 8],
    ]);
    expect(r.diagnostics[1]!.message).toContain('a Kubernetes object name');
  });
});

describe('migrate presets on mutated input (fast-check, fixed seed)', () => {
  const fixture = loadManifests(REPO, [path.relative(REPO, path.join(FIXTURE, 'input'))], () => '').docs.map((d) => d.value as JsonObject);
  /** Every path of a document, objects and lists included. */
  const paths = (v: unknown, at: (string | number)[] = []): (string | number)[][] => {
    if (Array.isArray(v)) return [at, ...v.flatMap((x, i) => paths(x, [...at, i]))];
    if (v !== null && typeof v === 'object') return [at, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
    return [at];
  };
  const odd = fc.constantFrom<unknown>(null, 0, -1, 4294967296, '', 'x', '1.5Gi', '500m', true, [], {}, [1], { a: 1 }, 'virtio', '../x', 'A_B');
  it('answers with diagnostics or a project, never an exception or an internal error', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(), odd), { minLength: 1, maxLength: 4 }), (mutations) => {
        const docs = fixture.map((d) => JSON.parse(JSON.stringify(d)) as JsonObject);
        for (const [di, pi, value] of mutations) {
          const doc = docs[di % docs.length]!;
          const all = paths(doc).filter((p) => p.length > 0);
          const p = all[pi % all.length]!;
          let parent: unknown = doc;
          for (const seg of p.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[seg];
          (parent as Record<string | number, unknown>)[p[p.length - 1]!] = structuredClone(value);
        }
        const text = docs.map((d) => JSON.stringify(d)).join('\n---\n');
        const r = migratePresets(parseSource('in.yaml', Buffer.from(text)).docs, { name: 'presets', cluster: false, allowDifferences: true, outDir: 'out' });
        expect(r.diagnostics.filter((d) => d.code === 'IT9001')).toEqual([]);
        if (r.files.length === 0) expect(r.diagnostics.some((d) => d.severity === 'error')).toBe(true);
      }),
      { seed: Number(process.env['MIGRATE_SEED'] ?? 5), numRuns: Number(process.env['MIGRATE_RUNS'] ?? 300) },
    );
  });
});

describe('VirtualMachineInstances', () => {
  it('a VMI a VirtualMachine owns is left to its VM; a standalone one is listed (IT8207)', () => {
    const vmi = (name: string, owner: string): string =>
      `apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata:\n  name: ${name}\n  labels: {app: x}\n${owner}spec: {domain: {devices: {}}}\n`;
    const text =
      'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstancePreset\nmetadata: {name: p}\nspec: {selector: {matchLabels: {app: x}}, domain: {cpu: {cores: 2}}}\n---\n' +
      `${vmi('owned', '  ownerReferences: [{apiVersion: kubevirt.io/v1, kind: VirtualMachine, name: owned, uid: "1"}]\n')}---\n${vmi('alone', '')}`;
    const r = migratePresets(parseSource('in.yaml', Buffer.from(text)).docs, { name: 'presets', cluster: false, allowDifferences: false, outDir: 'out' });
    expect(r.vmis.map((v) => v.name)).toEqual(['alone']);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['IT8207', 'VirtualMachineInstance `alone` is selected by `p`; a VMI cannot name an instance type'],
    ]);
  });
});
