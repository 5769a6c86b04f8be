/** What the pipeline passes along: a loaded generator, and what compiling it gives. */
import type { Diagnostic } from '../diagnostics';
import type { OutputFile } from '../emit/layout';
import type { JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import type { SourceDoc } from '../load/source';
import type { PolicyCatalog, PolicyOptions } from '../policy';
import type { RenderedObject } from '../render/manifests';
import type { ResolvedCatalog } from '../resolve/types';
import type { WrittenGenerator } from '../schema/generator';
import type { LoadedLock } from '../validate/lock';

export interface LoadedGenerator {
  /** Generator name: the file name without extension (and `metadata.name`, when given). */
  readonly name: string;
  readonly file: string;
  readonly config: WrittenGenerator;
  readonly src: SourceDoc;
  /** Both relative to the project root, POSIX. */
  readonly catalogDir: string;
  readonly outputDir: string;
}

export interface CompileResult {
  /** The KubeVirt configuration of the clusters the generator ships to (its `kubevirt:` CR), when it names one. */
  readonly kubevirt?: ClusterDefaults;
  readonly generator: LoadedGenerator | undefined;
  /** The catalog as this generator ships it: resolved, then selected and renamed by vendor options. */
  readonly catalog: ResolvedCatalog | undefined;
  readonly objects: readonly RenderedObject[];
  /** Files of the output directory; empty when anything failed. */
  readonly files: readonly OutputFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** The generator's release lock, when it has one. */
  readonly lock?: LoadedLock | undefined;
  /** The npm packages its catalog imports from, with the installed version (for the release lock). */
  readonly packages?: readonly { readonly package: string; readonly version: string }[];
  /** The VirtualMachineTemplates the generator's `templates:` ships (written to `<output>/templates/`, recorded in the lock). */
  readonly templates?: readonly JsonObject[];
  /** The admission policies the generator's `policy:` asks for (written to `<output>/policy/`). */
  readonly policy?: {
    readonly catalog: PolicyCatalog;
    readonly options: PolicyOptions;
    /** The policy objects as written to the base (a `files` compilation); an `objects` one leaves them to be made on demand (policyObjects). */
    readonly objects?: readonly JsonObject[];
  };
}

/**
 * What a compilation produces: `files` (the default) renders the output directory (README, layout),
 * `objects` stops at the rendered, validated objects, for the commands that only need them (expand,
 * fit, policy, facts, select...): the same diagnostics but the README's, and no files.
 */
export type CompileMode = 'files' | 'objects';
