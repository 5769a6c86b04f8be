/**
 * `itgen template process`: a VirtualMachineTemplate file processed as virtctl template process
 * --local does, the engine's errors at the template's lines (IT8401), its warning (IT8402) and the
 * fields it drops in silence (IT8403).
 */
import { itgen } from './e2e-helpers';
import { templateApiVersionProblems } from '../src/kubevirt/template';
import { readFileSync } from 'node:fs';
import { removeDir, scratchProject, UPSTREAM_BUNDLE } from './helpers';
import { WINDOWS_11_TEMPLATE } from './vm-samples';

const TEMPLATE = `apiVersion: template.kubevirt.io/v1beta1
kind: VirtualMachineTemplate
metadata:
  name: appliance
spec:
  message: "VM \${NAME} created"
  parameters:
    - name: NAME
      generate: expression
      from: "vm-[a-z0-9]{5}"
    - name: INSTANCETYPE
      value: u1.medium
    - name: UNUSED
  virtualMachine:
    apiVersion: kubevirt.io/v1
    kind: VirtualMachine
    metadata:
      name: \${NAME}
      namespace: hardcoded
    spec:
      runStrategy: Always
      instancetype:
        name: \${INSTANCETYPE}
      template:
        spec:
          domain:
            cpu:
              dedicatedCpuPlacment: true
            devices: {}
`;

const dirs: string[] = [];
const project = (files: Record<string, string>): string => {
  const dir = scratchProject(files);
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach(removeDir));

describe('itgen template process', () => {
  it('prints the VM, says which values were generated, warns of an unused parameter and of a field the engine drops', () => {
    const dir = project({ 'tpl.yaml': TEMPLATE });
    const r = itgen(dir, 'template', 'process', 'tpl.yaml', '-p', 'INSTANCETYPE=u1.large');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# NAME: generated "vm-[a-z0-9]{5}" from "vm-\[a-z0-9\]\{5\}"$/m);
    expect(r.stdout).toMatch(/^# message: "VM vm-[a-z0-9]{5} created"$/m);
    expect(r.stdout).toContain('name: u1.large');
    expect(r.stdout).not.toContain('hardcoded');
    expect(r.stdout).not.toContain('dedicatedCpuPlacment');
    expect(r.stderr).toContain('tpl.yaml:13:13 warning IT8402 spec.parameters[2].name: UNUSED is defined but never referenced');
    expect(r.stderr).toMatch(/tpl\.yaml:28:15 warning IT8403 .*dedicatedCpuPlacment/);
  });

  it("refuses a parameter the template does not declare, in virtctl's words, with the one meant", () => {
    const dir = project({ 'tpl.yaml': TEMPLATE });
    const r = itgen(dir, 'template', 'process', 'tpl.yaml', '-p', 'INSTANCE_TYPE=u1.large');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tpl.yaml:8:5 error IT8401 error merging template parameters: parameter INSTANCE_TYPE not found in template');
    expect(r.stderr).toContain('did you mean INSTANCETYPE?');
  });

  it('-o json prints the VM alone, as virtctl does, and the message on standard error', () => {
    const dir = project({ 'tpl.yaml': TEMPLATE });
    const r = itgen(dir, 'template', 'process', 'tpl.yaml', '-p', 'INSTANCETYPE=u1.large', '-o', 'json');
    expect(r.code).toBe(0);
    const vm = JSON.parse(r.stdout) as { apiVersion: string; kind: string; spec: { instancetype: { name: string } } };
    expect([vm.apiVersion, vm.kind, vm.spec.instancetype.name]).toEqual(['kubevirt.io/v1', 'VirtualMachine', 'u1.large']);
    expect(r.stderr).toMatch(/^VM vm-[a-z0-9]{5} created$/m);
  });

  it('refuses a reference to an undeclared parameter at the line of the reference', () => {
    const dir = project({ 'tpl.yaml': TEMPLATE.replace('${INSTANCETYPE}', '${SIZE}') });
    const r = itgen(dir, 'template', 'process', 'tpl.yaml', '-o', 'json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'tpl.yaml:23:15 error IT8401 error validating template parameters: spec.virtualMachine: Invalid value: "SIZE": references undefined parameter SIZE',
    );
  });
});

const BUNDLE = readFileSync(UPSTREAM_BUNDLE, 'utf8');
const WINDOWS_11 = WINDOWS_11_TEMPLATE;

describe('a template judged by the one judge (validate) and swept (template sweep)', () => {
  it("refuses a Windows 11 template defaulting to u1.medium in KubeVirt's words at the template's line, and suggests u1.2xmedium", () => {
    const dir = project({ 'windows11.yaml': WINDOWS_11, 'bundle.yaml': BUNDLE });
    const r = itgen(dir, 'validate', 'windows11.yaml', '--with', 'bundle.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'windows11.yaml:20:9 error IT8003 VirtualMachine `win11-00000` would be refused: failure checking preference requirements: insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU',
    );
    expect(r.stderr).toContain('`u1.2xmedium`');
  });

  it('passes the same template with a default the preference admits', () => {
    const dir = project({ 'windows11.yaml': WINDOWS_11.replace('value: u1.medium', 'value: u1.2xmedium'), 'bundle.yaml': BUNDLE });
    const r = itgen(dir, 'validate', 'windows11.yaml', '--with', 'bundle.yaml');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it("sweeps the instance type: every value's verdict, the default refused, u1.2xmedium suggested", () => {
    const dir = project({ 'windows11.yaml': WINDOWS_11, 'bundle.yaml': BUNDLE });
    const r = itgen(dir, 'template', 'sweep', 'windows11.yaml', '--with', 'bundle.yaml', '-o', 'json');
    expect(r.code).toBe(0);
    const [sweep] = JSON.parse(r.stdout) as { parameter: string; suggestion: string; rows: { value: string; admitted: boolean; isDefault: boolean }[] }[];
    expect(sweep!.parameter).toBe('INSTANCETYPE');
    expect(sweep!.suggestion).toBe('u1.2xmedium');
    expect(sweep!.rows.find((x) => x.isDefault)).toEqual(expect.objectContaining({ value: 'u1.medium', admitted: false }));
    expect(sweep!.rows.filter((x) => x.value.startsWith('u1.') && x.admitted).map((x) => x.value)).toContain('u1.large');
    const text = itgen(dir, 'template', 'sweep', 'windows11.yaml', '--with', 'bundle.yaml');
    expect(text.stdout).toMatch(
      /^INSTANCETYPE \(spec\.instancetype\.name\): \d+ of \d+ values admitted; default u1\.medium: refused; suggested: u1\.2xmedium$/m,
    );
  });
});

describe('the template API versions each KubeVirt release serves (IT8404)', () => {
  it('v1beta1 at v1.8 is not served; v1alpha1 at v1.9 is deprecated; before v1.8 there is no template API', () => {
    const dir = project({
      'v1beta1.yaml': WINDOWS_11,
      'v1alpha1.yaml': WINDOWS_11.replace('template.kubevirt.io/v1beta1', 'template.kubevirt.io/v1alpha1'),
      'bundle.yaml': BUNDLE,
    });
    const at18 = itgen(dir, 'validate', 'v1beta1.yaml', '--with', 'bundle.yaml', '--kubevirt-version', 'v1.8.4');
    expect(at18.stderr).toContain(
      'v1beta1.yaml:1:13 error IT8404 no matches for kind "VirtualMachineTemplate" in version "template.kubevirt.io/v1beta1": KubeVirt v1.8.4 serves template.kubevirt.io/v1alpha1',
    );
    const alpha18 = itgen(dir, 'validate', 'v1alpha1.yaml', '--with', 'bundle.yaml', '--kubevirt-version', 'v1.8.4');
    expect(alpha18.stderr).toContain('warning IT8404 KubeVirt v1.8.4 deploys virt-template only when its KubeVirt CR enables the Alpha Template feature gate');
    const alpha19 = itgen(dir, 'validate', 'v1alpha1.yaml', '--with', 'bundle.yaml');
    expect(alpha19.stderr).toContain(
      'warning IT8404 template.kubevirt.io/v1alpha1 VirtualMachineTemplate is deprecated at KubeVirt v1.9.0: write template.kubevirt.io/v1beta1',
    );
    const at17 = itgen(dir, 'validate', 'v1alpha1.yaml', '--with', 'bundle.yaml', '--kubevirt-version', 'v1.7.4');
    expect(at17.stderr).toContain('error IT8404 KubeVirt v1.7.4 deploys no template.kubevirt.io API');
    expect(at17.code).toBe(1);
    // A release that serves no such version refuses the template outright: no VM of it is judged there.
    for (const r of [at18, at17]) expect(r.stderr).not.toMatch(/IT8003|IT8405|IT3001/);
    expect(alpha19.stderr).toMatch(/IT8003/);
  });

  it('a finding several releases give is said once, naming them', () => {
    expect(templateApiVersionProblems('template.kubevirt.io/v1beta1', ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0'])).toEqual([
      { severity: 'error', message: expect.stringMatching(/^KubeVirt v1\.6\.6, v1\.7\.4 deploys no template\.kubevirt\.io API/) },
      {
        severity: 'error',
        message:
          'no matches for kind "VirtualMachineTemplate" in version "template.kubevirt.io/v1beta1": KubeVirt v1.8.0, v1.8.4 serves template.kubevirt.io/v1alpha1',
      },
    ]);
    expect(templateApiVersionProblems('template.kubevirt.io/v1alpha1', ['v1.8.0', 'v1.8.4', 'v1.9.0']).map((p) => p.message)).toEqual([
      expect.stringMatching(/^KubeVirt v1\.8\.0, v1\.8\.4 deploys virt-template only when/),
      'template.kubevirt.io/v1alpha1 VirtualMachineTemplate is deprecated at KubeVirt v1.9.0: write template.kubevirt.io/v1beta1',
    ]);
    expect(templateApiVersionProblems('template.kubevirt.io/v1beta1', ['v1.9.0'])).toEqual([]);
  });
});
