/**
 * Objects the API server would refuse, given to the commands that read objects from files: a
 * KubeVirt CR whose integer fields are not integers (1.5, 0.5, 1e400, .inf, .nan, a string), and
 * instance types and preferences whose fields have the wrong types. Every command says so at the
 * field and exits 1, never an internal error.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { runInProcess } from './e2e-helpers';
import { REFERENCE, REPO, removeDir, scratchProject } from './helpers';

const VM =
  'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: web}\nspec:\n  instancetype: {name: u1.medium}\n  preference: {name: fedora}\n  template:\n    spec:\n      domain: {devices: {}}\n';

describe.each(['1.5', '0.5', '1e400', '.inf', '.nan', '"10"'])('a KubeVirt CR with cpuAllocationRatio %s', (value) => {
  let dir: string;
  beforeAll(() => {
    dir = scratchProject({
      'vm.yaml': VM,
      'kv.yaml': `apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec:\n  configuration:\n    developerConfiguration:\n      cpuAllocationRatio: ${value}\n`,
    });
    copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, 'bundle.yaml'));
    copyFileSync(path.join(REPO, 'test', 'fixtures', 'fit', 'nodes.yaml'), path.join(dir, 'nodes.yaml'));
  });
  afterAll(() => removeDir(dir));

  it.each([
    ['expand --as pod', ['expand', 'vm.yaml', '--as', 'pod']],
    ['validate', ['validate', 'vm.yaml']],
    ['facts', ['facts']],
    ['fit', ['fit', '--nodes', 'nodes.yaml']],
    ['resize', ['resize', 'vm.yaml', '--to', 'u1.large']],
    ['site', ['site', '--out', 'site']],
  ])('%s: exit 1 at the field', (_name, argv) => {
    const r = runInProcess(dir, [...argv, '--with', 'bundle.yaml', '--kubevirt', 'kv.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/kv\.yaml:7:\d+ error IT8009 spec\.configuration\.developerConfiguration\.cpuAllocationRatio: .* is not an integer/);
    expect(r.err).not.toContain('internal error');
  });
});

describe.each([
  ['metadata: {name: x.y, labels: 5}\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}}', 3],
  ['metadata: {name: x.y}\nspec: 5', 4],
  ['metadata: {name: x.y}\nspec: {cpu: {guest: "two"}, memory: {guest: 1Gi}}', 4],
  ['metadata: {name: x.y}\nspec: {cpu: {guest: 1}, memory: {guest: true}}', 4],
  ['metadata: {name: x.y}\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}, nodeSelector: [1]}', 4],
])('an instance type of the wrong types in --with: %s', (body, line) => {
  let dir: string;
  beforeAll(() => {
    dir = scratchProject({
      'vm.yaml': VM,
      'bad.yaml': `apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\n${body}\n`,
    });
  });
  afterAll(() => removeDir(dir));

  it.each([['select'], ['site', '--out', 'site'], ['facts'], ['policy'], ['explain', 'x.y'], ['validate', 'vm.yaml']])(
    '%s: exit 1 at the object',
    (...argv) => {
      const r = runInProcess(dir, [...argv, '--with', 'bad.yaml']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(new RegExp(`bad\\.yaml:${line}:\\d+ error IT3001 VirtualMachineClusterInstancetype \`x\\.y\`: `));
      expect(r.err).not.toContain('internal error');
    },
  );
});

describe('objects without a name (metadata: null, or no metadata)', () => {
  let dir: string;
  beforeAll(() => {
    dir = scratchProject({
      'vm.yaml':
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: null\nspec:\n  instancetype: {name: u1.medium}\n  template:\n    spec:\n      domain: {devices: {}}\n',
      'it.yaml':
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata: null\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}}\n---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\nspec: {}\n',
    });
    copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, 'bundle.yaml'));
  });
  afterAll(() => removeDir(dir));

  it('a VM with no name is refused as the API server refuses it, at its metadata', () => {
    for (const argv of [
      ['validate', '--vms', 'vm.yaml'],
      ['expand', 'vm.yaml'],
    ]) {
      const r = runInProcess(dir, [...argv, '--with', 'bundle.yaml']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('vm.yaml:3:11 error IT8006 VirtualMachine `(unnamed)`: metadata.name: Required value: name or generateName is required');
    }
  });
  it('instance types and preferences with no name are refused and left out, never an internal error', () => {
    const r = runInProcess(dir, ['select', '--with', 'bundle.yaml', '--with', 'it.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'it.yaml:3:11 error IT3001 VirtualMachineClusterInstancetype `(unnamed)`: metadata.name: Required value: name or generateName is required',
    );
    expect(r.err).toMatch(/it\.yaml:\d+:\d+ error IT3001 VirtualMachineClusterPreference `\(unnamed\)`: metadata\.name: Required value/);
    expect(r.err).not.toContain('internal error');
  });
});

describe.each(['NaN', '.nan', 'Infinity', '.inf', 'abc', '""', '"64Gi "', '-5', '{}'])('a node dump whose memory is %s', (value) => {
  let dir: string;
  beforeAll(() => {
    dir = scratchProject({
      'nodes.yaml': `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n1, labels: {kubernetes.io/arch: amd64}}\n  status:\n    allocatable: {cpu: "8", memory: ${value}, pods: "110"}\n`,
    });
    copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, 'bundle.yaml'));
  });
  afterAll(() => removeDir(dir));
  it('is said at its place, never read as 0 or trimmed', () => {
    const r = runInProcess(dir, ['fit', '--nodes', 'nodes.yaml', '--with', 'bundle.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^nodes\.yaml:8:37 error IT8004 Node `n1`: status\.allocatable\.memory is .*, not a quantity a node can offer$/m);
    expect(r.out).toBe('');
  });
});

describe('a project file named <stdin>', () => {
  let dir: string;
  beforeAll(() => {
    dir = scratchProject({ '<stdin>': 'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: x}\nspec: [\n' });
    copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, 'bundle.yaml'));
  });
  afterAll(() => removeDir(dir));
  it('is named ./<stdin>, and standard input is never quoted from it', () => {
    const file = runInProcess(dir, ['expand', '<stdin>', '--with', 'bundle.yaml']);
    expect(file.code).toBe(1);
    expect(file.err).toMatch(/^\.\/<stdin>:4:\d+ error IT1002 /m);
    const stdin = runInProcess(dir, ['expand', '-', '--with', 'bundle.yaml'], { stdin: 'kind: VirtualMachine\n' });
    expect(stdin.code).toBe(1);
    expect(stdin.err).toMatch(/^<stdin>:1:1 error IT8006 /m);
    expect(stdin.err).not.toContain('spec: [');
    expect(stdin.err).not.toContain('apiVersion: kubevirt.io/v1\n');
  });
});
