/** Manifests the template, select, mcp and output tests share. */

/** A VirtualMachine naming an instance type and a preference, with nothing else of its own. */
export function vmYaml(name: string, instancetype: string, preference: string, runStrategy = 'Halted'): string {
  return `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: ${name}
spec:
  runStrategy: ${runStrategy}
  instancetype:
    name: ${instancetype}
  preference:
    name: ${preference}
  template:
    spec:
      domain:
        devices: {}
`;
}

/**
 * A VirtualMachineTemplate (v1beta1, named `t`) with the `parameters` lines given (indented four
 * spaces, so that the first parameter stands on line 7) and one VM named `name`, naming the instance
 * type and preference given, if any.
 */
export function templateYaml(parameters: string, opts: { name?: string; instancetype?: string; preference?: string } = {}): string {
  const matchers = [
    ...(opts.instancetype !== undefined ? ['      instancetype:', `        name: ${opts.instancetype}`] : []),
    ...(opts.preference !== undefined ? ['      preference:', `        name: ${opts.preference}`] : []),
  ];
  return `apiVersion: template.kubevirt.io/v1beta1
kind: VirtualMachineTemplate
metadata:
  name: t
spec:
  parameters:
${parameters}
  virtualMachine:
    apiVersion: kubevirt.io/v1
    kind: VirtualMachine
    metadata:
      name: ${opts.name ?? '${NAME}'}
    spec:
      runStrategy: Halted
${matchers.map((l) => `${l}\n`).join('')}      template:
        spec:
          domain:
            devices: {}
`;
}

/**
 * The common-templates port's draft defaults every template to u1.medium (1 vCPU), Windows 11 too,
 * whose preference requires 2 vCPUs and 4Gi.
 */
export const WINDOWS_11_TEMPLATE = `apiVersion: template.kubevirt.io/v1beta1
kind: VirtualMachineTemplate
metadata:
  name: windows11
spec:
  parameters:
    - name: NAME
      generate: expression
      from: "win11-[a-z0-9]{5}"
    - name: INSTANCETYPE
      value: u1.medium
  virtualMachine:
    apiVersion: kubevirt.io/v1
    kind: VirtualMachine
    metadata:
      name: \${NAME}
    spec:
      runStrategy: Halted
      instancetype:
        name: \${INSTANCETYPE}
      preference:
        name: windows.11
      template:
        spec:
          domain:
            devices: {}
`;
