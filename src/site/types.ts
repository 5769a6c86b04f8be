/**
 * The explorer's data as the page receives it (JSON in the page): types only (importing types only), so the
 * page's script (site/explorer.ts, checked with the DOM's types) reads the same declarations as the
 * Node code that writes them.
 */
import type { JsonObject } from '../json';

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
  /** Its deciding spec for pairing: an index of `SiteData.pairSpecs`. */
  readonly pairKey: number;
  /** Its kind (its spec without the size), for what the judge refuses of a preference beyond the sizes. */
  readonly kind: number;
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
  /** Its pairing class: an index of `SiteData.pairs`. */
  readonly pairRow: number;
  /**
   * The kinds of instance type (`SiteInstancetype.kind`) KubeVirt starts no VM of with it, whatever
   * the size, in KubeVirt's words: the one judge's answer for a VM naming both (matrix/index.ts).
   */
  readonly refusedKinds: Readonly<Record<string, string>>;
}

/**
 * One pairing class of preferences (those that decide alike, on one architecture): what of their
 * spec decides a pair (kubevirt/pairing.ts's preference key), the architecture, and the cluster's
 * default architecture. An outcome is computed where it is asked for (filter.ts `pairOf`), in the
 * page as in `select`, by KubeVirt's checks bundled into the page: the page holds no matrix, whose
 * size would grow with instance types x preferences.
 */
export interface SitePairRow {
  readonly architecture: string;
  readonly clusterArchitecture: string;
  readonly spec: JsonObject;
}

export interface SiteData {
  readonly title: string;
  readonly instancetypes: readonly SiteInstancetype[];
  readonly preferences: readonly SitePreference[];
  /** The pairing classes of the preferences. */
  readonly pairs: readonly SitePairRow[];
  /** The instance types' deciding specs for pairing (their CPU and memory), each once. */
  readonly pairSpecs: readonly JsonObject[];
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
