/**
 * zod model of the KubeVirt `instancetype.kubevirt.io/v1beta1` objects itgen emits.
 *
 * Ground truth for shape: the strict JSON Schemas in `test/reference/kubevirt-schemas/` (derived from KubeVirt's
 * swagger at v1.9.0); `test/manifest-schema.test.ts` checks both directions of that correspondence.
 * On top of the shape this adds the enumerations that KubeVirt's Go code and webhooks define but the
 * OpenAPI document does not carry, so a misspelt bus or model fails here rather than when a VM starts.
 * Those enumerations, the kinds and the release metadata (which field first appeared in which
 * KubeVirt release, what is deprecated) live in kubevirt-api.ts, without zod, and are re-exported here.
 * Over 400 lines because it is the whole API model, field by field, in the order of KubeVirt's types;
 * the test that compares it with KubeVirt's schemas reads it as one.
 *
 * Over 400 lines: The zod model of the four KubeVirt kinds, field by field as KubeVirt's Go types
 * declare them.
 */
import { z } from 'zod';
import {
  ALL_CPU_TOPOLOGIES,
  ARCHITECTURES,
  CPU_FEATURE_POLICIES,
  DISK_BUSES,
  DISK_CACHES,
  DISK_IO_MODES,
  DNS_SUBDOMAIN,
  HPET_TICK_POLICIES,
  INPUT_BUSES,
  INPUT_TYPES,
  INSTANCETYPE_API_VERSION,
  INTERFACE_MODELS,
  IO_THREADS_POLICIES,
  PANIC_DEVICE_MODELS,
  PIT_TICK_POLICIES,
  QUANTITY_PATTERN,
  RELEASE_PATTERN,
  RTC_TICK_POLICIES,
  RTC_TRACKS,
  SOUND_MODELS,
  SPREAD_ACROSS,
  VIDEO_TYPES,
  type ManifestKind,
} from './kubevirt-api';
export * from './kubevirt-api';

/** A KubeVirt release written as `vMAJOR.MINOR` or `vMAJOR.MINOR.PATCH`; a missing patch counts as 0. */
export const kubevirtReleaseSchema = z
  .string()
  .regex(RELEASE_PATTERN, 'expected a KubeVirt release such as v1.9 or v1.9.0')
  .describe('KubeVirt release, vMAJOR.MINOR or vMAJOR.MINOR.PATCH');

/** Kubernetes `resource.Quantity`: a string such as `4Gi`, `512M`, `1.5Gi`, or a plain number of bytes. */
export const quantitySchema = z
  .union([z.string().regex(QUANTITY_PATTERN, 'expected a Kubernetes quantity such as 4Gi or 512Mi'), z.number().nonnegative()])
  .describe('Kubernetes quantity, e.g. 4Gi');
export type Quantity = z.infer<typeof quantitySchema>;

const stringMapSchema = z.record(z.string(), z.string());

/** Go `struct{}`: only `{}` is meaningful, so any key is a typo. */
function emptyObject(description: string): z.ZodObject<Record<string, never>, z.core.$strict> {
  return z.strictObject({}).describe(description);
}

/** KubeVirt `FeatureState`: `{}` means enabled. */
function featureState(description: string): z.ZodOptional<z.ZodObject<{ enabled: z.ZodOptional<z.ZodBoolean> }, z.core.$strict>> {
  return z
    .strictObject({ enabled: z.boolean().describe('enable (true) or disable (false) the feature').optional() })
    .describe(description)
    .optional();
}

// ---------------------------------------------------------------------------------------------------------------
// Shared sub-objects

const virtualGpuOptionsSchema = z.strictObject({
  display: z
    .strictObject({
      enabled: z.boolean().describe('attach a display adapter backed by the vGPU').optional(),
      ramFB: featureState('boot framebuffer until the guest loads a GPU driver (default true)'),
    })
    .describe('vGPU display options')
    .optional(),
});

const launchSecuritySchema = z.strictObject({
  sev: z
    .strictObject({
      attestation: emptyObject('run the SEV attestation process').optional(),
      dhCert: z.string().describe("base64 guest owner's Diffie-Hellman key").optional(),
      policy: z
        .strictObject({ encryptedState: z.boolean().describe('require SEV-ES').optional() })
        .describe('SEV guest policy flags')
        .optional(),
      session: z.string().describe('base64 session blob').optional(),
    })
    .describe('AMD Secure Encrypted Virtualization')
    .optional(),
  snp: emptyObject('AMD SEV-SNP').optional(),
  tdx: emptyObject('Intel Trust Domain Extensions').optional(),
});

const gpuSchema = z.strictObject({
  name: z.string().describe('device name inside the VMI'),
  deviceName: z.string().describe('resource name from a device plugin').optional(),
  claimName: z.string().describe('entry of the VMI spec.resourceClaims (DRA)').optional(),
  requestName: z.string().describe('request within the ResourceClaim (DRA)').optional(),
  tag: z.string().describe('tag exposed to the guest via config drive').optional(),
  virtualGPUOptions: virtualGpuOptionsSchema.describe('vGPU options').optional(),
});

const hostDeviceSchema = z.strictObject({
  name: z.string().describe('device name inside the VMI'),
  deviceName: z.string().describe('resource name from a device plugin').optional(),
  claimName: z.string().describe('entry of the VMI spec.resourceClaims (DRA)').optional(),
  requestName: z.string().describe('request within the ResourceClaim (DRA)').optional(),
  tag: z.string().describe('tag exposed to the guest via config drive').optional(),
});

// ---------------------------------------------------------------------------------------------------------------
// VirtualMachineInstancetypeSpec
//
// The shapes below hold every field except the required `cpu.guest` and `memory.guest`; the full spec adds
// those, the patch (a catalog family's features laid over computed sizes) is the shapes as they are.

const instancetypeCpuShape = {
  model: z.string().describe('CPU model, e.g. host-model or host-passthrough').optional(),
  dedicatedCPUPlacement: z.boolean().describe('pin vCPUs to dedicated host CPUs').optional(),
  isolateEmulatorThread: z.boolean().describe('one more dedicated pCPU for the emulator thread (needs dedicatedCPUPlacement)').optional(),
  numa: z
    .strictObject({
      guestMappingPassthrough: emptyObject('mirror the host NUMA topology of the pinned CPUs').optional(),
    })
    .describe('guest NUMA topology')
    .optional(),
  realtime: z
    .strictObject({ mask: z.string().describe('vCPU mask of the realtime vCPUs').optional() })
    .describe('tune for low latency')
    .optional(),
  maxSockets: z.uint32().describe('maximum sockets for CPU hotplug').optional(),
};

const instancetypeMemoryShape = {
  hugepages: z
    .strictObject({ pageSize: z.string().describe('hugepage size; 2Mi or 1Gi on x86_64').optional() })
    .describe('back guest memory with hugepages')
    .optional(),
  overcommitPercent: z.int().min(0).max(100).describe('percentage of guest memory not requested from the node').optional(),
  maxGuest: quantitySchema.describe('memory hotplug ceiling').optional(),
};

const instancetypeSpecCommonShape = {
  gpus: z.array(gpuSchema).describe('GPUs passed to the VMI').optional(),
  hostDevices: z.array(hostDeviceSchema).describe('host devices passed to the VMI').optional(),
  ioThreadsPolicy: z.enum(IO_THREADS_POLICIES).describe('IOThreads policy').optional(),
  ioThreads: z
    .strictObject({
      supplementalPoolThreadCount: z.int32().describe('IOThreads allocated for the supplementalPool policy').optional(),
    })
    .describe('IOThreads options')
    .optional(),
  launchSecurity: launchSecuritySchema.describe('confidential computing (deprecated since v1.9.0; use preference preferredLaunchSecurity)').optional(),
  nodeSelector: stringMapSchema.describe('node labels the VMI must be scheduled on').optional(),
  schedulerName: z.string().describe('scheduler dispatching the VMI').optional(),
  annotations: stringMapSchema.describe('annotations copied to the VMI').optional(),
};

export const instancetypeSpecSchema = z
  .strictObject({
    cpu: z
      .strictObject({
        guest: z.uint32().describe('number of vCPUs'),
        ...instancetypeCpuShape,
      })
      .describe('vCPU count and CPU options'),
    memory: z
      .strictObject({
        guest: quantitySchema.describe('guest memory'),
        ...instancetypeMemoryShape,
      })
      .describe('guest memory and memory options'),
    ...instancetypeSpecCommonShape,
  })
  .describe('VirtualMachineInstancetypeSpec');
export type InstancetypeSpec = z.infer<typeof instancetypeSpecSchema>;

/**
 * Instancetype spec fragment a catalog family lays over each size: every field optional, and no
 * `cpu.guest`/`memory.guest` because those come from the size (a strict object rejects them as unknown keys).
 * List items (`gpus[]`, `hostDevices[]`) stay whole values with a required `name`: lists replace, never merge.
 */
export const instancetypeSpecPatchSchema = z
  .strictObject({
    cpu: z.strictObject(instancetypeCpuShape).describe('CPU options (vCPU count comes from the size)').optional(),
    memory: z.strictObject(instancetypeMemoryShape).describe('memory options (guest memory comes from the size)').optional(),
    ...instancetypeSpecCommonShape,
  })
  .describe('VirtualMachineInstancetypeSpec without cpu.guest and memory.guest, all optional');
export type InstancetypeSpecPatch = z.infer<typeof instancetypeSpecPatchSchema>;

// ---------------------------------------------------------------------------------------------------------------
// VirtualMachinePreferenceSpec (everything optional)

const timerPresent = z.boolean().describe('false keeps the machine type from adding the timer').optional();

export const preferenceCpuSchema = z.strictObject({
  preferredCPUTopology: z.enum(ALL_CPU_TOPOLOGIES).describe('guest CPU topology the vCPUs are laid out in (default sockets)').optional(),
  spreadOptions: z
    .strictObject({
      across: z.enum(SPREAD_ACROSS).describe('topology levels to spread over (default SocketsCores)').optional(),
      ratio: z.uint32().describe('spread ratio (default 2; must be 2 for CoresThreads)').optional(),
    })
    .describe('options of the spread topology')
    .optional(),
  preferredCPUFeatures: z
    .array(
      z.strictObject({
        name: z.string().describe('CPU feature name'),
        policy: z.enum(CPU_FEATURE_POLICIES).describe('libvirt feature policy').optional(),
      }),
    )
    .describe('CPU features added to the guest CPU')
    .optional(),
});

const preferenceDevicesSchema = z.strictObject({
  preferredAutoattachGraphicsDevice: z.boolean().describe('attach a graphics device').optional(),
  preferredAutoattachMemBalloon: z.boolean().describe('attach a memory balloon').optional(),
  preferredAutoattachPodInterface: z.boolean().describe('attach the default pod interface').optional(),
  preferredAutoattachSerialConsole: z.boolean().describe('attach a serial console').optional(),
  preferredAutoattachInputDevice: z.boolean().describe('attach an input device').optional(),
  preferredDisableHotplug: z.boolean().describe('disable device hotplug').optional(),
  preferredVirtualGPUOptions: virtualGpuOptionsSchema.describe('vGPU options (declared by KubeVirt but never applied)').optional(),
  preferredSoundModel: z.enum(SOUND_MODELS).describe('model of an existing sound device').optional(),
  preferredUseVirtioTransitional: z.boolean().describe('use virtio-transitional devices').optional(),
  preferredInputBus: z.enum(INPUT_BUSES).describe('bus of input devices').optional(),
  preferredInputType: z.enum(INPUT_TYPES).describe('type of input devices').optional(),
  preferredDiskBus: z.enum(DISK_BUSES).describe('bus of disk devices').optional(),
  preferredLunBus: z.enum(DISK_BUSES).describe('bus of LUN devices').optional(),
  preferredCdromBus: z.enum(DISK_BUSES).describe('bus of CD-ROM devices').optional(),
  preferredDiskDedicatedIoThread: z.boolean().describe('dedicated IOThread for virtio disks').optional(),
  preferredDiskCache: z.enum(DISK_CACHES).describe('disk cache mode').optional(),
  preferredDiskIO: z.enum(DISK_IO_MODES).describe('QEMU disk IO mode').optional(),
  preferredDiskBlockSize: z
    .strictObject({
      custom: z
        .strictObject({
          logical: z.int32().describe('logical block size in bytes').optional(),
          physical: z.int32().describe('physical block size in bytes').optional(),
          discardGranularity: z.int32().describe('discard granularity in bytes').optional(),
        })
        .describe('explicit block sizes')
        .optional(),
      matchVolume: featureState('take the block sizes from the volume'),
    })
    .describe('block size of disk devices')
    .optional(),
  preferredInterfaceModel: z.enum(INTERFACE_MODELS).describe('model of network interfaces').optional(),
  preferredRng: emptyObject('attach a virtio RNG device').optional(),
  preferredBlockMultiQueue: z.boolean().describe('multiqueue for virtio disks').optional(),
  preferredNetworkInterfaceMultiQueue: z.boolean().describe('vhost multiqueue for virtio interfaces').optional(),
  preferredTPM: z
    .strictObject({
      enabled: z.boolean().describe('attach the vTPM (default true)').optional(),
      persistent: z.boolean().describe('keep TPM state across reboots').optional(),
    })
    .describe('attach a vTPM')
    .optional(),
  preferredInterfaceMasquerade: emptyObject('masquerade binding for pod-network interfaces').optional(),
  preferredPanicDeviceModel: z.enum(PANIC_DEVICE_MODELS).describe('panic device model').optional(),
  preferredVideoType: z.enum(VIDEO_TYPES).describe('video device type (valid values depend on arch)').optional(),
});

export const preferenceFeaturesSchema = z.strictObject({
  preferredAcpi: featureState('ACPI'),
  preferredApic: z
    .strictObject({
      enabled: z.boolean().describe('enable (true) or disable (false) the feature').optional(),
      endOfInterrupt: z.boolean().describe('end-of-interrupt notification').optional(),
    })
    .describe('APIC')
    .optional(),
  preferredHyperv: z
    .strictObject({
      evmcs: featureState('enlightened VMCS for nested guests'),
      frequencies: featureState('TSC frequency MSRs'),
      ipi: featureState('paravirtual IPIs'),
      reenlightenment: featureState('TSC frequency change notifications'),
      relaxed: featureState('relaxed timing (no watchdog timeouts)'),
      reset: featureState('Hyper-V reset'),
      runtime: featureState('runtime accounting'),
      spinlocks: z
        .strictObject({
          enabled: z.boolean().describe('enable (true) or disable (false) the feature').optional(),
          spinlocks: z.uint32().describe('spinlock retry attempts').optional(),
        })
        .describe('spinlock retries')
        .optional(),
      synic: featureState('synthetic interrupt controller'),
      synictimer: z
        .strictObject({
          enabled: z.boolean().describe('enable (true) or disable (false) the feature').optional(),
          direct: featureState('direct mode synthetic timers'),
        })
        .describe('synthetic timers')
        .optional(),
      tlbflush: z
        .strictObject({
          enabled: z.boolean().describe('enable (true) or disable (false) the feature').optional(),
          direct: featureState('send TLB flushes directly to the hypervisor'),
          extended: featureState('partial TLB flushes'),
        })
        .describe('paravirtual TLB flush')
        .optional(),
      vapic: featureState('virtual APIC'),
      vendorid: z
        .strictObject({
          enabled: z.boolean().describe('enable (true) or disable (false) the feature').optional(),
          vendorid: z.string().describe('hypervisor vendor id seen by the guest').optional(),
        })
        .describe('hypervisor vendor id')
        .optional(),
      vpindex: featureState('virtual processor index'),
    })
    .describe('Hyper-V enlightenments')
    .optional(),
  preferredKvm: z
    .strictObject({ hidden: z.boolean().describe('hide KVM from MSR-based discovery').optional() })
    .describe('KVM features')
    .optional(),
  preferredPvspinlock: featureState('paravirtual spinlocks'),
  preferredSmm: featureState('System Management Mode'),
});

export const preferenceFirmwareSchema = z.strictObject({
  preferredUseBios: z.boolean().describe('boot with BIOS').optional(),
  preferredUseBiosSerial: z.boolean().describe('send BIOS output to the serial console').optional(),
  preferredEfi: z
    .strictObject({
      secureBoot: z.boolean().describe('enable Secure Boot').optional(),
      persistent: z.boolean().describe('persist EFI NVRAM across reboots').optional(),
    })
    .describe('boot with EFI')
    .optional(),
  preferredUseEfi: z.boolean().describe('boot with EFI (deprecated since v1.5.0; use preferredEfi)').optional(),
  preferredUseSecureBoot: z.boolean().describe('enable Secure Boot (deprecated since v1.5.0; use preferredEfi.secureBoot)').optional(),
});

export const preferenceClockSchema = z.strictObject({
  preferredClockOffset: z
    .strictObject({
      utc: z
        .strictObject({ offsetSeconds: z.int32().describe('offset from UTC in seconds').optional() })
        .describe('guest clock in UTC')
        .optional(),
      timezone: z.string().describe('guest clock timezone').optional(),
    })
    .describe('guest clock offset')
    .optional(),
  preferredTimer: z
    .strictObject({
      hpet: z
        .strictObject({
          present: timerPresent,
          tickPolicy: z.enum(HPET_TICK_POLICIES).describe('what to do with missed ticks').optional(),
        })
        .describe('HPET timer')
        .optional(),
      hyperv: z.strictObject({ present: timerPresent }).describe('Hyper-V clock').optional(),
      kvm: z.strictObject({ present: timerPresent }).describe('KVM clock').optional(),
      pit: z
        .strictObject({
          present: timerPresent,
          tickPolicy: z.enum(PIT_TICK_POLICIES).describe('what to do with missed ticks').optional(),
        })
        .describe('PIT timer')
        .optional(),
      rtc: z
        .strictObject({
          present: timerPresent,
          tickPolicy: z.enum(RTC_TICK_POLICIES).describe('what to do with missed ticks').optional(),
          track: z.enum(RTC_TRACKS).describe('track the guest or the wall clock').optional(),
        })
        .describe('RTC timer')
        .optional(),
    })
    .describe('guest timers')
    .optional(),
});

export const preferenceSpecSchema = z
  .strictObject({
    cpu: preferenceCpuSchema.describe('CPU preferences').optional(),
    devices: preferenceDevicesSchema.describe('device preferences').optional(),
    features: preferenceFeaturesSchema.describe('hypervisor feature preferences').optional(),
    firmware: preferenceFirmwareSchema.describe('firmware preferences').optional(),
    machine: z
      .strictObject({ preferredMachineType: z.string().describe('machine type, e.g. q35').optional() })
      .describe('machine preferences')
      .optional(),
    clock: preferenceClockSchema.describe('clock preferences').optional(),
    volumes: z
      .strictObject({
        preferredStorageClassName: z.string().describe('storage class of dataVolumeTemplates').optional(),
      })
      .describe('volume preferences')
      .optional(),
    preferredSubdomain: z.string().describe('VMI subdomain').optional(),
    preferredTerminationGracePeriodSeconds: z.int().describe('grace period before a stopping VMI is killed').optional(),
    annotations: stringMapSchema.describe('annotations added to the VMI').optional(),
    preferSpreadSocketToCoreRatio: z.uint32().describe('legacy spread ratio (prefer cpu.spreadOptions.ratio)').optional(),
    preferredArchitecture: z.enum(ARCHITECTURES).describe('VM architecture when unset').optional(),
    preferredLaunchSecurity: launchSecuritySchema.describe('confidential computing').optional(),
    requirements: z
      .strictObject({
        cpu: z
          .strictObject({ guest: z.uint32().describe('minimum vCPUs') })
          .describe('CPU the instancetype must provide')
          .optional(),
        memory: z
          .strictObject({ guest: quantitySchema.describe('minimum guest memory') })
          .describe('memory the instancetype must provide')
          .optional(),
        architecture: z.enum(ARCHITECTURES).describe('architecture the VM must have').optional(),
      })
      .describe('minimum resources and architecture a VM needs to use this preference')
      .optional(),
  })
  .describe('VirtualMachinePreferenceSpec');
export type PreferenceSpec = z.infer<typeof preferenceSpecSchema>;

export const manifestMetadataSchema = z
  .strictObject({
    name: z.string().max(253).regex(DNS_SUBDOMAIN, 'expected a DNS-1123 subdomain: lowercase letters, digits, "-" and "."').describe('object name'),
    namespace: z.string().describe('namespace of namespaced kinds').optional(),
    labels: stringMapSchema.describe('object labels').optional(),
    annotations: stringMapSchema.describe('object annotations').optional(),
  })
  .describe('object metadata (the subset itgen emits)');
export type ManifestMetadata = z.infer<typeof manifestMetadataSchema>;

const apiVersionSchema = z.literal(INSTANCETYPE_API_VERSION).describe('API group and version');

/** One kind's object: the API version, the kind, metadata and its spec. */
function objectSchema<K extends ManifestKind, S extends z.ZodType>(kind: K, spec: S) {
  return z.strictObject({ apiVersion: apiVersionSchema, kind: z.literal(kind), metadata: manifestMetadataSchema, spec });
}

export const clusterInstancetypeSchema = objectSchema('VirtualMachineClusterInstancetype', instancetypeSpecSchema);
export type ClusterInstancetype = z.infer<typeof clusterInstancetypeSchema>;
export const instancetypeSchema = objectSchema('VirtualMachineInstancetype', instancetypeSpecSchema);
export type Instancetype = z.infer<typeof instancetypeSchema>;
export const clusterPreferenceSchema = objectSchema('VirtualMachineClusterPreference', preferenceSpecSchema);
export type ClusterPreference = z.infer<typeof clusterPreferenceSchema>;
export const preferenceSchema = objectSchema('VirtualMachinePreference', preferenceSpecSchema);
export type Preference = z.infer<typeof preferenceSchema>;

/** Any of the four kinds, selected by `kind`. */
export const manifestSchema = z.discriminatedUnion('kind', [clusterInstancetypeSchema, clusterPreferenceSchema, instancetypeSchema, preferenceSchema]);
export type Manifest = z.infer<typeof manifestSchema>;

const MANIFEST_SCHEMAS = {
  VirtualMachineClusterInstancetype: clusterInstancetypeSchema,
  VirtualMachineClusterPreference: clusterPreferenceSchema,
  VirtualMachineInstancetype: instancetypeSchema,
  VirtualMachinePreference: preferenceSchema,
} as const;
export type ManifestSchemaFor<K extends ManifestKind> = (typeof MANIFEST_SCHEMAS)[K];

export function manifestSchemaFor<K extends ManifestKind>(kind: K): ManifestSchemaFor<K> {
  return MANIFEST_SCHEMAS[kind];
}
