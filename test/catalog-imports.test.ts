/**
 * Catalog imports: a vendor builds on a catalog instead of forking it. Imported documents join the
 * catalog (its own declaration of the same kind and name replaces the imported one), `exclude`
 * drops families and preferences, package imports come from the project's node_modules, explain
 * points into the imported files, and nothing outside the project is read.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { run as runCli } from '../src/cli/main';
import path from 'node:path';
import { compile } from '../src/pipeline';
import { explainObject } from '../src/render/explain';
import { removeDir, scratchProject } from './helpers';

const BASE = {
  'catalog.yaml': 'kind: Catalog\nname: base\n---\nkind: SizeLadder\nname: sizes\nsizes: [{name: small, cpu: 1}, {name: large, cpu: 2}]\n',
  'families.yaml':
    'kind: Family\nname: u\nversion: 1\ndisplayName: Universal\ndescription: Universal\nclass: general.purpose\nmemoryPerCPU: 4Gi\n---\nkind: Family\nname: c\nversion: 1\ndisplayName: Compute\ndescription: Compute\nclass: compute\nmemoryPerCPU: 2Gi\n',
  'preferences.yaml':
    'kind: Preference\nname: mylinux\ndisplayName: My Linux\nspec:\n  devices: {preferredDiskBus: virtio}\n---\nkind: Preference\nname: mywindows\ndisplayName: My Windows\nspec:\n  devices: {preferredDiskBus: sata}\n',
};
const files = (dir: string, o: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(o).map(([k, v]) => [`${dir}/${k}`, v]));
const GENERATOR = { 'generators/acme.yaml': 'catalog: ../catalogs/acme\noutput: ../output/acme\nvendor: acme.example\nsuppressWarnings: [IT5007]\n' };
const ACME = (imports: string): string =>
  `kind: Catalog\nname: acme\nnaming:\n  preference: "acme.{name}"\nimports:\n${imports}---\nkind: Family\nname: m\nversion: 1\ndisplayName: Memory\ndescription: Memory heavy\nclass: memory\nmemoryPerCPU: 8Gi\n---\nkind: Preference\nname: mywindows\ndisplayName: Acme Windows\nspec:\n  devices: {preferredDiskBus: virtio}\n`;

function names(dir: string): string[] {
  const r = compile(dir, 'generators/acme.yaml');
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return [...new Set(r.objects.map((o) => o.manifest.metadata.name))].sort();
}

describe('catalog imports', () => {
  it("a path import adds families, exclude drops one, and the catalog's own preference replaces the imported one", () => {
    const dir = scratchProject({
      ...GENERATOR,
      ...files('catalogs/base', BASE),
      'catalogs/acme/catalog.yaml': ACME('  - path: ../base\n    exclude: {families: [c]}\n'),
    });
    try {
      expect(names(dir)).toEqual(['acme.mylinux', 'acme.mywindows', 'm1.large', 'm1.small', 'u1.large', 'u1.small']);
      const r = compile(dir, 'generators/acme.yaml');
      const win = r.objects.find((o) => o.manifest.metadata.name === 'acme.mywindows')!;
      expect((win.manifest.spec as { devices: unknown }).devices).toEqual({ preferredDiskBus: 'virtio' });
      // Provenance: explain points into the imported catalog's files.
      const u = r.objects.find((o) => o.manifest.metadata.name === 'u1.large')!;
      expect(explainObject(u)).toContain('catalogs/base/families.yaml:');
    } finally {
      removeDir(dir);
    }
  });

  it('says which common-instancetypes release the catalog follows, its own or through an import, beside what each targeted KubeVirt release deploys', () => {
    const base = { ...BASE, 'catalog.yaml': BASE['catalog.yaml'].replace('name: base\n', 'name: base\nfollows: v1.7.0@0123abc\n') };
    const dir = scratchProject({
      'generators/acme.yaml': `${GENERATOR['generators/acme.yaml']}targetKubevirt: {min: v1.8.4, max: v1.9}\n`,
      ...files('node_modules/acme-base/catalogs/base', base),
      'catalogs/acme/catalog.yaml': ACME('  - {package: acme-base, catalog: catalogs/base}\n'),
    });
    try {
      let out = '';
      expect(runCli(['generate'], { out: (s) => (out += `${s}\n`), err: (s) => (out += `${s}\n`), cwd: dir, color: false })).toBe(0);
      const readme = readFileSync(path.join(dir, 'output', 'acme', 'README.md'), 'utf8');
      expect(readme).toContain(
        'This catalog follows kubevirt/common-instancetypes `v1.7.0` (commit `0123abc`), through its import of `acme-base`. The targeted v1.9.0 deploys it too.',
      );
      expect(readme).toMatch(/^\| v1\.9\.0 \| v1\.7\.0 \(the release this catalog follows\) \|/m);
      expect(readme).toMatch(/^\| v1\.8\.4 \| v1\.6\.0 \|/m);
      // Its own word wins over an import's; `follows` is a release or main, nothing else.
      writeFileSync(
        path.join(dir, 'catalogs/acme/catalog.yaml'),
        ACME('  - {package: acme-base, catalog: catalogs/base}\n').replace('name: acme\n', 'name: acme\nfollows: main\n'),
      );
      expect(runCli(['generate'], { out: (s) => (out += `${s}\n`), err: (s) => (out += `${s}\n`), cwd: dir, color: false })).toBe(0);
      expect(readFileSync(path.join(dir, 'output', 'acme', 'README.md'), 'utf8')).toContain(
        'This catalog follows kubevirt/common-instancetypes `main`. No KubeVirt release deploys `main`',
      );
      writeFileSync(
        path.join(dir, 'catalogs/acme/catalog.yaml'),
        ACME('  - {package: acme-base, catalog: catalogs/base}\n').replace('name: acme\n', 'name: acme\nfollows: latest\n'),
      );
      out = '';
      expect(runCli(['validate'], { out: (s) => (out += `${s}\n`), err: (s) => (out += `${s}\n`), cwd: dir, color: false })).toBe(1);
      expect(out).toContain('catalogs/acme/catalog.yaml:3:10 error');
      expect(out).toContain('`main` or a release like `v1.7.0`');
    } finally {
      removeDir(dir);
    }
  });

  it('says the import a followed release comes through as text, whatever its directory is called', () => {
    const base = { ...BASE, 'catalog.yaml': BASE['catalog.yaml'].replace('name: base\n', 'name: base\nfollows: main\n') };
    const dir = scratchProject({
      'generators/acme.yaml': `${GENERATOR['generators/acme.yaml']}targetKubevirt: v1.9\n`,
      ...files('catalogs/b`a*s*e', base),
      'catalogs/acme/catalog.yaml': ACME('  - path: "../b`a*s*e"\n'),
    });
    try {
      expect(runCli(['generate'], { out: () => undefined, err: () => undefined, cwd: dir, color: false })).toBe(0);
      expect(readFileSync(path.join(dir, 'output', 'acme', 'README.md'), 'utf8')).toContain("through its import of `catalogs/b'a*s*e`.");
    } finally {
      removeDir(dir);
    }
  });

  it("a package import reads the catalog from the project's node_modules", () => {
    const dir = scratchProject({
      ...GENERATOR,
      ...files('node_modules/acme-base/catalogs/base', BASE),
      'catalogs/acme/catalog.yaml': ACME('  - {package: acme-base, catalog: catalogs/base}\n'),
    });
    try {
      expect(names(dir)).toContain('c1.small');
    } finally {
      removeDir(dir);
    }
  });

  it.each([
    [
      'a missing directory',
      '  - path: ../nothing\n',
      /catalogs\/acme\/catalog\.yaml:6:5 error IT2020 import `\.\.\/nothing`: no catalog directory catalogs\/nothing/,
    ],
    [
      'a package not installed',
      '  - {package: missing-pkg, catalog: catalogs/x}\n',
      /error IT2020 import `missing-pkg\/catalogs\/x`: no catalog directory .*\n(.*\n)* {2}hint: install it: npm install missing-pkg/,
    ],
    ['a path out of the project', '  - path: ../../../../etc\n', /error IT2021 import `\.\.\/\.\.\/\.\.\/\.\.\/etc` leads outside the project directory/],
    ['a link out of the project', '  - path: ../linked\n', /error IT2021 import `\.\.\/linked` leads outside the project directory/],
    ['both a path and a package', '  - {path: ../base, package: x, catalog: y}\n', /error IT2020 an import names either `path`, or `package` and `catalog`/],
  ])('%s is an error at the import', (_what, imports, expected) => {
    const dir = scratchProject({ ...GENERATOR, ...files('catalogs/base', BASE), 'catalogs/acme/catalog.yaml': ACME(imports) });
    try {
      mkdirSync(path.join(dir, 'catalogs'), { recursive: true });
      symlinkSync('/etc', path.join(dir, 'catalogs', 'linked'));
      writeFileSync(path.join(dir, 'unused'), '');
      const r = compile(dir, 'generators/acme.yaml');
      const text = r.diagnostics
        .map(
          (d) =>
            `${d.location ? `${d.location.file}:${d.location.line}:${d.location.col} ` : ''}${d.severity} ${d.code} ${d.message}\n${d.hint ? `  hint: ${d.hint}\n` : ''}`,
        )
        .join('');
      expect(text).toMatch(expected);
      expect(text).not.toContain('passwd');
    } finally {
      removeDir(dir);
    }
  });
});

describe('a package import through a linked node_modules (a hoisted workspace, a scratch clone)', () => {
  it('is one IT2021 with what to do, and the references to what it would have declared do not each fail', () => {
    const outside = scratchProject(files('node_modules/acme-base/catalogs/base', BASE));
    // The catalog's own preferences inherit from the imported ones: each would fail without the stand-in.
    const acme = `${ACME('  - {package: acme-base, catalog: catalogs/base}\n')}---\nkind: Preference\nname: mylinux2\ndisplayName: Linux 2\ninherits: [mylinux]\n---\nkind: Preference\nname: mywin2\ndisplayName: Windows 2\ninherits: [mywindows]\n`;
    const dir = scratchProject({ ...GENERATOR, 'catalogs/acme/catalog.yaml': acme });
    try {
      symlinkSync(path.join(outside, 'node_modules'), path.join(dir, 'node_modules'));
      const r = compile(dir, 'generators/acme.yaml');
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => d.code)).toEqual(['IT2021']);
      expect(errors[0]!.message).toBe('import `acme-base/catalogs/base` leads outside the project directory');
      expect(errors[0]!.hint).toContain('npm install --install-links acme-base');
    } finally {
      removeDir(dir);
      removeDir(outside);
    }
  });
});

describe('inheriting an imported preference with architecture overrides', () => {
  const RHEL = {
    'catalog.yaml':
      'kind: Catalog\nname: base\n---\nkind: SizeLadder\nname: sizes\nsizes: [{name: small, cpu: 1}]\n---\nkind: Family\nname: u\nversion: 1\ndisplayName: U\ndescription: U\nclass: general.purpose\nmemoryPerCPU: 4Gi\n',
    'preferences.yaml':
      'kind: Preference\nname: rhel.9\ndisplayName: RHEL 9\narchitectures: [amd64, arm64]\nspec:\n  devices: {preferredDiskBus: virtio}\narchitectureOverrides:\n  amd64:\n    spec:\n      firmware: {preferredEfi: {secureBoot: true}}\n      features: {preferredSmm: {}}\n',
  };
  const team = (extra: string): string =>
    `kind: Catalog\nname: acme\nnaming:\n  preference: "acme.{name}"\nimports:\n  - path: ../base\n---\nkind: Preference\nname: rhel9\ndisplayName: Acme RHEL 9\ninherits: [rhel.9]\n${extra}`;

  it('refuses (IT2022) a child that would silently lose the base’s amd64 Secure Boot and SMM, naming them; one that restates them passes', () => {
    const dir = scratchProject({ ...GENERATOR, ...files('catalogs/base', RHEL), 'catalogs/acme/catalog.yaml': team('') });
    try {
      const r = compile(dir, 'generators/acme.yaml');
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => [d.code, d.location?.file, d.message])).toEqual([
        [
          'IT2022',
          'catalogs/acme/catalog.yaml',
          'preference `rhel9` inherits `rhel.9`, whose amd64 override (features.preferredSmm, firmware.preferredEfi.secureBoot) inheritance does not carry: its amd64 object would silently lose it',
        ],
      ]);
      writeFileSync(
        path.join(dir, 'catalogs/acme/catalog.yaml'),
        team('architectureOverrides:\n  amd64:\n    spec:\n      firmware: {preferredEfi: {secureBoot: true}}\n      features: {preferredSmm: {}}\n'),
      );
      expect(compile(dir, 'generators/acme.yaml').diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('an import taken as a base only (base: true)', () => {
  it('ships none of its families or preferences, lends its ladders, fragments and preferences to inherit from, and asks nothing of its Catalog defaults', () => {
    const base = {
      ...BASE,
      'catalog.yaml': `${BASE['catalog.yaml'].replace('name: base\n', 'name: base\nnaming: {defaultArchitectureDisplayName: "{{displayName}}"}\n')}---\nkind: PreferenceFragment\nname: efi\nspec: {firmware: {preferredEfi: {secureBoot: false}}}\n`,
    };
    const own = `kind: Catalog\nname: acme\nnaming:\n  preference: "acme.{name}"\nimports:\n  - {path: ../base, base: true}\n---\nkind: Family\nname: db\nversion: 1\ndisplayName: Database\ndescription: Database\nclass: memory\nmemoryPerCPU: 8Gi\n---\nkind: Preference\nname: appliance\ndisplayName: Acme Appliance\ninherits: mylinux\ninclude: [efi]\n`;
    const dir = scratchProject({ ...GENERATOR, ...files('catalogs/base', base), 'catalogs/acme/catalog.yaml': own });
    try {
      const r = compile(dir, 'generators/acme.yaml');
      expect(r.diagnostics).toEqual([]);
      // Only the catalog's own: db1 over the imported ladder, and the appliance inheriting the imported mylinux.
      expect([...new Set(r.objects.map((o) => o.manifest.metadata.name))].sort()).toEqual(['acme.appliance', 'db1.large', 'db1.small']);
      const appliance = r.objects.find((o) => o.manifest.metadata.name === 'acme.appliance')!.manifest as unknown as { spec: Record<string, unknown> };
      expect(appliance.spec).toMatchObject({ devices: { preferredDiskBus: 'virtio' }, firmware: { preferredEfi: { secureBoot: false } } });
      // Without base: true, the same import ships upstream's objects and says what its Catalog's defaults lose.
      writeFileSync(path.join(dir, 'catalogs/acme/catalog.yaml'), own.replace('{path: ../base, base: true}', '{path: ../base}'));
      const all = compile(dir, 'generators/acme.yaml');
      expect(all.diagnostics.map((d) => d.code)).toContain('IT2023');
      expect(all.objects.map((o) => o.manifest.metadata.name)).toContain('u1.small');
    } finally {
      removeDir(dir);
    }
  });
});

describe('a mistake through an imported fragment', () => {
  it("is reported at the user's include line (where a pull request's annotation lands), with the fragment's line as a note, and not at other families' includes", () => {
    const base = {
      ...BASE,
      'catalog.yaml': `${BASE['catalog.yaml']}---\nkind: InstancetypeFragment\nname: numa\nspec:\n  cpu: {numa: {guestMappingPassthrough: {}}}\n`,
    };
    const own = ACME('  - path: ../base\n').replace(
      'memoryPerCPU: 8Gi\n',
      'memoryPerCPU: 8Gi\ninclude: [numa]\n---\nkind: Family\nname: d\nversion: 1\ndisplayName: Dedicated\ndescription: Dedicated\nclass: dedicated\nmemoryPerCPU: 4Gi\ninclude: [numa]\nspec: {cpu: {dedicatedCPUPlacement: true}, memory: {hugepages: {pageSize: 2Mi}}}\n',
    );
    const dir = scratchProject({ ...GENERATOR, ...files('catalogs/base', base), 'catalogs/acme/catalog.yaml': own });
    try {
      const errors = compile(dir, 'generators/acme.yaml').diagnostics.filter((d) => d.severity === 'error');
      expect(errors.length).toBeGreaterThan(0);
      // Family m (no dedicated CPUs, no hugepages) is the mistake; family d includes numa soundly.
      const includeLine = own.split('\n').indexOf('include: [numa]') + 1;
      for (const e of errors) {
        expect([e.code, e.location?.file, e.location?.line]).toEqual(['IT4006', 'catalogs/acme/catalog.yaml', includeLine]);
        expect(e.message).toMatch(/instance types `m1\.large`, `m1\.small`/);
        expect(e.related).toEqual([expect.objectContaining({ location: expect.objectContaining({ file: 'catalogs/base/catalog.yaml' }) })]);
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe("an import's Catalog defaults", () => {
  it('are named when the importing catalog does not set them (IT2023, a warning), and not when it does', () => {
    const base = {
      ...BASE,
      'catalog.yaml': `kind: Catalog\nname: base\nnaming:\n  defaultArchitectureDisplayName: "{{displayName}} ({{arch}})"\npreferences:\n  annotations:\n    openshift.io/provider-display-name: KubeVirt\n    tags: "hidden,kubevirt"\n---\nkind: SizeLadder\nname: sizes\nsizes: [{name: small, cpu: 1}, {name: large, cpu: 2}]\n`,
    };
    const dir = scratchProject({ ...GENERATOR, ...files('catalogs/base', base), 'catalogs/acme/catalog.yaml': ACME('  - path: ../base\n') });
    try {
      const warned = compile(dir, 'generators/acme.yaml').diagnostics.filter((d) => d.code === 'IT2023');
      expect(warned.map((d) => [d.severity, d.location?.file, d.message])).toEqual([
        [
          'warning',
          'catalogs/acme/catalog.yaml',
          "import `../base`: its Catalog's defaults do not come with it, so its objects lose naming.defaultArchitectureDisplayName, preferences.annotations.openshift.io/provider-display-name, preferences.annotations.tags",
        ],
      ]);
      const keeping = ACME('  - path: ../base\n').replace(
        'naming:\n  preference: "acme.{name}"\n',
        'naming:\n  preference: "acme.{name}"\n  defaultArchitectureDisplayName: "{{displayName}} ({{arch}})"\npreferences:\n  annotations:\n    openshift.io/provider-display-name: KubeVirt\n    tags: "hidden,kubevirt"\n',
      );
      writeFileSync(path.join(dir, 'catalogs/acme/catalog.yaml'), keeping);
      expect(compile(dir, 'generators/acme.yaml').diagnostics.filter((d) => d.code === 'IT2023')).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('a package import pinned to a version', () => {
  it('is an error (IT2024) at the pin when another version is installed, with what to review; the installed version passes', () => {
    const dir = scratchProject({
      ...GENERATOR,
      ...files('node_modules/acme-base/catalogs/base', BASE),
      'node_modules/acme-base/package.json': '{"name": "acme-base", "version": "1.2.0"}\n',
      'catalogs/acme/catalog.yaml': ACME('  - {package: acme-base, catalog: catalogs/base, version: "1.1.0"}\n'),
    });
    try {
      const r = compile(dir, 'generators/acme.yaml');
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => [d.code, d.location?.file, d.location?.line, d.message])).toEqual([
        ['IT2024', 'catalogs/acme/catalog.yaml', 6, 'import `acme-base/catalogs/base` is pinned to acme-base 1.1.0, but 1.2.0 is installed'],
      ]);
      expect(errors[0]!.hint).toContain('set version: "1.2.0"');
      writeFileSync(path.join(dir, 'catalogs/acme/catalog.yaml'), ACME('  - {package: acme-base, catalog: catalogs/base, version: "1.2.0"}\n'));
      expect(names(dir)).toContain('c1.small');
    } finally {
      removeDir(dir);
    }
  });
});

describe('the release lock names the upstream package versions', () => {
  it('each release records the versions its package imports came from, and the notes say when they moved', () => {
    const dir = scratchProject({
      ...GENERATOR,
      ...files('node_modules/acme-base/catalogs/base', BASE),
      'node_modules/acme-base/package.json': '{"name": "acme-base", "version": "1.2.0"}\n',
      'catalogs/acme/catalog.yaml': ACME('  - {package: acme-base, catalog: catalogs/base}\n'),
    });
    const run = (...argv: string[]): { code: number; out: string } => {
      let out = '';
      const code = runCli(argv, { out: (s) => (out += `${s}\n`), err: (s) => (out += `${s}\n`), cwd: dir, color: false });
      return { code, out };
    };
    try {
      expect(run('generate').code).toBe(0);
      expect(run('release', '--version', 'v1.0.0').code).toBe(0);
      writeFileSync(path.join(dir, 'node_modules/acme-base/package.json'), '{"name": "acme-base", "version": "1.3.0"}\n');
      expect(run('release', '--version', 'v1.1.0').code).toBe(0);
      const lock = readFileSync(path.join(dir, 'generators/acme.lock.yaml'), 'utf8');
      expect(lock).toContain(
        'imports:\n  - release: v1.0.0\n    package: acme-base\n    version: 1.2.0\n  - release: v1.1.0\n    package: acme-base\n    version: 1.3.0\n',
      );
      const notes = run('notes').out;
      expect(notes).toContain('## v1.1.0\n\nImported catalogs from `acme-base` `1.3.0` (was `1.2.0`).');
      expect(notes).toContain('## v1.0.0\n\nImported catalogs from `acme-base` `1.2.0`.');
      expect(run('validate').code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});

describe('patches on imported documents (imports[].patches)', () => {
  const PATCHED = `  - path: ../base
    patches:
      - target: {kind: Family, name: c}
        patch:
          deprecated: {replacement: u1, since: v1.1.0}
          sizes: [large]
      - target: {kind: Preference, name: mylinux}
        patch:
          displayName: Acme Linux
          labels: {acme.example/tier: gold}
          spec: {devices: {preferredNetworkInterfaceMultiQueue: true}}
`;
  it('deprecates, resizes and relabels imported documents without copying them; explain points at the patch and at the imported file', () => {
    const dir = scratchProject({ ...GENERATOR, ...files('catalogs/base', BASE), 'catalogs/acme/catalog.yaml': ACME(PATCHED) });
    try {
      expect(names(dir)).toEqual(['acme.mylinux', 'acme.mywindows', 'c1.large', 'm1.large', 'm1.small', 'u1.large', 'u1.small']);
      const r = compile(dir, 'generators/acme.yaml');
      const c = r.objects.find((o) => o.manifest.metadata.name === 'c1.large')!;
      expect(c.manifest.metadata.labels?.['instancetype.kubevirt.io/deprecated']).toBe('true');
      const linux = r.objects.find((o) => o.manifest.metadata.name === 'acme.mylinux')!;
      expect(linux.manifest.metadata.labels?.['acme.example/tier']).toBe('gold');
      expect(linux.manifest.metadata.annotations?.['openshift.io/display-name']).toBe('Acme Linux');
      // The spec still comes from the imported file; what the patch wrote, from the patch.
      const explained = explainObject(linux);
      expect(explained).toMatch(/preferredDiskBus: virtio # catalogs\/base\/preferences\.yaml:\d+/);
      expect(explained).toMatch(/preferredNetworkInterfaceMultiQueue: true # catalogs\/acme\/catalog\.yaml:16:/);
      const c1 = explainObject(c);
      expect(c1).toContain('catalogs/base/families.yaml:');
    } finally {
      removeDir(dir);
    }
  });

  it('a patch with an error in what it writes is reported at the patch, and the import line', () => {
    const dir = scratchProject({
      ...GENERATOR,
      ...files('catalogs/base', BASE),
      'catalogs/acme/catalog.yaml': ACME('  - path: ../base\n    patches:\n      - target: {kind: Family, name: u}\n        patch: {memoryPerCPU: lots}\n'),
    });
    try {
      const r = compile(dir, 'generators/acme.yaml');
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors[0]!.location).toMatchObject({ file: 'catalogs/acme/catalog.yaml', line: 9 });
    } finally {
      removeDir(dir);
    }
  });

  it.each([
    [
      'a target the import lacks (with a did-you-mean)',
      '      - target: {kind: Family, name: cc}\n        patch: {deprecated: {}}\n',
      /IT2025 imports\[0\]\.patches\[0\]: import `\.\.\/base` has no Family `cc`[^]*did you mean `c`/,
    ],
    [
      'a target the import excludes',
      '      - target: {kind: Family, name: c}\n        patch: {deprecated: {}}\n    exclude: {families: [c]}\n',
      /IT2025 imports\[0\]\.patches\[0\] patches Family `c`, which is not imported[^]*the import excludes it/,
    ],
    [
      'a target the catalog declares itself',
      '      - target: {kind: Preference, name: mywindows}\n        patch: {displayName: X}\n',
      /IT2025 [^]*which is not imported[^]*this catalog declares it itself/,
    ],
    [
      'a patch that renames',
      '      - target: {kind: Family, name: c}\n        patch: {name: cc}\n',
      /IT2025 imports\[0\]\.patches\[0\] changes the `name` of the Family it patches/,
    ],
  ])('%s is an error at the patch', (_what, patches, expected) => {
    const dir = scratchProject({
      ...GENERATOR,
      ...files('catalogs/base', BASE),
      'catalogs/acme/catalog.yaml': ACME(`  - path: ../base\n    patches:\n${patches}`),
    });
    try {
      let out = '';
      const code = runCli(['validate'], { out: (s) => (out += `${s}\n`), err: (s) => (out += `${s}\n`), cwd: dir, color: false });
      expect(code).toBe(1);
      expect(out).toMatch(expected);
      expect(out).toMatch(/catalogs\/acme\/catalog\.yaml:\d+:\d+ error IT2025/);
    } finally {
      removeDir(dir);
    }
  });
});
