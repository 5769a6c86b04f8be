/**
 * `itgen expand` in-process: inputs (files, directories, stdin), --with without a project, the
 * output formats, --skip-admission, and each IT80xx diagnostic with the VM's file:line:col.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { runInProcess, type CliRun } from './e2e-helpers';
import { REFERENCE, removeDir, scratchProject } from './helpers';

const BUNDLE = 'bundle.yaml';

function project(files: Record<string, string>): string {
  const dir = scratchProject(files);
  copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, BUNDLE));
  return dir;
}

const itgen = (cwd: string, argv: string[], stdin = ''): CliRun => runInProcess(cwd, argv, { stdin });

const vm = (name: string, extra = ''): string => `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: ${name}
spec:
  instancetype: {name: u1.small}
  preference: {name: fedora}
  template:
    spec:
${extra}      domain: {devices: {}}
  runStrategy: Always
`;

describe('itgen expand: what KubeVirt does before and around expand-spec', () => {
  it("refuses a field KubeVirt's types do not have at its line, with the field it probably meant", () => {
    const dir = project({ 'vm.yaml': vm('x').replace('domain: {devices: {}}', 'domain: {devices: {}, cpu: {dedicatedCPUPlacement: true}}') });
    try {
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        'vm.yaml:10:58 error IT8005 VirtualMachine `x`: strict decoding error: unknown field "spec.template.spec.domain.cpu.dedicatedCPUPlacement"',
      );
      expect(r.err).toContain('hint: did you mean `dedicatedCpuPlacement`?');
    } finally {
      removeDir(dir);
    }
  });

  it("refuses a VM missing a field KubeVirt's CRD requires (null is absent), at the nearest line; an embedded ObjectMeta requires nothing", () => {
    // KubeVirt's CRD of the VM (validations_generated.go at d923fdb815) requires spec, spec.template,
    // template.spec.domain, domain.devices and each disk's name; its own schema validator, run by the
    // oracle, answers "spec in body is required", "spec.template in body is required"... for the first four.
    const cases: [string, string, string][] = [
      ['spec-missing', vm('a').replace(/^spec:[\s\S]*$/m, ''), 'vm.yaml:1:1 error IT8005 VirtualMachine `a`: spec: Required value'],
      ['spec-null', vm('a').replace(/^spec:[\s\S]*$/m, 'spec: null\n'), 'vm.yaml:5:7 error IT8005 VirtualMachine `a`: spec: Required value'],
      [
        'template-null',
        vm('a').replace(/ {2}template:[\s\S]*$/m, '  template: null\n'),
        'vm.yaml:8:13 error IT8005 VirtualMachine `a`: spec.template: Required value',
      ],
      [
        'devices',
        vm('a').replace('domain: {devices: {}}', 'domain: {cpu: {cores: 2}}'),
        'error IT8005 VirtualMachine `a`: spec.template.spec.domain.devices: Required value',
      ],
      [
        'disk-name',
        vm('a').replace('domain: {devices: {}}', 'domain: {devices: {disks: [{disk: {bus: virtio}}]}}'),
        'error IT8005 VirtualMachine `a`: spec.template.spec.domain.devices.disks[0].name: Required value',
      ],
    ];
    for (const [what, text, expected] of cases) {
      const dir = project({ 'vm.yaml': text });
      try {
        const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE]);
        expect([what, r.code]).toEqual([what, 1]);
        expect(r.err).toContain(expected);
      } finally {
        removeDir(dir);
      }
    }
    const embedded = project({ 'vm.yaml': vm('a').replace('  template:\n', '  template:\n    metadata: {ownerReferences: [{name: o}]}\n') });
    try {
      expect(itgen(embedded, ['expand', 'vm.yaml', '--with', BUNDLE]).code).toBe(0);
    } finally {
      removeDir(embedded);
    }
  });

  it('expands from the ControllerRevision a VM names (v1beta1), and fails as KubeVirt does on one it cannot decode', () => {
    const revision = (api: string): string => `apiVersion: apps/v1
kind: ControllerRevision
metadata: {name: rev, namespace: default}
revision: 1
data:
  apiVersion: ${api}
  kind: VirtualMachineClusterInstancetype
  metadata: {name: u1.small}
  spec: {cpu: {guest: 3}, memory: {guest: 3Gi}}
`;
    const withRevision = vm('x').replace('instancetype: {name: u1.small}', 'instancetype: {name: u1.small, revisionName: rev}');
    const dir = project({
      'vm.yaml': withRevision,
      'rev.yaml': revision('instancetype.kubevirt.io/v1beta1'),
      'old.yaml': revision('instancetype.kubevirt.io/v1alpha2'),
    });
    try {
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE, '--with', 'rev.yaml', '-o', 'json']);
      expect(r.code).toBe(0);
      const domain = (JSON.parse(r.out) as { spec: { template: { spec: { domain: { cpu: unknown; memory: unknown } } } } }).spec.template.spec.domain;
      expect([domain.cpu, domain.memory]).toEqual([{ sockets: 3, cores: 1, threads: 1 }, { guest: '3Gi' }]);
      const old = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE, '--with', 'old.yaml', '--skip-admission']);
      expect(old.code).toBe(1);
      expect(old.err).toContain(
        'error IT8001 VirtualMachine `x`: failed to decode object in ControllerRevision: no kind "VirtualMachineClusterInstancetype" is registered for version "instancetype.kubevirt.io/v1alpha2"',
      );
      const missing = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE, '--skip-admission']);
      expect(missing.err).toContain('vm.yaml:6:48 error IT8001 VirtualMachine `x`: controllerrevisions.apps "rev" not found');
    } finally {
      removeDir(dir);
    }
  });

  it('takes a VM without a namespace in -n NS (default: default), as the request would', () => {
    const ns = (name: string, namespace: string): string =>
      `apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineInstancetype\nmetadata: {name: ${name}, namespace: ${namespace}}\nspec: {cpu: {guest: 2}, memory: {guest: 2Gi}}\n`;
    const dir = project({
      'vm.yaml': vm('x')
        .replace('instancetype: {name: u1.small}', 'instancetype: {name: mine, kind: VirtualMachineInstancetype}')
        .replace('  preference: {name: fedora}\n', ''),
      'objs.yaml': `${ns('mine', 'default')}---\n${ns('mine', 'team')}`.replace(/guest: 2Gi\}\}\n$/, 'guest: 4Gi}}\n'),
    });
    try {
      const d = itgen(dir, ['expand', 'vm.yaml', '--with', 'objs.yaml', '-o', 'json']);
      expect(d.code).toBe(0);
      expect(JSON.parse(d.out).metadata.namespace).toBe('default');
      expect(JSON.parse(d.out).spec.template.spec.domain.memory.guest).toBe('2Gi');
      const t = itgen(dir, ['expand', 'vm.yaml', '--with', 'objs.yaml', '-n', 'team', '-o', 'json']);
      expect(JSON.parse(t.out).spec.template.spec.domain.memory.guest).toBe('4Gi');
    } finally {
      removeDir(dir);
    }
  });
});

describe('itgen expand', () => {
  it('expands VMs from a directory against --with alone (no project), as a YAML stream or a JSON List', () => {
    const dir = project({ 'vms/a.yaml': vm('a'), 'vms/b.json': JSON.stringify(parse(vm('b'))) });
    try {
      const yaml = itgen(dir, ['expand', 'vms', '--with', BUNDLE]);
      expect(yaml.err).toBe('');
      expect(yaml.code).toBe(0);
      const docs = yaml.out.split(/^---$/m).map((d) => parse(d) as { metadata: { name: string }; spec: Record<string, unknown> });
      expect(docs.map((d) => d.metadata.name)).toEqual(['a', 'b']);
      expect(docs[0]!.spec['instancetype']).toBeUndefined();
      const json = JSON.parse(itgen(dir, ['expand', 'vms', '--with', BUNDLE, '-o', 'json']).out) as { kind: string; items: unknown[] };
      expect(json.kind).toBe('List');
      expect(json.items).toHaveLength(2);
    } finally {
      removeDir(dir);
    }
  });

  it('reads standard input, and --skip-admission gives what expand-spec returns even when admission refuses', () => {
    const dir = project({});
    try {
      const micro = vm('m').replace('u1.small', 'u1.micro');
      const admitted = itgen(dir, ['expand', '-', '--with', BUNDLE], micro);
      expect(admitted.code).toBe(1);
      expect(admitted.err).toContain(
        '<stdin>:6:17 error IT8003 VirtualMachine `m` would be refused: failure checking preference requirements: insufficient Memory resources of 1Gi provided by instance type, preference requires 2Gi',
      );
      const skipped = itgen(dir, ['expand', '-', '--with', BUNDLE, '--skip-admission'], micro);
      expect(skipped.code).toBe(0);
      expect((parse(skipped.out) as { spec: { template: { spec: { domain: { memory: unknown } } } } }).spec.template.spec.domain.memory).toEqual({
        guest: '1Gi',
      });
    } finally {
      removeDir(dir);
    }
  });

  it("IT8001: an object that is not there, in KubeVirt's words, at the VM line", () => {
    const dir = project({ 'vm.yaml': vm('x').replace('u1.small', 'u1.nope') });
    try {
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE, '--skip-admission']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('vm.yaml:6:24 error IT8001 VirtualMachine `x`: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u1.nope" not found');
      // Admission comes first and ignores lookup errors (KubeVirt's admitter): the preference's
      // requirements are checked against a VM without its instance type.
      const admitted = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE]);
      expect(admitted.code).toBe(1);
      expect(admitted.err).toMatch(
        /error IT8003 VirtualMachine `x` would be refused: failure checking preference requirements: insufficient Memory resources of 0 provided by VirtualMachine/,
      );
    } finally {
      removeDir(dir);
    }
  });

  it('IT8002: each conflicting field is pointed at', () => {
    const dir = project({ 'vm.yaml': vm('x', '      nodeSelector: {a: b}\n').replace('domain: {devices: {}}', 'domain: {cpu: {cores: 2}, devices: {}}') });
    try {
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        'vm.yaml:11:29 error IT8002 VirtualMachine `x`: VM field(s) spec.template.spec.domain.cpu.cores conflicts with selected instance type',
      );
    } finally {
      removeDir(dir);
    }
  });

  it('IT8004: input without a VirtualMachine; a file the operator names outside the project is read (it is their choice)', () => {
    const dir = project({ 'pvc.yaml': 'kind: PersistentVolumeClaim\nmetadata: {name: p}\n' });
    try {
      mkdirSync(path.join(dir, 'empty'));
      const r = itgen(dir, ['expand', 'pvc.yaml', '--with', BUNDLE]);
      expect(r.code).toBe(1);
      expect(r.err).toContain('pvc.yaml:1:1 error IT8004 no VirtualMachine found in the input');
      const outside = itgen(dir, ['expand', '/etc/hostname', '--with', BUNDLE]);
      expect(outside.code).toBe(1);
      expect(outside.err).toMatch(/^\/etc\/hostname:1:1 error IT1004 document 1 is a string, not a mapping/m);
      // Named on the command line, but not quoted: source lines are quoted only from inside the project.
      expect(outside.err).not.toMatch(/^ +1 \| /m);
    } finally {
      removeDir(dir);
    }
  });
});

describe('itgen expand: values of the wrong type', () => {
  it.each([
    [
      'cores: two',
      'domain: {devices: {}, cpu: {cores: two}}',
      'spec.template.spec.domain.cpu.cores: Invalid value: "string": spec.template.spec.domain.cpu.cores in body must be of type integer: "string"',
    ],
    [
      'devices: []',
      'domain: {devices: []}',
      'spec.template.spec.domain.devices: Invalid value: "array": spec.template.spec.domain.devices in body must be of type object: "array"',
    ],
    [
      'memory.guest: 5x',
      'domain: {devices: {}, memory: {guest: 5x}}',
      'spec.template.spec.domain.memory.guest: Invalid value: "5x": spec.template.spec.domain.memory.guest in body should be a quantity',
    ],
  ])("%s is refused in the API server's words at its line, exit 1", (_what, domain, message) => {
    const dir = project({ 'vm.yaml': vm('x').replace('domain: {devices: {}}', domain) });
    try {
      const r = itgen(dir, ['expand', 'vm.yaml', '--with', BUNDLE]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^vm\.yaml:10:\d+ error IT8005 /m);
      expect(r.err).toContain(message);
    } finally {
      removeDir(dir);
    }
  });
});
