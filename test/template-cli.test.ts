/**
 * `itgen template process`: a VirtualMachineTemplate file processed as virtctl template process
 * --local does, the engine's errors at the template's lines (IT8401), its warning (IT8402) and the
 * fields it drops in silence (IT8403).
 */
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject } from './helpers';

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

  it('refuses a reference to an undeclared parameter at the line of the reference', () => {
    const dir = project({ 'tpl.yaml': TEMPLATE.replace('${INSTANCETYPE}', '${SIZE}') });
    const r = itgen(dir, 'template', 'process', 'tpl.yaml', '-o', 'json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'tpl.yaml:23:15 error IT8401 error validating template parameters: spec.virtualMachine: Invalid value: "SIZE": references undefined parameter SIZE',
    );
  });
});
