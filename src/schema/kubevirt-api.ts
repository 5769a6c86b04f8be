/**
 * The KubeVirt API facts itgen's stages share, without the zod model of schema/manifest.ts (which
 * re-exports all of this): releases, the enumerations KubeVirt's code defines, the four kinds and
 * their order, and which release brought or deprecated each field. Kept apart from zod so that
 * generating a catalog, which never needs the model when the catalog is sound, does not load it.
 */
// ---------------------------------------------------------------------------------------------------------------
// Releases

/** KubeVirt releases that serve `instancetype.kubevirt.io/v1beta1`, oldest first. */
export const KUBEVIRT_RELEASES = ['v1.0.0', 'v1.1.0', 'v1.2.0', 'v1.3.0', 'v1.4.0', 'v1.5.0', 'v1.6.0', 'v1.7.0', 'v1.8.0', 'v1.9.0'] as const;
export type KubevirtRelease = (typeof KUBEVIRT_RELEASES)[number];

/** A generator's `targetKubevirt` as a range: a single release is the oldest (`min`). */
export function targetRange(target: string | { readonly min: string; readonly max?: string | undefined }): { min: string; max?: string } {
  return typeof target === 'string' ? { min: target } : { min: target.min, ...(target.max !== undefined ? { max: target.max } : {}) };
}

export const RELEASE_PATTERN = /^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?$/;

export interface ReleaseVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** Parses `v1.9` or `v1.9.0`; returns undefined for anything else. */
export function parseRelease(release: string): ReleaseVersion | undefined {
  const match = RELEASE_PATTERN.exec(release);
  if (match === null) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? '0') };
}

/**
 * Orders two releases (negative: a is older, 0: same, positive: a is newer). `v1.9` equals `v1.9.0`.
 * Malformed input is a programming error (validate user input with `kubevirtReleaseSchema` first), so it throws.
 */
export function compareRelease(a: string, b: string): number {
  const left = parseRelease(a);
  const right = parseRelease(b);
  if (left === undefined || right === undefined) {
    throw new Error(`compareRelease: malformed release ${left === undefined ? a : b}`);
  }
  return left.major - right.major || left.minor - right.minor || left.patch - right.patch;
}

// ---------------------------------------------------------------------------------------------------------------
// Enumerations (kubevirt-api.md "Enumerations"); exported so rules can suggest the nearest valid value.

export const PREFERRED_CPU_TOPOLOGIES = ['sockets', 'cores', 'threads', 'spread', 'any'] as const;
export const DEPRECATED_CPU_TOPOLOGIES = ['preferSockets', 'preferCores', 'preferThreads', 'preferSpread', 'preferAny'] as const;
/** Every value the preference webhook accepts; the deprecated long forms only with a warning. */
export const ALL_CPU_TOPOLOGIES = [...PREFERRED_CPU_TOPOLOGIES, ...DEPRECATED_CPU_TOPOLOGIES] as const;
export type PreferredCpuTopology = (typeof PREFERRED_CPU_TOPOLOGIES)[number];
export type DeprecatedCpuTopology = (typeof DEPRECATED_CPU_TOPOLOGIES)[number];
export type CpuTopology = (typeof ALL_CPU_TOPOLOGIES)[number];

export const SPREAD_ACROSS = ['SocketsCoresThreads', 'SocketsCores', 'CoresThreads'] as const;
/** Disk, LUN and CD-ROM buses (`ide` is rejected; `virtio` is rejected for CD-ROMs by a later rule). */
export const DISK_BUSES = ['virtio', 'sata', 'scsi', 'usb'] as const;
export const INPUT_BUSES = ['usb', 'virtio'] as const;
/** `keyboard` exists as a constant but VMI validation accepts only `tablet`; a rule warns about it. */
export const INPUT_TYPES = ['tablet', 'keyboard'] as const;
export const DISK_CACHES = ['none', 'writethrough', 'writeback'] as const;
export const DISK_IO_MODES = ['native', 'threads'] as const;
export const INTERFACE_MODELS = ['e1000', 'e1000e', 'igb', 'ne2k_pci', 'pcnet', 'rtl8139', 'virtio'] as const;
export const SOUND_MODELS = ['ich9', 'ac97'] as const;
export const ARCHITECTURES = ['amd64', 'arm64', 's390x'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];
/** Video types accepted per architecture by the VMI webhook. */
export const VIDEO_TYPES_BY_ARCHITECTURE: Readonly<Record<Architecture, readonly string[]>> = {
  amd64: ['vga', 'cirrus', 'virtio', 'ramfb', 'bochs'],
  arm64: ['virtio', 'ramfb'],
  s390x: ['virtio'],
};
/** Union over all architectures; the schema cannot know the architecture, a rule checks the pairing. */
export const VIDEO_TYPES = ['vga', 'cirrus', 'virtio', 'ramfb', 'bochs'] as const;
export const PANIC_DEVICE_MODELS = ['hyperv', 'isa', 'pvpanic'] as const;
export const IO_THREADS_POLICIES = ['shared', 'auto', 'supplementalPool'] as const;
/** The empty string is accepted by KubeVirt (libvirt then applies `require`). */
export const CPU_FEATURE_POLICIES = ['force', 'require', 'optional', 'disable', 'forbid', ''] as const;
export const HPET_TICK_POLICIES = ['delay', 'catchup', 'merge', 'discard'] as const;
export const PIT_TICK_POLICIES = ['delay', 'catchup', 'discard'] as const;
export const RTC_TICK_POLICIES = ['delay', 'catchup'] as const;
export const RTC_TRACKS = ['guest', 'wall'] as const;
/** Hugepage sizes valid on x86_64; `pageSize` itself stays a free string because other arches differ. */
export const HUGEPAGE_SIZES = ['2Mi', '1Gi'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Scalars

/** The pattern the API server's CRD schema applies to `resource.Quantity` strings. */
export const QUANTITY_PATTERN = /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

// ---------------------------------------------------------------------------------------------------------------
// Objects

export const INSTANCETYPE_API_VERSION = 'instancetype.kubevirt.io/v1beta1';

/** The four kinds, sorted by name. The one declaration of them: every stage imports these. */
export const MANIFEST_KINDS = [
  'VirtualMachineClusterInstancetype',
  'VirtualMachineClusterPreference',
  'VirtualMachineInstancetype',
  'VirtualMachinePreference',
] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];

/** The kinds a release lock records: the catalog's four, and the VirtualMachineTemplates a generator's `templates:` ships. */
export const LOCK_KINDS = [...MANIFEST_KINDS, 'VirtualMachineTemplate'] as const;
export type LockKind = (typeof LOCK_KINDS)[number];

/** The order output is grouped in: instance types before preferences, cluster-wide first. */
export const KIND_ORDER: readonly ManifestKind[] = [
  'VirtualMachineClusterInstancetype',
  'VirtualMachineInstancetype',
  'VirtualMachineClusterPreference',
  'VirtualMachinePreference',
];

/** Which kinds a reference resolves to, by scope. */
export const KINDS_OF: Readonly<Record<SpecKind, { readonly cluster: ManifestKind; readonly namespaced: ManifestKind }>> = {
  instancetype: { cluster: 'VirtualMachineClusterInstancetype', namespaced: 'VirtualMachineInstancetype' },
  preference: { cluster: 'VirtualMachineClusterPreference', namespaced: 'VirtualMachinePreference' },
};
export type SpecKind = 'instancetype' | 'preference';

/**
 * The kind a VirtualMachine's instancetype or preference matcher names (R 1.1, pkg/instancetype/find):
 * absent or empty, or the cluster kind, singular or plural in any case: the cluster kind; the
 * namespaced kind so written: the namespaced kind; anything else: undefined (KubeVirt: "got
 * unexpected kind"). The one reading of a matcher's kind: lookups, annotations, reviews, policies.
 */
export function matcherKind(which: SpecKind, kindWritten: unknown): ManifestKind | undefined {
  const lower = typeof kindWritten === 'string' ? kindWritten.toLowerCase() : kindWritten === undefined || kindWritten === null ? '' : undefined;
  if (lower === undefined) return undefined;
  const { cluster, namespaced } = KINDS_OF[which];
  if (lower === '' || lower === cluster.toLowerCase() || lower === `${cluster.toLowerCase()}s`) return cluster;
  if (lower === namespaced.toLowerCase() || lower === `${namespaced.toLowerCase()}s`) return namespaced;
  return undefined;
}

export function isManifestKind(value: unknown): value is ManifestKind {
  return typeof value === 'string' && (MANIFEST_KINDS as readonly string[]).includes(value);
}

const SPEC_KIND: Readonly<Record<ManifestKind, SpecKind>> = {
  VirtualMachineClusterInstancetype: 'instancetype',
  VirtualMachineClusterPreference: 'preference',
  VirtualMachineInstancetype: 'instancetype',
  VirtualMachinePreference: 'preference',
};

export function specKindOf(kind: ManifestKind): SpecKind {
  return SPEC_KIND[kind];
}

/** Kubernetes object names of these kinds are DNS-1123 subdomains. */
/** Kubernetes object names and label prefixes: a DNS-1123 subdomain. */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

// ---------------------------------------------------------------------------------------------------------------
// Release metadata (kubevirt-api.md, Appendices A and B). Paths are relative to `spec`, dotted, `[]` for list items.
// Fields absent here have been served since v1beta1 first shipped in v1.0.0.

export type FieldSince = Readonly<Record<string, KubevirtRelease>>;

export const INSTANCETYPE_FIELD_SINCE: FieldSince = {
  annotations: 'v1.1.0',
  'cpu.maxSockets': 'v1.3.0',
  'gpus[].claimName': 'v1.6.0',
  'gpus[].requestName': 'v1.6.0',
  'hostDevices[].claimName': 'v1.6.0',
  'hostDevices[].requestName': 'v1.6.0',
  ioThreads: 'v1.7.0',
  'ioThreads.supplementalPoolThreadCount': 'v1.7.0',
  'launchSecurity.sev.attestation': 'v1.1.0',
  'launchSecurity.sev.dhCert': 'v1.1.0',
  'launchSecurity.sev.session': 'v1.1.0',
  'launchSecurity.snp': 'v1.7.0',
  'launchSecurity.tdx': 'v1.7.0',
  'memory.maxGuest': 'v1.3.0',
  nodeSelector: 'v1.1.0',
  schedulerName: 'v1.1.0',
};

export const PREFERENCE_FIELD_SINCE: FieldSince = {
  annotations: 'v1.1.0',
  'cpu.spreadOptions': 'v1.3.0',
  'cpu.spreadOptions.across': 'v1.3.0',
  'cpu.spreadOptions.ratio': 'v1.3.0',
  'devices.preferredDiskBlockSize.custom.discardGranularity': 'v1.7.0',
  'devices.preferredPanicDeviceModel': 'v1.6.0',
  'devices.preferredTPM.enabled': 'v1.6.0',
  'devices.preferredVideoType': 'v1.9.0',
  'features.preferredHyperv.tlbflush.direct': 'v1.8.0',
  'features.preferredHyperv.tlbflush.direct.enabled': 'v1.8.0',
  'features.preferredHyperv.tlbflush.extended': 'v1.8.0',
  'features.preferredHyperv.tlbflush.extended.enabled': 'v1.8.0',
  'firmware.preferredEfi': 'v1.4.0',
  'firmware.preferredEfi.persistent': 'v1.4.0',
  'firmware.preferredEfi.secureBoot': 'v1.4.0',
  preferSpreadSocketToCoreRatio: 'v1.1.0',
  preferredArchitecture: 'v1.7.0',
  preferredLaunchSecurity: 'v1.9.0',
  'preferredLaunchSecurity.sev': 'v1.9.0',
  'preferredLaunchSecurity.sev.attestation': 'v1.9.0',
  'preferredLaunchSecurity.sev.dhCert': 'v1.9.0',
  'preferredLaunchSecurity.sev.policy': 'v1.9.0',
  'preferredLaunchSecurity.sev.policy.encryptedState': 'v1.9.0',
  'preferredLaunchSecurity.sev.session': 'v1.9.0',
  'preferredLaunchSecurity.snp': 'v1.9.0',
  'preferredLaunchSecurity.tdx': 'v1.9.0',
  'requirements.architecture': 'v1.7.0',
};

export function fieldSinceFor(kind: ManifestKind | SpecKind): FieldSince {
  const specKind = kind === 'instancetype' || kind === 'preference' ? kind : specKindOf(kind);
  return specKind === 'instancetype' ? INSTANCETYPE_FIELD_SINCE : PREFERENCE_FIELD_SINCE;
}

/** First release whose preference webhook accepts each `preferredCPUTopology` value. */
export const PREFERRED_CPU_TOPOLOGY_SINCE: Readonly<Record<CpuTopology, KubevirtRelease>> = {
  preferSockets: 'v1.0.0',
  preferCores: 'v1.0.0',
  preferThreads: 'v1.0.0',
  preferSpread: 'v1.1.0',
  preferAny: 'v1.1.0',
  sockets: 'v1.4.0',
  cores: 'v1.4.0',
  threads: 'v1.4.0',
  spread: 'v1.4.0',
  any: 'v1.4.0',
};

export interface DeprecatedField {
  readonly specKind: SpecKind;
  /** Path relative to `spec`, as in `*_FIELD_SINCE`. */
  readonly path: string;
  readonly deprecatedIn: KubevirtRelease;
  /** What to write instead, for a diagnostic hint. */
  readonly replacement: string;
  /** The replacing field, relative to the `spec` of `replacementSpecKind`. */
  readonly replacementPath: string;
  readonly replacementSpecKind: SpecKind;
  /** The warning KubeVirt's webhook returns, when it returns one. */
  readonly serverWarning?: string;
}

/** Deprecated fields; none is in the planned `instancetype.kubevirt.io/v1` except through conversion. */
export const DEPRECATED_FIELDS: readonly DeprecatedField[] = [
  {
    specKind: 'instancetype',
    path: 'launchSecurity',
    deprecatedIn: 'v1.9.0',
    replacement: 'set spec.preferredLaunchSecurity in a preference instead',
    replacementPath: 'preferredLaunchSecurity',
    replacementSpecKind: 'preference',
    serverWarning: 'launchSecurity is deprecated and will be removed in a future release. Use preference instead.',
  },
  {
    specKind: 'preference',
    path: 'firmware.preferredUseEfi',
    deprecatedIn: 'v1.5.0',
    replacement: 'use firmware.preferredEfi: {}',
    replacementPath: 'firmware.preferredEfi',
    replacementSpecKind: 'preference',
  },
  {
    specKind: 'preference',
    path: 'firmware.preferredUseSecureBoot',
    deprecatedIn: 'v1.5.0',
    replacement: 'use firmware.preferredEfi: {secureBoot: true}',
    replacementPath: 'firmware.preferredEfi.secureBoot',
    replacementSpecKind: 'preference',
  },
];

export interface DeprecatedTopology {
  readonly replacement: PreferredCpuTopology;
  readonly deprecatedIn: KubevirtRelease;
  readonly serverWarning: string;
}

function deprecatedTopology(from: DeprecatedCpuTopology, to: PreferredCpuTopology): DeprecatedTopology {
  return {
    replacement: to,
    deprecatedIn: 'v1.4.0',
    serverWarning: `PreferredCPUTopology ${from} is deprecated for removal in a future release, please use ${to} instead`,
  };
}

/** Long-form `preferredCPUTopology` values, deprecated when the short forms arrived in v1.4.0. */
export const DEPRECATED_TOPOLOGIES: Readonly<Record<DeprecatedCpuTopology, DeprecatedTopology>> = {
  preferSockets: deprecatedTopology('preferSockets', 'sockets'),
  preferCores: deprecatedTopology('preferCores', 'cores'),
  preferThreads: deprecatedTopology('preferThreads', 'threads'),
  preferSpread: deprecatedTopology('preferSpread', 'spread'),
  preferAny: deprecatedTopology('preferAny', 'any'),
};

/** kubectl's names for the four kinds (KubeVirt's CRDs: singular, plural, short names), any case. */
const KIND_NAMES: Readonly<Record<string, ManifestKind>> = Object.fromEntries(
  (
    [
      ['VirtualMachineInstancetype', ['virtualmachineinstancetype', 'virtualmachineinstancetypes', 'vminstancetype', 'vminstancetypes', 'vmf', 'vmfs']],
      [
        'VirtualMachineClusterInstancetype',
        ['virtualmachineclusterinstancetype', 'virtualmachineclusterinstancetypes', 'vmclusterinstancetype', 'vmclusterinstancetypes', 'vmcf', 'vmcfs'],
      ],
      ['VirtualMachinePreference', ['virtualmachinepreference', 'virtualmachinepreferences', 'vmpref', 'vmprefs', 'vmp', 'vmps']],
      ['VirtualMachineClusterPreference', ['virtualmachineclusterpreference', 'virtualmachineclusterpreferences', 'vmcp', 'vmcps']],
    ] as const
  ).flatMap(([kind, names]) => names.map((n) => [n, kind as ManifestKind] as const)),
);

/** kubectl's names of the kinds among `kinds` (lower case: singular, plural, short names). */
export function kubectlNames(kinds: readonly ManifestKind[]): string[] {
  return Object.keys(KIND_NAMES).filter((n) => kinds.includes(KIND_NAMES[n]!));
}

/** The kind a name means as kubectl takes it (`vmcf`, `VirtualMachineClusterInstancetypes`...), or undefined. */
export function kindByName(name: string): ManifestKind | undefined {
  const lower = name.toLowerCase().replace(/\.instancetype\.kubevirt\.io$/, '');
  return Object.hasOwn(KIND_NAMES, lower) ? KIND_NAMES[lower] : undefined;
}
