/**
 * `itgen select`: the explorer's filters in the terminal (the page is held to the same answers by
 * test/site-browser.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kubevirtConfig } from '../src/kubevirt/config';
import { compatibilityMatrix } from '../src/matrix';
import { openProject } from '../src/project';
import { instancetypesCsv, pairsOf, parseRange, projectSiteData } from '../src/site';
import { removeDir, scratchProject, TINY_CATALOG } from './helpers';
import { runInProcess } from './e2e-helpers';

const REPO = path.resolve(__dirname, '..');
const select = (...argv: string[]): ReturnType<typeof runInProcess> => runInProcess(REPO, ['select', '-g', 'generators/common-instancetypes.yaml', ...argv]);
const names = (out: string): string[] => (JSON.parse(out) as { instancetypes: { name: string }[] }).instancetypes.map((r) => r.name);

describe('itgen select', () => {
  it('filters by ranges, dedicated CPUs, hugepages, family and words', () => {
    expect(names(select('--cpu', '4..8', '--memory', '16Gi..', '--dedicated', '-o', 'json').out)).toEqual([
      'cx1.2xlarge',
      'cx1.2xlarge1gi',
      'd1.2xlarge',
      'd1.xlarge',
      'n1.xlarge',
      'rt1.2xlarge',
      'rt1.xlarge',
    ]);
    expect(names(select('--family', 'u', '--cpu', '..1', '-o', 'json').out)).toEqual(['u1.medium', 'u1.micro', 'u1.nano', 'u1.small']);
    expect(names(select('--hugepages', '1Gi', '--cpu', '2', '-o', 'json').out)).toEqual(['cx1.large1gi', 'm1.large1gi', 'rt1.large']);
    expect(names(select('--text', 'realtime', '--cpu', '..2', '-o', 'json').out)).toEqual(['rt1.large', 'rt1.medium', 'rt1.micro', 'rt1.small']);
  });

  it('with --preference, only the instance types KubeVirt admits it with', () => {
    const all = names(select('-o', 'json').out);
    const win = names(select('--preference', 'windows.11', '-o', 'json').out);
    expect(win.length).toBeGreaterThan(0);
    expect(win.length).toBeLessThan(all.length);
    // Windows 11 requires 2 vCPUs and 4Gi: u1.small (1 vCPU, 2Gi) is refused.
    expect(win).not.toContain('u1.small');
    expect(win).toContain('u1.large');
  });

  it('prints text and CSV; says what is wrong with a range or a preference name', () => {
    expect(select('--cpu', '64').out).toBe('n1.8xlarge: 64 vCPUs, 128Gi, dedicated CPUs, hugepages 1Gi (network; pod requests cpu 65, memory 892Mi)\n');
    expect(select('--cpu', '1000').out).toBe('no instance type matches\n');
    const csv = select('--family', 'o1', '--cpu', '1', '-o', 'csv').out;
    expect(csv).not.toContain('\\u000d');
    expect(csv.split('\n')[0]).toBe('name,generator,family,class,cpu,memory,hugepages,dedicatedCpu,gpus,architectures,podCpu,podMemory,deprecated,replacement');
    const bad = select('--cpu', '8..4');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--cpu: `8..4`: the minimum is above the maximum');
    expect(select('--memory', 'lots').err).toContain('`lots` is not a quantity like 8Gi');
    const pref = select('--preference', 'windos.11');
    expect(pref.code).toBe(1);
    expect(pref.err).toContain('`windos.11` is not a preference of the project');
  });

  it('parses ranges and writes CSV a spreadsheet will not run', () => {
    expect(parseRange('4..16', 'count')).toEqual([4, 16]);
    expect(parseRange('8Gi..', 'bytes')).toEqual([8 * 2 ** 30, undefined]);
    expect(parseRange('..0.5', 'bytes')).toEqual([undefined, 2 ** 29]);
    const row = {
      name: '=HYPERLINK("x")',
      generator: 'g',
      family: 'f',
      class: '@c',
      cpu: 1,
      memory: '1Gi',
      hugepages: '',
      dedicatedCpu: false,
      gpus: [],
      architectures: [],
      podCpu: '',
      podMemory: '',
      deprecated: false,
      replacement: 'a,"b"',
    };
    expect(instancetypesCsv([row as never]).split('\n')[1]).toBe(`"'=HYPERLINK(""x"")",g,f,'@c,1,1Gi,,false,,,,,false,"a,""b"""`);
  });
});

describe("the explorer's compact matrix", () => {
  it('gives every pair the full matrix gives (itgen matrix)', () => {
    const { results } = openProject({ root: REPO, generators: ['generators/common-instancetypes.yaml'] }).compiled('files');
    const data = projectSiteData(results, kubevirtConfig(null).config);
    const full = compatibilityMatrix(results[0]!.catalog!);
    const compact = data.preferences.flatMap((p) => {
      const { admitted, refused } = pairsOf(data, p);
      return [...admitted.map((it) => `${p.name} ${it.name} ok`), ...refused.map((x) => `${p.name} ${x.it.name} ${x.reason}`)];
    });
    expect(compact.sort()).toEqual(full.pairs.map((x) => `${x.preference} ${x.instancetype} ${x.admitted ? 'ok' : x.reason!}`).sort());
    expect(full.pairs.length).toBeGreaterThan(1000);
  });
});

describe('itgen select --with', () => {
  it('answers from the objects of files as from the project that generated them', () => {
    const fromFiles = (...argv: string[]): string[] =>
      names(runInProcess(REPO, ['select', '--with', 'output/common-instancetypes', '-o', 'json', ...argv]).out);
    for (const args of [
      ['--cpu', '4..8', '--memory', '16Gi..'],
      ['--preference', 'windows.11'],
      ['--family', 'cx1', '--hugepages', '1Gi'],
      ['--class', 'general.purpose'],
    ])
      expect([args.join(' '), fromFiles(...args)]).toEqual([args.join(' '), names(select(...args, '-o', 'json').out)]);
  });

  it("a bundle carries each single-architecture family's architecture: --arch arm64 on it lists no amd64-only type", () => {
    const dir = scratchProject({
      'generators/t.yaml': 'catalog: ../catalog\noutput: ../output\nvendor: acme.example\nsuppressWarnings: [IT5007]\n',
      'catalog/catalog.yaml':
        `${TINY_CATALOG}---\nkind: Family\nname: arm\nversion: 1\ndisplayName: Arm\ndescription: Arm\nclass: general.purpose\nmemoryPerCPU: 4Gi\narchitectures: [arm64]\n`.replace(
          'class: compute\n',
          'class: compute\narchitectures: [amd64]\n',
        ),
    });
    try {
      expect(runInProcess(dir, ['generate']).code).toBe(0);
      expect(runInProcess(dir, ['bundle', '--version', 'v1.0.0', '--out', 'bundles']).code).toBe(0);
      // A VM owner's repository beside it, holding only the bundle.
      const bundle = ['--with', '../bundles/t-instancetypes-all-bundle-v1.0.0.yaml', '-o', 'json'];
      const owner = path.join(dir, 'owner');
      mkdirSync(owner);
      const arm = names(runInProcess(owner, ['select', '--arch', 'arm64', ...bundle]).out);
      const amd = names(runInProcess(owner, ['select', '--arch', 'amd64', ...bundle]).out);
      expect(arm.length).toBeGreaterThan(0);
      expect(arm.every((n) => n.startsWith('arm1.'))).toBe(true);
      expect(amd.some((n) => n.startsWith('arm1.'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});

describe('itgen site --with', () => {
  it("writes the explorer of a bundle's objects, the same rows as the project's", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-site-with-'));
    try {
      expect(runInProcess(REPO, ['site', '--out', path.join(dir, 'a'), '--with', 'output/common-instancetypes', '--title', 'Bundle']).code).toBe(0);
      expect(runInProcess(REPO, ['site', '--out', path.join(dir, 'b'), '-g', 'generators/common-instancetypes.yaml']).code).toBe(0);
      const rows = (f: string): string[] => {
        const m = /<script type="application\/json" id="itgen-data">([^<]*)<\/script>/.exec(readFileSync(path.join(dir, f, 'index.html'), 'utf8'))!;
        return (JSON.parse(m[1]!) as { instancetypes: { name: string; cpu: number; memory: string; class: string }[] }).instancetypes.map(
          (r) => `${r.name} ${r.cpu} ${r.memory} ${r.class}`,
        );
      };
      expect(rows('a').sort()).toEqual(rows('b').sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a catalog whose instance types and preferences all differ', () => {
  it('gives a page that grows with the catalog, not with its pairs, and the same answers', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-site-pairs-'));
    try {
      // 400 instance types and 400 preferences, each with its own memory: 160,000 distinct pairs, each refused in its own words.
      const items = [
        ...Array.from({ length: 400 }, (_, i) => ({
          kind: 'VirtualMachineClusterInstancetype',
          metadata: { name: `t${i}` },
          spec: { cpu: { guest: 1 + (i % 8) }, memory: { guest: `${256 + i}Mi` } },
        })),
        ...Array.from({ length: 400 }, (_, j) => ({
          kind: 'VirtualMachineClusterPreference',
          metadata: { name: `p${j}` },
          spec: { requirements: { cpu: { guest: 1 + (j % 8) }, memory: { guest: `${256 + j}Mi` } } },
        })),
      ].map((o) => ({ apiVersion: 'instancetype.kubevirt.io/v1beta1', ...o }));
      const file = path.join(dir, 'pairs.json');
      writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
      expect(runInProcess(dir, ['site', '--with', file, '--out', path.join(dir, 'site')]).code).toBe(0);
      const page = statSync(path.join(dir, 'site', 'index.html')).size;
      // The page's script and styles, and a few hundred bytes per object: no matrix of 160,000 cells (14 MB when it held one).
      expect(page).toBeLessThan(150_000 + 400 * items.length);
      // The pairs the page decides are the ones select decides: p300 needs 556Mi and t's CPUs.
      const admitted = names(runInProcess(dir, ['select', '--with', file, '--preference', 'p300', '-o', 'json']).out);
      expect(admitted).toEqual(items.filter((o, i) => o.kind.endsWith('Instancetype') && i >= 300 && 1 + (i % 8) >= 1 + (300 % 8)).map((o) => o.metadata.name));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('select: architectures and bare memory, one meaning each', () => {
  it('names the kernel’s architectures as Kubernetes does, and refuses one KubeVirt does not run', () => {
    for (const [arch, code] of [
      ['amd64', 0],
      ['AMD64', 0],
      ['x86_64', 0],
      ['aarch64', 0],
      ['riscv64', 1],
      ['x86_64 ', 1],
    ] as const) {
      const r = runInProcess(REPO, ['select', '--arch', arch, '-g', 'generators/common-instancetypes.yaml', '--cpu', '1']);
      expect([arch, r.code]).toEqual([arch, code]);
      if (code === 1) expect(r.err).toContain('is not an architecture KubeVirt runs VMs on: amd64, arm64 or s390x');
    }
  });

  it('a bare number is GiB; one too large for GiB says to write the unit', () => {
    expect(parseRange('8', 'bytes')).toEqual([8 * 2 ** 30, 8 * 2 ** 30]);
    expect(parseRange('4294967296', 'bytes')).toEqual({
      error: '`4294967296`: a bare number is GiB, and 4294967296 GiB is more than any VM; write the unit (4294967296 bytes is 4Gi)',
    });
  });
});
