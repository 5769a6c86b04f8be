import { type ModelledRelease, NEWEST_RELEASE, parts, compare, modelledRelease } from './release-names';
export { MODELLED_RELEASES, type ModelledRelease, NEWEST_RELEASE, modelledRelease, releaseNote, releasesBetween } from './release-names';

export interface ReleaseRule {
  /** KubeVirt's words. */
  readonly words: string;
  /** Where KubeVirt has it, and what removed or added it. */
  readonly source: string;
  /** The modelled releases the rule holds for. */
  readonly holdsFor: readonly ModelledRelease[];
}

export const RELEASE_RULES = {
  /**
   * The VMI webhook's arm64 settings refuse EFI with Secure Boot (explicit, or by default when EFI is
   * set without `secureBoot: false`). Proven: the oracle built at v1.7.4 refuses, at v1.8.4 and
   * v1.9 starts the VM (test/fixtures/release-answers/).
   */
  arm64SecureBoot: {
    words: 'UEFI secure boot is currently not supported on aarch64 Arch',
    source: 'pkg/virt-api/webhooks/arm64.go validateFirmware; removed in v1.9.0 (PR #16915) and in the v1.8 patch line before v1.8.4',
    holdsFor: ['v1.6.6', 'v1.7.4', 'v1.8.0'],
  },
  /**
   * The VMI mutating webhook's arm64 defaults turn Secure Boot off on an EFI bootloader written
   * without `secureBoot` (pkg/defaults/arm64.go); before, only on the EFI it adds itself when the VM
   * names no bootloader, so an EFI without `secureBoot` met the refusal above. Proven with it.
   */
  arm64EfiSecureBootOff: {
    words: 'spec.domain.firmware.bootloader.efi.secureBoot defaults to false on arm64',
    source: 'pkg/defaults/arm64.go setDefaultArm64Bootloader',
    holdsFor: ['v1.8.4', 'v1.9.0'],
  },
  /**
   * The webhooks print a VM's hugepage size as `domain.hugepages.size` (the memory rules) and
   * `domain.memory.hugepages.size` (no memory requested), where later releases print the field,
   * `domain.memory.hugepages.pageSize`. Proven: the admission corpus answered at v1.7.4.
   */
  hugepagesSizeWords: {
    words: 'hugepage sizes named domain.hugepages.size in the memory rules',
    source: 'pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go validateHugepagesMemoryRequests; renamed in v1.8',
    holdsFor: ['v1.6.6', 'v1.7.4'],
  },
  /**
   * validateArchitecture: an architecture other than virt-api's own (amd64) needs the
   * MultiArchitecture gate. Proven: the admission corpus answered at v1.7.4 (gone at v1.8.0).
   */
  multiArchitectureGate: {
    words: 'another architecture than the control plane needs the MultiArchitecture gate',
    source: 'pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go validateArchitecture; removed in v1.8',
    holdsFor: ['v1.6.6', 'v1.7.4'],
  },
  /** The launcher pod carries its memory overhead as the annotation `kubevirt.io/memory-overhead-bytes`. Proven: the preview corpus at v1.8.4 and v1.7.4. */
  memoryOverheadAnnotation: {
    words: 'the launcher pod is annotated kubevirt.io/memory-overhead-bytes',
    source: 'pkg/virt-controller/services/template.go (MemoryOverheadAnnotationBytes); added in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /**
   * A preference's `preferredPanicDeviceModel` adds a panic device to a VM that has none; before, it
   * only set the model of the panic devices the VM lists. Proven: the expand corpus answered at
   * v1.8.4 and v1.7.4.
   */
  preferredPanicDeviceAdded: {
    words: 'preferredPanicDeviceModel adds a panic device when the VM has none',
    source: 'pkg/instancetype/preference/apply/device.go applyPanicDevicePreferences; the addition arrived in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /**
   * The launcher's memory overhead counts 50Mi for QEMU's own RSS; before, 30Mi. Proven: the preview
   * corpus answered at v1.8.4 and v1.7.4.
   */
  qemuOverhead50Mi: {
    words: "the launcher's memory overhead counts 50Mi for QEMU (30Mi before)",
    source: 'pkg/hypervisor/kvm/hypervisorbackend.go QemuOverhead; raised in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /**
   * A VM's `memory.reservedOverhead.addedOverhead` (with `memLock`) joins the launcher's memory
   * overhead. Proven as above (v1.7.4 leaves it out).
   */
  reservedOverheadCounted: {
    words: 'memory.reservedOverhead.addedOverhead is added to the memory overhead',
    source: 'pkg/hypervisor/kvm/hypervisorbackend.go GetMemoryOverhead (RequiresMemoryOverheadReservation); added in v1.8',
    holdsFor: ['v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  /**
   * The launcher pod of a VM with dedicated CPUs selects nodes labelled `kubevirt.io/cpumanager`;
   * before, `cpumanager` (the label virt-handler sets then). Proven: the preview corpus at v1.7.4.
   */
  cpuManagerLabelPrefixed: {
    words: 'dedicated CPUs select nodes labelled kubevirt.io/cpumanager (cpumanager before)',
    source: 'staging/src/kubevirt.io/api/core/v1/types.go CPUManager; prefixed in v1.8',
    holdsFor: ['v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  /**
   * Persistent reservation is enabled by the CR's `persistentReservationConfiguration.enabled`, else
   * by the gate listed in `featureGates`; refused as "persistent reservation is not enabled in
   * kubevirt config". Before, the (Beta, off by default) gate alone, refused as "PersistentReservation
   * feature gate is not enabled in kubevirt-config". Proven: the admission corpus at each release.
   */
  persistentReservationConfiguration: {
    words: 'persistent reservation is enabled by persistentReservationConfiguration',
    source:
      'pkg/virt-config/virt-config.go PersistentReservationEnabled; pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go validatePersistentReservation; changed in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /**
   * A filesystem (virtiofs) on a config volume needs EnableVirtioFsConfigVolumes (or the old
   * ExperimentalVirtiofsSupport). Proven: the admission corpus at v1.7.4 (gone at v1.8.0).
   */
  virtiofsConfigVolumesGate: {
    words: 'virtiofs is not allowed: virtiofs feature gate is not enabled for config volumes',
    source: 'pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go validateFilesystemsWithVirtIOFSEnabled; removed in v1.8',
    holdsFor: ['v1.6.6', 'v1.7.4'],
  },
  /**
   * The VM and VMI mutating webhooks annotate `kubevirt.io/pci-topology-version: v3` whatever the
   * machine type and architecture; other releases only where the spec supports PCIe hotplug. Proven:
   * the preview corpus answered at v1.8.0.
   */
  pciTopologyAnnotatedAlways: {
    words: 'every VM and VMI is annotated kubevirt.io/pci-topology-version, PCIe hotplug or not',
    source:
      'pkg/virt-api/webhooks/mutating-webhook/mutators/vmi-mutator.go, vm-mutator.go setDefaultPciTopologyVersion; the SupportsPCIeHotplug condition came back in v1.8.x',
    holdsFor: ['v1.8.0'],
  },
  /**
   * The instance type's memory conflicts with any `domain.memory` of the VM (the whole struct); later
   * releases name the field (`memory.guest`, and hugepages or maxGuest only where the instance type
   * sets them too). Proven: the expand corpus answered at v1.6.6.
   */
  memoryStructConflicts: {
    words: 'spec.template.spec.domain.memory conflicts with the instance type whatever it holds',
    source: 'pkg/instancetype/apply/memory.go applyMemory; field by field from v1.7',
    holdsFor: ['v1.6.6'],
  },
  /**
   * The instancetype mutating webhook applies the preference's architecture, machine type and
   * storage class to the VM it stores. Proven: the expand corpus at v1.6.6, which stores them unset.
   */
  vmMutatorAppliesPreference: {
    words: "the VM is stored with the preference's architecture, machine type and storage class",
    source: 'pkg/instancetype/webhooks/vm/mutator.go mutateArch, mutateMachineType, mutateDataVolumeTemplates; added in v1.7',
    holdsFor: ['v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  /**
   * ControllerRevisions of `instancetype.kubevirt.io/v1alpha1` and `v1alpha2` objects decode (and
   * convert); later releases' scheme has v1beta1 only. Proven: the expand corpus at v1.6.6.
   */
  alphaRevisionsDecoded: {
    words: 'revisions of v1alpha1 and v1alpha2 instance types and preferences are read',
    source: 'staging/src/kubevirt.io/client-go/kubevirt/scheme/register.go; v1alpha1 and v1alpha2 left the scheme in v1.7',
    holdsFor: ['v1.6.6'],
  },
  /**
   * validateLaunchSecurity knows SEV only (SNP and TDX arrived in v1.7, with the per-architecture
   * rules): the Secure Execution gate on s390x, SEV's gate, then its EFI, Secure Boot, attestation
   * and bootable NICs. Proven: the admission corpus answered at v1.6.6.
   */
  launchSecuritySevOnly: {
    words: 'launch security is SEV only, judged without the per-architecture rules',
    source: 'pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go validateLaunchSecurity; rewritten in v1.7',
    holdsFor: ['v1.6.6'],
  },
  /**
   * A custom block size's logical size must be 512 on SATA, and its discard granularity a multiple of
   * it. Proven: the admission corpus at v1.6.6, which has neither check.
   */
  blockSizeSataAndDiscard: {
    words: 'a SATA disk has a logical block size of 512, a discard granularity a multiple of the logical size',
    source: 'pkg/storage/admitters/disks.go validateBlockSize; added in v1.7',
    holdsFor: ['v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  /**
   * The VMI's foreground-deletion finalizer is `kubevirt.io/foregroundDeleteVirtualMachine` (before:
   * `foregroundDeleteVirtualMachine`), and the launcher pod carries the label `vmi.kubevirt.io/id`.
   * Proven: the preview corpus answered at v1.6.6.
   */
  prefixedNames: {
    words: 'the VMI finalizer is kubevirt.io/foregroundDeleteVirtualMachine, the pod is labelled vmi.kubevirt.io/id',
    source: 'staging/src/kubevirt.io/api/core/v1/types.go VirtualMachineInstanceFinalizer, VirtualMachineInstanceIDLabel; both in v1.7',
    holdsFor: ['v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  /** validateServiceAccountName. Proven as above: v1.8.4 and v1.7.4 start a VM with `Robot_1`. */
  serviceAccountName: {
    words: 'a service account name must be a DNS subdomain, the same as its volume',
    source: 'pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go validateServiceAccountName; added in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /**
   * The network admitter: an interface has exactly one binding (method or plugin); before, a plugin
   * beside a method was refused at `.binding` and none at all passed. Proven: the admission corpus.
   */
  oneBindingPerInterface: {
    words: 'an interface has exactly one binding method or binding plugin',
    source: 'pkg/network/admitter/binding.go validateInterfaceBindingExists; rewritten in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /** A forwarded port is refused from 65536 (before: above it), its causes at `.port` (before: the port). */
  portFieldNamed: {
    words: 'a forwarded port is refused from 65536 (above it before), at its .port',
    source: 'pkg/network/admitter/netiface.go validateForwardPortInRange, validateForwardPortNonZero; changed in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /** Port ranges on masquerade interfaces, behind the PortRangesSpec gate. */
  portRanges: {
    words: 'masquerade interfaces take port ranges, behind the PortRangesSpec gate',
    source: 'pkg/network/admitter/netiface.go validatePortRangesConfiguration; added in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /**
   * A VMI's resource claims are named (a DNS label, once) and give exactly one of a claim or a claim
   * template by a DNS subdomain name; before, only a name used twice was refused.
   */
  draClaimsValidated: {
    words: 'a resource claim is named and gives exactly one of a claim or a claim template',
    source: 'pkg/dra/admitter/dra_admitter.go validateResourceClaims; added in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /** The render's words for a binding plugin the cluster does not register (v1.6 wrote "bindining"). */
  bindingPluginWords: {
    words: "the render's refusal of an unregistered binding plugin is spelt binding (bindining in v1.6)",
    source: 'pkg/network/netbinding/netbinding.go netBindingPluginSidecar; the typo fixed in v1.7',
    holdsFor: ['v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  /**
   * The DRA admitter judges GPUs only: one without a device name ends it, DRA GPUs need their gate,
   * their claims must be listed; nothing of host devices or the resource claims themselves.
   */
  draGpusOnly: {
    words: 'the DRA admitter judges GPUs only',
    source: 'pkg/dra/admitter/dra_admitter.go validateCreationDRA; rewritten in v1.8',
    holdsFor: ['v1.6.6', 'v1.7.4'],
  },
  /**
   * GPUs are all DRA or none, and a claim/request pair is used by one kind of device only; v1.8.0
   * checks neither. Proven: the admission corpus at v1.8.0 and v1.8.4.
   */
  draPairsChecked: {
    words: 'GPUs are all DRA or none, and a claim request serves one kind of device',
    source: 'pkg/dra/admitter/dra_admitter.go validateDRADevices (rejectMixed), validateCreationDRA; added in v1.8.4',
    holdsFor: ['v1.8.4', 'v1.9.0'],
  },
  /** A VMI created with utility volumes (they are only hotplugged). */
  /**
   * The VMI create webhook runs the storage spec validator (container disks, utility volumes, disks)
   * before the spec's own rules, which check the disks again: a disk's refusal is said twice. Proven:
   * the KubeVirt corpus's start answers at d923fdb815 (the v1.9 line) say it twice; api.go at the
   * v1.9.0 tag and before registers only the network validator.
   */
  /** ContainerPath volumes at the VMI's creation: a filesystem's, outside KubeVirt's own paths. */
  containerPathVolumes: {
    words: 'a ContainerPath volume is a filesystem, outside /var/run/kubevirt and /var/run/libvirt',
    source: 'pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go validateVirtualMachineInstanceSpecVolumeDisks; added in v1.8',
    holdsFor: ['v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  vmiStorageValidator: {
    words: "a disk's refusal at the VMI's creation is said twice",
    source: 'pkg/virt-api/api.go (VMICreateAdmitter SpecValidators: storageadmitters.Validate), after the v1.9.0 tag',
    holdsFor: ['v1.9.0'],
  },
  utilityVolumes: {
    words: 'a VM starts without utility volumes (they are only hotplugged)',
    source: 'pkg/storage/admitters/storagehotplug.go ValidateUtilityVolumesNotPresentOnCreation; added in v1.8',
    holdsFor: ['v1.8.0', 'v1.8.4', 'v1.9.0'],
  },
  /** GPUs and host devices of NVIDIA Grace GPUs: their gate, arm64 on `virt`, dedicated CPUs, NUMA-aware PCI and IOMMUFD. */
  graceIoVirtualization: {
    words: 'an NVIDIA Grace GPU passed through needs the GraceIOVirtualization gate, arm64 on virt and dedicated CPUs',
    source: 'pkg/virt-api/webhooks/validating-webhook/admitters/grace_io_virtualization.go; added in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /** Networks from DRA resource claims, behind NetworkDevicesWithDRA. */
  draNetworks: {
    words: 'networks take DRA resource claims, behind the NetworkDevicesWithDRA gate',
    source: 'pkg/network/admitter/dra.go validateNetworkDevicesWithDRA; added in v1.9',
    holdsFor: ['v1.9.0'],
  },
  /**
   * The discontinued passt and macvtap bindings are refused by their (never enabled) gates and
   * network rules, and only slirp as discontinued; from v1.8 all three are discontinued.
   */
  passtMacvtapGated: {
    words: 'the discontinued passt and macvtap bindings are refused by their gates',
    source: 'pkg/network/admitter/passt.go, macvtap.go, slirp.go; replaced by discontinued.go in v1.8',
    holdsFor: ['v1.6.6', 'v1.7.4'],
  },
} as const satisfies Record<string, ReleaseRule>;
export type ReleaseRuleName = keyof typeof RELEASE_RULES;

/**
 * Feature gates a release leaves off until the KubeVirt CR enables them, where v1.9.0 has them on:
 * before v1.9 a Beta gate was off by default (pkg/virt-config/feature-gates.go isFeatureGateEnabled:
 * only GA is implicit), and some gates were Alpha then (pkg/virt-config/featuregate/active.go at
 * each release's tag). Proven with the admission corpus answered at v1.8.4 and v1.7.4.
 */
export const GATES_OFF_BY_DEFAULT: Readonly<Record<string, readonly ModelledRelease[]>> = {
  DeclarativeHotplugVolumes: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  ExpandDisks: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  // Off, a container disk is a container of the launcher pod (and an init container copying its binary), not an image volume.
  ImageVolume: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  PanicDevices: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  PersistentReservation: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  RebootPolicy: ['v1.8.0', 'v1.8.4'],
  VideoConfig: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  // Off (or absent), the launcher pod's render looks up every Multus network's NetworkAttachmentDefinition.
  ExternalNetResourceInjection: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  WorkloadEncryptionSEV: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  // Beta before v1.9 (GA since): off, as Beta gates were then.
  SecureExecution: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  PasstBinding: ['v1.8.0', 'v1.8.4'],
  DecentralizedLiveMigration: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  // Alpha before v1.9 (Beta since).
  GPUsWithDRA: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
  HostDevicesWithDRA: ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4'],
};

/**
 * The line of staging/src/kubevirt.io/client-go/kubevirt/scheme/register.go that makes KubeVirt's
 * scheme, at each release's tag: the scheme's name, which the decoder's errors quote (a
 * ControllerRevision of an API version the release no longer decodes).
 */
const SCHEME_REGISTER_LINE: Readonly<Record<ModelledRelease, number>> = { 'v1.6.6': 43, 'v1.7.4': 42, 'v1.8.0': 43, 'v1.8.4': 43, 'v1.9.0': 44 };

/** The name of KubeVirt's scheme at `release` (the newest modelled answer for one not modelled). */
export function kubevirtSchemeName(release: string | undefined): string {
  return `kubevirt.io/client-go/kubevirt/scheme/register.go:${SCHEME_REGISTER_LINE[modelledRelease(release) ?? NEWEST_RELEASE]}`;
}

/** Whether `gate` is off by default at `release` (GATES_OFF_BY_DEFAULT). */
export function gateOffByDefault(gate: string, release: string | undefined): boolean {
  const m = modelledRelease(release);
  return m !== undefined && Object.hasOwn(GATES_OFF_BY_DEFAULT, gate) && GATES_OFF_BY_DEFAULT[gate]!.includes(m);
}

/** Whether the release a cluster answers as has what arrived in `since` (`v1.9.0`): the one place versions compare. */
export function hasSince(since: string, release: string | undefined): boolean {
  const m = modelledRelease(release);
  const at = parts(since);
  return m !== undefined && at !== undefined && compare(parts(m)!, at) >= 0;
}

/** Whether a rule holds for a release (the modelled release it answers as). */
export function holds(rule: ReleaseRuleName, release: string | undefined): boolean {
  const m = modelledRelease(release);
  return m !== undefined && (RELEASE_RULES[rule].holdsFor as readonly string[]).includes(m);
}
