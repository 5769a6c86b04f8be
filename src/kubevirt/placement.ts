/**
 * Where KubeVirt places a VM's launcher pod, of what the VM spec alone decides
 * (pkg/virt-controller/services/nodeselectorrenderer.go, NewNodeSelectorRenderer at d923fdb815):
 * the pod's node selector starts as `kubevirt.io/schedulable: "true"` plus
 * `kubernetes.io/arch: <the VMI's architecture>`, then the cluster's and the VMI's own node
 * selectors are copied over it. So a VMI node selector naming another architecture wins: the pod
 * goes to nodes of that architecture, with a guest built for the VMI's.
 */

export const ARCH_LABEL = 'kubernetes.io/arch';

/**
 * The architecture a VM spec asks for and the one its node selector places it on, when they
 * differ; undefined when either is unset or they agree (KubeVirt lowercases the architecture).
 */
export function architectureSelectorConflict(vmiSpec: {
  readonly architecture?: unknown;
  readonly nodeSelector?: unknown;
}): { readonly architecture: string; readonly nodes: string } | undefined {
  const arch = typeof vmiSpec.architecture === 'string' ? vmiSpec.architecture.toLowerCase() : '';
  const selector = vmiSpec.nodeSelector;
  if (arch === '' || selector === null || typeof selector !== 'object' || Array.isArray(selector)) return undefined;
  const nodes = (selector as Record<string, unknown>)[ARCH_LABEL];
  if (typeof nodes !== 'string' || nodes === arch) return undefined;
  return { architecture: arch, nodes };
}

/**
 * The versions KubeVirt serves VirtualMachine in (staging/src/kubevirt.io/api/core/v1/register.go,
 * ApiSupportedVersions): v1, and v1alpha3 deprecated, with the API server's warning.
 */
export const VM_API_VERSIONS: Readonly<Record<string, { readonly deprecation?: string }>> = {
  'kubevirt.io/v1': {},
  'kubevirt.io/v1alpha3': { deprecation: 'kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release.' },
};

/**
 * The versions KubeVirt v1.9 serves the instancetype kinds in (staging/src/kubevirt.io/api/instancetype,
 * the CRDs' served versions): v1beta1 only, since v1alpha1 and v1alpha2 left in v1.7.
 */
export const INSTANCETYPE_API_VERSIONS: Readonly<Record<string, { readonly deprecation?: string }>> = {
  'instancetype.kubevirt.io/v1beta1': {},
};

/** The versions served per kind: VirtualMachine's, and the four instancetype kinds'. */
function servedVersions(kind: string): Readonly<Record<string, { readonly deprecation?: string }>> {
  return kind === 'VirtualMachine' ? VM_API_VERSIONS : INSTANCETYPE_API_VERSIONS;
}

/**
 * What the API server (its REST mapper, as kubectl reports it) says of an object's apiVersion: an
 * error for a version KubeVirt does not serve, a warning for a deprecated one, nothing otherwise.
 */
export function apiVersionProblem(
  kind: string,
  apiVersion: unknown,
): { readonly severity: 'error' | 'warning'; readonly message: string; readonly served: string } | undefined {
  const versions = servedVersions(kind);
  const served = Object.keys(versions)
    .filter((v) => versions[v]!.deprecation === undefined)
    .join(', ');
  if (typeof apiVersion !== 'string' || apiVersion === '') return { severity: 'error', message: 'apiVersion not set', served };
  const known = Object.hasOwn(versions, apiVersion) ? versions[apiVersion] : undefined;
  if (known === undefined) return { severity: 'error', message: `no matches for kind "${kind}" in version "${apiVersion}"`, served };
  return known.deprecation !== undefined ? { severity: 'warning', message: known.deprecation, served } : undefined;
}

/** `apiVersionProblem` of a VirtualMachine. */
export function vmApiVersionProblem(apiVersion: unknown): { readonly severity: 'error' | 'warning'; readonly message: string } | undefined {
  return apiVersionProblem('VirtualMachine', apiVersion);
}
