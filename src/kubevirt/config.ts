/**
 * The cluster configuration KubeVirt's code reads (pkg/virt-config): KubeVirt's defaults, or a
 * KubeVirt CR's `spec.configuration` laid over them as `setConfigFromKubeVirt` does (the CR's
 * configuration unmarshalled onto the default one: mappings merge key by key, lists and values
 * replace). A configuration `validateConfig` refuses leaves the defaults in force, as on a cluster.
 */
import { isPlainObject, obj, type Json, type JsonObject } from '../json';
import { gateOffByDefault } from './releases';

const isSet = (v: Json | undefined): boolean => v !== undefined && v !== null;

/** What KubeVirt's cluster configuration decides for expansion and the start of a VM. */
export interface ClusterDefaults {
  /** The architecture a VM gets when it names none (virt-api's own, amd64 on most clusters). */
  readonly architecture: string;
  /** `spec.configuration.machineType`, when the cluster sets one (it wins over every architecture's). */
  readonly machineType?: string | undefined;
  /** `architectureConfiguration.<arch>.machineType`; absent: KubeVirt's (q35, virt, s390-ccw-virtio). */
  readonly machineTypes?: Readonly<Record<string, string>> | undefined;
  /** The default pod network binding: `bridge` (KubeVirt's default) or `masquerade`. */
  readonly podBinding: 'bridge' | 'masquerade';
  /** `network.permitBridgeInterfaceOnPodNetwork` (true by default): a bridge binding on the pod network is allowed. */
  readonly permitBridgeInterfaceOnPodNetwork?: boolean | undefined;
  /** The names of `network.binding`: the network binding plugins the cluster registers. */
  readonly networkBindings?: readonly string[] | undefined;
  /** Those of them whose registration says how they migrate (`migration`). */
  readonly migratableBindings?: readonly string[] | undefined;
  /** `spec.configuration.evictionStrategy`; KubeVirt's default configuration says None. */
  readonly evictionStrategy: string;
  /** `cpuModel`: the CPU model a VMI without one gets ('' = KubeVirt's host-model). */
  readonly cpuModel?: string | undefined;
  /** `cpuRequest` (100m by default): a VMI's CPU request when it sets none and the cluster's is not 100m. */
  readonly cpuRequest?: string | undefined;
  /** `developerConfiguration.cpuAllocationRatio` (10): vCPUs per requested CPU. */
  readonly cpuAllocationRatio?: number | undefined;
  /** `developerConfiguration.memoryOvercommit` (100): the percentage of guest memory the pod requests is 100/this. */
  readonly memoryOvercommit?: number | undefined;
  /** `developerConfiguration.featureGates` and `disabledFeatureGates`. */
  readonly featureGates?: readonly string[] | undefined;
  readonly disabledFeatureGates?: readonly string[] | undefined;
  /** `vmRolloutStrategy` (LiveUpdate): CPU and memory hotplug are set up only under LiveUpdate. */
  readonly vmRolloutStrategy?: string | undefined;
  /** `liveUpdateConfiguration`: maxCpuSockets, maxGuest, maxHotplugRatio (4). */
  readonly maxCpuSockets?: number | undefined;
  readonly maxGuest?: string | undefined;
  readonly maxHotplugRatio?: number | undefined;
  /** `additionalGuestMemoryOverheadRatio`, as written (a decimal string). */
  readonly additionalGuestMemoryOverheadRatio?: string | undefined;
  /** `supportContainerResources`: per support container type, its requests and limits. */
  readonly supportContainerResources?: readonly JsonObject[] | undefined;
  /** `permittedHostDevices`. */
  readonly permittedHostDevices?: JsonObject | undefined;
  /** `developerConfiguration.nodeSelectors`: added to every launcher pod. */
  readonly nodeSelectors?: Readonly<Record<string, string>> | undefined;
  /** The KubeVirt CR's own annotations (some enable behaviour, e.g. the emulator thread parity). */
  readonly annotations?: Readonly<Record<string, string>> | undefined;
  /** `virtualMachineOptions.disableSerialConsoleLog` is set: no guest console log container. */
  readonly serialConsoleLogDisabled?: boolean | undefined;
  /** `developerConfiguration.minimumClusterTSCFrequency`. */
  readonly minimumClusterTSCFrequency?: number | undefined;
  /** `defaultRuntimeClass`: the launcher pod's runtime class. */
  readonly defaultRuntimeClass?: string | undefined;
  /** `persistentReservationConfiguration.enabled`, when the CR sets it (v1.9: else the gate must be listed). */
  readonly persistentReservationEnabled?: boolean | undefined;
  /** `vmStateStorageClass`: where persistent TPM and EFI state live; else the cluster's default StorageClass. */
  readonly vmStateStorageClass?: string | undefined;
  /**
   * The KubeVirt release the cluster runs (`--kubevirt-version`, or the CR's
   * `status.observedKubeVirtVersion`): rules that differ between releases read it (releases.ts).
   * Absent: the newest modelled release.
   */
  readonly release?: string | undefined;
  /** `spec.workloadUpdateStrategy.workloadUpdateMethods` (none by default). */
  readonly workloadUpdateMethods?: readonly string[] | undefined;
}

/** KubeVirt's default configuration, as much of it as itgen reads (pkg/virt-config/configuration.go). */
const DEFAULT_CONFIGURATION: JsonObject = {
  cpuRequest: '100m',
  developerConfiguration: { memoryOvercommit: 100, cpuAllocationRatio: 10, featureGates: [] },
  evictionStrategy: 'None',
  network: { defaultNetworkInterface: 'bridge', permitBridgeInterfaceOnPodNetwork: true },
  architectureConfiguration: {
    amd64: { machineType: 'q35' },
    arm64: { machineType: 'virt' },
    s390x: { machineType: 's390-ccw-virtio' },
  },
  liveUpdateConfiguration: { maxHotplugRatio: 4 },
  vmRolloutStrategy: 'LiveUpdate',
};

/** encoding/json onto an existing value: mappings merge key by key, anything else replaces. */
function unmarshalOnto(base: Json | undefined, over: Json): Json {
  if (!isPlainObject(over) || !isPlainObject(base)) return over;
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(over)) if (v !== null) out[k] = unmarshalOnto(base[k], v);
  return out;
}

const strings = (v: Json | undefined): Record<string, string> | undefined => {
  const o = obj(v);
  if (!o) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(o)) if (typeof x === 'string') out[k] = x;
  return out;
};

/**
 * The configuration a cluster with this KubeVirt CR runs with (`kubectl get kubevirt -n kubevirt
 * kubevirt -o yaml`); without one, KubeVirt's defaults. `problems` says why a CR's configuration
 * was not taken (KubeVirt keeps its defaults then, silently).
 */
export function kubevirtConfig(cr: JsonObject | null | undefined): { config: ClusterDefaults; problems: string[] } {
  const problems: string[] = [];
  const spec = obj(cr?.['spec']);
  const given = obj(spec?.['configuration']) ?? {};
  let c = obj(unmarshalOnto(DEFAULT_CONFIGURATION, given))!;
  const dev = obj(c['developerConfiguration']) ?? {};
  const invalid =
    typeof dev['memoryOvercommit'] !== 'number' || dev['memoryOvercommit'] <= 0
      ? `invalid memoryOvercommit in ConfigMap: ${String(dev['memoryOvercommit'])}`
      : typeof dev['cpuAllocationRatio'] !== 'number' || dev['cpuAllocationRatio'] <= 0
        ? `invalid cpu allocation ratio in ConfigMap: ${String(dev['cpuAllocationRatio'])}`
        : !['', 'bridge', 'slirp', 'masquerade'].includes(String(obj(c['network'])?.['defaultNetworkInterface'] ?? ''))
          ? `invalid default-network-interface in config: ${String(obj(c['network'])?.['defaultNetworkInterface'])}`
          : undefined;
  if (invalid) {
    problems.push(invalid);
    c = DEFAULT_CONFIGURATION;
  }
  const d = obj(c['developerConfiguration']) ?? {};
  const arch = obj(c['architectureConfiguration']) ?? {};
  const live = obj(c['liveUpdateConfiguration']);
  const machineTypes: Record<string, string> = {};
  for (const a of ['amd64', 'arm64', 's390x']) {
    const t = obj(arch[a])?.['machineType'];
    if (typeof t === 'string') machineTypes[a] = t;
  }
  // virt-operator sets the CR's status.defaultArchitecture from the configuration, else its own (amd64).
  const defaultArch = obj(given['architectureConfiguration'])?.['defaultArchitecture'];
  const binding = obj(c['network'])?.['defaultNetworkInterface'];
  const num = (v: Json | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
  const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
  const config: ClusterDefaults = {
    architecture: typeof defaultArch === 'string' && defaultArch !== '' ? defaultArch : 'amd64',
    ...(typeof c['machineType'] === 'string' && c['machineType'] !== '' ? { machineType: c['machineType'] } : {}),
    machineTypes,
    podBinding: binding === 'masquerade' ? 'masquerade' : 'bridge',
    permitBridgeInterfaceOnPodNetwork: obj(c['network'])?.['permitBridgeInterfaceOnPodNetwork'] !== false,
    networkBindings: Object.keys(obj(obj(c['network'])?.['binding']) ?? {}),
    migratableBindings: Object.entries(obj(obj(c['network'])?.['binding']) ?? {})
      .filter(([, b]) => isSet(obj(b)?.['migration']))
      .map(([name]) => name),
    evictionStrategy: typeof c['evictionStrategy'] === 'string' ? c['evictionStrategy'] : 'None',
    cpuModel: typeof c['cpuModel'] === 'string' ? c['cpuModel'] : '',
    cpuRequest: str(c['cpuRequest']) ?? '100m',
    cpuAllocationRatio: num(d['cpuAllocationRatio']) ?? 10,
    memoryOvercommit: num(d['memoryOvercommit']) ?? 100,
    featureGates: Array.isArray(d['featureGates']) ? d['featureGates'].filter((g): g is string => typeof g === 'string') : [],
    disabledFeatureGates: Array.isArray(d['disabledFeatureGates']) ? d['disabledFeatureGates'].filter((g): g is string => typeof g === 'string') : [],
    vmRolloutStrategy: typeof c['vmRolloutStrategy'] === 'string' ? c['vmRolloutStrategy'] : 'LiveUpdate',
    ...(num(live?.['maxCpuSockets']) !== undefined ? { maxCpuSockets: num(live?.['maxCpuSockets'])! } : {}),
    ...(str(live?.['maxGuest']) !== undefined ? { maxGuest: str(live?.['maxGuest'])! } : {}),
    // GetMaxHotplugRatio: 1 without a liveUpdateConfiguration, else its ratio (0 when unset there).
    maxHotplugRatio: live ? (num(live['maxHotplugRatio']) ?? 0) : 1,
    ...(typeof c['additionalGuestMemoryOverheadRatio'] === 'string' ? { additionalGuestMemoryOverheadRatio: c['additionalGuestMemoryOverheadRatio'] } : {}),
    supportContainerResources: Array.isArray(c['supportContainerResources']) ? c['supportContainerResources'].filter(isPlainObject) : [],
    ...(obj(c['permittedHostDevices']) ? { permittedHostDevices: obj(c['permittedHostDevices'])! } : {}),
    nodeSelectors: strings(d['nodeSelectors']) ?? {},
    serialConsoleLogDisabled: isSet(obj(c['virtualMachineOptions'])?.['disableSerialConsoleLog']),
    ...(typeof obj(c['persistentReservationConfiguration'])?.['enabled'] === 'boolean'
      ? { persistentReservationEnabled: obj(c['persistentReservationConfiguration'])!['enabled'] as boolean }
      : {}),
    ...(num(d['minimumClusterTSCFrequency']) !== undefined ? { minimumClusterTSCFrequency: num(d['minimumClusterTSCFrequency'])! } : {}),
    ...(typeof c['defaultRuntimeClass'] === 'string' && c['defaultRuntimeClass'] !== '' ? { defaultRuntimeClass: c['defaultRuntimeClass'] } : {}),
    ...(typeof c['vmStateStorageClass'] === 'string' && c['vmStateStorageClass'] !== '' ? { vmStateStorageClass: c['vmStateStorageClass'] } : {}),
    annotations: strings(obj(cr?.['metadata'])?.['annotations']) ?? {},
    ...(typeof obj(cr?.['status'])?.['observedKubeVirtVersion'] === 'string' ? { release: obj(cr!['status'])!['observedKubeVirtVersion'] as string } : {}),
    workloadUpdateMethods: Array.isArray(obj(spec?.['workloadUpdateStrategy'])?.['workloadUpdateMethods'])
      ? (obj(spec!['workloadUpdateStrategy'])!['workloadUpdateMethods'] as Json[]).filter((m): m is string => typeof m === 'string')
      : [],
  };
  return { config, problems };
}

/**
 * Feature gates whose state is not Alpha (pkg/virt-config/featuregate): a GA gate is always on, a
 * Beta gate on unless `disabledFeatureGates` names it; an Alpha gate only when listed.
 */
const GATE_STATES: Readonly<Record<string, 'GA' | 'Beta'>> = {
  ImageVolume: 'Beta',
  Snapshot: 'Beta',
  WorkloadEncryptionSEV: 'Beta',
  KubevirtSeccompProfile: 'Beta',
  NodeRestriction: 'Beta',
  GPUsWithDRA: 'Beta',
  HostDevicesWithDRA: 'Beta',
  DecentralizedLiveMigration: 'Beta',
  DeclarativeHotplugVolumes: 'Beta',
  PasstBinding: 'Beta',
  PodSecondaryInterfaceNamingUpgrade: 'Beta',
  ExternalNetResourceInjection: 'Beta',
  RebootPolicy: 'Beta',
  Template: 'Beta',
  OptOutRoleAggregation: 'Beta',
  LiveMigration: 'GA',
  SRIOVLiveMigration: 'GA',
  NonRoot: 'GA',
  CPUNodeDiscovery: 'GA',
  NUMA: 'GA',
  GPU: 'GA',
  VMLiveUpdateFeatures: 'GA',
  AutoResourceLimitsGate: 'GA',
  VMPersistentState: 'GA',
  PersistentReservation: 'GA',
  ExpandDisks: 'GA',
  PanicDevices: 'GA',
  VideoConfig: 'GA',
  SecureExecution: 'GA',
};

/** The Alpha gates whose state changes an answer of itgen (the webhooks' and the render's checks that read them). */
const ALPHA_GATES_READ = [
  'AlignCPUs',
  'DownwardMetrics',
  'EnableVirtioFsConfigVolumes',
  'EnableVirtioFsStorageVolumes',
  'ExperimentalIgnitionSupport',
  'GraceIOVirtualization',
  'HostDevices',
  'HostDisk',
  'IOMMUFD',
  'MultiArchitecture',
  'NetworkDevicesWithDRA',
  'PCINUMAAwareTopology',
  'PortRangesSpec',
  'ReservedOverheadMemlock',
  'Root',
  'Sidecar',
  'VSOCK',
  'WorkloadEncryptionTDX',
] as const;

/**
 * `config` with every feature gate itgen reads enabled and no host device list: what a cluster
 * would have to configure for a refusal that depends only on its configuration to go away. A VM
 * refused under `config` but not under this is refused by the cluster's configuration, not by itself.
 */
export function withEveryGate(config: ClusterDefaults): ClusterDefaults {
  const { permittedHostDevices: _permitted, disabledFeatureGates: _disabled, ...rest } = config;
  return {
    ...rest,
    permitBridgeInterfaceOnPodNetwork: true,
    featureGates: [...new Set([...(config.featureGates ?? []), ...ALPHA_GATES_READ, ...Object.keys(GATE_STATES)])],
  };
}

/**
 * The feature gate KubeVirt's words name before "feature gate" (`HostDisk feature gate`, `Reserved
 * overhead memlock feature gate`, `feature gate VGPULiveMigration`), as the CR spells it; none when
 * the words name no gate itgen reads.
 */
export function gateNamedIn(message: string): string | undefined {
  const known = [...ALPHA_GATES_READ, ...Object.keys(GATE_STATES)];
  const byLower = new Map(known.map((g) => [g.toLowerCase(), g] as const));
  const after = /feature gate ([A-Za-z0-9]+)/.exec(message)?.[1];
  if (after !== undefined && byLower.has(after.toLowerCase())) return byLower.get(after.toLowerCase());
  const before = /((?:[A-Za-z0-9-]+ ){0,4})feature gate/.exec(message)?.[1]?.trim().split(' ') ?? [];
  for (let i = before.length - 1; i >= 0; i--) {
    const joined = before.slice(i).join('').toLowerCase();
    if (byLower.has(joined)) return byLower.get(joined);
  }
  return undefined;
}

/** featuregate.IsEnabled: whether a feature gate is on in this configuration. */
export function gateEnabled(config: ClusterDefaults, gate: string): boolean {
  // A release before v1.9 keeps some of these off until the CR enables them (releases.ts).
  if (gateOffByDefault(gate, config.release)) return (config.featureGates ?? []).includes(gate);
  const state = Object.hasOwn(GATE_STATES, gate) ? GATE_STATES[gate] : undefined;
  if (state === 'GA') return true;
  if ((config.featureGates ?? []).includes(gate)) return true;
  if ((config.disabledFeatureGates ?? []).includes(gate)) return false;
  return state === 'Beta';
}

/** Fields of `spec.configuration` whose Go type is an integer (the CRD says `type: integer`). */
const INTEGER_FIELDS: readonly (readonly string[])[] = [
  ['developerConfiguration', 'cpuAllocationRatio'],
  ['developerConfiguration', 'memoryOvercommit'],
  ['developerConfiguration', 'minimumClusterTSCFrequency'],
  ['liveUpdateConfiguration', 'maxCpuSockets'],
  ['liveUpdateConfiguration', 'maxHotplugRatio'],
];

/**
 * The CR's configuration fields that are not the integers KubeVirt's types are (1.5, 1e400, .inf,
 * .nan, a string): the API server refuses such a CR, so no cluster runs with it. Paths from `spec`.
 */
export function nonIntegerFields(cr: JsonObject | null | undefined): { path: string[]; value: string }[] {
  const c = obj(obj(cr?.['spec'])?.['configuration']);
  if (!c) return [];
  return INTEGER_FIELDS.flatMap((p) => {
    const v = obj(c[p[0]!])?.[p[1]!];
    if (v === undefined || v === null) return [];
    return typeof v === 'number' && Number.isSafeInteger(v)
      ? []
      : [{ path: ['configuration', ...p], value: typeof v === 'string' ? JSON.stringify(v) : String(v) }];
  });
}

/** What reading a KubeVirt CR found, at a path from the CR's `spec`: refusals (no cluster runs with it) and warnings. */
export interface CrFinding {
  readonly severity: 'error' | 'warning';
  readonly path: readonly string[];
  readonly message: string;
  readonly hint?: string;
}

/**
 * The KubeVirt CR read as a cluster takes it: the API server refuses one whose integer fields are
 * not integers (no configuration then), and KubeVirt keeps its defaults, silently, for a
 * configuration it would not take (a warning in its words). Callers place the findings in the file.
 */
export function readKubevirtCr(cr: JsonObject): { config?: ClusterDefaults; findings: CrFinding[] } {
  const notIntegers = nonIntegerFields(cr);
  if (notIntegers.length > 0)
    return {
      findings: notIntegers.map((f) => {
        const field = f.path[f.path.length - 1];
        return {
          severity: 'error',
          path: f.path,
          message: `spec.${f.path.join('.')}: ${f.value} is not an integer; KubeVirt's type is one and the API server refuses the KubeVirt CR`,
          hint: `write a whole number (KubeVirt's default ${field === 'memoryOvercommit' ? 'is 100' : field === 'cpuAllocationRatio' ? 'is 10' : 'applies when the field is absent'})`,
        };
      }),
    };
  const { config, problems } = kubevirtConfig(cr);
  return {
    config,
    findings: problems.map((p) => ({
      severity: 'warning',
      path: ['configuration'],
      message: `KubeVirt would not take this configuration (${p}) and keeps its defaults`,
    })),
  };
}

/** KubeVirt's default configuration (a cluster whose KubeVirt CR configures nothing): the one default every stage uses. */
export const KUBEVIRT_DEFAULTS: ClusterDefaults = kubevirtConfig(null).config;
