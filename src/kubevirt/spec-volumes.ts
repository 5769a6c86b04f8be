/**
 * KubeVirt's validateVolumes (pkg/virt-api/webhooks/validating-webhook/admitters/
 * vmi-create-admitter.go), which runs after validateDomainSpec: per volume, in KubeVirt's order,
 * names used twice, exactly one source, a DataVolume's name, cloud-init's user and network data
 * (one source each, valid base64, at most 2,048 bytes, at least one of them), the DownwardMetrics
 * and HostDisk gates, a host disk's path, type and capacity, the names ConfigMap, Secret and
 * ServiceAccount volumes need; then at most one ServiceAccount, DownwardMetrics and MemoryDump
 * volume. KubeVirt's types, fields and words.
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import { parseQ } from '../quantity';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';

const CLOUD_INIT_MAX = 2048;
const SOURCES = [
  'persistentVolumeClaim',
  'sysprep',
  'cloudInitNoCloud',
  'cloudInitConfigDrive',
  'containerDisk',
  'ephemeral',
  'emptyDisk',
  'hostDisk',
  'dataVolume',
  'configMap',
  'secret',
  'downwardAPI',
  'serviceAccount',
  'downwardMetrics',
  'memoryDump',
  'containerPath',
] as const;

/** Go's base64.StdEncoding.DecodeString: the bytes, or undefined where Go refuses the text (line breaks are skipped). */
function base64Bytes(text: string): number | undefined {
  const t = text.replace(/[\r\n]/g, '');
  if (t.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(={0,2})$/.test(t)) return undefined;
  return Buffer.from(t, 'base64').length;
}

/** The cloud-init rules of one volume whose source is `kind` (`cloudInitNoCloud` or `cloudInitConfigDrive`). */
function cloudInitCauses(source: JsonObject, kind: string, at: string): Cause[] {
  const causes: Cause[] = [];
  const add = (field: string, message: string): void => {
    causes.push({ reason: 'volume', type: 'FieldValueInvalid', field, message });
  };
  const here = `${at}.${kind}`;
  const data = (prefix: 'userData' | 'networkData', words: string): { count: number } => {
    let count = 0;
    let length = 0;
    // The user data's secret is `secretRef` (Go's UserDataSecretRef), the network data's `networkDataSecretRef`.
    if (str(obj(source[prefix === 'userData' ? 'secretRef' : 'networkDataSecretRef'])?.['name']) !== '') count++;
    const b64 = str(source[`${prefix}Base64`]);
    if (b64 !== '') {
      count++;
      const bytes = base64Bytes(b64);
      if (bytes === undefined) add(`${here}.${prefix}Base64`, `${here}.${prefix}Base64.${kind}.${prefix}Base64 is not a valid base64 value.`);
      length = bytes ?? 0;
    }
    const plain = str(source[prefix]);
    if (plain !== '') {
      count++;
      length = Buffer.byteLength(plain, 'utf8');
    }
    if (count > 1) add(here, `${here} must have only one ${words} set.`);
    if (length > CLOUD_INIT_MAX)
      add(
        here,
        `${here} ${prefix === 'userData' ? 'userdata' : 'networkdata'} exceeds ${CLOUD_INIT_MAX} byte limit. Should use ${prefix === 'userData' ? 'UserData' : 'NetworkData'}SecretRef for larger data.`,
      );
    return { count };
  };
  const user = data('userData', 'userdatasource');
  const network = data('networkData', 'networkdata source');
  if (user.count === 0 && network.count === 0) add(here, `${here} must have at least one userdatasource or one networkdatasource set.`);
  return causes;
}

/**
 * validateVolumes; `field` is the volumes' path (`spec.template.spec.volumes`).
 */
export function volumeCauses(volumes: Json | undefined, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const add = (type: Cause['type'], at: string, message: string): void => {
    causes.push({ reason: 'volume', type, field: at, message });
  };
  const names = new Map<string, number>();
  const count = { serviceAccount: 0, downwardMetrics: 0, memoryDump: 0 };
  list(volumes).forEach((volume, idx) => {
    const at = `${field}[${idx}]`;
    const name = str(volume['name']);
    const other = names.get(name);
    if (other === undefined) names.set(name, idx);
    else add('FieldValueInvalid', `${at}.name`, `${at} and ${field}[${other}] must not have the same Name.`);
    let sources = 0;
    for (const s of SOURCES) {
      if (!isSet(volume[s])) continue;
      sources++;
      if (s === 'dataVolume' && str(obj(volume[s])?.['name']) === '') add('FieldValueRequired', `${at}.name`, "DataVolume 'name' must be set");
      if (s === 'serviceAccount' || s === 'downwardMetrics' || s === 'memoryDump') count[s]++;
    }
    if (sources !== 1) add('FieldValueInvalid', at, `${at} must have exactly one source type set`);
    const cloudInit = obj(volume['cloudInitNoCloud']) ? 'cloudInitNoCloud' : obj(volume['cloudInitConfigDrive']) ? 'cloudInitConfigDrive' : undefined;
    if (cloudInit) causes.push(...cloudInitCauses(obj(volume[cloudInit])!, cloudInit, at));
    if (isSet(volume['downwardMetrics']) && !gateEnabled(config, 'DownwardMetrics'))
      add('FieldValueInvalid', at, 'downwardMetrics disks are not allowed: DownwardMetrics feature gate is not enabled.');
    const hostDisk = obj(volume['hostDisk']);
    if (hostDisk) {
      if (!gateEnabled(config, 'HostDisk')) add('FieldValueInvalid', at, 'HostDisk feature gate is not enabled');
      if (str(hostDisk['path']) === '') add('FieldValueNotFound', `${at}.hostDisk.path`, `${at}.hostDisk.path is required for hostDisk volume`);
      const type = str(hostDisk['type']);
      if (type !== 'Disk' && type !== 'DiskOrCreate')
        add('FieldValueInvalid', `${at}.hostDisk.type`, `${at}.hostDisk.type has invalid value '${type}', allowed are 'Disk' or 'DiskOrCreate'`);
      const capacity = hostDisk['capacity'];
      const parsed = typeof capacity === 'string' || typeof capacity === 'number' ? parseQ(capacity) : undefined;
      if (type === 'Disk' && parsed !== undefined && parsed.nano !== 0n)
        add('FieldValueInvalid', `${at}.hostDisk.capacity`, `${at}.hostDisk.capacity is allowed to pass only with ${at}.hostDisk.type equal to 'DiskOrCreate'`);
    }
    const configMap = obj(volume['configMap']);
    if (configMap && str(configMap['name']) === '') add('FieldValueInvalid', `${at}.configMap.name`, `${at}.configMap.name is a required field`);
    const secret = obj(volume['secret']);
    if (secret && str(secret['secretName']) === '') add('FieldValueInvalid', `${at}.secret.secretName`, `${at}.secret.secretName is a required field`);
    const sa = obj(volume['serviceAccount']);
    if (sa && str(sa['serviceAccountName']) === '')
      add('FieldValueInvalid', `${at}.serviceAccount.serviceAccountName`, `${at}.serviceAccount.serviceAccountName is a required field`);
  });
  if (count.serviceAccount > 1) add('FieldValueInvalid', field, `${field} must have max one serviceAccount volume set`);
  if (count.downwardMetrics > 1) add('FieldValueInvalid', field, `${field} must have max one downwardMetric volume set`);
  if (count.memoryDump > 1) add('FieldValueInvalid', field, `${field} must have max one memory dump volume set`);
  return causes;
}

/** Go's filepath.Join("/", p): cleaned (no `.`, `..` or empty parts), absolute, no trailing slash. */
function rooted(p: string): string {
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The storage admitter's ValidatePath: `path` (at `at`) is absolute and clean, not the root. */
export function pathCauses(at: string, path: string): Cause[] {
  if (path === '/') return [{ reason: 'volume', type: 'FieldValueInvalid', field: at, message: `${at} must not point to root` }];
  if (rooted(path) !== (path.endsWith('/') ? path.slice(0, -1) : path))
    return [{ reason: 'volume', type: 'FieldValueInvalid', field: at, message: `${at} must be an absolute path to a file without relative components` }];
  return [];
}

/** The storage admitter's ValidateContainerDisks: a container disk's path is absolute and clean, not the root. */
export function containerDiskPathCauses(volumes: Json | undefined, field: string): Cause[] {
  return list(volumes).flatMap((volume, idx) => {
    const path = str(obj(volume['containerDisk'])?.['path']);
    return path === '' ? [] : pathCauses(`${field}.volumes[${idx}].containerDisk`, path);
  });
}

/**
 * validateAccessCredentials: each credential one type (an SSH public key or a user password), each
 * with one source and one propagation method, the cloud-init volume a method needs, the users the
 * guest agent needs.
 */
export function accessCredentialCauses(spec: JsonObject, field: string): Cause[] {
  const causes: Cause[] = [];
  const add = (at: string, message: string): void => {
    causes.push({ reason: 'volume', type: 'FieldValueInvalid', field: at, message });
  };
  const volumes = list(spec['volumes']);
  const noCloud = volumes.some((v) => isSet(v['cloudInitNoCloud']));
  const configDrive = volumes.some((v) => isSet(v['cloudInitConfigDrive']));
  const base = `${field}.accessCredentials`;
  list(spec['accessCredentials']).forEach((cred, idx) => {
    const at = `${base}[${idx}]`;
    let count = 0;
    for (const type of ['sshPublicKey', 'userPassword'] as const) {
      const c = obj(cred[type]);
      if (!c) continue;
      count++;
      const sources = isSet(obj(c['source'])?.['secret']) ? 1 : 0;
      const method = obj(c['propagationMethod']) ?? {};
      let methods = 0;
      if (type === 'sshPublicKey') {
        if (isSet(method['noCloud'])) {
          methods++;
          if (!noCloud) add(`${at}.sshPublicKey.propagationMethod`, `${at} requires a noCloud volume to exist when the noCloud propagationMethod is in use.`);
        }
        if (isSet(method['configDrive'])) {
          methods++;
          if (!configDrive)
            add(`${at}.sshPublicKey.propagationMethod`, `${at} requires a configDrive volume to exist when the configDrive propagationMethod is in use.`);
        }
      }
      const agent = obj(method['qemuGuestAgent']);
      if (agent) {
        if (type === 'sshPublicKey' && !(Array.isArray(agent['users']) && agent['users'].length > 0))
          add(`${at}.sshPublicKey.propagationMethod.qemuGuestAgent.users`, `${at} requires at least one user to be present in the users list`);
        methods++;
      }
      if (sources !== 1) add(`${at}.${type}.source`, `${at} must have exactly one source set`);
      if (methods !== 1) add(`${at}.${type}.propagationMethod`, `${at} must have exactly one propagationMethod set`);
    }
    if (count !== 1) add(at, `${at} must have exactly one access credential type set`);
  });
  return causes;
}
