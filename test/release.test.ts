/**
 * Unit tests of the release workflow's pure parts: vendor selection and namespace, the release
 * lock, bundles, the semantic diff, the KRM ResourceList handling, docs and the CLI arguments.
 */
import { parseAllDocuments } from 'yaml';
import { parseCommandLine } from '../src/cli/parse';
import { COMMANDS } from '../src/cli/commands';
import { run, type Io } from '../src/cli/main';
import { layoutBase } from '../src/emit/layout';
import { compile, type CompileResult } from '../src/pipeline';
import { buildBundles, bundleNames } from '../src/release/bundle';
import { canonicalJson, sha256Hex, specDigest } from '../src/digest';
import { diffFields, diffObjects, formatDiff, parseObjects, type KubeObject } from '../src/release/diff';
import { parseResourceList, resultItems, withoutOrchestratorAnnotations } from '../src/release/krm';
import { checkLock, compareVersions, currentObjects, lockFileFor, recordRelease, serializeLock, type LoadedLock } from '../src/release/lock';
import { parseSource } from '../src/load/source';
import { lockSchema, type ReleaseLock } from '../src/schema/lock';
import { bundleSettings } from '../src/schema/generator';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, removeDir, scratchProject } from './helpers';
import { SMALL_CATALOG } from './e2e-helpers';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Compile the small catalog with extra generator settings (YAML lines). */
function small(generatorExtra = '', files: Record<string, string> = {}): CompileResult {
  const dir = scratchProject({ ...SMALL_CATALOG, 'generators/small.yaml': `${SMALL_CATALOG['generators/small.yaml']}${generatorExtra}`, ...files });
  dirs.push(dir);
  return compile(dir, 'generators/small.yaml');
}

const names = (r: CompileResult): string[] => r.objects.map((o) => `${o.manifest.kind}/${o.manifest.metadata.name}`);

function lockOf(text: string): LoadedLock {
  const src = parseSource('generators/small.lock.yaml', Buffer.from(text)).docs[0]!;
  return { file: 'generators/small.lock.yaml', lock: lockSchema.parse(src.value), src };
}

function released(r: CompileResult, version = 'v1.0.0', previous?: LoadedLock): LoadedLock {
  const rec = recordRelease(previous, 'small', currentObjects(r.objects), version);
  expect(rec.diagnostics).toEqual([]);
  return lockOf(serializeLock(rec.lock!));
}

describe('vendor selection', () => {
  it('keeps everything by default, in both scopes', () => {
    const r = small();
    expect(r.diagnostics).toEqual([]);
    expect(names(r)).toEqual([
      'VirtualMachineClusterInstancetype/u1.large',
      'VirtualMachineClusterInstancetype/u1.small',
      'VirtualMachineInstancetype/u1.large',
      'VirtualMachineInstancetype/u1.small',
      'VirtualMachineClusterPreference/legacy',
      'VirtualMachineClusterPreference/linux',
      'VirtualMachinePreference/legacy',
      'VirtualMachinePreference/linux',
    ]);
  });

  it('include narrows each dimension it names, exclude drops, `*` is a wildcard; prefix and suffix rename', () => {
    const r = small('scopes: [cluster]\ninclude: {sizes: [lar*]}\nexclude: {preferences: [leg*]}\nnamePrefix: acme-\nnameSuffix: -v\n');
    expect(r.diagnostics).toEqual([]);
    expect(names(r)).toEqual(['VirtualMachineClusterInstancetype/acme-u1.large-v', 'VirtualMachineClusterPreference/acme-linux-v']);
    // The catalog the rules and docs see is the selected one.
    expect(r.catalog!.instancetypes.map((i) => i.name)).toEqual(['acme-u1.large-v']);
    expect(r.files.find((f) => f.path === 'README.md')!.content).toMatch(/`acme-u1\.large-v`/);
  });

  it('matches preferences by declared name across architectures, and keeps architecture-neutral ones', () => {
    const arch = {
      'catalogs/small/arch.yaml':
        'kind: Preference\nname: fedora\ndisplayName: Fedora\narchitectures: [amd64, arm64]\nspec:\n  annotations: {vm.kubevirt.io/os: linux}\n',
    };
    const byArch = small('scopes: [cluster]\ninclude: {architectures: [arm64]}\n', arch);
    expect(names(byArch).filter((n) => n.includes('Preference'))).toEqual([
      'VirtualMachineClusterPreference/fedora.arm64',
      'VirtualMachineClusterPreference/legacy',
      'VirtualMachineClusterPreference/linux',
    ]);
    const byName = small('scopes: [cluster]\nexclude: {preferences: [fedora]}\n', arch);
    expect(names(byName).filter((n) => n.includes('fedora'))).toEqual([]);
  });

  it('refuses names that match nothing (a typo would ship what was meant to be dropped, or empty the base)', () => {
    const r = small('exclude: {families: [u2], preferences: [linx]}\n');
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.location?.line}:${d.location?.col} ${d.message}`)).toEqual([
      'error IT7201 9:22 exclude.families: `u2` matches nothing in catalog `small`',
      'error IT7201 9:41 exclude.preferences: `linx` matches nothing in catalog `small`',
    ]);
    expect(r.files).toEqual([]);
  });

  it('refuses a kind that comes out empty unless the generator allows it', () => {
    const r = small('include: {families: [u1]}\nexclude: {preferences: ["*"]}\n');
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`)).toEqual([
      'error IT7202 the generator would emit no preferences (catalog `small` after include and exclude)',
    ]);
    expect(r.diagnostics[0]!.hint).toContain('allowEmpty: [preferences]');
    const allowed = small('include: {families: [u1]}\nexclude: {preferences: ["*"]}\nallowEmpty: [preferences]\n');
    expect(allowed.diagnostics).toEqual([]);
    expect(allowed.objects.every((o) => o.manifest.kind.endsWith('Instancetype'))).toBe(true);
  });

  it('sets the target namespace on namespaced objects only', () => {
    const r = small('namespace: tenant-a\n');
    expect(r.diagnostics).toEqual([]);
    for (const o of r.objects) expect((o.manifest.metadata as { namespace?: string }).namespace).toBe(o.scope === 'namespaced' ? 'tenant-a' : undefined);
    const files = layoutBase(r.objects);
    const cluster = files.find((f) => f.path.endsWith('virtualmachineclusterinstancetypes.yaml'))!.content;
    const namespaced = files.find((f) => f.path.endsWith('/virtualmachineinstancetypes.yaml'))!.content;
    expect(cluster).not.toMatch(/namespace:/);
    expect(namespaced).toMatch(/^ {2}name: u1\.large\n {2}namespace: tenant-a\nspec:/m);
    const bad = small('namespace: Tenant_A\n');
    expect(bad.diagnostics[0]).toMatchObject({ code: 'IT1203' });
  });

  it('requires metadata.name to be the file name', () => {
    const r = small('', { 'generators/small.yaml': SMALL_CATALOG['generators/small.yaml']!.replace('name: small', 'name: big') });
    expect(r.diagnostics[0]).toMatchObject({ code: 'IT1009', message: "metadata.name `big` is not the generator's file name `small`" });
  });
});

describe('release lock', () => {
  it('digests the spec only, independent of key order', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: 'x' })).toBe('{"a":"x","b":[2,{"c":null,"d":1}]}');
    expect(specDigest({ a: 1, b: 2 })).toBe(specDigest({ b: 2, a: 1 }));
    expect(specDigest({ a: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('sits beside its generator', () => {
    expect(lockFileFor('generators/default.yaml', 'default')).toBe('generators/default.lock.yaml');
    expect(lockFileFor('gen.yaml', 'gen')).toBe('gen.lock.yaml');
  });

  it('accepts an unchanged catalog and label-only changes', () => {
    const lock = released(small());
    expect(checkLock(lock, 'small', currentObjects(small().objects)).diagnostics).toEqual([]);
    const relabelled = small('labels: {a: b}\n', {
      'generators/small.yaml': SMALL_CATALOG['generators/small.yaml']!.replace('vendor: example.com', 'vendor: other.example'),
    });
    expect(relabelled.objects).toHaveLength(8);
    expect(checkLock(lock, 'small', currentObjects(relabelled.objects)).diagnostics).toEqual([]);
  });

  it('takes `deprecated.since` only as a release version, reported where it is written', () => {
    const withSince = (since: string): CompileResult =>
      small('', {
        'catalogs/small/preferences.yaml': SMALL_CATALOG['catalogs/small/preferences.yaml']!.replace(
          'name: legacy\n',
          `name: legacy\ndeprecated: {replacement: linux, since: ${since}}\n`,
        ),
      });
    expect(withSince('v1.1.0').diagnostics).toEqual([]);
    expect(withSince('v2.0.0-rc.1').diagnostics).toEqual([]);
    const bad = withSince('"1.1"');
    expect(bad.diagnostics).toHaveLength(1);
    const lines = SMALL_CATALOG['catalogs/small/preferences.yaml']!.split('\n');
    expect(bad.diagnostics[0]).toMatchObject({
      severity: 'error',
      location: { file: 'catalogs/small/preferences.yaml', line: lines.indexOf('name: legacy') + 2 },
    });
    expect(bad.diagnostics[0]!.message).toContain('a release version like `v1.2.0`');
  });

  it('records deprecation, removal, return with the same spec, and un-deprecation', () => {
    const v1 = released(small('scopes: [cluster]\n'));
    const deprecated = small('scopes: [cluster]\n', {
      'catalogs/small/preferences.yaml': SMALL_CATALOG['catalogs/small/preferences.yaml']!.replace(
        'name: legacy\n',
        'name: legacy\ndeprecated: {replacement: linux}\n',
      ),
    });
    const v2 = released(deprecated, 'v1.1.0', v1);
    expect(v2.lock.objects.find((o) => o.name === 'legacy')).toMatchObject({ released: 'v1.0.0', deprecated: 'v1.1.0' });
    const removed = small('scopes: [cluster]\nexclude: {preferences: [legacy]}\n');
    expect(checkLock(v2, 'small', currentObjects(removed.objects)).diagnostics).toEqual([]);
    const v3 = released(removed, 'v1.2.0', v2);
    expect(v3.lock.objects.find((o) => o.name === 'legacy')).toMatchObject({ deprecated: 'v1.1.0', removed: 'v1.2.0' });
    // Back with the spec it had, not deprecated any more: both recorded.
    const v4 = released(small('scopes: [cluster]\n'), 'v1.3.0', v3);
    const legacy = v4.lock.objects.find((o) => o.name === 'legacy')!;
    expect(legacy.removed).toBeUndefined();
    expect(legacy.deprecated).toBeUndefined();
    expect(v4.lock.releases).toEqual(['v1.0.0', 'v1.1.0', 'v1.2.0', 'v1.3.0']);
  });

  it('keeps the reason of a reviewed removal without deprecation in the lock', () => {
    const v1 = released(small('scopes: [cluster]\n'));
    const withOverride = lockOf(
      serializeLock({
        ...v1.lock,
        overrides: [{ name: 'legacy', kind: 'VirtualMachineClusterPreference', allow: 'removal', reason: 'security: guests without virtio are unsupported' }],
      }),
    );
    const removed = small('scopes: [cluster]\nexclude: {preferences: [legacy]}\n');
    expect(checkLock(withOverride, 'small', currentObjects(removed.objects)).diagnostics).toEqual([]);
    const v2 = released(removed, 'v1.1.0', withOverride);
    expect(v2.lock.objects.find((o) => o.name === 'legacy')).toMatchObject({
      removed: 'v1.1.0',
      removedReason: 'security: guests without virtio are unsupported',
    });
  });

  it('refuses a version that is not newer', () => {
    const v1 = released(small());
    expect(recordRelease(v1, 'small', currentObjects(small().objects), 'v1.0.0').diagnostics[0]).toMatchObject({ code: 'IT7105' });
    expect(recordRelease(v1, 'small', currentObjects(small().objects), 'v1.0.0-rc.1').diagnostics[0]).toMatchObject({ code: 'IT7105' });
    expect(compareVersions('v1.10.0', 'v1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('v2.0.0-rc.1', 'v2.0.0')).toBeLessThan(0);
    expect(compareVersions('v1.0.0-rc.10', 'v1.0.0-rc.9')).toBeGreaterThan(0);
    expect(compareVersions('v1.0.0-alpha', 'v1.0.0-alpha.1')).toBeLessThan(0);
    expect(compareVersions('v1.0.0-1', 'v1.0.0-alpha')).toBeLessThan(0);
    expect(compareVersions('v1.0.0-beta.2', 'v1.0.0-beta.11')).toBeLessThan(0);
    expect(compareVersions('v2.0.0-rc.2', 'v2.0.0-rc.1')).toBeGreaterThan(0);
  });

  it('serializes with a fixed key order and parses back', () => {
    const lock = released(small());
    const text = serializeLock(lock.lock);
    expect(text).toMatch(/^# Release lock of generator `small`/);
    expect(text).toMatch(
      /^apiVersion: itgen\.dev\/v1alpha1\nkind: ReleaseLock\nmetadata:\n {2}name: small\nreleases:\n {2}- v1\.0\.0\nobjects:\n {2}- kind: VirtualMachineClusterInstancetype\n {4}name: u1\.large\n {4}digest: sha256:/m,
    );
    expect(lockSchema.parse(parseAllDocuments(text)[0]!.toJS()) satisfies ReleaseLock).toEqual(lock.lock);
  });
});

describe('bundles', () => {
  it('are named like upstream, stamped, and checksummed in sha256sum format', () => {
    const r = small();
    const files = buildBundles(r.objects, { version: 'v1.2.3', versionLabel: 'instancetype.kubevirt.io/common-instancetypes-version', filePrefix: 'common' });
    expect(files.map((f) => f.path)).toEqual([
      'common-clusterinstancetypes-bundle-v1.2.3.yaml',
      'common-clusterpreferences-bundle-v1.2.3.yaml',
      'common-instancetypes-all-bundle-v1.2.3.yaml',
      'common-instancetypes-bundle-v1.2.3.yaml',
      'common-preferences-bundle-v1.2.3.yaml',
      'CHECKSUMS.sha256',
    ]);
    const sums = files.at(-1)!.content.trim().split('\n');
    expect(sums).toEqual(files.slice(0, -1).map((f) => `${sha256Hex(f.content)}  ${f.path}`));
    const all = files.find((f) => f.path.includes('all-bundle'))!.content;
    // The label sits in sorted position; the base itself is not stamped.
    expect(all).toMatch(
      /instancetype\.kubevirt\.io\/class: general\.purpose\n {4}instancetype\.kubevirt\.io\/common-instancetypes-version: v1\.2\.3\n {4}instancetype\.kubevirt\.io\/cpu:/,
    );
    expect(r.files.map((f) => f.content).join('')).not.toMatch(/common-instancetypes-version/);
    expect(parseObjects(all).objects).toHaveLength(8);
  });

  it('leave out the kinds a generator does not emit', () => {
    const r = small('scopes: [cluster]\n');
    const files = buildBundles(r.objects, { version: 'v1.0.0', versionLabel: 'example.com/v', filePrefix: 'acme' });
    expect(files.map((f) => f.path)).toEqual([
      'acme-clusterinstancetypes-bundle-v1.0.0.yaml',
      'acme-clusterpreferences-bundle-v1.0.0.yaml',
      'acme-instancetypes-all-bundle-v1.0.0.yaml',
      'CHECKSUMS.sha256',
    ]);
    expect(bundleNames('common').map((b) => b.name)).toEqual([
      'common-instancetypes-all-bundle',
      'common-clusterinstancetypes-bundle',
      'common-instancetypes-bundle',
      'common-clusterpreferences-bundle',
      'common-preferences-bundle',
    ]);
  });
});

describe('semantic diff', () => {
  const obj = (name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}): KubeObject =>
    ({ apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineClusterInstancetype', metadata: { name, labels }, spec }) as unknown as KubeObject;

  it('reports fields by path, with label keys quoted and arrays by index', () => {
    expect(diffFields({ a: { b: 1, 'x/y': 'p' }, g: [{ n: 1 }] }, { a: { b: 2, 'x/y': 'q' }, g: [{ n: 2 }], c: true })).toEqual([
      { path: 'a.b', before: 1, after: 2 },
      { path: 'a["x/y"]', before: 'p', after: 'q' },
      { path: 'c', before: undefined, after: true },
      { path: 'g[0].n', before: 1, after: 2 },
    ]);
    expect(diffFields([1, 2], [1, 2, 3], 'l')).toEqual([{ path: 'l', before: [1, 2], after: [1, 2, 3] }]);
  });

  it('orders by kind then name, ignores given labels and formats for humans', () => {
    const before = [obj('b', { cpu: { guest: 1 } }, { v: '1' }), obj('a', {})];
    const after = [obj('b', { cpu: { guest: 2 } }, { v: '2' }), obj('c', {})];
    const d = diffObjects(before, after, ['v']);
    expect(d.map((x) => `${x.change} ${x.name}`)).toEqual(['removed a', 'changed b', 'added c']);
    expect(formatDiff(d)).toBe('VirtualMachineClusterInstancetype:\n  - a\n  ~ b\n      spec.cpu.guest: 1 -> 2\n  + c\n1 added, 1 removed, 1 changed\n');
    expect(formatDiff([])).toBe('no differences\n');
  });

  it('reads only instancetype.kubevirt.io objects from a stream', () => {
    const r = parseObjects(
      '---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachinePreference\nmetadata: {name: p}\n---\n',
    );
    expect(r.objects.map((o) => o.metadata.name)).toEqual(['p']);
    expect(parseObjects('a: [').error).toBeDefined();
  });
});

describe('KRM function', () => {
  it('parses a ResourceList and strips the orchestrator annotations from the function config', () => {
    const input = parseResourceList(
      'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  kind: Generator\n  metadata:\n    name: small\n    annotations:\n      config.kubernetes.io/index: "0"\n      internal.config.kubernetes.io/path: x.yaml\n',
    );
    if ('error' in input) throw new Error(input.error);
    expect(withoutOrchestratorAnnotations(input.functionConfig)).toEqual({ kind: 'Generator', metadata: { name: 'small' } });
    expect(parseResourceList('kind: ConfigMap\n')).toEqual({ error: 'stdin is not a ResourceList (kind: ResourceList)' });
    expect(parseResourceList('kind: ResourceList\nitems: []\n')).toMatchObject({ error: expect.stringMatching(/no functionConfig/) });
  });

  it('replaces earlier copies of its objects, keeps everything else, and says where each object goes', () => {
    const r = small('scopes: [cluster]\n');
    const items = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' } },
      // A stale object of ours: kpt read it from a file this function writes.
      {
        apiVersion: 'instancetype.kubevirt.io/v1beta1',
        kind: 'VirtualMachineClusterInstancetype',
        metadata: {
          name: 'old',
          labels: { 'instancetype.kubevirt.io/vendor': 'example.com' },
          annotations: { 'internal.config.kubernetes.io/path': 'VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml' },
        },
        spec: {},
      },
      // Someone else's object with the same vendor label, in a file of theirs: not ours to delete.
      {
        apiVersion: 'instancetype.kubevirt.io/v1beta1',
        kind: 'VirtualMachineClusterInstancetype',
        metadata: {
          name: 'same-vendor',
          labels: { 'instancetype.kubevirt.io/vendor': 'example.com' },
          annotations: { 'internal.config.kubernetes.io/path': 'team-b/special.yaml' },
        },
        spec: {},
      },
      {
        apiVersion: 'instancetype.kubevirt.io/v1beta1',
        kind: 'VirtualMachineClusterInstancetype',
        metadata: { name: 'theirs', labels: { 'instancetype.kubevirt.io/vendor': 'other.example' } },
        spec: {},
      },
      // An earlier copy of an object generated now, wherever it was read from.
      { apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineClusterInstancetype', metadata: { name: 'u1.small' }, spec: {} },
    ];
    const out = resultItems({ functionConfig: {}, items }, r.objects) as { metadata: { name: string; annotations?: Record<string, string> } }[];
    expect(out.map((o) => o.metadata.name)).toEqual(['keep', 'same-vendor', 'theirs', 'u1.large', 'u1.small', 'legacy', 'linux']);
    expect(out[4]!.metadata.annotations).toMatchObject({
      'config.kubernetes.io/path': 'VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml',
      'config.kubernetes.io/index': '1',
    });
  });
});

describe('docs', () => {
  it('README.md has the instance type table, the family x size grid and the preference table', () => {
    const readme = small().files.find((f) => f.path === 'README.md')!.content;
    expect(readme).toContain('| `u1.large` | 2 | 4Gi | general.purpose | Universal | — |');
    expect(readme).toContain('| Family | small | large |\n| --- | --- | --- |\n| `u1` general.purpose | `u1.small` | `u1.large` |');
    expect(readme).toContain('| `linux` | Linux | linux | any | 1 vCPU, 1Gi | — | — |');
    expect(readme).not.toMatch(/## Deprecated/);
  });

  it('escapes table cells', () => {
    const r = small('', {
      'catalogs/small/preferences.yaml': SMALL_CATALOG['catalogs/small/preferences.yaml']!.replace('displayName: Linux', 'displayName: "Linux | GNU"'),
    });
    expect(r.files.find((f) => f.path === 'README.md')!.content).toContain('| `linux` | Linux \\| GNU |');
  });
});

describe('CLI arguments', () => {
  it('parses the release workflow options', () => {
    const parse = (argv: string[]): { command?: string; options?: Record<string, readonly string[]>; positionals?: readonly string[]; error?: string } => {
      const p = parseCommandLine(argv, COMMANDS);
      if ('error' in p) return { error: p.error };
      if ('help' in p) return {};
      return { command: p.command.name, options: Object.fromEntries(p.line.options), positionals: p.line.positionals };
    };
    expect(parse(['bundle', '--version', 'v1.0.0', '--out', 'dist'])).toEqual({
      command: 'bundle',
      options: { '--version': ['v1.0.0'], '--out': ['dist'] },
      positionals: [],
    });
    expect(parse(['diff', '--against=HEAD~1', '--exit-code'])).toEqual({
      command: 'diff',
      options: { '--against': ['HEAD~1'], '--exit-code': [] },
      positionals: [],
    });
    expect(parse(['-C', 'dir', 'schema', 'lock'])).toEqual({ command: 'schema', options: {}, positionals: ['lock'] });
    expect(parse(['release'])).toEqual({ error: 'release needs --version vX.Y.Z' });
    expect(parse(['release', '--version', '1.0'])).toEqual({ error: '--version needs a release version like v1.2.0' });
    expect(parse(['bundle', '--version', 'v1.0.0'])).toEqual({ error: 'bundle needs --out DIR' });
    expect(parse(['schema', 'nope'])).toMatchObject({ error: expect.stringMatching(/schema takes one of/) });
    expect(parse(['validate', '--against', 'HEAD'])).toEqual({ error: 'unknown option `--against` for validate' });
    expect(parse(['explain'])).toEqual({ error: 'explain needs exactly one object name' });
  });

  it('prints the generator and lock JSON Schemas', () => {
    let out = '';
    const io: Io = { out: (s) => (out += s), err: () => undefined, cwd: process.cwd(), color: false };
    expect(run(['schema', 'generator'], io)).toBe(0);
    const schema = JSON.parse(out) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'namePrefix', 'include', 'exclude', 'namespace', 'bundle']),
    );
    out = '';
    expect(run(['schema', 'lock'], io)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ title: 'itgen release lock' });
  });

  it.each(['generator', 'lock'])('schema/%s.schema.json is what `itgen schema %s` prints (run `npm run generate`)', (name) => {
    let out = '';
    const io: Io = { out: (s) => (out += s.endsWith('\n') ? s : `${s}\n`), err: () => undefined, cwd: REPO, color: false };
    expect(run(['schema', name], io)).toBe(0);
    expect(readFileSync(path.join(REPO, 'schema', `${name}.schema.json`), 'utf8')).toBe(out);
  });
});

describe("a vendor's catalog is the vendor's", () => {
  it('without `vendor` no object is labelled kubevirt.io, and bundles are named after the generator', () => {
    const dir = scratchProject({
      'generators/acme.yaml': 'catalog: ../catalog\noutput: ../out\nscopes: [cluster]\n',
      'catalog/c.yaml':
        'kind: Catalog\nname: t\n---\nkind: SizeLadder\nname: s\nsizes: [{name: small, cpu: 1}]\n---\nkind: Family\nname: c\nversion: 1\ndisplayName: C\ndescription: C\nclass: compute\nmemoryPerCPU: 2Gi\n---\nkind: Preference\nname: mylinux\ndisplayName: My Linux\n',
    });
    try {
      const r = compile(dir, 'generators/acme.yaml');
      expect(r.diagnostics).toEqual([]);
      for (const o of r.objects) expect(o.manifest.metadata.labels?.['instancetype.kubevirt.io/vendor']).toBeUndefined();
      const settings = bundleSettings('acme', r.generator!.config);
      expect(settings).toEqual({ versionLabel: 'itgen.dev/acme-version', filePrefix: 'acme' });
      const files = buildBundles(r.objects, { version: 'v1.0.0', ...settings });
      expect(files.map((f) => f.path)).toContain('acme-instancetypes-all-bundle-v1.0.0.yaml');
      expect(files.find((f) => f.path === 'acme-instancetypes-all-bundle-v1.0.0.yaml')!.content).toContain('itgen.dev/acme-version: v1.0.0');
      expect(r.files.find((f) => f.path === 'README.md')!.content).toContain('no vendor label');
    } finally {
      removeDir(dir);
    }
  });
});
