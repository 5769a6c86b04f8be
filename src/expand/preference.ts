/**
 * Preference -> template spec (pkg/instancetype/preference/apply/*.go): fill only what the VM left
 * unset, except the two fields KubeVirt always overrides (preferredDisableHotplug, preferredAcpi).
 * A preference never conflicts. Rule numbers are those of R 3.x.
 */
import { list, obj, type Json, type JsonObject } from '../json';
import { child, copy, isSet, nonEmpty } from '../kubevirt/go';
import { GoPanic } from '../kubevirt/panic';
import { holds } from '../kubevirt/releases';

/** Sets `target[key]` from the preference when the target has none (Go: pointer is nil). */
function fill(target: JsonObject, key: string, value: Json | undefined): void {
  if (isSet(value) && !isSet(target[key])) target[key] = copy(value!);
}

/** Sets `target[key]` when the target's string is empty. */
function fillString(target: JsonObject, key: string, value: Json | undefined): void {
  if (nonEmpty(value) && !nonEmpty(target[key])) target[key] = value!;
}

/** R 3.1: preferred CPU features the VM does not name already, after its own. */
function applyCpuFeatures(spec: JsonObject, pref: JsonObject): void {
  const wanted = list(obj(pref['cpu'])?.['preferredCPUFeatures']);
  if (wanted.length === 0) return;
  // KubeVirt dereferences domain.cpu here without a nil check (preference/apply/cpu.go).
  if (!obj(obj(spec['domain'])?.['cpu']))
    throw new GoPanic(
      'invalid memory address or nil pointer dereference',
      "the preference's preferredCPUFeatures are applied to a VM without spec.template.spec.domain.cpu (and no instance type to create it)",
      'spec.preference.name',
    );
  const cpu = child(child(spec, 'domain'), 'cpu');
  const have = list(cpu['features']);
  const names = new Set(have.map((f) => f['name']));
  const added = wanted.filter((f) => !names.has(f['name'])).map((f) => copy(f));
  if (added.length > 0) cpu['features'] = [...(Array.isArray(cpu['features']) ? cpu['features'] : []), ...added];
}

const BINDINGS = ['bridge', 'masquerade', 'sriov', 'slirp', 'passt', 'macvtap', 'binding'] as const;

function applyDisks(devices: JsonObject, p: JsonObject): void {
  for (const disk of list(devices['disks'])) {
    if (!isSet(disk['disk']) && !isSet(disk['cdrom']) && !isSet(disk['lun'])) disk['disk'] = {};
    const target = obj(disk['disk']);
    if (target) {
      fillString(target, 'bus', p['preferredDiskBus']);
      fill(disk, 'blockSize', p['preferredDiskBlockSize']);
      fillString(disk, 'cache', p['preferredDiskCache']);
      fillString(disk, 'io', p['preferredDiskIO']);
      if (target['bus'] === 'virtio') fill(disk, 'dedicatedIOThread', p['preferredDiskDedicatedIoThread']);
    }
    const cdrom = obj(disk['cdrom']);
    if (cdrom) fillString(cdrom, 'bus', p['preferredCdromBus']);
    const lun = obj(disk['lun']);
    if (lun) fillString(lun, 'bus', p['preferredLunBus']);
  }
}

function applyInterfaces(spec: JsonObject, devices: JsonObject, p: JsonObject): void {
  const podNetworks = new Set(
    list(spec['networks'])
      .filter((n) => isSet(n['pod']))
      .map((n) => n['name']),
  );
  for (const iface of list(devices['interfaces'])) {
    fillString(iface, 'model', p['preferredInterfaceModel']);
    // Masquerade only for an interface with no binding at all on the pod network.
    if (isSet(p['preferredInterfaceMasquerade']) && !BINDINGS.some((b) => isSet(iface[b])) && podNetworks.has(iface['name'])) {
      iface['masquerade'] = copy(p['preferredInterfaceMasquerade']!);
    }
  }
}

/** R 3.2: only when the preference has `devices`. */
function applyDevices(spec: JsonObject, pref: JsonObject, release: string | undefined): void {
  const p = obj(pref['devices']);
  if (!p) return;
  const devices = child(child(spec, 'domain'), 'devices');
  fill(devices, 'useVirtioTransitional', p['preferredUseVirtioTransitional']);
  fill(devices, 'blockMultiQueue', p['preferredBlockMultiQueue']);
  fill(devices, 'networkInterfaceMultiqueue', p['preferredNetworkInterfaceMultiQueue']);
  if (isSet(p['preferredDisableHotplug'])) devices['disableHotplug'] = p['preferredDisableHotplug']!;
  const sound = obj(devices['sound']);
  if (sound) fillString(sound, 'model', p['preferredSoundModel']);
  fill(devices, 'rng', p['preferredRng']);
  fill(devices, 'tpm', p['preferredTPM']);
  if (isSet(p['preferredVideoType'])) {
    const video = child(devices, 'video');
    if (!nonEmpty(video['type'])) video['type'] = p['preferredVideoType']!;
  }
  applyDisks(devices, p);
  applyInterfaces(spec, devices, p);
  for (const input of list(devices['inputs'])) {
    fillString(input, 'bus', p['preferredInputBus']);
    fillString(input, 'type', p['preferredInputType']);
  }
  for (const what of ['GraphicsDevice', 'MemBalloon', 'PodInterface', 'SerialConsole', 'InputDevice'])
    fill(devices, `autoattach${what}`, p[`preferredAutoattach${what}`]);
  if (isSet(p['preferredPanicDeviceModel'])) {
    const panic = list(devices['panicDevices']);
    const none = !Array.isArray(devices['panicDevices']) || devices['panicDevices'].length === 0;
    if (none && holds('preferredPanicDeviceAdded', release)) devices['panicDevices'] = [{ model: p['preferredPanicDeviceModel']! }];
    else if (!none) for (const d of panic) if (!isSet(d['model'])) d['model'] = p['preferredPanicDeviceModel']!;
  }
}

/** R 3.3 */
function applyFeatures(spec: JsonObject, pref: JsonObject): void {
  const p = obj(pref['features']);
  if (!p) return;
  const features = child(child(spec, 'domain'), 'features');
  if (isSet(p['preferredAcpi'])) features['acpi'] = copy(p['preferredAcpi']!);
  for (const f of ['Apic', 'Kvm', 'Pvspinlock', 'Smm']) fill(features, f.toLowerCase(), p[`preferred${f}`]);
  const hyperv = obj(p['preferredHyperv']);
  if (hyperv) {
    const target = child(features, 'hyperv');
    for (const [key, value] of Object.entries(hyperv)) fill(target, key, value);
  }
}

/** R 3.4: a user's bios or efi is never replaced or merged. */
function applyFirmware(spec: JsonObject, pref: JsonObject): void {
  const p = obj(pref['firmware']);
  if (!p) return;
  const bootloader = child(child(child(spec, 'domain'), 'firmware'), 'bootloader');
  const has = (k: string): boolean => isSet(bootloader[k]);
  if (p['preferredUseBios'] === true && !has('bios') && !has('efi')) bootloader['bios'] = {};
  const bios = obj(bootloader['bios']);
  if (bios) fill(bios, 'useSerial', p['preferredUseBiosSerial']);
  // preferredEfi, once applied, leaves the deprecated fields below unread.
  if (isSet(p['preferredEfi']) && !has('efi') && !has('bios')) {
    bootloader['efi'] = copy(p['preferredEfi']!);
    return;
  }
  if (p['preferredUseEfi'] === true && !has('efi') && !has('bios')) bootloader['efi'] = {};
  const efi = obj(bootloader['efi']);
  if (efi) fill(efi, 'secureBoot', p['preferredUseSecureBoot']);
}

/** R 3.6: the offset as a whole unless the VM has one; the timer as a whole unless the VM has one. */
function applyClock(spec: JsonObject, pref: JsonObject): void {
  const p = obj(pref['clock']);
  if (!p) return;
  const clock = child(child(spec, 'domain'), 'clock');
  const offset = obj(p['preferredClockOffset']);
  if (offset && !isSet(clock['utc']) && !isSet(clock['timezone'])) Object.assign(clock, copy(offset));
  fill(clock, 'timer', p['preferredTimer']);
}

/** R 3: the preference appliers in KubeVirt's order, as `release` has them (absent: the newest). Mutates `spec` and `meta`. */
export function applyPreference(spec: JsonObject, meta: JsonObject, pref: JsonObject, release?: string): void {
  applyCpuFeatures(spec, pref);
  applyDevices(spec, pref, release);
  applyFeatures(spec, pref);
  applyFirmware(spec, pref);
  if (nonEmpty(obj(pref['machine'])?.['preferredMachineType']))
    fillString(child(child(spec, 'domain'), 'machine'), 'type', obj(pref['machine'])!['preferredMachineType']);
  applyClock(spec, pref);
  fillString(spec, 'subdomain', pref['preferredSubdomain']);
  fill(spec, 'terminationGracePeriodSeconds', pref['preferredTerminationGracePeriodSeconds']);
  fillString(spec, 'architecture', pref['preferredArchitecture']);
  const annotations = obj(pref['annotations']);
  if (annotations) {
    const target = child(meta, 'annotations');
    for (const [k, v] of Object.entries(annotations)) if (!(k in target)) target[k] = v;
  }
  fill(child(spec, 'domain'), 'launchSecurity', pref['preferredLaunchSecurity']);
}
