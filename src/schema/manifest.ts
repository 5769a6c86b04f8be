/**
 * zod model of the KubeVirt `instancetype.kubevirt.io/v1beta1` objects itgen emits.
 *
 * Ground truth for shape: the strict JSON Schemas in `test/reference/kubevirt-schemas/` (derived
 * from KubeVirt's
 * swagger at v1.9.0); `test/manifest-schema.test.ts` checks both directions of that correspondence.
 * On top of the shape this adds the enumerations that KubeVirt's Go code and webhooks define but
 * the
 * OpenAPI document does not carry, so a misspelt bus or model fails here rather than when a VM
 * starts.
 * Those enumerations, the kinds and the release metadata (which field first appeared in which
 * KubeVirt release, what is deprecated) live in kubevirt-api.ts, without zod, and are re-exported
 * here.
 * The preference spec is manifest-preference.ts, what both kinds share manifest-common.ts and
 * manifest-devices.ts.
 */
import { z } from 'zod';
import { DNS_SUBDOMAIN, INSTANCETYPE_API_VERSION, IO_THREADS_POLICIES, type ManifestKind } from './kubevirt-api';
import { quantitySchema, stringMapSchema, emptyObject } from './manifest-common';
import { preferenceSpecSchema } from './manifest-preference';
import { virtualGpuOptionsSchema, launchSecuritySchema } from './manifest-devices';
export { virtualGpuOptionsSchema, launchSecuritySchema } from './manifest-devices';
export {
  preferenceCpuSchema,
  preferenceFeaturesSchema,
  preferenceFirmwareSchema,
  preferenceClockSchema,
  preferenceSpecSchema,
  type PreferenceSpec,
} from './manifest-preference';
export { kubevirtReleaseSchema, quantitySchema, type Quantity } from './manifest-common';
export * from './kubevirt-api';

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
 * `cpu.guest`/`memory.guest` because those come from the size (a strict object rejects them as
 * unknown keys).
 * List items (`gpus[]`, `hostDevices[]`) stay whole values with a required `name`: lists replace,
 * never merge.
 */
export const instancetypeSpecPatchSchema = z
  .strictObject({
    cpu: z.strictObject(instancetypeCpuShape).describe('CPU options (vCPU count comes from the size)').optional(),
    memory: z.strictObject(instancetypeMemoryShape).describe('memory options (guest memory comes from the size)').optional(),
    ...instancetypeSpecCommonShape,
  })
  .describe('VirtualMachineInstancetypeSpec without cpu.guest and memory.guest, all optional');
export type InstancetypeSpecPatch = z.infer<typeof instancetypeSpecPatchSchema>;

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
