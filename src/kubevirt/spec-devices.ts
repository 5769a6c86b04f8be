/**
 * Rules of KubeVirt's VirtualMachineInstance spec validation (pkg/virt-api/webhooks/
 * validating-webhook/admitters/vmi-create-admitter.go) on probes, the DownwardMetrics device,
 * panic devices, the reboot policy and the service account name; spec-validation.ts runs each
 * where KubeVirt does. KubeVirt's types, fields and words.
 */
import { list, obj, str, type JsonObject } from '../json';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { holds } from './releases';
import { dnsSubdomainErrors } from './spec-resources';
import { reservedOverheadCauses } from './spec-gates';

/** validateProbe on the readiness and liveness probes, then what needs the pod network. */
export function probeCauses(spec: JsonObject, field: string): Cause[] {
  const causes: Cause[] = [];
  const probes = (['readinessProbe', 'livenessProbe'] as const).map((k) => [k, obj(spec[k])] as const);
  for (const [k, probe] of probes) {
    if (!probe) continue;
    const at = `${field}.${k}`;
    const handlers = ['httpGet', 'tcpSocket', 'exec', 'guestAgentPing'].filter((h) => isSet(probe[h])).length;
    if (handlers > 1) causes.push({ reason: 'probe', type: 'FieldValueInvalid', field: at, message: `${at} must have exactly one probe type set` });
    if (handlers < 1)
      causes.push({
        reason: 'probe',
        type: 'FieldValueRequired',
        field: at,
        message: `either ${at}.tcpSocket, ${at}.exec or ${at}.httpGet must be set if a ${at} is specified`,
      });
  }
  // vmispec.LookupPodNetwork: HTTP and TCP probes reach the VM through the pod network.
  if (!list(spec['networks']).some((n) => isSet(n['pod'])))
    for (const [k, probe] of probes)
      for (const h of ['httpGet', 'tcpSocket'])
        if (probe && isSet(probe[h])) {
          const at = `${field}.${k}.${h}`;
          causes.push({ reason: 'probe', type: 'FieldValueInvalid', field: at, message: `${at} is only allowed if the Pod Network is attached` });
        }
  return causes;
}

/** validateDownwardMetrics: the virtio serial device behind its feature gate. */
export function downwardMetricsCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const devices = obj(obj(spec['domain'])?.['devices']);
  if (!devices || !isSet(devices['downwardMetrics']) || gateEnabled(config, 'DownwardMetrics')) return [];
  return [
    {
      reason: 'probe',
      type: 'FieldValueInvalid',
      field: `${field}.domain.devices.downwardMetrics`,
      message: 'downwardMetrics virtio serial is not allowed: DownwardMetrics feature gate is not enabled',
    },
  ];
}

/** validatePanicDevices, validateRebootPolicy and validateServiceAccountName, KubeVirt's last rules. */
export function lastCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const domain = obj(spec['domain']) ?? {};
  const panics = list(obj(domain['devices'])?.['panicDevices']);
  // Before v1.9 the devices were behind their feature gate (GA since: the check is inert there).
  if (panics.length > 0 && !gateEnabled(config, 'PanicDevices'))
    causes.push({
      reason: 'probe',
      type: 'FieldValueInvalid',
      field: `${field}.domain.devices.panicDevices`,
      message: 'Panic Devices feature gate is not enabled in kubevirt-config',
    });
  else if (panics.length > 0) {
    const arch = str(spec['architecture']) || config.architecture;
    if (arch === 's390x')
      causes.push({
        reason: 'probe',
        type: 'FieldValueInvalid',
        field: `${field}.domain.devices.panicDevices`,
        message: `custom panic devices are not supported on ${arch} architecture`,
      });
    panics.forEach((p, i) => {
      if (typeof p['model'] === 'string' && !['hyperv', 'isa', 'pvpanic'].includes(p['model']))
        causes.push({
          reason: 'probe',
          type: 'FieldValueInvalid',
          field: `${field}.domain.devices.panicDevices[${i}].model`,
          message: `invalid PanicDeviceModel(${p['model']})`,
        });
    });
  }
  if (isSet(domain['rebootPolicy']) && !gateEnabled(config, 'RebootPolicy'))
    causes.push({
      reason: 'probe',
      type: 'FieldValueInvalid',
      field: `${field}.domain.rebootPolicy`,
      message: 'RebootPolicy is specified but the RebootPolicy feature gate is not enabled',
    });
  causes.push(...reservedOverheadCauses(spec, config, field));
  const account = str(spec['serviceAccountName']);
  if (account !== '' && holds('serviceAccountName', config.release)) {
    const at = `${field}.serviceAccountName`;
    const errors = dnsSubdomainErrors(account);
    if (errors.length > 0)
      causes.push({ reason: 'probe', type: 'FieldValueInvalid', field: at, message: `${at} is not a valid service account name: ${errors.join('; ')}` });
    const other = list(spec['volumes']).find((v) => obj(v['serviceAccount']) && str(obj(v['serviceAccount'])!['serviceAccountName']) !== account);
    if (other)
      causes.push({
        reason: 'probe',
        type: 'FieldValueInvalid',
        field: at,
        message: `spec.serviceAccountName ${JSON.stringify(account)} and serviceAccount volume ${JSON.stringify(str(obj(other['serviceAccount'])!['serviceAccountName']))} must reference the same service account`,
      });
  }
  return causes;
}

/** validateVSOCK: the VSOCK device behind its feature gate. */
export function vsockCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const devices = obj(obj(spec['domain'])?.['devices']);
  if (devices?.['autoattachVSOCK'] !== true || gateEnabled(config, 'VSOCK')) return [];
  return [
    {
      reason: 'launch-security',
      type: 'FieldValueInvalid',
      field: `${field}.domain.devices.autoattachVSOCK`,
      message: 'VSOCK feature gate is not enabled in kubevirt-config',
    },
  ];
}

/**
 * validateLaunchSecurity with webhooks.ValidateLaunchSecurityAmd64 (pkg/virt-api/webhooks/amd64.go):
 * one type, its feature gate, then SMM, UEFI, Secure Boot, persistent EFI, SEV attestation and
 * bootable NICs; s390x has no settings; other architectures none. Before v1.7, SEV alone, after
 * Secure Execution's gate on s390x.
 */
export function launchSecurityCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const domain = obj(spec['domain']) ?? {};
  const ls = obj(domain['launchSecurity']);
  if (!ls) return [];
  const causes: Cause[] = [];
  const at = `${field}.launchSecurity`;
  const add = (type: Cause['type'], message: string, where = at): void => {
    causes.push({ reason: 'launch-security', type, field: where, message });
  };
  const arch = str(spec['architecture']);
  // Before v1.7 (releases.ts) SEV was the only type and there were no per-architecture rules, only
  // Secure Execution's gate on s390x.
  const sevOnly = holds('launchSecuritySevOnly', config.release);
  if (sevOnly) {
    if (arch === 's390x' && !gateEnabled(config, 'SecureExecution')) add('FieldValueInvalid', 'SecureExecution feature gate is not enabled in kubevirt-config');
    if (!isSet(ls['sev'])) return causes;
  } else if (arch === 's390x') {
    // ValidateLaunchSecurityS390x: Secure Execution's gate (GA, always on, from v1.9).
    if (!gateEnabled(config, 'SecureExecution')) add('FieldValueInvalid', 'SecureExecution feature gate is not enabled in kubevirt-config');
    return causes;
  } else if (arch !== 'amd64') {
    add('FieldValueInvalid', `No launchSecurity support for architecture: ${arch}`, `${field}.architecture`);
    return causes;
  }
  const sev = isSet(ls['sev']);
  const snp = !sevOnly && isSet(ls['snp']);
  const tdx = !sevOnly && isSet(ls['tdx']);
  const types = [...(sev ? ['SEV'] : []), ...(snp ? ['SNP'] : []), ...(tdx ? ['TDX'] : [])];
  const gate = tdx ? 'WorkloadEncryptionTDX' : 'WorkloadEncryptionSEV';
  if (types.length !== 1) {
    add('Forbidden', 'One and only one launchSecurity type can be set');
    return causes;
  }
  if (((sev || snp) && !gateEnabled(config, 'WorkloadEncryptionSEV')) || (tdx && !gateEnabled(config, 'WorkloadEncryptionTDX'))) {
    add('FieldValueInvalid', `${gate} feature gate is not enabled in kubevirt-config`);
    return causes;
  }
  const kind = types[0]!;
  const smm = obj(obj(domain['features'])?.['smm']);
  if (tdx && smm && smm['enabled'] !== false) add('FieldValueInvalid', 'TDX does not work along with SMM');
  const efi = obj(obj(obj(domain['firmware'])?.['bootloader'])?.['efi']);
  if (!efi) add('FieldValueInvalid', `${kind} requires OVMF (UEFI)`);
  else {
    if ((sev || snp) && efi['secureBoot'] !== false) add('FieldValueInvalid', `${kind} does not work along with SecureBoot`);
    if ((snp || tdx) && efi['persistent'] === true) add('FieldValueInvalid', `${kind} does not work along with Persistent EFI variables`);
  }
  if (sev && str(spec['startStrategy']) !== 'Paused' && isSet(obj(ls['sev'])?.['attestation']))
    add('FieldValueInvalid', "SEV attestation requires VMI StartStrategy 'Paused'");
  for (const iface of list(obj(domain['devices'])?.['interfaces']))
    if (isSet(iface['bootOrder'])) add('FieldValueInvalid', `${kind} does not work with bootable NICs: ${str(iface['name'])}`);
  return causes;
}
