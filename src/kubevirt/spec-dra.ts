/**
 * KubeVirt's DRA admitter (pkg/dra/admitter `ValidateCreation`, which ValidateVirtualMachineInstanceSpec
 * runs after the network admitter): the resource claims a VMI lists, and the GPUs and host devices that
 * take a claim request instead of a device name (behind GPUsWithDRA and HostDevicesWithDRA), each
 * claim/request pair once across GPUs, host devices and (v1.9) DRA networks, every claim used listed.
 * In KubeVirt's order and words; where a release differs, `holds` says (releases.ts).
 */
import { list, obj, str, type JsonObject } from '../json';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { holds } from './releases';
import { dnsLabelErrors, dnsSubdomainErrors } from './spec-resources';
import { draNetworkTuples } from './spec-network';

/** validateResourceClaims (v1.9; before, only the duplicate names). */
function resourceClaimCauses(claims: readonly JsonObject[], field: string, release: string | undefined): Cause[] {
  const causes: Cause[] = [];
  const names = new Set<string>();
  claims.forEach((claim, i) => {
    const at = `${field}.resourceClaims[${i}]`;
    const name = str(claim['name']);
    if (!holds('draClaimsValidated', release)) {
      if (names.has(name))
        causes.push({ reason: 'dra', type: 'FieldValueDuplicate', field: `${at}.name`, message: `duplicate resourceClaims name ${JSON.stringify(name)}` });
      names.add(name);
      return;
    }
    if (name === '') causes.push({ reason: 'dra', type: 'FieldValueRequired', field: `${at}.name`, message: `${at}.name is a required field` });
    else if (names.has(name))
      causes.push({ reason: 'dra', type: 'FieldValueDuplicate', field: `${at}.name`, message: `duplicate resourceClaims name ${JSON.stringify(name)}` });
    else {
      const errs = dnsLabelErrors(name);
      if (errs.length > 0)
        causes.push({
          reason: 'dra',
          type: 'FieldValueInvalid',
          field: `${at}.name`,
          message: `${at}.name does not conform to the kubernetes DNS_LABEL rules: ${errs.join(', ')}`,
        });
      names.add(name);
    }
    const byName = isSet(claim['resourceClaimName']);
    const byTemplate = isSet(claim['resourceClaimTemplateName']);
    if (byName && byTemplate)
      causes.push({
        reason: 'dra',
        type: 'FieldValueInvalid',
        field: at,
        message: 'at most one of resourceClaimName or resourceClaimTemplateName may be specified',
      });
    if (!byName && !byTemplate)
      causes.push({ reason: 'dra', type: 'FieldValueInvalid', field: at, message: 'must specify one of: resourceClaimName, resourceClaimTemplateName' });
    for (const key of ['resourceClaimName', 'resourceClaimTemplateName'])
      if (isSet(claim[key]))
        for (const detail of dnsSubdomainErrors(str(claim[key])))
          causes.push({ reason: 'dra', type: 'FieldValueInvalid', field: `${at}.${key}`, message: detail });
  });
  return causes;
}

/** validateDRADevices for GPUs or host devices: its causes, the claims used and each valid pair's first index. */
function draDeviceCauses(
  devices: readonly JsonObject[],
  kind: 'gpus' | 'hostDevices',
  config: ClusterDefaults,
  field: string,
): { causes: Cause[]; claims: Set<string>; pairs: Map<string, number> } {
  const typeName = kind === 'gpus' ? 'GPU' : 'HostDevice';
  const devField = `${field}.domain.devices.${kind}`;
  const causes: Cause[] = [];
  const none = { causes, claims: new Set<string>(), pairs: new Map<string, number>() };
  const isDra = (d: JsonObject): boolean => str(d['deviceName']) === '' && hasRequest(d);
  const dra = devices.map((d, i) => [d, i] as const).filter(([d]) => isDra(d));
  const plain = devices.map((d, i) => [d, i] as const).filter(([d]) => !isDra(d));
  if (kind === 'gpus' && dra.length > 0 && plain.length > 0 && holds('draPairsChecked', config.release)) {
    causes.push({
      reason: 'dra',
      type: 'FieldValueInvalid',
      field: devField,
      message: `vmi.spec.domain.devices.${kind} contains both DRA and non-DRA ${typeName}s; each ${typeName} must be either DRA or non-DRA`,
    });
    return none;
  }
  for (const [d] of plain) {
    if (str(d['deviceName']) === '')
      causes.push({
        reason: 'dra',
        type: 'FieldValueRequired',
        field: devField,
        message: `vmi.spec.domain.devices.${kind} contains ${typeName}s without deviceName or claimRequest; each ${typeName} must specify either a deviceName or a claimRequest`,
      });
    else if (hasRequest(d))
      causes.push({
        reason: 'dra',
        type: 'FieldValueInvalid',
        field: devField,
        message: `vmi.spec.domain.devices.${kind} contains ${typeName}s with both deviceName and claimRequest`,
      });
  }
  if (dra.length > 0 && !gateEnabled(config, kind === 'gpus' ? 'GPUsWithDRA' : 'HostDevicesWithDRA')) {
    causes.push({
      reason: 'dra',
      type: 'FieldValueInvalid',
      field: devField,
      message: `vmi.spec.domain.devices.${kind} contains DRA enabled ${typeName}s but feature gate is not enabled`,
    });
    return none;
  }
  const claims = new Set<string>();
  const pairs = new Map<string, number>();
  const seen = new Set<string>();
  for (const [d, i] of dra) {
    const claimName = str(d['claimName']);
    const requestName = str(d['requestName']);
    if (claimName === '')
      causes.push({ reason: 'dra', type: 'FieldValueRequired', field: `${devField}[${i}].claimName`, message: `claimName is required for DRA ${typeName}` });
    if (requestName === '')
      causes.push({
        reason: 'dra',
        type: 'FieldValueRequired',
        field: `${devField}[${i}].requestName`,
        message: `requestName is required for DRA ${typeName}`,
      });
    if (claimName === '' || requestName === '') continue;
    claims.add(claimName);
    const key = `${claimName}/${requestName}`;
    if (!pairs.has(key)) pairs.set(key, i);
    if (seen.has(key))
      causes.push({
        reason: 'dra',
        type: 'FieldValueDuplicate',
        field: `${devField}[${i}]`,
        message: `duplicate claimName/requestName pair ${JSON.stringify(key)}`,
      });
    seen.add(key);
  }
  return { causes, claims, pairs };
}

/** The claim request is inline (claimName, requestName): Go allocates it when either key is given. */
const hasRequest = (d: JsonObject): boolean => Object.hasOwn(d, 'claimName') || Object.hasOwn(d, 'requestName');

/** validateCreationDRA before v1.8: GPUs only (draGpusOnly). */
function gpuOnlyCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const at = `${field}.spec.domain.devices.gpus`; // sic: KubeVirt's path then
  const gpus = list(obj(obj(spec['domain'])?.['devices'])?.['gpus']);
  const isDra = (g: JsonObject): boolean => str(g['deviceName']) === '' && hasRequest(g);
  for (const g of gpus.filter((x) => !isDra(x))) {
    if (str(g['deviceName']) === '')
      return [...causes, { reason: 'dra', type: 'FieldValueInvalid', field: at, message: 'vmi.spec.domain.devices.gpus contains GPUs without deviceName' }];
    if (hasRequest(g))
      causes.push({
        reason: 'dra',
        type: 'FieldValueInvalid',
        field: at,
        message: 'vmi.spec.domain.devices.gpus contains GPUs with both deviceName and claimRequest',
      });
  }
  const dra = gpus.filter(isDra);
  if (dra.length > 0 && !gateEnabled(config, 'GPUsWithDRA'))
    return [
      ...causes,
      {
        reason: 'dra',
        type: 'FieldValueInvalid',
        field: at,
        message: 'vmi.spec.domain.devices.gpus contains DRA enabled GPUs but feature gate is not enabled',
      },
    ];
  const listed = new Set(list(spec['resourceClaims']).map((c) => str(c['name'])));
  if (dra.some((g) => !listed.has(str(g['claimName']))))
    causes.push({
      reason: 'dra',
      type: 'FieldValueInvalid',
      field: `${field}.resourceClaims`,
      message: 'vmi.spec.resourceClaims must specify all claims used in vmi.spec.domain.devices.gpus',
    });
  return causes;
}

/** validateCreationDRA. `field` is the spec's path. */
export function draCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const release = config.release;
  if (holds('draGpusOnly', release)) return gpuOnlyCauses(spec, config, field);
  const devices = obj(obj(spec['domain'])?.['devices']) ?? {};
  const claims = list(spec['resourceClaims']);
  const causes: Cause[] = [...resourceClaimCauses(claims, field, release)];
  const gpus = draDeviceCauses(list(devices['gpus']), 'gpus', config, field);
  const hostDevices = draDeviceCauses(list(devices['hostDevices']), 'hostDevices', config, field);
  causes.push(...gpus.causes, ...hostDevices.causes);
  // The DRA networks' pairs (v1.9, with their gate): the first index of each valid pair.
  const networkPairs =
    holds('draNetworks', release) && gateEnabled(config, 'NetworkDevicesWithDRA') ? draNetworkTuples(list(spec['networks'])) : new Map<string, number>();
  // pairDuplicateChecker: a pair used by two kinds of device (Go walks each map in no fixed order).
  const owners = new Map<string, string>();
  const sources: [string, Map<string, number>, string][] = [
    ['GPUs', gpus.pairs, `${field}.domain.devices.gpus`],
    ['HostDevices', hostDevices.pairs, `${field}.domain.devices.hostDevices`],
    ['Networks', networkPairs, `${field}.networks`],
  ];
  if (holds('draPairsChecked', release))
    for (const [kind, pairs, base] of sources)
      for (const [key, i] of pairs) {
        const previous = owners.get(key);
        if (previous !== undefined)
          causes.push({
            reason: 'dra',
            type: 'FieldValueDuplicate',
            field: `${base}[${i}]`,
            message: `duplicate claimName/requestName pair ${JSON.stringify(key)} between ${previous} and ${kind}[${i}]`,
          });
        else owners.set(key, `${kind}[${i}]`);
      }
  const listed = new Set(claims.map((c) => str(c['name'])));
  if ([...gpus.claims, ...hostDevices.claims].some((c) => !listed.has(c)))
    causes.push({
      reason: 'dra',
      type: 'FieldValueInvalid',
      field: `${field}.resourceClaims`,
      message: 'vmi.spec.resourceClaims must specify all claims used in vmi.spec.domain.devices.gpus and vmi.spec.domain.devices.hostDevices',
    });
  return causes;
}
