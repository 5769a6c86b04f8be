/**
 * What got in the way of a vendor adopting itgen for a real catalog, each through the CLI:
 * files and projects, output formats, authoring checks and hints.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_GENERATOR, REFERENCE, removeDir, scratchProject, TINY_CATALOG } from './helpers';
import { runInProcess, type CliRun } from './e2e-helpers';

const itgen = (cwd: string, argv: readonly string[], terminal = false): CliRun => runInProcess(cwd, argv, { terminal });

const BUNDLE = path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml');
const VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: v}
spec:
  instancetype: {name: u1.medium}
  preference: {name: fedora}
  template: {spec: {domain: {devices: {}}}}
  runStrategy: Always
`;

function project(): string {
  const dir = scratchProject({ 'generators/t.yaml': DEFAULT_GENERATOR, 'catalog/catalog.yaml': TINY_CATALOG });
  expect(itgen(dir, ['generate']).code).toBe(0);
  return dir;
}

describe('files and projects', () => {
  it('finds the project upward from a subdirectory, as git and npm do', () => {
    const dir = project();
    try {
      mkdirSync(path.join(dir, 'vms', 'team-a'), { recursive: true });
      const sub = path.join(dir, 'vms', 'team-a');
      expect(itgen(sub, ['validate']).code).toBe(0);
      expect(itgen(sub, ['check']).code).toBe(0);
      // Paths typed there are read from there.
      writeFileSync(path.join(sub, 'vm.yaml'), VM.replace('u1.medium', 'c1.large').replace('  preference: {name: fedora}\n', ''));
      const r = itgen(sub, ['expand', 'vm.yaml']);
      expect([r.code, r.err]).toEqual([0, '']);
      expect(r.out).toContain('# v: expanded with VirtualMachineClusterInstancetype c1.large\n');
    } finally {
      removeDir(dir);
    }
  });

  it('reads files the operator names wherever they are (--with ~/Downloads/bundle.yaml), the project itself stays confined', () => {
    const dir = project();
    const elsewhere = path.join(os.tmpdir(), `itgen-elsewhere-${process.pid}`);
    try {
      mkdirSync(elsewhere, { recursive: true });
      writeFileSync(path.join(elsewhere, 'vm.yaml'), VM);
      copyFileSync(BUNDLE, path.join(elsewhere, 'bundle.yaml'));
      const r = itgen(dir, ['expand', path.join(elsewhere, 'vm.yaml'), '--with', path.join(elsewhere, 'bundle.yaml')]);
      expect([r.code, r.err]).toEqual([0, '']);
      expect(r.out).toContain('# v: expanded with VirtualMachineClusterInstancetype u1.medium and VirtualMachineClusterPreference fedora\n');
    } finally {
      removeDir(elsewhere);
      removeDir(dir);
    }
  });

  it('validate and check say what they checked on a terminal, and nothing in CI', () => {
    const dir = project();
    try {
      expect(itgen(dir, ['validate'], true).err).toMatch(/^validated 1 generator \(t: 6 objects in output\), 0 warnings\n$/);
      expect(itgen(dir, ['check'], true).err).toMatch(/^output matches the catalogs: 1 generator \(t: 6 objects in output\), 0 warnings\n$/);
      expect(itgen(dir, ['validate']).err).toBe('');
    } finally {
      removeDir(dir);
    }
  });
});

describe('output formats', () => {
  it('expand --format json gives its diagnostics as JSON on stderr, the VMs on stdout', () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'vms.yaml'), `${VM}---\n${VM.replace('name: v}', 'name: w}').replace('u1.medium', 'u1.nope')}`);
      const r = itgen(dir, ['expand', 'vms.yaml', '--with', BUNDLE, '--format', 'json', '-o', 'json']);
      expect(r.code).toBe(1);
      const vm = JSON.parse(r.out) as { metadata: { name: string } };
      expect(vm.metadata.name).toBe('v');
      const diagnostics = (JSON.parse(r.err) as { diagnostics: { code: string; location: { file: string } }[] }).diagnostics;
      expect(diagnostics.map((d) => [d.code, d.location.file])).toEqual([
        ['IT8001', 'vms.yaml'],
        ['IT8003', 'vms.yaml'],
      ]);
    } finally {
      removeDir(dir);
    }
  });

  it("expand says which instance type and preference it applied (a YAML comment, the JSON List's references), the VM unchanged", () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'vms.yaml'), `${VM}---\n${VM.replace('name: v}', 'name: w}')}`);
      const yaml = itgen(dir, ['expand', 'vms.yaml', '--with', BUNDLE]);
      expect(yaml.out.match(/^# (v|w): expanded with VirtualMachineClusterInstancetype u1.medium and VirtualMachineClusterPreference fedora$/gm)).toHaveLength(
        2,
      );
      const list = JSON.parse(itgen(dir, ['expand', 'vms.yaml', '--with', BUNDLE, '-o', 'json']).out) as {
        items: { metadata: { annotations?: unknown } }[];
        references: unknown[];
      };
      expect(list.references).toEqual([
        { name: 'v', instancetype: 'VirtualMachineClusterInstancetype u1.medium', preference: 'VirtualMachineClusterPreference fedora', inferred: [] },
        { name: 'w', instancetype: 'VirtualMachineClusterInstancetype u1.medium', preference: 'VirtualMachineClusterPreference fedora', inferred: [] },
      ]);
      expect(list.items[0]!.metadata.annotations).toBeUndefined();
      expect(readFileSync(path.join(dir, 'vms.yaml'), 'utf8')).toContain('u1.medium');
    } finally {
      removeDir(dir);
    }
  });
});

describe('schema, explain and wording', () => {
  it('names the JSON Schema definitions after where they are used, and describes a ladder name as a ladder name', () => {
    const dir = project();
    try {
      const schema = JSON.parse(itgen(dir, ['schema']).out) as { $defs: Record<string, { description?: string }> };
      const names = Object.keys(schema.$defs);
      expect(names.filter((n) => n.startsWith('__schema'))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(['catalog', 'catalogNaming', 'familyOverridesDeprecated']));
      expect(schema.$defs['sizeLadderName']?.description).toBe('Name of the size ladder, which families name in `ladder`');
    } finally {
      removeDir(dir);
    }
  });

  it("explain shows the cluster object and its namespaced twin, and takes kubectl's kind names", () => {
    const dir = project();
    try {
      const both = itgen(dir, ['explain', 'c1.large']);
      expect(both.out.match(/^# (VirtualMachineClusterInstancetype|VirtualMachineInstancetype) c1\.large:/gm)).toEqual([
        '# VirtualMachineClusterInstancetype c1.large:',
        '# VirtualMachineInstancetype c1.large:',
      ]);
      for (const k of ['vmf', 'VirtualMachineInstancetypes', 'vminstancetype'])
        expect(itgen(dir, ['explain', 'c1.large', '--kind', k]).out.match(/^# Virtual\S+/gm)).toEqual(['# VirtualMachineInstancetype']);
      expect(itgen(dir, ['explain', 'c1.large', '--kind', 'vmcf']).out).toMatch(/^# VirtualMachineClusterInstancetype c1\.large/);
      expect(itgen(dir, ['explain', 'c1.large', '--kind', 'vmx']).err).toContain('unknown kind `vmx`');
    } finally {
      removeDir(dir);
    }
  });
});

describe('hints that lead somewhere', () => {
  it('a package import naming a catalog the package does not ship lists what it ships', () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': `${TINY_CATALOG.replace('name: t\n', 'name: t\nimports:\n  - {package: vendorpkg, catalog: catalogs/common-instancetype}\n')}`,
      'node_modules/vendorpkg/package.json': '{"name": "vendorpkg"}\n',
      'node_modules/vendorpkg/catalogs/common-instancetypes/catalog.yaml': 'kind: Catalog\nname: up\n',
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('hint: did you mean `catalogs/common-instancetypes`? vendorpkg ships: catalogs/common-instancetypes');
      expect(r.err).not.toContain('npm install');
    } finally {
      removeDir(dir);
    }
  });

  it('a VM naming a missing object gets a did-you-mean over the known names', () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'vm.yaml'), VM.replace('u1.medium', 'u1.mediun'));
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE, '--skip-admission']);
      expect(r.err).toContain('error IT8001 VirtualMachine `v`: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.mediun" not found');
      expect(r.err).toContain('hint: KubeVirt would store the VM and never start it (FailedFindInstancetype); did you mean `u1.medium`?');
    } finally {
      removeDir(dir);
    }
  });

  it('`version: 02` says what it is without a reading that is the same twice; an override spec one level too shallow says so', () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': TINY_CATALOG.replace('version: 1\n', 'version: 02\n'),
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.err).toContain(
        'is a number with a leading zero, read differently by YAML 1.1 (kubectl, Argo CD) and 1.2 readers (2 for both, but only by chance',
      );
      writeFileSync(
        path.join(dir, 'catalog/catalog.yaml'),
        TINY_CATALOG.replace(
          'memoryPerCPU: 2Gi\n',
          'memoryPerCPU: 2Gi\noverrides:\n  large:\n    memory: 8Gi\n  spec:\n    gpus: [{name: g, deviceName: nvidia.com/A100}]\n',
        ),
      );
      const o = itgen(dir, ['validate']);
      expect(o.err).toContain('unknown key `gpus` in `overrides.spec`');
      expect(o.err).toContain('indent `spec:` under the entry it belongs to');
      expect(o.err).not.toContain('did you mean `cpu`');
    } finally {
      removeDir(dir);
    }
  });

  it('a preference inheriting an unknown base is never told to inherit from itself', () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': `${TINY_CATALOG}---\nkind: Preference\nname: rhel.9\ndisplayName: RHEL 9\ninherits: rhel\nspec: {devices: {preferredDiskBus: virtio}}\n`,
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.err).toContain('inherits unknown preference `rhel`');
      expect(r.err).not.toContain('did you mean `rhel.9`');
    } finally {
      removeDir(dir);
    }
  });

  it('bundling a version older than the last release says releases move forward, not to record it', () => {
    const dir = project();
    try {
      expect(itgen(dir, ['release', '--version', 'v1.0.0']).code).toBe(0);
      const old = itgen(dir, ['bundle', '--version', 'v0.9.0', '--out', '_build']);
      expect(old.code).toBe(1);
      expect(old.err).toContain('hint: v0.9.0 is older than the last release v1.0.0 and was never recorded');
      expect(old.err).not.toContain('run `itgen release --version v0.9.0`');
    } finally {
      removeDir(dir);
    }
  });
});

describe('one mistake, one report', () => {
  it('a namePrefix added after a release is one error saying the names changed, not one per object', () => {
    const dir = project();
    try {
      expect(itgen(dir, ['release', '--version', 'v1.0.0']).code).toBe(0);
      writeFileSync(path.join(dir, 'generators/t.yaml'), `${DEFAULT_GENERATOR}namePrefix: nw-\n`);
      const r = itgen(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.err.match(/ error IT7102 /g)).toHaveLength(1);
      expect(r.err).toMatch(/error IT7102 6 published objects are gone because their names changed \(`\S+` is now `nw-\S+`\)/);
    } finally {
      removeDir(dir);
    }
  });

  it('a bare memoryPerCPU is one error with its fix, not one per hugepage size and object', () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': TINY_CATALOG.replace('memoryPerCPU: 2Gi\n', 'memoryPerCPU: 16\nspec: {memory: {hugepages: {pageSize: 1Gi}}}\n'),
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.err.match(/ error IT\d+ /g)).toEqual([' error IT1205 ']);
      expect(r.err).toContain('hint: a quantity without a unit is bytes; did you mean `16Gi`?');
    } finally {
      removeDir(dir);
    }
  });

  it('decimal memory that hugepages then refuse is one error at its line, naming every size, with the unit as the hint', () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': `kind: Catalog
name: t
---
kind: SizeLadder
name: ladder
sizes: [{name: small, cpu: 1}, {name: medium, cpu: 2}, {name: large, cpu: 4}, {name: xlarge, cpu: 8}]
---
kind: Family
name: db
version: 1
displayName: DB
description: "{{family}} {{size}}"
class: database
memoryPerCPU: 8G
spec: {memory: {hugepages: {pageSize: 2Mi}}}
---
kind: Preference
name: acme.linux
displayName: Linux
spec: {devices: {preferredDiskBus: virtio}}
`,
    });
    try {
      const r = itgen(dir, ['validate']);
      // Was: the decimal-units warning and four errors, one per size, all at the same line.
      expect(r.err.match(/ (error|warning) IT\d+ /g)).toEqual([' error IT4005 ']);
      expect(r.err).toContain(
        "error IT4005 instance types `db1.large`, `db1.medium`, `db1.small`, `db1.xlarge` `spec.memory.guest`: guest memory is not a multiple of the page size '2Mi', because 8G is 7.45Gi, not 8Gi",
      );
      expect(r.err).toContain('hint: did you mean `8Gi`?');
    } finally {
      removeDir(dir);
    }
  });

  it('keeping many upstream names is one warning with the count', () => {
    const prefs = ['fedora', 'rhel.9', 'ubuntu', 'windows.11', 'centos.stream9']
      .map((n) => `---\nkind: Preference\nname: ${n}\ndisplayName: ${n}\nspec: {devices: {preferredDiskBus: virtio}}\n`)
      .join('');
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': `${TINY_CATALOG.replace('name: t\n', 'name: t\nnaming: {preference: "{name}"}\n')}${prefs}`,
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.err.match(/ warning IT5006 /g)).toHaveLength(1);
      // Each of the five named, with the count (a count of 0 and no name was once all it said).
      expect(r.err).toMatch(/warning IT5006 5 objects keep the names of common-instancetypes objects \(`[^`]+`(, `[^`]+`){4}\)/);
      for (const n of ['fedora', 'rhel.9', 'ubuntu', 'windows.11', 'centos.stream9'])
        expect(r.err.split('\n').find((l) => l.includes('IT5006'))).toContain(`\`${n}\``);
    } finally {
      removeDir(dir);
    }
  });
});

describe('checks users expected', () => {
  it('two sizes of a family with the same spec (IT5014), and one display name on two families or versions (IT5003)', () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': `${TINY_CATALOG.replace('memoryPerCPU: 2Gi\n', 'memoryPerCPU: 2Gi\noverrides:\n  large: {cpu: 1, memory: 2Gi}\n')}---\nkind: Family\nname: d\nversion: 1\ndisplayName: Compute\ndescription: Other\nclass: compute\nmemoryPerCPU: 4Gi\n`,
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.err).toMatch(/warning IT5014 instance types `c1\.large` and `c1\.small` have the same spec/);
      expect(r.err).toMatch(/error IT5003 families `c1` and `d1` share the display name "Compute"/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('imported catalogs', () => {
  it('a wrong import path is one error, not one per reference to what it would have brought; a rule broken inside an import points at the import line too', () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'catalog/catalog.yaml': `${TINY_CATALOG.replace('name: t\n', 'name: t\nimports:\n  - path: ../nope\n')}---\nkind: Preference\nname: mine\ndisplayName: Mine\ninherits: imported.base\n`,
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.err.match(/ error IT\d+ /g)).toEqual([' error IT2020 ']);
      writeFileSync(path.join(dir, 'catalog/catalog.yaml'), TINY_CATALOG.replace('name: t\n', 'name: t\nimports:\n  - path: ../base\n'));
      mkdirSync(path.join(dir, 'base'));
      writeFileSync(
        path.join(dir, 'base/catalog.yaml'),
        'kind: Catalog\nname: base\n---\nkind: Family\nname: b\nversion: 1\ndisplayName: B\ndescription: B\nclass: b\nmemoryPerCPU: 4\n',
      );
      const inside = itgen(dir, ['validate']);
      expect(inside.err).toMatch(/^base\/catalog\.yaml:10:15 error IT1205 /m);
      expect(inside.err).toContain('note: in the catalog imported here at catalog/catalog.yaml:4:5');
    } finally {
      removeDir(dir);
    }
  });
});

describe('size ladders and imports', () => {
  it("a second ladder leaves imported families on their own catalog's ladder; several own ladders take the Catalog's defaultLadder", () => {
    const dir = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR}allowEmpty: [preferences]\n`,
      'base/catalog.yaml':
        'kind: Catalog\nname: base\n---\nkind: SizeLadder\nname: upstream\nsizes: [{name: small, cpu: 1}, {name: large, cpu: 2}]\n---\nkind: Family\nname: u\nversion: 1\ndisplayName: U\ndescription: U\nclass: u\nmemoryPerCPU: 4Gi\n',
      'catalog/catalog.yaml':
        'kind: Catalog\nname: t\nimports:\n  - path: ../base\n---\nkind: SizeLadder\nname: vendor\nsizes: [{name: tiny, cpu: 1}, {name: huge, cpu: 8}]\n---\nkind: Family\nname: v\nversion: 1\ndisplayName: V\ndescription: V\nclass: v\nmemoryPerCPU: 2Gi\n',
    });
    try {
      const r = itgen(dir, ['validate']);
      expect([r.code, r.err]).toEqual([0, expect.not.stringContaining('IT2010')]);
      const names = (itgen(dir, ['build']).out.match(/^ {2}name: (\S+)$/gm) ?? []).map((l) => l.trim().slice(6));
      expect(names).toEqual(expect.arrayContaining(['u1.small', 'u1.large', 'v1.tiny', 'v1.huge']));
      expect(names).not.toContain('u1.tiny');
      // Two ladders of its own: the catalog says which one its families use.
      writeFileSync(path.join(dir, 'catalog/more.yaml'), 'kind: SizeLadder\nname: other\nsizes: [{name: one, cpu: 1}]\n');
      expect(itgen(dir, ['validate']).err).toContain('or give the Catalog a `defaultLadder:`');
      writeFileSync(
        path.join(dir, 'catalog/catalog.yaml'),
        readFileSync(path.join(dir, 'catalog/catalog.yaml'), 'utf8').replace('name: t\n', 'name: t\ndefaultLadder: vendor\n'),
      );
      expect(itgen(dir, ['validate']).code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});

describe('deprecation replacements', () => {
  it("name the catalog's own objects; the generator's namePrefix is applied after (the prefixed name still works)", () => {
    const catalog = TINY_CATALOG.replace('  - {name: large, cpu: 2}\n', '  - {name: large, cpu: 2}\n  - {name: xlarge, cpu: 4}\n').replace(
      'memoryPerCPU: 2Gi\n',
      'memoryPerCPU: 2Gi\noverrides:\n  small: {deprecated: {replacement: c1.large, since: v1.0.0}}\n',
    );
    const dir = scratchProject({ 'generators/t.yaml': `${DEFAULT_GENERATOR}namePrefix: nw-\n`, 'catalog/catalog.yaml': catalog });
    try {
      expect(itgen(dir, ['validate']).err).not.toContain('IT5009');
      expect(itgen(dir, ['generate']).code).toBe(0);
      expect(readFileSync(path.join(dir, 'output', 'README.md'), 'utf8')).toMatch(/`nw-c1\.small`.*nw-c1\.large/);
      writeFileSync(path.join(dir, 'catalog/catalog.yaml'), catalog.replace('replacement: c1.large', 'replacement: nw-c1.large'));
      expect(itgen(dir, ['validate']).err).not.toContain('IT5009');
    } finally {
      removeDir(dir);
    }
  });
});

describe('an undersized instance type', () => {
  it('is refused with the smallest size of its series that meets the preference', () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'vm.yaml'), VM.replace('u1.medium', 'u1.nano').replace('fedora', 'windows.11'));
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        'error IT8003 VirtualMachine `v` would be refused: failure checking preference requirements: insufficient CPU resources of 1 vCPU provided by instance type',
      );
      expect(r.err).toMatch(/hint: the smallest u1 size that meets the preference's requirements: `u1\.\w+`/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('a rule broken through an imported fragment', () => {
  it("is said at the user's include of the fragment (the line a pull request annotation lands on), with the fragment and the import as a note", () => {
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'base/catalog.yaml': 'kind: Catalog\nname: base\n---\nkind: InstancetypeFragment\nname: isolated\nspec: {cpu: {isolateEmulatorThread: true}}\n',
      'catalog/catalog.yaml': TINY_CATALOG.replace('name: t\n', 'name: t\nimports:\n  - path: ../base\n').replace(
        'memoryPerCPU: 2Gi\n',
        'memoryPerCPU: 2Gi\ninclude: [isolated]\n',
      ),
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^catalog\/catalog\.yaml:\d+:\d+ error IT4007 /m);
      expect(r.err).toMatch(/ \| include: \[isolated\]/);
      expect(r.err).toContain('note: `isolated` (imported through catalog/catalog.yaml:4) sets it here at base/catalog.yaml:6:');
    } finally {
      removeDir(dir);
    }
  });
});
