/**
 * What `migrate presets` takes and gives (options, each VM's outcome, the migration), and what its
 * plan hands to its proof.
 */
import { type JsonObject } from '../json';
import type { Diagnostic } from '../diagnostics';
import type { OutputFile } from '../emit/layout';
import type { FoundObject } from '../expand/documents';

import type { Difference } from './compare';
import type { PresetInput } from './inputs';
import type { VmPlan } from './mapping';
import type { MigratedObject } from './project';
import type { MergedSection, Preset } from './presets';

export interface MigrateOptions {
  /** Generator and catalog name. */
  readonly name: string;
  /** Cluster-wide kinds instead of namespaced ones in the presets' namespace. */
  readonly cluster: boolean;
  /** Differences between the old and the new VMI spec are warnings, not errors. */
  readonly allowDifferences: boolean;
  /** Where the project is written, as shown in messages and MIGRATION.md (relative to the caller). */
  readonly outDir: string;
}

export type VmOutcome =
  | {
      readonly status: 'migrated';
      readonly plan: VmPlan;
      readonly instancetype?: string | undefined;
      readonly preference?: string | undefined;
      readonly file: string;
      readonly differences: readonly Difference[];
    }
  | { readonly status: 'excluded' | 'unselected' }
  | { readonly status: 'skipped'; readonly reason: string };

/** A VM of the input, and what KubeVirt's preset merge makes of it today. */
interface VmFacts {
  readonly found: FoundObject;
  readonly name: string;
  readonly namespace: string;
  /** KubeVirt's warnings at VMI creation (a preset differing from the VM's own values). */
  readonly warnings: readonly string[];
  /** Which preset supplied which section (the VM had none of its own). */
  readonly supplied: readonly (readonly [MergedSection, string])[];
}

export interface VmRecord extends VmFacts {
  /** The names of the presets that select it. */
  readonly presets: readonly string[];
  readonly outcome: VmOutcome;
}

export interface Migration {
  readonly files: readonly OutputFile[];
  readonly vms: readonly VmRecord[];
  readonly presets: readonly PresetInput[];
  readonly vmis: readonly { readonly name: string; readonly namespace: string; readonly presets: readonly string[] }[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The instance types and preferences of one namespace (or of the cluster), by name. */
export type Group = {
  key: string;
  namespace: string | undefined;
  instancetypes: Map<string, MigratedObject & { key: string }>;
  preferences: Map<string, MigratedObject & { key: string }>;
};

/** A VM as the plan leaves it: its outcome when it is not migrated, else its plan and names. */
export interface PlannedVm extends VmFacts {
  readonly presets: readonly Preset[];
  readonly plan?: VmPlan;
  readonly names?: { readonly instancetype?: string | undefined; readonly preference?: string | undefined };
  /** The VMI spec KubeVirt builds today, for the proof. */
  readonly before?: JsonObject;
  /** Set when the VM is not migrated (excluded, selected by no preset, skipped). */
  readonly outcome?: VmOutcome;
}
