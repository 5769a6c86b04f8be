/**
 * One judge (issue 50): every door gives KubeVirt's answer for a VM, from expand/judge.ts. The
 * doors are run on the same VMs (a sample of the admission corpus, every family) and must reach the
 * same verdict; the cases that were told apart by the door before are held here by name.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { judgeDocuments } from '../src/expand/judging';
import { objectStore } from '../src/expand';
import { previewVm } from '../src/expand/judge';
import { validateManifests } from '../src/admission';
import { judgeVms } from '../src/release/review';
import { expandDocuments } from '../src/expand';
import { kubevirtConfig } from '../src/kubevirt/config';
import type { Diagnostic } from '../src/diagnostics';
import type { JsonObject } from '../src/json';
import { parseSource } from '../src/load/source';
import { runInProcess } from './e2e-helpers';
import { DEFAULT_GENERATOR, removeDir, scratchProject } from './helpers';
import { readJsonLines, type PreviewCase } from './preview-corpus';
import type { KubeObject } from '../src/emit/committed';

type Verdict = 'refused' | 'not started' | 'runs';

/** A door's diagnostics as a verdict: refused at admission (or before), stored but never started, or running. */
function verdictOf(diagnostics: readonly Diagnostic[]): Verdict {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.some((d) => ['IT8002', 'IT8003', 'IT8005', 'IT8006'].includes(d.code))) return 'refused';
  if (errors.some((d) => d.code === 'IT8008' || d.code === 'IT8001')) return 'not started';
  return 'runs';
}

describe('every door asks the one judge', () => {
  const cases = readJsonLines(path.join(__dirname, 'fixtures', 'admission-corpus', 'cases.jsonl.gz')) as (PreviewCase & { mode: string; category: string })[];
  const bundle = cases[0]!.objects as JsonObject[];
  // Every family's first cases: a few hundred VMs, each judged by five doors.
  const seen = new Map<string, number>();
  const sample = cases.filter((c) => {
    if (c.mode !== 'preview') return false;
    const n = seen.get(c.category) ?? 0;
    seen.set(c.category, n + 1);
    return n < 4;
  });

  it('gives each VM of the admission corpus one verdict, whichever door asks', () => {
    expect(sample.length).toBeGreaterThan(250);
    const differing: string[] = [];
    for (const c of sample) {
      const objects = [...bundle, ...((c.objects ?? []) as JsonObject[])];
      const store = objectStore(objects);
      const config = kubevirtConfig(c.kubevirt).config;
      const doc = parseSource(`${c.id}.yaml`, Buffer.from(JSON.stringify(c.vm))).docs;
      // Strict decoding (kubectl's default) refuses a field KubeVirt's types lack; the library door
      // decodes as Go does. Those cases are an input's condition, not a door's: compared apart.
      const preview = previewVm(c.vm, store, config, 'default');
      const viaPreview: Verdict = !('error' in preview) ? 'runs' : ['schema', 'mutate', 'admit'].includes(preview.stage) ? 'refused' : 'not started';
      const judging = { configs: [config], defaultsOnly: false };
      const doors: Record<string, Verdict> = {
        'validate FILE': verdictOf(validateManifests(doc, store, { configs: [config], defaultsOnly: false })),
        'validate --vms, diff --vms (judgeVms)': verdictOf(judgeVms(doc, objects as unknown as KubeObject[], judging)),
        expand: verdictOf(expandDocuments(doc, store, { admission: true, kubevirt: config }).outcomes.flatMap((o) => o.diagnostics)),
        'the judging of documents': verdictOf(judgeDocuments(doc, store, { admission: true }, judging)),
      };
      const strict = new Set(Object.values(doors));
      if (strict.size > 1) differing.push(`${c.id} ${c.category}: ${JSON.stringify(doors)}`);
      const unknownField = validateManifests(doc, store, { configs: [config], defaultsOnly: false }).some((d) => /strict decoding error/.test(d.message));
      if (!unknownField && doors['validate FILE'] !== viaPreview)
        differing.push(`${c.id} ${c.category}: library ${viaPreview}, validate FILE ${doors['validate FILE']}`);
    }
    expect(differing).toEqual([]);
  });
});

describe('the cases the doors told apart', () => {
  const vm = (name: string, domain: string, extra = ''): string =>
    `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}, namespace: default}\nspec:\n  runStrategy: Always\n  template:\n    spec:\n${extra}      domain:\n        resources: {requests: {memory: 1Gi}}\n${domain}        devices: {}\n`;
  const CATALOG = `kind: Catalog\nname: t\n---\nkind: SizeLadder\nname: sizes\nsizes:\n  - {name: small, cpu: 1}\n  - {name: large, cpu: 2}\n---\nkind: Family\nname: g\nversion: 1\ndisplayName: G\ndescription: G.\nclass: general.purpose\nmemoryPerCPU: 2Gi\n---\nkind: Family\nname: a\nversion: 1\ndisplayName: Arm\ndescription: Arm only.\nclass: general.purpose\nmemoryPerCPU: 2Gi\narchitectures: [arm64]\n---\nkind: Preference\nname: plain\ndisplayName: Plain\nspec:\n  devices: {preferredDiskBus: virtio}\n`;
  let dir: string;
  beforeAll(() => {
    dir = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR}suppressWarnings: [IT5006]\n`,
      'catalog/catalog.yaml': CATALOG,
      'vms/sb.yaml': vm('sb', '        firmware: {bootloader: {efi: {secureBoot: true}}}\n        features: {smm: {enabled: false}}\n'),
      'vms/arm.yaml': vm('arm', '', '      architecture: arm64\n'),
      'vms/ro.yaml': vm('ro', '        memory: {reservedOverhead: {addedOverhead: 1Gi}}\n'),
    });
    expect(runInProcess(dir, ['generate']).code).toBe(0);
  });
  afterAll(() => removeDir(dir));

  it.each([
    ['sb', 'spec.template.spec.domain has EFI SecureBoot enabled. SecureBoot requires SMM, which is currently disabled.'],
    ['arm', 'MultiArchitecture feature gate is not enabled in kubevirt-config'],
    ['ro', 'strict decoding error: unknown field "spec.template.spec.domain.memory.reservedOverhead"'],
  ])('%s: validate FILE and validate --vms (the CI gate) refuse it alike at v1.7.4', (name, words) => {
    const file = runInProcess(dir, ['validate', `vms/${name}.yaml`, '--kubevirt-version', 'v1.7.4']);
    const gate = runInProcess(dir, ['validate', '--vms', 'vms', '--kubevirt-version', 'v1.7.4']);
    expect([file.code, gate.code]).toEqual([1, 1]);
    const line = (out: string): string | undefined => out.split('\n').find((l) => l.startsWith(`vms/${name}.yaml:`) && l.includes(' error '));
    expect(line(file.err)).toContain(words);
    expect(line(gate.err)).toBe(line(file.err));
  });

  it('validate --vms judges every release the generators target, naming the releases of a finding only some give', () => {
    const r = runInProcess(dir, ['validate', '--vms', 'vms', '-g', 'generators/t.yaml']);
    // Without targetKubevirt: the newest release's defaults, said once.
    expect(r.err).not.toContain('(KubeVirt v1.7.4)');
    const targeted = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR}suppressWarnings: [IT5006]\ntargetKubevirt: {min: v1.7, max: v1.9}\n`,
      'catalog/catalog.yaml': CATALOG,
      'vms/arm.yaml': vm('arm', '', '      architecture: arm64\n'),
    });
    try {
      expect(runInProcess(targeted, ['generate']).code).toBe(0);
      const t = runInProcess(targeted, ['validate', '--vms', 'vms']);
      expect(t.code).toBe(1);
      expect(t.err).toContain(
        'MultiArchitecture feature gate is not enabled in kubevirt-config, invalid entry spec.template.spec.architecture (KubeVirt v1.7.4)',
      );
      expect(t.err).toContain('a cluster whose KubeVirt CR enables the MultiArchitecture feature gate');
    } finally {
      removeDir(targeted);
    }
  });

  it('a preference KubeVirt starts no VM with is an error, and the matrix admits it with none', () => {
    const sb = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR}suppressWarnings: [IT5006]\n`,
      'catalog/catalog.yaml': `${CATALOG}---\nkind: Preference\nname: sbnosmm\ndisplayName: SB\nspec:\n  firmware: {preferredEfi: {secureBoot: true}}\n  features: {preferredSmm: {enabled: false}}\n`,
    });
    try {
      const v = runInProcess(sb, ['validate']);
      expect(v.code).toBe(1);
      expect(v.err).toMatch(/error IT8101 preference `sbnosmm`: KubeVirt starts no VM with it and an instance type of the catalog/);
      const m = runInProcess(sb, ['matrix']);
      expect(m.code).toBe(1);
      expect(m.out).toContain('sbnosmm (amd64): 0 of 2 instance types admitted');
      expect(m.out).toContain('SecureBoot requires SMM, which is currently disabled.');
      // select (and the page, which runs the same filter) pairs it with none, in KubeVirt's words.
      const objects = [
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata: {name: g1.small}\nspec: {cpu: {guest: 1}, memory: {guest: 2Gi}}',
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\nmetadata: {name: sbnosmm}\nspec:\n  firmware: {preferredEfi: {secureBoot: true}}\n  features: {preferredSmm: {enabled: false}}',
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\nmetadata: {name: plain}\nspec: {devices: {preferredDiskBus: virtio}}',
      ];
      writeFileSync(path.join(sb, 'bundle.yaml'), `${objects.join('\n---\n')}\n`);
      const sel = runInProcess(sb, ['select', '--with', 'bundle.yaml', '--preference', 'sbnosmm', '-o', 'json']);
      expect((JSON.parse(sel.out) as { instancetypes: unknown[] }).instancetypes).toEqual([]);
      expect(runInProcess(sb, ['select', '--with', 'bundle.yaml', '--preference', 'plain', '-o', 'json']).out).toContain('"g1.small"');
    } finally {
      removeDir(sb);
    }
  });

  it('resize of a VM whose instance type is gone: it does not run, and starts with the new one', () => {
    writeFileSync(
      path.join(dir, 'gone.yaml'),
      'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: gone, namespace: default}\nspec:\n  runStrategy: Always\n  instancetype: {name: z9.large}\n  template: {spec: {domain: {devices: {}}}}\n',
    );
    const r = runInProcess(dir, ['resize', 'gone.yaml', '--to', 'g1.large', '--exit-code']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'gone: start: the VM does not run now (FailedFindInstancetype: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "z9.large" not found); KubeVirt starts it with the new objects',
    );
  });

  it('an arm64-only family: its objects say arm64, and select and fit place it on arm64 nodes', () => {
    const out = runInProcess(dir, ['select', '-o', 'json']);
    const rows = (JSON.parse(out.out) as { instancetypes: { name: string; nodeLabels: string[]; architectures: string[] }[] }).instancetypes;
    const arm = rows.find((r) => r.name === 'a1.small')!;
    expect(arm.architectures).toEqual(['arm64']);
    expect(arm.nodeLabels).toEqual(expect.arrayContaining(['kubernetes.io/arch=arm64', 'machine-type.node.kubevirt.io/virt=true']));
    expect(rows.find((r) => r.name === 'g1.small')!.nodeLabels).toEqual(expect.arrayContaining(['kubernetes.io/arch=amd64']));
    const written = readFileSync(path.join(dir, 'output', 'VirtualMachineClusterInstancetypes', 'virtualmachineclusterinstancetypes.yaml'), 'utf8');
    expect(written).toMatch(/instancetype\.kubevirt\.io\/arch: arm64\n(?:.*\n)*? {2}name: a1\.small/);
    const node = (name: string, arch: string, machine: string): string =>
      `- apiVersion: v1\n  kind: Node\n  metadata: {name: ${name}, labels: {kubernetes.io/arch: ${arch}, kubevirt.io/schedulable: "true", machine-type.node.kubevirt.io/${machine}: "true"}}\n  status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}\n`;
    writeFileSync(path.join(dir, 'nodes.yaml'), `apiVersion: v1\nkind: List\nitems:\n${node('x86', 'amd64', 'q35')}${node('arm', 'arm64', 'virt')}`);
    const fit = runInProcess(dir, ['fit', '--nodes', 'nodes.yaml']);
    expect(fit.out).toMatch(/^a1\.small \(arm64\)/m);
    expect(fit.out).not.toMatch(/^a1\.small \(amd64\)/m);
    expect(fit.out).toMatch(/^g1\.small \(amd64\)/m);
  });
});
