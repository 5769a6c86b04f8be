import { type JsonObject } from '../json';
import type { Architecture } from '../schema/common';
import type { Leaves, Origin } from './leaves';

export interface Deprecation {
  readonly replacement?: string | undefined;
  readonly since?: string | undefined;
}

/** What every resolved object has: its name, spec, authored metadata and where it came from. */
interface ResolvedObjectBase {
  readonly name: string;
  readonly displayName: string;
  readonly icon: string | undefined;
  readonly spec: JsonObject;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly deprecated: Deprecation | undefined;
  /** Where the object was declared; object-level diagnostics point here. */
  readonly origin: Origin;
  /** Where every spec leaf came from. */
  readonly leaves: Leaves;
}

/** One instance type after matrix expansion: what renderers see. */
export interface ResolvedInstancetype extends ResolvedObjectBase {
  readonly kind: 'instancetype';
  readonly family: string;
  readonly version: string | undefined;
  /** Size label value: the ladder size plus any variant suffix (`large1gi`). */
  readonly size: string;
  readonly ladderSize: string;
  readonly variant: string | undefined;
  /** Position of the size in its ladder, for monotonicity checks and docs. */
  readonly sizeIndex: number;
  readonly cpu: number;
  readonly memoryBytes: number;
  readonly description: string;
  readonly class: string;
  readonly memoryPerCPUBytes: number;
  readonly memoryOverridden: boolean;
  /** The architectures the family (or its variant) is meant for; undefined: every architecture. */
  readonly architectures: readonly Architecture[] | undefined;
}

export interface ResolvedPreference extends ResolvedObjectBase {
  readonly kind: 'preference';
  /** Catalog name of the preference before naming patterns and architecture. */
  readonly catalogName: string;
  readonly architecture: Architecture | undefined;
  /** The PreferenceFragment this object adds on top of its preference (`variants:`), if any. */
  readonly variant: string | undefined;
  readonly inherits: readonly string[];
  readonly include: readonly string[];
}

export type ResolvedObject = ResolvedInstancetype | ResolvedPreference;

export interface CatalogWords {
  readonly intents?:
    Readonly<Record<string, { readonly classes?: readonly string[] | undefined; readonly families?: readonly string[] | undefined }>> | undefined;
  readonly os?: Readonly<Record<string, string>> | undefined;
}

export interface ResolvedCatalog {
  readonly name: string;
  /** The common-instancetypes release the catalog says it reproduces (`Catalog.follows`). */
  readonly follows?: string;
  /** The catalog builds on other catalogs (`Catalog.imports`). */
  readonly imports?: boolean;
  readonly defaultArchitecture: Architecture;
  /** The words people use (`Catalog.words`): intents and OS names. */
  readonly words?: CatalogWords;
  readonly instancetypes: readonly ResolvedInstancetype[];
  readonly preferences: readonly ResolvedPreference[];
}
