/**
 * The explorer's data as the page receives it (JSON in the page): types only, with no import, so the
 * page's script (site/explorer.ts, checked with the DOM's types) reads the same declarations as the
 * Node code that writes them.
 */
export interface SiteInstancetype {
  readonly name: string;
  readonly generator: string;
  readonly displayName: string;
  readonly description: string;
  /** `cluster`, `namespaced` or both: the kinds the generator ships it as. */
  readonly scopes: readonly string[];
  /** Family and version as users write it (`u1`). */
  readonly family: string;
  readonly size: string;
  readonly class: string;
  readonly cpu: number;
  readonly memoryBytes: number;
  readonly memory: string;
  readonly memoryPerCpuBytes: number;
  /** The hugepage size, '' without hugepages. */
  readonly hugepages: string;
  readonly dedicatedCpu: boolean;
  /** GPU and host device names (`nvidia.com/L4`). */
  readonly gpus: readonly string[];
  readonly hostDevices: readonly string[];
  /** The architectures it is meant for; empty: every one. */
  readonly architectures: readonly string[];
  readonly deprecated: boolean;
  readonly replacement: string;
  /** What the virt-launcher pod requests (KubeVirt's defaults), and the node labels it needs. */
  readonly podCpu: string;
  readonly podMemory: string;
  readonly podOther: Readonly<Record<string, string>>;
  readonly nodeLabels: readonly string[];
  /** KubeVirt's words when a VM of it would not start. */
  readonly refused: string;
  /** Its deciding spec for pairing: a column of `SiteData.pairs`. */
  readonly pairKey: number;
}

export interface SitePreference {
  readonly name: string;
  readonly generator: string;
  readonly displayName: string;
  readonly os: string;
  readonly architecture: string;
  readonly requiredCpu: number;
  readonly requiredMemory: string;
  readonly deprecated: boolean;
  /** Its pairing class: a row of `SiteData.pairs`. */
  readonly pairRow: number;
  /** How many instance types (of its generator) KubeVirt admits it with. */
  readonly admittedCount: number;
}

/**
 * One pairing class of preferences (those that decide alike, on one architecture): for each
 * deciding spec of its generator's instance types (`pairKey - base`), -1 when KubeVirt admits the
 * pair, else the index of its reason. An instance type not meant for `architecture` is not paired.
 */
export interface SitePairRow {
  readonly architecture: string;
  readonly base: number;
  readonly cells: readonly number[];
}

export interface SiteData {
  readonly title: string;
  readonly instancetypes: readonly SiteInstancetype[];
  readonly preferences: readonly SitePreference[];
  /** The reasons KubeVirt refuses pairs, each once. */
  readonly reasons: readonly string[];
  /** The matrix, compact: rows by preference class, columns by deciding spec (matrix/pairingTable). */
  readonly pairs: readonly SitePairRow[];
  readonly history: readonly { readonly generator: string; readonly sections: readonly SiteReleaseSection[] }[];
}

/** A release of the lock's history, as the page lists it (release/notes.ts's ReleaseSection is one). */
export interface SiteReleaseSection {
  readonly version: string;
  readonly added: readonly SiteNoteEntry[];
  readonly deprecated: readonly SiteNoteEntry[];
  readonly removed: readonly SiteNoteEntry[];
  readonly changed: readonly SiteNoteEntry[];
}

export interface SiteNoteEntry {
  readonly name: string;
  readonly detail?: string;
}
