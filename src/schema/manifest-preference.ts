/**
 * The preference spec of KubeVirt's API model, field by field in the order of its Go types
 * (instancetype.kubevirt.io/v1beta1 VirtualMachinePreferenceSpec): CPU, devices, features,
 * firmware, clock and the rest.
 */
import { z } from 'zod';
import {
  ALL_CPU_TOPOLOGIES,
  ARCHITECTURES,
  CPU_FEATURE_POLICIES,
  DISK_BUSES,
  DISK_CACHES,
  DISK_IO_MODES,
  HPET_TICK_POLICIES,
  INPUT_BUSES,
  INPUT_TYPES,
  INTERFACE_MODELS,
  PANIC_DEVICE_MODELS,
  PIT_TICK_POLICIES,
  RTC_TICK_POLICIES,
  RTC_TRACKS,
  SOUND_MODELS,
  SPREAD_ACROSS,
  VIDEO_TYPES,
} from './kubevirt-api';
import { quantitySchema, stringMapSchema, emptyObject, featureState } from './manifest-common';
import { virtualGpuOptionsSchema, launchSecuritySchema } from './manifest-devices';

// ---------------------------------------------------------------------------------------------------------------
// VirtualMachinePreferenceSpec (everything optional)

export const timerPresent = z.boolean().describe('false keeps the machine type from adding the timer').optional();

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

export const preferenceDevicesSchema = z.strictObject({
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
