/**
 * src/kubevirt/spec-gates.ts: the VMI spec rules on ACPI tables, ramfb displays and the features a
 * cluster enables, in KubeVirt's words (the admission corpus proves them against KubeVirt's code).
 */
import { kubevirtConfig } from '../src/kubevirt/config';
import { filesystemCauses, firmwareAcpiCauses, mdevRamFbCauses, persistentReservationCauses, reservedOverheadCauses } from '../src/kubevirt/spec-gates';
import type { JsonObject } from '../src/json';

const F = 'spec.template.spec';
const defaults = kubevirtConfig(null).config;
const messages = (causes: readonly { message: string }[]): string[] => causes.map((c) => c.message);

describe('spec-gates', () => {
  it('ACPI tables name a Secret volume of the VM', () => {
    const spec = (acpi: JsonObject, volumes: JsonObject[] = []): JsonObject => ({ domain: { firmware: { acpi } }, volumes });
    expect(messages(firmwareAcpiCauses(spec({}), F))).toEqual(['ACPI was set but no SLIC nor MSDM volume reference was set']);
    expect(messages(firmwareAcpiCauses(spec({ slicNameRef: 'x' }), F))).toEqual([`${F}.acpi does not have a matching Volume.`]);
    expect(messages(firmwareAcpiCauses(spec({ msdmNameRef: 'c' }, [{ name: 'c', configMap: { name: 'c' } }]), F))).toEqual([
      `${F}.acpi refers to Volume of unsupported type.`,
    ]);
    expect(firmwareAcpiCauses(spec({ slicNameRef: 's' }, [{ name: 's', secret: { secretName: 's' } }]), F)).toEqual([]);
  });

  it('one ramfb display at most, an unset enabled counting as on', () => {
    const gpus = (...display: (JsonObject | null)[]): JsonObject => ({
      domain: { devices: { gpus: display.map((d, i) => ({ name: `g${i}`, deviceName: 'x', ...(d ? { virtualGPUOptions: { display: d } } : {}) })) } },
    });
    expect(messages(mdevRamFbCauses(gpus({}, {}), F))).toEqual(['configuring multiple displays with ramfb is not valid ']);
    expect(mdevRamFbCauses(gpus({}, { ramFB: { enabled: false } }), F)).toEqual([]);
    expect(mdevRamFbCauses(gpus({}, null), F)).toEqual([]);
  });

  it('a reserving LUN, a virtiofs PVC and a reserved overhead need what the KubeVirt CR enables', () => {
    const lun: JsonObject = { domain: { devices: { disks: [{ name: 'd', lun: { reservation: true } }] } } };
    expect(messages(persistentReservationCauses(lun, defaults, F))).toEqual(['persistent reservation is not enabled in kubevirt config']);
    // v1.9: GA, and still off unless listed or enabled in persistentReservationConfiguration.
    const listed = kubevirtConfig({ spec: { configuration: { developerConfiguration: { featureGates: ['PersistentReservation'] } } } }).config;
    expect(persistentReservationCauses(lun, listed, F)).toEqual([]);
    const configured = kubevirtConfig({ spec: { configuration: { persistentReservationConfiguration: { enabled: true } } } }).config;
    expect(persistentReservationCauses(lun, configured, F)).toEqual([]);
    const fs: JsonObject = {
      domain: { devices: { filesystems: [{ name: 'd', virtiofs: {} }] } },
      volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'd' } }],
    };
    expect(messages(filesystemCauses(fs, defaults, F))).toEqual(['virtiofs is not allowed: virtiofs feature gate is not enabled for PVC']);
    const memory: JsonObject = { domain: { memory: { reservedOverhead: { memLock: 'Required' } } } };
    expect(messages(reservedOverheadCauses(memory, defaults, F))).toEqual(['Reserved overhead memlock feature gate is not enabled in kubevirt-config']);
  });
});
