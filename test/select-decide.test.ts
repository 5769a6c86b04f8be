/**
 * `itgen select` deciding with the words a catalog declares (`Catalog.words`): the packaged
 * common-instancetypes catalog's intents and OS names, an unknown word refused with the known ones,
 * and a catalog of one's own whose word means a family.
 */
import { copyFileSync } from 'node:fs';
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject } from './helpers';
import { templateYaml } from './vm-samples';

const REPO = `${__dirname}/..`;

describe("select decides with the catalog's words", () => {
  it("common-instancetypes' words: `red hat enterprise linux` is rhel.10, `compute` a dedicated-CPU class, `gpu` unknown", () => {
    const r = itgen(REPO, 'select', '-g', 'generators/common-instancetypes.yaml', '--os', 'red hat enterprise linux', '--intent', 'compute', '-o', 'json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as {
      understood: { preference: string; classes: string[] };
      answer: { instancetype: { class: string }; vm: { spec: { preference: { name: string } } } };
    };
    expect(j.understood.preference).toBe('rhel.10');
    expect(j.understood.classes).toEqual(['compute.exclusive', 'dedicated.vcpu']);
    expect(['compute.exclusive', 'dedicated.vcpu']).toContain(j.answer.instancetype.class);
    expect(j.answer.vm.spec.preference.name).toBe('rhel.10');
    const gpu = itgen(REPO, 'select', '-g', 'generators/common-instancetypes.yaml', '--os', 'windows', '--intent', 'gpu');
    expect(gpu.code).toBe(1);
    expect(gpu.stderr).toContain('error IT1011 --intent: `gpu` is not an intent of the project (common-instancetypes)');
    expect(gpu.stderr).toContain('known: general, overcommitted, compute');
  });

  it("explains the answer and the smaller ones passed over, in KubeVirt's words", () => {
    const r = itgen(REPO, 'select', '-g', 'generators/common-instancetypes.yaml', '--os', 'windows 11');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^u1\.2xmedium with windows\.11\n/);
    expect(r.stdout).toContain(
      'not chosen:\n  u1.nano: failure checking preference requirements: insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU',
    );
    expect(r.stdout).toContain('kind: VirtualMachine');
  });

  it("with the cluster's nodes, the answer's launcher pod fits one; one that fits none is passed over", () => {
    const dir = scratchProject({});
    try {
      copyFileSync(`${__dirname}/fixtures/fit/nodes.yaml`, `${dir}/nodes.yaml`);
      const r = itgen(
        REPO,
        'select',
        '-g',
        'generators/common-instancetypes.yaml',
        '--os',
        'fedora',
        '--intent',
        'compute',
        '--nodes',
        `${dir}/nodes.yaml`,
        '-o',
        'json',
      );
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout) as { answer: { fits: string[]; why: string[] } };
      expect(j.answer.fits.length).toBeGreaterThan(0);
      expect(j.answer.why.join(' ')).toMatch(/its launcher pod fits on \d+ of \d+ nodes/);
    } finally {
      removeDir(dir);
    }
  });

  it('--scope namespaced names the namespaced kinds', () => {
    const r = itgen(REPO, 'select', '-g', 'generators/common-instancetypes.yaml', '--os', 'fedora', '--scope', 'namespaced', '-o', 'json');
    const j = JSON.parse(r.stdout) as { answer: { instancetype: { kind: string }; vm: { spec: { preference: { kind: string } } } } };
    expect(j.answer.instancetype.kind).toBe('VirtualMachineInstancetype');
    expect(j.answer.vm.spec.preference.kind).toBe('VirtualMachinePreference');
  });

  it('--family, --class, --text and --deprecated narrow a decision as they narrow the list; a deciding option alone is refused', () => {
    const ask = (...more: string[]): { code: number | null; name?: string; stderr: string } => {
      const r = itgen(REPO, 'select', '-g', 'generators/common-instancetypes.yaml', '--os', 'fedora', ...more, '-o', 'json');
      const j = r.code === 0 ? (JSON.parse(r.stdout) as { answer: { instancetype: { name: string } } }) : undefined;
      return { code: r.code, stderr: r.stderr, ...(j ? { name: j.answer.instancetype.name } : {}) };
    };
    // Naming a dedicated-CPU family is asking for one: without an intent, general purpose is not imposed.
    expect(ask('--family', 'cx', '--cpu', '4').name).toBe('cx1.xlarge');
    expect(ask('--class', 'memory.intensive').name).toBe('m1.large');
    expect(ask('--text', 'large').name).toBe('u1.large');
    // The narrowing holds for the refusal's alternatives too: the nearest of the family named.
    const none = ask('--family', 'cx', '--cpu', '3');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/nearest that KubeVirt admits: cx1\./);
    const list = itgen(REPO, 'select', '-g', 'generators/common-instancetypes.yaml', '--cpu', '2', '--scope', 'namespaced');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('error IT1011 --scope is for a decision: give --os, --intent or --size with it');
  });

  it('least specialised means one thing: select decides as a template sweep suggests (overcommitted memory counts, whatever the class label)', () => {
    const objects = `apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterInstancetype
metadata:
  name: small.overcommitted
  labels: {instancetype.kubevirt.io/class: general.purpose}
spec:
  cpu: {guest: 2}
  memory: {guest: 2Gi, overcommitPercent: 50}
---
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterInstancetype
metadata:
  name: large.plain
  labels: {instancetype.kubevirt.io/class: general.purpose}
spec:
  cpu: {guest: 4}
  memory: {guest: 4Gi}
---
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterPreference
metadata:
  name: fedora
spec:
  devices: {preferredDiskBus: virtio}
`;
    const template = templateYaml('    - name: INSTANCETYPE\n      value: small.overcommitted', {
      name: 'vm',
      instancetype: '${INSTANCETYPE}',
      preference: 'fedora',
    });
    const dir = scratchProject({ 'objects.yaml': objects, 'tpl.yaml': template });
    try {
      const chosen = JSON.parse(itgen(dir, 'select', '--with', 'objects.yaml', '--os', 'fedora', '-o', 'json').stdout) as {
        answer: { instancetype: { name: string } };
      };
      const [sweep] = JSON.parse(itgen(dir, 'template', 'sweep', 'tpl.yaml', '--with', 'objects.yaml', '-o', 'json').stdout) as { best: string }[];
      expect([chosen.answer.instancetype.name, sweep!.best]).toEqual(['large.plain', 'large.plain']);
    } finally {
      removeDir(dir);
    }
  });

  it("a catalog's own words: `web` means the u family; other words are refused with it", () => {
    const dir = scratchProject({
      'catalogs/acme/catalog.yaml': `kind: Catalog
name: acme
words:
  intents:
    web: {families: [u]}
  os:
    the usual: fedora
---
kind: SizeLadder
name: standard
sizes:
  - {name: small, cpu: 1}
  - {name: large, cpu: 2}
---
kind: Family
name: u
version: 1
displayName: Universal
description: General purpose
class: general.purpose
memoryPerCPU: 4Gi
---
kind: Family
name: m
version: 1
displayName: Memory
description: Memory intensive
class: memory.intensive
memoryPerCPU: 8Gi
---
kind: Preference
name: fedora
displayName: Fedora
spec:
  devices: {preferredDiskBus: virtio}
`,
      'generators/acme.yaml': 'catalog: ../catalogs/acme\noutput: ../output/acme\n',
    });
    try {
      const r = itgen(dir, 'select', '--os', 'the usual', '--intent', 'web', '--size', 'large', '-o', 'json');
      expect(r.stderr).not.toMatch(/ error /);
      expect((JSON.parse(r.stdout) as { answer: { instancetype: { name: string } } }).answer.instancetype.name).toBe('u1.large');
      const m = itgen(dir, 'select', '--os', 'fedora', '--intent', 'memory');
      expect(m.stderr).toContain('known: web');
    } finally {
      removeDir(dir);
    }
  });
});
