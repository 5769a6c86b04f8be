/**
 * `itgen validate FILE...`: hand-written manifests judged as KubeVirt's admission webhooks judge
 * them. The instancetype and preference cases are those of KubeVirt's webhook unit tests
 * (pkg/instancetype/webhooks/admitter_test.go, pkg/instancetype/preference/webhooks/admitter_test.go
 * at d923fdb815), each named; the VM matcher checks are the VM mutating webhook's (W 3 in
 * docs/design.md's sources).
 */
import { run } from '../src/cli/main';
import { removeDir, scratchProject } from './helpers';

function validate(files: Record<string, string>, ...argv: string[]): { code: number; err: string } {
  const dir = scratchProject(files);
  try {
    let err = '';
    const code = run(['validate', ...argv], { out: (s) => (err += `${s}\n`), err: (s) => (err += `${s}\n`), cwd: dir, color: false });
    return { code, err };
  } finally {
    removeDir(dir);
  }
}

const it_ = (spec: string, kind = 'VirtualMachineInstancetype'): string =>
  `apiVersion: instancetype.kubevirt.io/v1beta1\nkind: ${kind}\nmetadata:\n  name: t\nspec:\n${spec}`;
const pref = (spec: string, kind = 'VirtualMachinePreference'): string => it_(spec, kind);

describe('instance types (webhooks/admitter_test.go)', () => {
  it('DescribeTable "should accept valid instancetype" Entry "with v1beta1 version"', () => {
    expect(validate({ 'it.yaml': it_('  cpu: {guest: 1}\n  memory: {guest: 128Mi}\n') }, 'it.yaml')).toEqual({ code: 0, err: '' });
  });

  it.each([
    ['negative overcommit percent', -15],
    ['over 100 percent overcommit', 150],
  ])('DescribeTable "should reject negative and over 100%% memory overcommit values" Entry "%s"', (_name, pct) => {
    const r = validate({ 'it.yaml': it_(`  cpu: {guest: 1}\n  memory: {guest: 128Mi, overcommitPercent: ${pct}}\n`) }, 'it.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/it\.yaml:7:\d+ error IT(3001|4001) .*overcommitPercent/);
  });

  it('It "should reject specs with memory overcommit and hugepages"', () => {
    const r = validate(
      {
        'it.yaml': it_('  cpu: {guest: 1}\n  memory: {guest: 128Mi, overcommitPercent: 15, hugepages: {pageSize: 2Mi}}\n', 'VirtualMachineClusterInstancetype'),
      },
      'it.yaml',
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain('spec.memory.overcommitPercent and spec.memory.hugepages should not be requested together.');
  });

  it('It "should warn off deprecated launchSecurity field"', () => {
    const r = validate({ 'it.yaml': it_('  cpu: {guest: 1}\n  memory: {guest: 128Mi}\n  launchSecurity: {sev: {}}\n') }, 'it.yaml');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/it\.yaml:8:\d+ warning IT4015 /);
  });
});

describe('preferences (preference/webhooks/admitter_test.go)', () => {
  it('It "should reject unsupported PreferredCPUTopolgy value"', () => {
    const r = validate({ 'p.yaml': pref('  cpu: {preferredCPUTopology: foo}\n') }, 'p.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/p\.yaml:6:\d+ error IT(3001|4003) /);
  });

  it.each(['spread', 'preferSpread'])('DescribeTable "should reject unsupported SpreadOptions Across value" Entry "with %s"', (topology) => {
    const r = validate({ 'p.yaml': pref(`  cpu: {preferredCPUTopology: ${topology}, spreadOptions: {across: foobar}}\n`) }, 'p.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/p\.yaml:6:\d+ error IT(3001|4004) /);
  });

  it.each([
    [
      'PreferSpreadSocketToCoreRatio with spread',
      '  preferSpreadSocketToCoreRatio: 3\n  cpu: {preferredCPUTopology: spread, spreadOptions: {across: CoresThreads}}\n',
    ],
    ['SpreadOptions with preferSpread', '  cpu: {preferredCPUTopology: preferSpread, spreadOptions: {across: CoresThreads, ratio: 3}}\n'],
  ])('DescribeTable "should reject when spreading vCPUs across CoresThreads with a ratio higher than 2 set through" Entry "%s"', (_name, spec) => {
    const r = validate({ 'p.yaml': pref(spec) }, 'p.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toContain('only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads');
  });

  it('DescribeTable "should raise warning for" Entry "DeprecatedPreferSockets and provide Sockets as an alternative"', () => {
    const r = validate({ 'p.yaml': pref('  cpu: {preferredCPUTopology: preferSockets}\n') }, 'p.yaml');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning IT4015 .*preferSockets/);
  });
});

describe('VirtualMachines: the VM webhook matcher checks and admission', () => {
  const vm = (instancetype: string, domain = '{devices: {}}'): string =>
    `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: v\nspec:\n  instancetype: ${instancetype}\n  template:\n    spec:\n      domain: ${domain}\n  runStrategy: Always\n`;
  const objects = it_('  cpu: {guest: 2}\n  memory: {guest: 2Gi}\n', 'VirtualMachineClusterInstancetype');

  it.each([
    ['{kind: VirtualMachineClusterInstancetype}', 'Either Name or InferFromVolume should be provided within the InstancetypeMatcher', '6:17'],
    ['{name: t, inferFromVolume: root}', 'Name already set, should be cleared before setting inferFromVolume', '6:24'],
    ['{kind: VirtualMachineClusterInstancetype, inferFromVolume: root}', 'Kind already set, should be cleared before setting inferFromVolume', '6:24'],
    ['{inferFromVolume: root, inferFromVolumeFailurePolicy: Sometimes}', "Invalid value 'Sometimes' for InferFromVolumeFailurePolicy", '6:71'],
  ])('IT8005: matcher %s', (matcher, message, at) => {
    const r = validate({ 'vm.yaml': vm(matcher), 'it.yaml': objects }, 'vm.yaml', 'it.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toContain(`vm.yaml:${at} error IT8005 VirtualMachine \`v\`: ${message}`);
  });

  it('admits a VM whose instance type is in the files, and refuses one that conflicts with it', () => {
    expect(validate({ 'vm.yaml': vm('{name: t}'), 'it.yaml': objects }, 'vm.yaml', 'it.yaml').code).toBe(0);
    const r = validate({ 'vm.yaml': vm('{name: t}', '{cpu: {cores: 2}, devices: {}}'), 'it.yaml': objects }, 'vm.yaml', '--with', 'it.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'vm.yaml:9:29 error IT8002 VirtualMachine `v`: VM field(s) spec.template.spec.domain.cpu.cores conflicts with selected instance type',
    );
  });
});

describe('several files', () => {
  it('a bad label shared by objects of several files is reported in each file, at its line', () => {
    const obj = (name: string): string =>
      `apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata:\n  name: ${name}\n  labels: {bad key!: v}\nspec:\n  cpu: {guest: 1}\n  memory: {guest: 1Gi}\n`;
    const r = validate({ 'a.yaml': obj('a'), 'b.yaml': `${obj('b')}---\n${obj('c')}` }, 'a.yaml', 'b.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toContain('a.yaml:5:12 error IT3001 instance type `a`: metadata.labels: Invalid value: "bad key!"');
    expect(r.err).toContain('b.yaml:5:12 error IT3001 instance type `b`: metadata.labels: Invalid value: "bad key!"');
    expect(r.err).toContain('b.yaml:14:12 error IT3001 instance type `c`: metadata.labels: Invalid value: "bad key!"');
  });
});
