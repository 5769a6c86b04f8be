/**
 * The compatibility matrix (src/matrix): pairs KubeVirt admits and why not the others, on the
 * shipped catalogs and on a catalog with an architecture-bound family; `itgen matrix` output.
 */
import { compile } from '../src/pipeline';
import { compatibilityMatrix, compatibilitySummary, formatMatrixMarkdown, formatMatrixText, pairOutcome, preferencesAdmittingNone } from '../src/matrix';
import { admit } from '../src/expand';
import { dedicatedThreadsProblem, hugepageProblem } from '../src/kubevirt/launch';
import { preferenceArchitecture } from '../src/validate/rules-kubevirt';
import type { JsonObject } from '../src/json';
import { run } from '../src/cli/main';
import { explainObject } from '../src/render/explain';
import { REPO, removeDir, scratchProject } from './helpers';
import { seriesLabel } from '../src/resolve/naming';

function compiled(generator: string): ReturnType<typeof compile> {
  const r = compile(REPO, generator);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r;
}
const matrixOf = (generator: string): ReturnType<typeof compatibilityMatrix> => compatibilityMatrix(compiled(generator).catalog!);

describe('compatibility matrix', () => {
  it("default catalog: Windows 11 needs 2 vCPUs, so every xsmall is refused, in KubeVirt's words", () => {
    const m = matrixOf('generators/default.yaml');
    const win = m.pairs.filter((p) => p.preference === 'os.windows.11' && !p.admitted);
    expect(win.map((p) => p.instancetype).sort()).toEqual(['c.xsmall', 'g.xsmall', 'm.xsmall', 'r.xsmall']);
    expect(win[0]!.reason).toBe(
      'failure checking preference requirements: insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU',
    );
    expect(preferencesAdmittingNone(compatibilitySummary(compiled('generators/default.yaml').catalog!))).toEqual([]);
    // Pairs are of the same architecture only: every preference meets every instance type once.
    expect(m.pairs.length).toBe(m.preferences.length * m.instancetypes.length);
  });

  it('common-instancetypes: spread preferences refuse vCPU counts they cannot divide, memory requirements refuse the small sizes', () => {
    const m = matrixOf('generators/common-instancetypes.yaml');
    const pair = (p: string, i: string) => m.pairs.find((x) => x.preference === p && x.instancetype === i)!;
    expect(pair('centos.stream9.dpdk', 'n1.xlarge').admitted).toBe(true);
    expect(pair('centos.stream9.dpdk', 'n1.medium').reason).toBe(
      '4 vCPUs provided by the instance type are not divisible by the number of threads per core 2 and Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 4',
    );
    expect(pair('fedora', 'u1.nano').reason).toBe(
      'failure checking preference requirements: insufficient Memory resources of 512Mi provided by instance type, preference requires 2Gi',
    );
    expect(pair('fedora', 'u1.small').admitted).toBe(true);
    const catalog = compiled('generators/common-instancetypes.yaml').catalog!;
    const text = formatMatrixText(catalog);
    expect(text).toContain('fedora (amd64): 58 of 65 instance types admitted');
    // The text form, built from class rows, says what the list of every pair says.
    for (const p of m.preferences) {
      const mine = m.pairs.filter((x) => x.preference === p.name);
      expect(text).toContain(`${p.name} (${p.architecture}): ${mine.filter((x) => x.admitted).length} of ${mine.length} instance types admitted`);
    }
    const summary = compatibilitySummary(compiled('generators/common-instancetypes.yaml').catalog!);
    expect(formatMatrixMarkdown(summary).split('\n')[0]).toMatch(/^\| preference \| `cx1` \|/);
    // The summary agrees with the pairs: per preference, admitted counts are the same.
    for (const p of summary.preferences) {
      const admitted = [...p.perFamily.values()].reduce((n, c) => n + c.admitted, 0);
      expect([p.name, admitted]).toEqual([p.name, m.pairs.filter((x) => x.preference === p.name && x.admitted).length]);
    }
  });

  it('a family meant for arm64 pairs only with arm64 preferences: matrix, pairing checks and explain', () => {
    const dir = scratchProject({
      'generators/t.yaml': 'catalog: ../catalog\noutput: ../out\nvendor: kubevirt.io\nscopes: [cluster]\n',
      'catalog/c.yaml': `kind: Catalog
name: t
---
kind: SizeLadder
name: sizes
sizes: [{name: small, cpu: 1}, {name: large, cpu: 4}]
---
kind: Family
name: a
version: 1
displayName: Arm
description: Arm servers with dedicated CPUs.
class: compute
memoryPerCPU: 2Gi
architectures: [arm64]
spec: {cpu: {dedicatedCPUPlacement: true}}
---
kind: Family
name: x
version: 1
displayName: X
description: x86 servers.
class: compute
memoryPerCPU: 2Gi
architectures: [amd64]
---
kind: Preference
name: threaded
displayName: Threaded
architectures: [amd64, arm64]
spec: {cpu: {preferredCPUTopology: cores}}
`,
    });
    try {
      const r = compile(dir, 'generators/t.yaml');
      // With threads the arm64 family would break KubeVirt's 1-thread rule on arm64; `cores` does not.
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const m = compatibilityMatrix(r.catalog!);
      expect(m.pairs.map((p) => `${p.preference} ${p.instancetype}`).sort()).toEqual([
        'threaded x1.large',
        'threaded x1.small',
        'threaded.arm64 a1.large',
        'threaded.arm64 a1.small',
      ]);
      const explained = explainObject(r.objects.find((o) => o.manifest.metadata.name === 'a1.large')!);
      expect(explained).toContain('# meant for arm64 only: paired with preferences of that architecture');
    } finally {
      removeDir(dir);
    }
  });

  it('itgen matrix prints text, markdown and JSON', () => {
    const outputs: Record<string, string> = {};
    for (const format of ['text', 'markdown', 'json']) {
      let out = '';
      const code = run(['matrix', '-g', 'generators/default.yaml', '-o', format], {
        out: (s) => (out += `${s}\n`),
        err: () => undefined,
        cwd: REPO,
        color: false,
      });
      expect(code).toBe(0);
      outputs[format] = out;
    }
    expect(outputs['text']).toContain('os.windows.11 (amd64): 16 of 20 instance types admitted');
    expect(outputs['markdown']).toContain('| `os.windows.11` | 4/5 | 4/5 | 4/5 | 4/5 |');
    const json = JSON.parse(outputs['json']!) as { generators: { generator: string; matrix: { pairs: unknown[] } }[] };
    expect(json.generators[0]!.generator).toBe('default');
    expect(json.generators[0]!.matrix.pairs.length).toBe(300);
  });
});

describe('pairOutcome: the matrix from per-pair facts agrees with admitting a VM', () => {
  it.each(['generators/common-instancetypes.yaml', 'generators/default.yaml'])('every pair of %s', (generator) => {
    const catalog = compiled(generator).catalog!;
    let pairs = 0;
    for (const p of catalog.preferences) {
      const architecture = preferenceArchitecture(p) ?? catalog.defaultArchitecture;
      for (const it of catalog.instancetypes) {
        pairs++;
        const vm = {
          kind: 'VirtualMachine',
          spec: { instancetype: { name: it.name }, preference: { name: p.name }, template: { spec: { domain: { devices: {} } } } },
        };
        const admitted = admit(
          vm,
          {
            instancetype: { kind: 'VirtualMachineClusterInstancetype', name: it.name, spec: it.spec },
            preference: { kind: 'VirtualMachineClusterPreference', name: p.name, spec: p.spec },
          },
          { cluster: { architecture: catalog.defaultArchitecture } },
        );
        let reason = admitted.causes[0]?.message;
        if (reason === undefined && admitted.vm) {
          const domain = ((admitted.vm['spec'] as JsonObject)['template'] as JsonObject)['spec'] as JsonObject;
          const cpu = ((domain['domain'] as JsonObject)['cpu'] ?? {}) as JsonObject;
          if (cpu['dedicatedCpuPlacement'] === true) reason = dedicatedThreadsProblem(cpu['threads'] as number, architecture);
          const size = (((domain['domain'] as JsonObject)['memory'] as JsonObject | undefined)?.['hugepages'] as JsonObject | undefined)?.['pageSize'];
          if (reason === undefined && typeof size === 'string') reason = hugepageProblem(size, architecture);
        }
        const expected = reason === undefined ? { admitted: true } : { admitted: false, reason };
        expect([p.name, it.name, pairOutcome(it.spec, p.spec, architecture, catalog.defaultArchitecture)]).toEqual([p.name, it.name, expected]);
      }
    }
    expect(pairs).toBeGreaterThan(250);
  });
});

describe('series labels (what users see of a family)', () => {
  it('read off the instance type names with the size taken out; the internal key when they disagree', () => {
    expect(
      seriesLabel(
        [
          { name: 'gn1.xlarge.a10', size: 'xlarge' },
          { name: 'gn1.large.a10', size: 'large' },
        ],
        'gna101',
      ),
    ).toBe('gn1.a10');
    expect(
      seriesLabel(
        [
          { name: 'u1.medium', size: 'medium' },
          { name: 'u1.2xlarge', size: '2xlarge' },
        ],
        'u1',
      ),
    ).toBe('u1');
    expect(seriesLabel([{ name: 'b1.large.arm64', size: 'large' }], 'barm1')).toBe('b1.arm64');
    expect(seriesLabel([{ name: 'acme-c1.small', size: 'small' }], 'c1')).toBe('acme-c1');
    expect(
      seriesLabel(
        [
          { name: 'x.large', size: 'large' },
          { name: 'y.small', size: 'small' },
        ],
        'k1',
      ),
    ).toBe('k1');
    expect(seriesLabel([{ name: 'small', size: 'small' }], 'k1')).toBe('k1');
  });
});

describe('a variant that names a series of its own ({variant} in the naming pattern)', () => {
  it('one family, two GPU models: gn1.a10.large and gn1.l4.large, labelled gn1.a10 and gn1.l4 in the README grid', () => {
    const dir = scratchProject({
      'generators/t.yaml': 'catalog: ../catalog\noutput: ../output\nvendor: acme.example\nsuppressWarnings: [IT5007]\n',
      'catalog/catalog.yaml':
        'kind: Catalog\nname: t\nnaming:\n  instancetype: "{family}{version}.{variant}.{size}"\n---\nkind: SizeLadder\nname: sizes\nsizes: [{name: large, cpu: 2}, {name: xlarge, cpu: 4}]\n---\n' +
        'kind: Family\nname: gn\nversion: 1\ndisplayName: GPU\ndescription: GPU\nclass: gpu\nmemoryPerCPU: 4Gi\nvariants:\n  - name: a10\n    spec: {gpus: [{name: gpu1, deviceName: nvidia.com/A10}]}\n  - name: l4\n    spec: {gpus: [{name: gpu1, deviceName: nvidia.com/L4}]}\n---\n' +
        'kind: Preference\nname: linux\ndisplayName: Linux\nspec: {devices: {preferredDiskBus: virtio}}\n',
    });
    try {
      const r = compile(dir, 'generators/t.yaml');
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect([...new Set(r.objects.filter((o) => o.manifest.kind.endsWith('Instancetype')).map((o) => o.manifest.metadata.name))].sort()).toEqual([
        'gn1.a10.large',
        'gn1.a10.xlarge',
        'gn1.l4.large',
        'gn1.l4.xlarge',
        'gn1.large',
        'gn1.xlarge',
      ]);
      const readme = r.files.find((f) => f.path === 'README.md')!.content;
      expect(readme).toContain('| `gn1` gpu | `gn1.large` | `gn1.xlarge` |');
      expect(readme).toContain('| `gn1.a10` gpu | `gn1.a10.large` | `gn1.a10.xlarge` |');
      expect(readme).toContain('| `gn1.l4` gpu | `gn1.l4.large` | `gn1.l4.xlarge` |');
    } finally {
      removeDir(dir);
    }
  });
});
