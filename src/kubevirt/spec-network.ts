/**
 * KubeVirt's network admitter (pkg/network/admitter, `Validator.Validate`, which
 * ValidateVirtualMachineInstanceSpec runs for the VM's template and the VMI alike): the networks'
 * sources, the interfaces' states, bindings, names, models, MAC and PCI addresses, forwarded ports
 * and port ranges, DHCP options, and the DRA networks; in KubeVirt's order and words. Where a release
 * differs, `holds` says (releases.ts).
 */
import { list, obj, str, type Json, type JsonObject } from '../json';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { holds } from './releases';
import { isIPv4, macOctets, validPortName } from './go-net';

const INTERFACE_MODELS = new Set(['e1000', 'e1000e', 'igb', 'ne2k_pci', 'pcnet', 'rtl8139', 'virtio']);
const int = (v: Json | undefined): number => (typeof v === 'number' ? v : 0);

/**
 * ValidateCreation's discontinued bindings (validateDiscontinuedBindings; validateCreationSlirpBinding
 * before v1.8, when passt and macvtap had gates instead). The VM webhook runs them alone on CREATE
 * (with `spec` as the path), before the spec's rules; Validate runs them first.
 */
export function discontinuedBindingCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const at = (i: number, child: string): string => `${field}.domain.devices.interfaces[${i}].${child}`;
  list(obj(obj(spec['domain'])?.['devices'])?.['interfaces']).forEach((iface, i) => {
    const add = (child: string, message: string): void => {
      causes.push({ reason: 'network', type: 'FieldValueInvalid', field: at(i, child), message });
    };
    if (isSet(iface['slirp'])) add('slirp', 'Slirp interface support has been discontinued since v1.3');
    if (!holds('passtMacvtapGated', config.release)) {
      if (isSet(iface['passt'])) add('passt', 'Passt network binding has been discontinued since v1.3');
      if (isSet(iface['macvtap'])) add('macvtap', 'Macvtap network binding has been discontinued since v1.3');
    }
  });
  return causes;
}

/**
 * Validator.Validate (with ValidateCreation's discontinued bindings first), the network part of
 * ValidateVirtualMachineInstanceSpec. `field` is the spec's path.
 */
export function networkCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const release = config.release;
  const interfaces = list(obj(obj(spec['domain'])?.['devices'])?.['interfaces']);
  const networks = list(spec['networks']);
  // IndexNetworkSpecByName: the last network of a name wins; none is the zero network.
  const byName = new Map(networks.map((n) => [str(n['name']), n]));
  const netOf = (iface: JsonObject): JsonObject => byName.get(str(iface['name'])) ?? {};
  const at = (i: number, child?: string): string => `${field}.domain.devices.interfaces[${i}]${child !== undefined ? `.${child}` : ''}`;
  const add = (f: string, message: string, type: Cause['type'] = 'FieldValueInvalid'): void => {
    causes.push({ reason: 'network', type, field: f, message });
  };
  const isPod = (n: JsonObject): boolean => isSet(n['pod']);
  const multus = (n: JsonObject): JsonObject | undefined => obj(n['multus']);
  const isDra = (n: JsonObject): boolean => isSet(n['resourceClaim']) && holds('draNetworks', release);
  causes.push(...discontinuedBindingCauses(spec, config, field));
  // validateSinglePodNetwork
  const podNetworks = networks.filter(isPod);
  const multusDefaults = networks.filter((n) => multus(n)?.['default'] === true);
  if (podNetworks.length > 1) add(`${field}.interfaces`, `more than one interface is connected to a pod network in ${field}.interfaces`, 'FieldValueDuplicate');
  if (multusDefaults.length > 1) add(`${field}.networks`, 'Multus CNI should only have one default network');
  if (podNetworks.length > 0 && multusDefaults.length > 0) add(`${field}.networks`, 'Pod network cannot be defined when Multus default network is defined');
  // validateSingleNetworkSource
  networks.forEach((n, i) => {
    const count = [isPod(n), multus(n) !== undefined, isDra(n)].filter(Boolean).length;
    if (count === 0) add(`${field}.networks[${i}]`, 'should have a network type', 'FieldValueRequired');
    else if (count > 1) add(`${field}.networks[${i}]`, 'should have only one network type', 'FieldValueRequired');
  });
  // validateMultusNetworkSource: the first only
  const noName = networks.findIndex((n) => multus(n) !== undefined && str(multus(n)!['networkName']) === '');
  if (noName >= 0) add(`${field}.networks[${noName}]`, 'CNI delegating plugin must have a networkName', 'FieldValueRequired');
  // validateInterfaceStateValue
  const defaultNetwork = networks.find((n) => isPod(n) || multus(n)?.['default'] === true);
  interfaces.forEach((iface, i) => {
    const state = str(iface['state']);
    const name = str(iface['name']);
    if (state !== '' && state !== 'absent' && state !== 'down' && state !== 'up')
      add(at(i, 'state'), `logical ${name} interface state value is unsupported: ${state}`);
    if (isSet(iface['sriov']) && (state === 'down' || state === 'up'))
      add(at(i, 'state'), `${JSON.stringify(name)} interface's state ${JSON.stringify(state)} is not supported for SR-IOV NICs`);
    if (state === 'absent' && !isSet(iface['bridge']))
      add(at(i, 'state'), `${JSON.stringify(name)} interface's state ${JSON.stringify(state)} is supported only for bridge binding`);
    if (state === 'absent' && defaultNetwork !== undefined && str(defaultNetwork['name']) === name)
      add(at(i, 'state'), `${JSON.stringify(name)} interface's state ${JSON.stringify(state)} is not supported on default networks`);
  });
  causes.push(...bindingCauses(interfaces, netOf, config, at));
  // validateNetworkNameUnique
  const seenNetworks = new Set<string>();
  networks.forEach((n, i) => {
    const name = str(n['name']);
    if (seenNetworks.has(name))
      add(
        `${field}.networks[${i}].name`,
        `Network with name ${JSON.stringify(name)} already exists, every network must have a unique name`,
        'FieldValueDuplicate',
      );
    seenNetworks.add(name);
  });
  if (holds('draNetworks', release)) causes.push(...draNetworkCauses(spec, networks, interfaces, config, field));
  // validateNetworksAssignedToInterfaces, validateInterfaceNameUnique, validateInterfacesAssignedToNetworks
  const ifaceNames = new Set(interfaces.map((x) => str(x['name'])));
  networks.forEach((n, i) => {
    if (!ifaceNames.has(str(n['name'])))
      add(`${field}.networks[${i}].name`, `${field}.networks[${i}].name '${str(n['name'])}' not found.`, 'FieldValueRequired');
  });
  const seenIfaces = new Set<string>();
  interfaces.forEach((iface, i) => {
    if (seenIfaces.has(str(iface['name']))) add(at(i, 'name'), 'Only one interface can be connected to one specific network', 'FieldValueDuplicate');
    seenIfaces.add(str(iface['name']));
  });
  interfaces.forEach((iface, i) => {
    if (!byName.has(str(iface['name']))) add(at(i, 'name'), `${at(i, 'name')} '${str(iface['name'])}' not found.`);
  });
  interfaces.forEach((iface, i) => causes.push(...interfaceFieldCauses(iface, i, netOf(iface), config, at, field)));
  return causes;
}

/** validateInterfaceBinding: one binding each, masquerade and passt on the pod network, bridge there where the cluster permits. */
function bindingCauses(
  interfaces: readonly JsonObject[],
  netOf: (iface: JsonObject) => JsonObject,
  config: ClusterDefaults,
  at: (i: number, child?: string) => string,
): Cause[] {
  const causes: Cause[] = [];
  const add = (f: string, message: string): void => {
    causes.push({ reason: 'network', type: 'FieldValueInvalid', field: f, message });
  };
  const release = config.release;
  interfaces.forEach((iface, i) => {
    const name = str(iface['name']);
    const net = netOf(iface);
    const methods = ['bridge', 'masquerade', 'sriov', 'passtBinding'].filter((k) => isSet(iface[k])).length;
    if (holds('oneBindingPerInterface', release)) {
      if (methods + (isSet(iface['binding']) ? 1 : 0) !== 1) add(at(i), `logical ${name} interface must have exactly one binding method or binding plugin`);
    } else {
      const deprecated = holds('passtMacvtapGated', release) ? ['slirp', 'macvtap', 'passt'].filter((k) => isSet(iface[k])).length : 0;
      if (isSet(iface['binding']) && methods + deprecated > 0)
        add(at(i, 'binding'), `logical ${name} interface cannot have both binding plugin and interface binding method`);
    }
    if (isSet(iface['masquerade']) && !isSet(net['pod'])) add(at(i, 'name'), 'Masquerade interface only implemented with pod network');
    if (isSet(iface['masquerade']) && str(iface['macAddress']) === '02:00:00:00:00:00')
      add(at(i, 'macAddress'), 'The requested MAC address is reserved for the in-pod bridge. Please choose another one.');
    if (isSet(iface['bridge']) && isSet(net['pod']) && config.permitBridgeInterfaceOnPodNetwork === false)
      add(at(i, 'name'), 'Bridge on pod network configuration is not enabled under kubevirt-config');
    if (holds('passtMacvtapGated', release)) {
      // v1.6 and v1.7: the discontinued gates are never enabled.
      if (isSet(iface['macvtap'])) add(at(i, 'name'), 'Macvtap feature gate is not enabled');
      if (isSet(iface['macvtap']) && !isSet(net['multus'])) add(at(i, 'name'), 'Macvtap interface only implemented with Multus network');
      if (isSet(iface['passt'])) add(at(i, 'name'), 'Passt feature gate is not enabled');
      if (isSet(iface['passt']) && !isSet(net['pod'])) add(at(i, 'name'), 'Passt interface only implemented with pod network');
    } else {
      if (isSet(iface['passtBinding']) && !gateEnabled(config, 'PasstBinding')) add(at(i, 'name'), 'PasstBinding feature gate is not enabled');
      if (isSet(iface['passtBinding']) && !isSet(net['pod'])) add(at(i, 'name'), 'PasstBinding interface only implemented with pod network');
    }
  });
  return causes;
}

/** vmispec.ExtractDRANetworkClaimRequestTuples: each `claimName/requestName` of a DRA network, with the first network's index. */
export function draNetworkTuples(networks: readonly JsonObject[]): Map<string, number> {
  const firstOf = new Map<string, number>();
  networks.forEach((n, i) => {
    const c = isSet(n['resourceClaim']) ? (obj(n['resourceClaim']) ?? {}) : undefined;
    const key = c ? `${str(c['claimName'])}/${str(c['requestName'])}` : '';
    if (c && str(c['claimName']) !== '' && str(c['requestName']) !== '' && !firstOf.has(key)) firstOf.set(key, i);
  });
  return firstOf;
}

/** validateNetworkDevicesWithDRA (v1.9). */
function draNetworkCauses(
  spec: JsonObject,
  networks: readonly JsonObject[],
  interfaces: readonly JsonObject[],
  config: ClusterDefaults,
  field: string,
): Cause[] {
  const claimOf = (n: JsonObject): JsonObject | undefined => (isSet(n['resourceClaim']) ? (obj(n['resourceClaim']) ?? {}) : undefined);
  if (!networks.some((n) => claimOf(n) !== undefined)) return [];
  const one = (message: string): Cause[] => [{ reason: 'network', type: 'FieldValueInvalid', field: `${field}.networks`, message }];
  if (!gateEnabled(config, 'NetworkDevicesWithDRA'))
    return one('vmi.spec.networks contains DRA networks but NetworkDevicesWithDRA feature gate is not enabled');
  if (networks.some((n) => isSet(n['multus']))) return one('mixing Multus and DRA resourceClaim networks in the same VMI is not supported');
  const causes: Cause[] = [];
  const firstOf = draNetworkTuples(networks);
  const claims = new Set(list(spec['resourceClaims']).map((rc) => str(rc['name'])));
  networks.forEach((n, i) => {
    const c = claimOf(n);
    if (!c) return;
    const name = str(n['name']);
    const iface = interfaces.find((x) => str(x['name']) === name);
    if (iface && !isSet(iface['sriov']) && !isSet(iface['binding']))
      causes.push({
        reason: 'network',
        type: 'FieldValueInvalid',
        field: `${field}.domain.devices.interfaces`,
        message: `DRA network ${JSON.stringify(name)} requires an SR-IOV or binding plugin interface`,
      });
    const claimName = str(c['claimName']);
    const requestName = str(c['requestName']);
    const at = `${field}.networks[${i}].resourceClaim`;
    if (claimName === '')
      causes.push({ reason: 'network', type: 'FieldValueRequired', field: `${at}.claimName`, message: 'claimName is required for DRA network' });
    if (requestName === '')
      causes.push({ reason: 'network', type: 'FieldValueRequired', field: `${at}.requestName`, message: 'requestName is required for DRA network' });
    if (claimName === '' || requestName === '') return;
    if (!claims.has(claimName))
      causes.push({
        reason: 'network',
        type: 'FieldValueNotFound',
        field: `${at}.claimName`,
        message: `network references resourceClaim ${JSON.stringify(claimName)} which is not defined in spec.resourceClaims`,
      });
    const key = `${claimName}/${requestName}`;
    const first = firstOf.get(key);
    if (first !== undefined && first !== i)
      causes.push({
        reason: 'network',
        type: 'FieldValueDuplicate',
        field: `${field}.networks[${i}]`,
        message: `duplicate claimName/requestName combination ${JSON.stringify(key)}`,
      });
  });
  return causes;
}

/**
 * validateInterfacesFields for one interface: its name, model, MAC and PCI addresses, forwarded
 * ports (on the pod network), port ranges and DHCP options.
 */
function interfaceFieldCauses(
  iface: JsonObject,
  i: number,
  net: JsonObject,
  config: ClusterDefaults,
  at: (i: number, child?: string) => string,
  field: string,
): Cause[] {
  const causes: Cause[] = [];
  const add = (f: string, message: string, type: Cause['type'] = 'FieldValueInvalid'): void => {
    causes.push({ reason: 'network', type, field: f, message });
  };
  const release = config.release;
  if (!/^[A-Za-z0-9-_]+$/.test(str(iface['name'])))
    add(at(i, 'name'), 'Network interface name can only contain alphabetical characters, numbers, dashes (-) or underscores (_)');
  const model = str(iface['model']);
  if (model !== '' && !INTERFACE_MODELS.has(model))
    add(at(i, 'model'), `interface ${at(i, 'name')} uses model ${model} that is not supported.`, 'FieldValueNotSupported');
  const mac = str(iface['macAddress']);
  if (mac !== '') {
    const n = macOctets(mac);
    if (n === undefined) add(at(i, 'macAddress'), `interface ${at(i, 'name')} has malformed MAC address (${mac}).`);
    else if (n > 6) add(at(i, 'macAddress'), `interface ${at(i, 'name')} has too long MAC address (${mac}).`);
  }
  const pci = str(iface['pciAddress']);
  if (pci !== '' && !/^([\da-fA-F]{4}):([\da-fA-F]{2}):([\da-fA-F]{2})\.([0-7]{1})$/.test(pci))
    add(at(i, 'pciAddress'), `interface ${at(i, 'name')} has malformed PCI address (${pci}).`);
  // validatePortConfiguration: on the pod network only (`ports: []` counts, as a non-nil slice).
  const ports = Array.isArray(iface['ports']) ? list(iface['ports']) : undefined;
  if (isSet(net['pod']) && ports) {
    const names = new Set<string>();
    ports.forEach((p, j) => {
      const name = str(p['name']);
      if (name === '') return;
      if (names.has(name)) add(`${at(i)}.ports[${j}].name`, `Duplicate name of the port: ${name}`, 'FieldValueDuplicate');
      if (!validPortName(name)) add(`${at(i)}.ports[${j}].name`, `Invalid name of the port: ${name}`);
      names.add(name);
    });
    const named = holds('portFieldNamed', release);
    ports.forEach((p, j) => {
      const port = int(p['port']);
      const portAt = `${at(i)}.ports[${j}]${named ? '.port' : ''}`;
      if (port === 0) add(portAt, 'Port field is mandatory.', 'FieldValueRequired');
      if (port < 0 || (named ? port >= 65536 : port > 65536)) add(portAt, 'Port field must be in range 0 < x < 65536.');
      const protocol = str(p['protocol']);
      if (protocol !== '' && protocol !== 'TCP' && protocol !== 'UDP') add(`${at(i)}.ports[${j}].protocol`, 'Unknown protocol, only TCP or UDP allowed');
    });
  }
  if (holds('portRanges', release)) causes.push(...portRangeCauses(iface, i, net, config, at));
  // validateDHCPOptions
  const dhcp = obj(iface['dhcpOptions']);
  if (isSet(iface['dhcpOptions']) && dhcp) {
    const options = list(dhcp['privateOptions']);
    if (new Set(options.map((o) => int(o['option']))).size < options.length) add(field, 'Found Duplicates: you have provided duplicate DHCPPrivateOptions');
    for (const o of options) {
      const n = int(o['option']);
      if (!(n >= 224 && n <= 254)) add(field, 'provided DHCPPrivateOptions are out of range, must be in range 224 to 254');
    }
    (Array.isArray(dhcp['ntpServers']) ? dhcp['ntpServers'] : []).forEach((ip, j) => {
      if (!isIPv4(str(ip))) add(`${at(i)}.dhcpOptions.ntpServers[${j}]`, 'NTP servers must be a list of valid IPv4 addresses.');
    });
  }
  return causes;
}

/** validatePortRangesConfiguration (v1.9): behind PortRangesSpec; on a masquerade pod interface, at most 10, valid, without overlaps. */
function portRangeCauses(iface: JsonObject, i: number, net: JsonObject, config: ClusterDefaults, at: (i: number, child?: string) => string): Cause[] {
  const causes: Cause[] = [];
  const add = (f: string, message: string): void => {
    causes.push({ reason: 'network', type: 'FieldValueInvalid', field: f, message });
  };
  const given = Array.isArray(iface['portRanges']);
  if (!gateEnabled(config, 'PortRangesSpec')) {
    if (given) add(at(i, 'name'), 'portRanges is specified on interface but the PortRangesSpec feature gate is not enabled');
    return causes;
  }
  if (!isSet(net['pod']) || !given) return causes;
  if (Array.isArray(iface['ports'])) add(at(i, 'name'), 'Cannot define both ports and portRanges on interface');
  if (!isSet(iface['masquerade'])) add(at(i, 'name'), 'portRanges are only supported on masquerade interfaces');
  const ranges = list(iface['portRanges']);
  if (ranges.length > 10) {
    add(at(i, 'portRanges'), 'No more than 10 portRanges are allowed');
    return causes;
  }
  const byProtocol = new Map<string, [number, number][]>();
  ranges.forEach((r, j) => {
    const protocol = str(r['protocol']);
    const start = int(r['start']);
    const end = int(r['end']);
    const rAt = `${at(i)}.portRanges[${j}]`;
    if (protocol !== 'TCP' && protocol !== 'UDP') add(`${rAt}.protocol`, 'Unknown protocol, only TCP or UDP allowed');
    else if (start <= 0 || start >= 65536) add(`${rAt}.start`, 'Start must be a valid port number, 0 < x < 65536');
    else if (end <= 0 || end >= 65536) add(`${rAt}.end`, 'End must be a valid port number, 0 < x < 65536');
    else if (start > end) add(`${rAt}.start`, 'Start must be less than or equal to end');
    else byProtocol.set(protocol, [...(byProtocol.get(protocol) ?? []), [start, end]]);
  });
  for (const [protocol, intervals] of byProtocol) {
    intervals.sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] - b[0]));
    for (let k = 1; k < intervals.length; k++) {
      const [ps, pe] = intervals[k - 1]!;
      const [cs, ce] = intervals[k]!;
      if (cs <= pe) add(at(i, 'portRanges'), `${protocol} portRanges [${ps}-${pe}] and [${cs}-${ce}] overlap`);
    }
  }
  return causes;
}
