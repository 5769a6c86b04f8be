/** The default catalog: what the issue promises about it, checked on the compiled model. */
import path from 'node:path';
import { compile } from '../src/pipeline';
import { readDirTree, REPO } from './helpers';
import { UPSTREAM_INSTANCETYPE_NAMES, UPSTREAM_PREFERENCE_NAMES } from '../src/validate/upstream-names';
import { parseAllDocuments } from 'yaml';
import { readFileSync } from 'node:fs';

const result = compile(REPO, 'generators/default.yaml');

describe('default catalog', () => {
  it('compiles without errors or warnings', () => {
    expect(result.diagnostics).toEqual([]);
  });

  it('is what output/default holds (golden)', () => {
    expect(readDirTree(path.join(REPO, 'output', 'default'))).toEqual(result.files);
  });

  it('has families c, m, r, g by xsmall..xlarge with their ratios', () => {
    const its = result.catalog!.instancetypes;
    const ratio: Record<string, number> = { c: 2, m: 4, r: 8, g: 4 };
    const sizes = ['xsmall', 'small', 'medium', 'large', 'xlarge'];
    expect(its).toHaveLength(4 * 5);
    for (const it of its) {
      expect(sizes).toContain(it.size);
      expect(it.memoryBytes).toBe(it.cpu * ratio[it.family]! * 2 ** 30);
    }
    // A size means the same vCPU count in every family that offers it.
    for (const s of sizes) expect(new Set(its.filter((i) => i.size === s).map((i) => i.cpu)).size).toBe(1);
    // Exactly one GPU on every g type, none elsewhere.
    for (const it of its) expect(Array.isArray(it.spec['gpus']) ? (it.spec['gpus'] as unknown[]).length : 0).toBe(it.family === 'g' ? 1 : 0);
  });

  it('has the required preferences, inheriting from linux or windows, with arm64 variants', () => {
    const prefs = new Map(result.catalog!.preferences.map((p) => [p.catalogName, p] as const));
    for (const n of ['cirros', 'fedora', 'rhel.9', 'rhel.10', 'ubuntu', 'centos.stream9', 'windows.10', 'windows.11', 'windows.2k22']) {
      expect(prefs.has(n)).toBe(true);
      const os = (prefs.get(n)!.spec['annotations'] as Record<string, string>)['vm.kubevirt.io/os'];
      expect(os).toBe(n.startsWith('windows') ? 'windows' : 'linux');
    }
    for (const n of ['fedora', 'rhel.9', 'rhel.10', 'ubuntu', 'centos.stream9']) {
      expect(prefs.get(`${n}.arm64`)?.architecture).toBe('arm64');
    }
    const win = prefs.get('windows.11')!.spec as Record<string, Record<string, unknown>>;
    expect(win['devices']).toMatchObject({ preferredDiskBus: 'sata', preferredInterfaceModel: 'e1000e', preferredTPM: {} });
    expect(win['features']).toMatchObject({ preferredSmm: {}, preferredHyperv: {} });
    expect(win['firmware']).toMatchObject({ preferredEfi: { secureBoot: true } });
    expect(win['clock']).toMatchObject({ preferredClockOffset: { utc: {} } });
  });

  it('uses no cluster-scoped name that common-instancetypes ships', () => {
    const bundle = readFileSync(path.join(REPO, 'test', 'reference', 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), 'utf8');
    const upstream = new Set(parseAllDocuments(bundle).map((d) => (d.toJS() as { metadata: { name: string } }).metadata.name));
    expect(upstream.size).toBe(UPSTREAM_INSTANCETYPE_NAMES.size + UPSTREAM_PREFERENCE_NAMES.size);
    const clash = result.objects.filter((o) => o.scope === 'cluster' && upstream.has(o.manifest.metadata.name));
    expect(clash.map((o) => o.manifest.metadata.name)).toEqual([]);
  });

  it('emits only the current apiVersion and no deprecated spellings', () => {
    const text = result.files.map((f) => f.content).join('\n');
    expect(text).not.toMatch(/preferredUseEfi|preferredUseSecureBoot|preferSockets|preferCores|preferThreads|preferSpread|preferAny|v1alpha/);
    for (const o of result.objects) expect(o.manifest.apiVersion).toBe('instancetype.kubevirt.io/v1beta1');
  });
});
