/**
 * KubeVirt's storage admitter for a VMI's disks (pkg/storage/admitters/disks.go `ValidateDisks`,
 * which `validateDomainSpec` runs after the IO threads policy and the probes): per disk, in
 * KubeVirt's order, names used twice, more than one target, the PCI address, the boot order, the
 * bus, the serial, cache and IO modes, the error policy, the name as a container name and the
 * custom block size. KubeVirt's types, fields and words (some of its field paths repeat
 * `domain.devices.disks`, as KubeVirt builds them).
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import type { Cause } from './cause';
import { isSet } from './go';
import { holds } from './releases';
import { dnsLabelErrors } from './spec-resources';
import { pathCauses } from './spec-volumes';

const PCI_ADDRESS = /^([\da-fA-F]{4}):([\da-fA-F]{2}):([\da-fA-F]{2})\.([0-7]{1})$/;
const SERIAL = /^[A-Za-z0-9_.+-]+$/;
const MIN_BLOCK = 512;
const MAX_BLOCK = 2097152;

const num = (v: Json | undefined): number => (typeof v === 'number' ? v : 0);

/** getDiskType and getDiskBus: the disk's target and its bus. */
function target(disk: JsonObject): { type: string; bus: string } {
  for (const type of ['disk', 'lun', 'cdrom'] as const) {
    const t = obj(disk[type]);
    if (t) return { type, bus: str(t['bus']) };
  }
  return { type: '', bus: '' };
}

/** validateCustomBlockSize for one of the sizes. */
function blockSizeCauses(at: string, which: 'logical' | 'physical', size: number): Cause[] {
  const field = `${at}.blockSize.custom.${which}`;
  const message =
    size < MIN_BLOCK
      ? `Provided size of ${size} is less than the supported minimum size of ${MIN_BLOCK}`
      : size > MAX_BLOCK
        ? `Provided size of ${size} is greater than the supported maximum size of ${MAX_BLOCK}`
        : (size & (size - 1)) !== 0
          ? `Provided size of ${size} is not a power of 2`
          : undefined;
  return message === undefined ? [] : [{ reason: 'disk', type: 'FieldValueInvalid', field, message }];
}

/**
 * ValidateDisks; `field` is the disks' path (`spec.template.spec.domain.devices.disks`).
 *
 * Over 80 lines: a transcription of the admitter's per-disk checks, kept in KubeVirt's order.
 */
export function diskCauses(disks: Json | undefined, field: string, release?: string): Cause[] {
  const causes: Cause[] = [];
  const add = (type: Cause['type'], at: string, message: string): void => {
    causes.push({ reason: 'disk', type, field: at, message });
  };
  const all = list(disks);
  // The earlier disks of each name, so that a name is looked up once (a VM may have thousands).
  const earlier = new Map<unknown, number[]>();
  all.forEach((disk, idx) => {
    const at = `${field}[${idx}]`;
    // validateDiskName: every earlier disk of the same name, as KubeVirt lists them.
    const same = earlier.get(disk['name']);
    for (const j of same ?? []) add('FieldValueInvalid', `${at}.name`, `${at} and ${field}[${j}] must not have the same Name.`);
    if (same) same.push(idx);
    else earlier.set(disk['name'], [idx]);
    // validateDeviceTarget
    if (['disk', 'lun', 'cdrom'].filter((k) => isSet(disk[k])).length > 1) add('FieldValueInvalid', at, `${at} can only have a single target type defined`);
    // validatePciAddress
    const d = obj(disk['disk']);
    const pci = str(d?.['pciAddress']);
    if (d && pci !== '') {
      const named = `${field}.domain.devices.disks.disk[${idx}]`;
      if (str(d['bus']) !== 'virtio')
        add('FieldValueInvalid', `${named}.pciAddress`, `disk ${named}.name - setting a PCI address is only possible with bus type virtio.`);
      if (!PCI_ADDRESS.test(pci)) add('FieldValueInvalid', `${named}.pciAddress`, `disk ${named}.name has malformed PCI address (${pci}).`);
    }
    // validateBootOrderValue
    if (typeof disk['bootOrder'] === 'number' && disk['bootOrder'] < 1)
      add('FieldValueInvalid', `${at}.bootOrder`, `${at} must have a boot order > 0, if supplied`);
    // validateBusSupport
    const { type, bus } = target(disk);
    if (bus !== '') {
      if (bus === 'ide') add('FieldValueInvalid', `${at}.${type}.bus`, 'IDE bus is not supported');
      else if (bus === 'virtio') {
        if (type === 'cdrom') add('FieldValueInvalid', `${at}.cdrom.bus`, `Bus type ${bus} is invalid for CD-ROM device`);
      } else if (bus === 'sata') {
        if (d && d['readonly'] === true) add('FieldValueInvalid', `${at}.disk.bus`, `${bus} hard-disks do not support read-only.`);
      } else if (bus !== 'scsi' && bus !== 'usb')
        add('FieldValueInvalid', `${at}.${type}.bus`, `${at} is set with an unrecognized bus ${bus}, must be one of: [virtio scsi sata usb]`);
      if (disk['dedicatedIOThread'] === true && bus !== 'virtio')
        add('FieldValueNotSupported', `${field}.domain.devices.disks[${idx}]`, `IOThreads are not supported for disks on a ${bus} bus`);
    }
    // validateSerialNumValue, validateSerialNumLength
    const serial = str(disk['serial']);
    if (serial !== '' && !SERIAL.test(serial))
      add('FieldValueInvalid', `${at}.serial`, `${at} must be made up of the following characters [A-Za-z0-9_.+-], if specified`);
    if (serial !== '' && [...serial].length > 256) add('FieldValueInvalid', `${at}.serial`, `${at} must be less than or equal to 256 in length, if specified`);
    // validateCacheMode, validateIOMode, validateErrorPolicy
    const cache = str(disk['cache']);
    if (cache !== '' && !['none', 'writethrough', 'writeback'].includes(cache))
      add('FieldValueInvalid', `${at}.cache`, `${at}.cache has invalid value ${cache}`);
    const io = str(disk['io']);
    if (io !== '' && io !== 'native' && io !== 'threads')
      add(
        'FieldValueNotSupported',
        `${field}.domain.devices.disks[${idx}].io`,
        `Disk IO mode for ${field} is not supported. Supported modes are: native, threads.`,
      );
    if (typeof disk['errorPolicy'] === 'string' && !['stop', 'ignore', 'report', 'enospace'].includes(disk['errorPolicy']))
      add('FieldValueInvalid', `${at}.errorPolicy`, `${at}.errorPolicy has invalid value "${disk['errorPolicy']}"`);
    // validateDiskNameAsContainerName
    for (const e of dnsLabelErrors(str(disk['name']))) add('FieldValueInvalid', `${field}.domain.devices.disks[${idx}].name`, e);
    // validateBlockSize
    const blockSize = obj(disk['blockSize']);
    const custom = obj(blockSize?.['custom']);
    if (blockSize && custom) {
      const match = obj(blockSize['matchVolume']);
      if (match && match['enabled'] !== false) add('FieldValueInvalid', `${at}.blockSize`, "Block size matching can't be enabled together with a custom value");
      else {
        const logical = num(custom['logical']);
        const physical = num(custom['physical']);
        const granularity = custom['discardGranularity'];
        if (logical > physical)
          add('FieldValueInvalid', `${at}.blockSize.custom.logical`, `Logical size ${logical} must be the same or less than the physical size of ${physical}`);
        else if (bus === 'sata' && logical !== MIN_BLOCK && holds('blockSizeSataAndDiscard', release))
          add('FieldValueInvalid', `${at}.blockSize.custom.logical`, `Logical size ${logical} must be ${MIN_BLOCK} for SATA devices`);
        else if (typeof granularity === 'number' && logical !== 0 && granularity % logical !== 0 && holds('blockSizeSataAndDiscard', release))
          add(
            'FieldValueInvalid',
            `${at}.blockSize.custom.discardGranularity`,
            `Discard granularity ${granularity} must be multiples of logical size ${logical}`,
          );
        else causes.push(...blockSizeCauses(at, 'logical', logical), ...blockSizeCauses(at, 'physical', physical));
      }
    }
  });
  return causes;
}

/**
 * validateDomainSpec: the disks (above), the firmware (validateFirmware: EFI and BIOS together, the
 * kernel boot's container), then Secure Boot without SMM (TDX, whose firmware embeds its keys, excepted).
 */
/** validateFirmware: validateBootloader, then validateKernelBoot. */
function firmwareCauses(domain: JsonObject, field: string): Cause[] {
  const firmware = obj(domain['firmware']);
  if (!firmware) return [];
  const causes: Cause[] = [];
  const bootloader = obj(firmware['bootloader']);
  if (bootloader && isSet(bootloader['efi']) && isSet(bootloader['bios']))
    causes.push({
      reason: 'disk',
      type: 'FieldValueInvalid',
      field: `${field}.bootloader`,
      message: `${field}.bootloader has both EFI and BIOS configured, but they are mutually exclusive.`,
    });
  const kernelBoot = obj(firmware['kernelBoot']);
  if (!kernelBoot) return causes;
  const at = `${field}.kernelBoot`;
  const container = obj(kernelBoot['container']);
  if (!container) {
    if (typeof kernelBoot['kernelArgs'] === 'string' && kernelBoot['kernelArgs'] !== '')
      causes.push({
        reason: 'disk',
        type: 'FieldValueInvalid',
        field: `${at}.kernelArgs`,
        message: 'kernel arguments cannot be provided without an external kernel',
      });
    return causes;
  }
  const c = `${at}.container`;
  const s = (k: string): string => (typeof container[k] === 'string' ? (container[k] as string) : '');
  if (s('image') === '') causes.push({ reason: 'disk', type: 'FieldValueRequired', field: `${c}.image`, message: `${c} must be defined with an image` });
  if (s('initrdPath') === '' && s('kernelPath') === '')
    causes.push({
      reason: 'disk',
      type: 'FieldValueRequired',
      field: c,
      message: `${c} must be defined with at least one of the following: kernelPath, initrdPath`,
    });
  if (s('kernelPath') !== '') causes.push(...pathCauses(`${c}.kernelPath`, s('kernelPath')));
  if (s('initrdPath') !== '') causes.push(...pathCauses(`${c}.initrdPath`, s('initrdPath')));
  return causes;
}

export function domainSpecCauses(spec: JsonObject, field: string, release?: string): Cause[] {
  const domain = obj(spec['domain']) ?? {};
  const causes = [
    ...diskCauses(obj(domain['devices'])?.['disks'], `${field}.domain.devices.disks`, release),
    ...firmwareCauses(domain, `${field}.domain.firmware`),
  ];
  const efi = obj(obj(obj(domain['firmware'])?.['bootloader'])?.['efi']);
  const smm = obj(obj(domain['features'])?.['smm']);
  const tdx = isSet(obj(domain['launchSecurity'])?.['tdx']);
  if (efi && efi['secureBoot'] !== false && !(smm && smm['enabled'] !== false) && !tdx)
    causes.push({
      reason: 'disk',
      type: 'FieldValueInvalid',
      field: `${field}.domain`,
      message: `${field}.domain has EFI SecureBoot enabled. SecureBoot requires SMM, which is currently disabled.`,
    });
  return causes;
}
