/**
 * The GitOps examples: they parse, point at generated bases that exist, and encode the ordering
 * KubeVirt needs (its instancetype CRDs come from virt-operator, after the KubeVirt CR).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { compile } from '../src/pipeline';
import { REPO } from './helpers';

type Doc = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
};

function docs(dir: string): Doc[] {
  const abs = path.join(REPO, 'examples', dir);
  return readdirSync(abs)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) =>
      parseAllDocuments(readFileSync(path.join(abs, f), 'utf8')).map((d) => {
        expect(d.errors).toEqual([]);
        return d.toJS() as Doc;
      }),
    );
}

const CATALOG_REPO = 'https://git.example.com/platform/itgen-catalog.git';
const CRDS = ['virtualmachineclusterinstancetypes', 'virtualmachineinstancetypes', 'virtualmachineclusterpreferences', 'virtualmachinepreferences'].map(
  (p) => `${p}.instancetype.kubevirt.io`,
);

/** A generated base: a kustomization at the path, and the four kind directories. */
function expectGeneratedBase(rel: string): void {
  const abs = path.join(REPO, rel.replace(/^\.\//, ''));
  expect(existsSync(path.join(abs, 'kustomization.yaml'))).toBe(true);
  for (const k of ['VirtualMachineClusterInstancetypes', 'VirtualMachineInstancetypes', 'VirtualMachineClusterPreferences', 'VirtualMachinePreferences']) {
    expect(existsSync(path.join(abs, k, 'kustomization.yaml'))).toBe(true);
  }
}

describe('examples/argocd', () => {
  const all = docs('argocd');
  const apps = all.filter((d) => d.kind === 'Application');
  const wave = (d: Doc): number => Number(d.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? '0');

  it('has an Application of the generated base, after the KubeVirt one, skipping the dry run for the missing CRDs', () => {
    const ours = apps.filter((a) => (a.spec!['source'] as { repoURL: string }).repoURL === CATALOG_REPO);
    expect(ours).toHaveLength(1);
    const app = ours[0]!;
    expectGeneratedBase((app.spec!['source'] as { path: string }).path);
    expect((app.spec!['syncPolicy'] as { syncOptions: string[] }).syncOptions).toContain('SkipDryRunOnMissingResource=true');
    const kubevirt = apps.find((a) => a.metadata.name === 'kubevirt')!;
    expect(wave(app)).toBeGreaterThan(wave(kubevirt));
  });

  it('has the health checks the waves wait on', () => {
    const cm = all.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'argocd-cm')!;
    expect(Object.keys(cm.data!).sort()).toEqual([
      'resource.customizations.health.argoproj.io_Application',
      'resource.customizations.health.kubevirt.io_KubeVirt',
    ]);
    expect(cm.data!['resource.customizations.health.kubevirt.io_KubeVirt']).toMatch(/c\.type == "Available"/);
  });

  it('has a generator that stamps the Argo CD options on every object', () => {
    const r = compile(REPO, 'examples/argocd/argocd.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(r.generator!.outputDir).toBe('output/argocd');
    expect(r.objects.length).toBeGreaterThan(0);
    for (const o of r.objects) {
      expect(o.manifest.metadata.annotations).toMatchObject({
        'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true',
        'argocd.argoproj.io/sync-wave': '1',
      });
      expect(o.manifest.metadata.labels).not.toHaveProperty('app.kubernetes.io/instance');
    }
  });
});

describe('examples/flux', () => {
  const all = docs('flux');
  const ks = all.filter((d) => d.kind === 'Kustomization');
  const repos = new Set(all.filter((d) => d.kind === 'GitRepository').map((d) => d.metadata.name));

  it('has a Kustomization of the generated base that depends on the KubeVirt one', () => {
    const ours = ks.filter((k) => (k.spec!['sourceRef'] as { name: string }).name === 'itgen-catalog');
    expect(ours).toHaveLength(1);
    const k = ours[0]!;
    expectGeneratedBase(k.spec!['path'] as string);
    const deps = (k.spec!['dependsOn'] as { name: string }[]).map((d) => d.name);
    expect(deps).toEqual(['kubevirt']);
    for (const d of deps) expect(ks.map((x) => x.metadata.name)).toContain(d);
  });

  it('the KubeVirt Kustomization is healthy only with the KubeVirt CR available and the instancetype CRDs established', () => {
    const kubevirt = ks.find((k) => k.metadata.name === 'kubevirt')!;
    const checks = kubevirt.spec!['healthChecks'] as { kind: string; name: string }[];
    expect(checks.filter((c) => c.kind === 'KubeVirt')).toHaveLength(1);
    expect(
      checks
        .filter((c) => c.kind === 'CustomResourceDefinition')
        .map((c) => c.name)
        .sort(),
    ).toEqual([...CRDS].sort());
    const exprs = kubevirt.spec!['healthCheckExprs'] as { kind: string; current: string }[];
    expect(exprs[0]).toMatchObject({ kind: 'KubeVirt', current: expect.stringContaining('status.?conditions.orValue([])') });
  });

  it('every sourceRef names a GitRepository of the example', () => {
    for (const k of ks) expect(repos).toContain((k.spec!['sourceRef'] as { name: string }).name);
  });
});
