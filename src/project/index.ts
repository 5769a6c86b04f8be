/**
 * The project layer: what a command works on, read once per run and handed down. A command asks
 * for instance types and preferences, a KubeVirt configuration, VMs, nodes or pods; whether they
 * come from the project's generators, from a release bundle or a `kubectl get -o yaml` dump given
 * with `--with`, or both, is decided here, and said (`Catalogs.from`). "No generator found" is the
 * answer only when neither is given.
 *
 * A `Project` owns its memory: every read is memoised on the object `openProject` returns, never in
 * a module, so a library caller working on two projects in one process gets two answers.
 */
import { statSync } from '../load/reads';
import path from 'node:path';
import { diag, hasErrors, strictify, type Diagnostic } from '../diagnostics';
import { objectStore, type ObjectStore } from '../expand';
import { withRemovedNames } from '../expand/references';
import { kubevirtFromDocuments, manifestObjects } from '../expand/documents';
import { obj, type JsonObject } from '../json';

import { apiServerErrors } from '../kubevirt/crd';
import { MODELLED_RELEASES, modelledRelease, releaseNote, releasesBetween } from '../kubevirt/releases';
import { targetRange } from '../schema/kubevirt-api';
import { locate } from '../load/source';
import { isManifestKind } from '../schema/kubevirt-api';
import { KUBEVIRT_DEFAULTS, type ClusterDefaults } from '../kubevirt/config';

import { loadClusterDump, loadManifests } from '../load/manifests';
import type { SourceDoc } from '../load/source';
import type { CompileMode, CompileResult } from '../pipeline';
import type { PolicyCatalog, PolicyOptions } from '../policy';
import { policyCatalogOf, policyOptionsOf } from '../policy/catalog';
import type { ProjectPolicy } from '../policy/vms';
import { compileGenerators, type PublishedBase, type PublishedBundles } from './compile';
export type { PublishedBase, PublishedBundles } from './compile';
import type { RenderedObject } from '../render/manifests';
import { catalogOfObjects, removedNamesOf } from '../render/objects';
import type { ResolvedCatalog } from '../resolve/types';
import { nodeQuantityProblems } from './inputs';
export { baseRevision, bundlesDirectory } from './inputs';

/** Where a run's inputs are: the project, and the files the operator names. */
export interface ProjectInputs {
  /** The project directory (generators/, catalogs/). Files the project points at stay inside it. */
  readonly root: string;
  /** Where relative file names on the command line were typed (default: root). */
  readonly cwd?: string;
  /** Standard input, for a file named `-`; read at most once. */
  readonly stdin?: () => string;
  /** Generator files relative to the root; default every `generators/*.yaml`. */
  readonly generators?: readonly string[];
  /** Warnings become errors. */
  readonly strict?: boolean;
  /** Instance types and preferences (a release bundle, `kubectl get ... -o yaml`), and the PVCs, DataSources, Namespaces and Nodes VMs refer to. */
  readonly with?: readonly string[];
  /** The cluster's KubeVirt CR (`-` standard input). */
  readonly kubevirt?: string;
  /** The KubeVirt release the cluster runs (`--kubevirt-version`); else the CR's `status.observedKubeVirtVersion`, else the newest modelled. */
  readonly kubevirtVersion?: string;
  /** The platform's admission policies (ValidatingAdmissionPolicies, bindings, their parameters), applied to the VMs. */
  readonly policies?: readonly string[];
  /** The release lock's published history (`--base REF`) and bundles (`--bundles DIR`). */
  readonly base?: PublishedBase;
  readonly bundles?: PublishedBundles;
}

/** One body of instance types and preferences: a generator's compiled catalog, or the objects of `--with` files. */
export interface CatalogSource {
  /** The generator's name, or `files` for objects read from files. */
  readonly name: string;
  readonly origin: 'generator' | 'files';
  readonly catalog: ResolvedCatalog;
  readonly objects: readonly RenderedObject[];
  /** The compilation, for a generator (its lock, policy, output directory). */
  readonly result?: CompileResult;
  /** The KubeVirt configuration the generator names (`kubevirt:`). */
  readonly kubevirt?: ClusterDefaults;
}

/** The instance types and preferences of a run, from wherever they came, and what reading them found. */
export interface Catalogs {
  readonly sources: readonly CatalogSource[];
  /** Every object a VM may reference: the catalogs' and everything else in the `--with` files. */
  readonly store: ObjectStore;
  readonly diagnostics: readonly Diagnostic[];
  /** A source has errors: what depends on it would only restate them. */
  readonly blocking: boolean;
  /** Said to the user: which objects were used (`3 generators`, `files: bundle.yaml`). */
  readonly from: string;
}

export interface Project {
  readonly inputs: ProjectInputs;
  readonly root: string;
  readonly cwd: string;
  /** The project has generators (or some were named). */
  hasGenerators(): boolean;
  /**
   * Every generator compiled, with the checks between them and against the published base and
   * bundles: to its objects (`objects`, the default), or with its output files too (`files`: what
   * generate writes and check compares). Once per run: an `objects` request after a `files` one gets
   * the files compilation, which holds the same objects.
   */
  compiled(mode?: CompileMode): { readonly results: readonly CompileResult[]; readonly diagnostics: readonly Diagnostic[] };
  /**
   * The instance types and preferences: the project's and the `--with` files'. `instead`: files that
   * hold instance types or preferences replace the project (a catalog shown or exported: select,
   * site, facts, policy, explain), unless generators were named; `besides` (default): both, as VMs
   * resolve their references against everything given.
   */
  catalogs(files?: 'instead' | 'besides'): Catalogs;
  /** The documents of the `--with` files. */
  withDocuments(): { readonly docs: readonly SourceDoc[]; readonly diagnostics: readonly Diagnostic[] };
  /** The admission policy objects given: the `policies` files', and any among the `--with` files. */
  admissionPolicies(): { readonly objects: readonly JsonObject[]; readonly diagnostics: readonly Diagnostic[] };
  /** Files the operator names (VMs, a VMI), read wherever they are. */
  manifests(files: readonly string[]): { docs: SourceDoc[]; diagnostics: Diagnostic[] };
  /** A cluster dump (nodes, pods), up to 1 GiB: the objects of `kind` in it. */
  clusterDump(file: string, kind: string): { objects: JsonObject[]; shown: string; diagnostics: Diagnostic[] };
  /** The KubeVirt CR named, its configuration and what reading it found; none without one. */
  kubevirt(): { readonly config?: ClusterDefaults; readonly diagnostics: readonly Diagnostic[] };
  /** The named CR's configuration, else KubeVirt's defaults. */
  config(): ClusterDefaults;
  /**
   * What a VM is judged under: the release given (`--kubevirt-version`, or the CR's own) alone;
   * else each modelled release the generators' `targetKubevirt` covers (the CR's configuration at
   * each, or each release's defaults: what a fresh install runs); else the newest.
   */
  configs(): readonly ClusterDefaults[];
  /** The admission policies each catalog implies: a generator's `policy:` (`written`), or the default ones. */
  policies(files?: 'instead' | 'besides'): (ProjectPolicy & { readonly written: boolean })[];
}

/** Opens a project: nothing is read until a command asks. */
export function openProject(inputs: ProjectInputs): Project {
  const root = path.resolve(inputs.root);
  const cwd = inputs.cwd !== undefined ? path.resolve(inputs.cwd) : root;
  let stdinText: string | undefined;
  const stdin = (): string => (stdinText ??= inputs.stdin ? inputs.stdin() : '');
  const once = <T>(make: () => T): (() => T) => {
    let value: { v: T } | undefined;
    return () => (value ??= { v: make() }).v;
  };
  const hasGenerators = once(() => (inputs.generators?.length ?? 0) > 0 || dirExists(path.join(root, 'generators')));
  const compiledAs = (mode: CompileMode) =>
    once(() => compileGenerators(root, { generators: inputs.generators, strict: inputs.strict, base: inputs.base, bundles: inputs.bundles }, mode));
  const asFiles = compiledAs('files');
  const asObjects = compiledAs('objects');
  let filesDone = false;
  const compiled = (mode: CompileMode = 'objects'): ReturnType<Project['compiled']> => {
    if (mode === 'files') {
      filesDone = true;
      return asFiles();
    }
    return filesDone ? asFiles() : asObjects();
  };
  const manifests = (files: readonly string[]): { docs: SourceDoc[]; diagnostics: Diagnostic[] } => loadManifests(root, files, stdin, cwd);
  const withDocuments = once(() => manifests(inputs.with ?? []));
  const admissionPolicies = once(() => {
    const read = manifests(inputs.policies ?? []);
    const objects = [...manifestObjects(read.docs), ...manifestObjects(withDocuments().docs)].map((f) => f.value);
    const diagnostics = [...read.diagnostics];
    if ((inputs.policies ?? []).length > 0 && !objects.some((o) => o['kind'] === 'ValidatingAdmissionPolicy') && read.diagnostics.length === 0)
      diagnostics.push(
        diag(
          'IT8004',
          `\`${(inputs.policies ?? []).join(', ')}\` holds no ValidatingAdmissionPolicy`,
          read.docs[0] ? { file: read.docs[0].file, line: 1, col: 1 } : undefined,
        ),
      );
    return { objects, diagnostics };
  });
  const kubevirt = once(() => kubevirtOf(inputs, manifests));
  const besides = once(() => catalogsOf('besides', inputs, { hasGenerators, compiled, withDocuments }));
  const instead = once(() => catalogsOf('instead', inputs, { hasGenerators, compiled, withDocuments }));
  const catalogs = (files: 'instead' | 'besides' = 'besides'): Catalogs => (files === 'instead' ? instead() : besides());
  const project: Project = {
    inputs,
    root,
    cwd,
    hasGenerators,
    compiled,
    catalogs,
    withDocuments,
    admissionPolicies,
    manifests,
    clusterDump: (file, kind) => {
      const r = loadClusterDump(root, file, stdin, cwd);
      const objects = r.objects.filter((o) => o['kind'] === kind) as JsonObject[];
      const diagnostics = [...r.diagnostics];
      if (kind === 'Node') diagnostics.push(...nodeQuantityProblems(r.objects, r.shown, r.at));
      if (objects.length === 0 && !hasErrors(r.diagnostics))
        diagnostics.push(diag('IT8004', `\`${file}\` holds no ${kind}`, { file: r.shown, line: 1, col: 1 }));
      return { objects, shown: r.shown, diagnostics };
    },
    kubevirt,
    config: () => {
      const base = kubevirt().config ?? KUBEVIRT_DEFAULTS;
      return inputs.kubevirtVersion !== undefined ? { ...base, release: inputs.kubevirtVersion } : base;
    },
    configs: once(() => judgedConfigs(project.config(), releaseGiven(project), compiled().results)),
    policies: (files = 'instead') => catalogs(files).sources.map((s) => policyOf(s)),
  };
  return project;
}

/**
 * What a VM is judged under (Project.configs): `config` alone when its release is given (or there
 * are no generators); else `config` at each modelled release the generators' `targetKubevirt`
 * covers; else `config` (the newest).
 */
export function judgedConfigs(config: ClusterDefaults, given: boolean, results: readonly CompileResult[]): ClusterDefaults[] {
  if (given) return [config];
  const targeted = new Set<string>();
  for (const r of results) {
    const target = r.generator?.config.targetKubevirt;
    if (target === undefined) continue;
    const range = targetRange(target);
    for (const release of releasesBetween(range.min, range.max)) targeted.add(release);
  }
  return targeted.size === 0 ? [config] : MODELLED_RELEASES.filter((r) => targeted.has(r)).map((release) => ({ ...config, release }));
}

/** The release a VM is judged at was given (`--kubevirt-version`, or the CR's own), or there are no generators to ask. */
export function releaseGiven(project: Project): boolean {
  return project.inputs.kubevirtVersion !== undefined || project.kubevirt().config?.release !== undefined || !project.hasGenerators();
}

/** The catalogs of a run (Project.catalogs), from what the project has read. */
function catalogsOf(files: 'instead' | 'besides', inputs: ProjectInputs, read: Pick<Project, 'hasGenerators' | 'compiled' | 'withDocuments'>): Catalogs {
  const sources: CatalogSource[] = [];
  const diagnostics: Diagnostic[] = [];
  const withFiles = inputs.with ?? [];
  const withDocs = read.withDocuments();
  // Objects of the four kinds the API server would refuse (a field of the wrong type: no cluster
  // holds such an object) are said at their field and left out, so nothing downstream reads them.
  const refused: Diagnostic[] = [];
  const fileObjects = manifestObjects(withDocs.docs).flatMap((f) => {
    if (!isManifestKind(f.value['kind'])) return [f.value];
    const errors = apiServerErrors(String(f.value['kind']), f.value).filter((e) => e.stage !== 'strict');
    if (errors.length === 0) return [f.value];
    const name = String(obj(f.value['metadata'])?.['name'] ?? '(unnamed)');
    for (const e of errors.slice(0, 5))
      refused.push(
        diag('IT3001', `${String(f.value['kind'])} \`${name}\`: ${e.message}`, locate(f.src, [...f.path, ...e.path]), {
          hint: 'the API server refuses this object: no cluster holds it, and itgen leaves it out',
        }),
      );
    return [];
  });
  const fromFiles = catalogOfObjects(fileObjects, 'files');
  const replaced = files === 'instead' && fromFiles.objects.length > 0 && (inputs.generators?.length ?? 0) === 0;
  const useProject = read.hasGenerators() && !replaced;
  if (useProject) {
    const c = read.compiled();
    diagnostics.push(...c.diagnostics);
    for (const r of c.results)
      if (r.generator && r.catalog)
        sources.push({
          name: r.generator.name,
          origin: 'generator',
          catalog: r.catalog,
          objects: r.objects,
          result: r,
          ...(r.kubevirt ? { kubevirt: r.kubevirt } : {}),
        });
  } else if (withFiles.length === 0 && files === 'instead') {
    // A command whose answer is the catalog has nothing to answer; VMs that name nothing are still judged.
    diagnostics.push(
      diag('IT1009', 'no generator found and no objects given: add generators/*.yaml, or pass the instance types and preferences with --with FILE', undefined, {
        hint: "a VM repository passes the platform's bundle: --with instancetypes-bundle.yaml (or kubectl get virtualmachineclusterinstancetypes,virtualmachineclusterpreferences -o yaml)",
      }),
    );
  }
  diagnostics.push(...withDocs.diagnostics, ...refused);
  if (fromFiles.objects.length > 0) sources.push({ name: 'files', origin: 'files', ...fromFiles });
  const strict = strictify(diagnostics, inputs.strict ?? false);
  const generators = sources.filter((s) => s.origin === 'generator').map((s) => s.name);
  const from = [
    ...(generators.length > 0 ? [`the project (${generators.join(', ')})`] : []),
    ...(withFiles.length > 0 ? [`${withFiles.join(', ')}`] : []),
  ].join(' and ');
  // With what the release locks record removed: the one suggestion for a VM still naming it.
  const store = withRemovedNames(
    objectStore([
      // The rendered manifests themselves: no need to serialize and parse them back.
      ...sources.filter((s) => s.origin === 'generator').flatMap((s) => s.objects.map((o) => o.manifest as unknown as JsonObject)),
      ...fileObjects,
    ]),
    [...sources.flatMap((s) => s.result?.lock?.lock.objects ?? []), ...removedNamesOf(fileObjects)],
  );
  return {
    sources,
    store,
    diagnostics: strict,
    blocking: hasErrors(strict),
    from,
  };
}

/** The policies a catalog implies: the generator's `policy:`, else the default ones over its cluster-wide objects. */
export function policyOf(s: CatalogSource): ProjectPolicy & { readonly written: boolean } {
  const written = s.result?.policy;
  if (written) return { generator: s.name, catalog: written.catalog, options: written.options, written: true };
  const catalog: PolicyCatalog = policyCatalogOf(s.objects, [], s.result?.lock?.lock.objects ?? []);
  const options: PolicyOptions = policyOptionsOf(s.name, {});
  return { generator: s.name, catalog, options, written: false };
}

function dirExists(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The cluster's KubeVirt configuration (Project.kubevirt): the CR named, read as KubeVirt takes it;
 * a release older than every modelled one refused; one itgen does not model answered as a modelled
 * one, with a warning that says which (IT6003), never in silence.
 */
function kubevirtOf(inputs: ProjectInputs, manifests: Project['manifests']): { config?: ClusterDefaults; diagnostics: Diagnostic[] } {
  const read = ((): { config?: ClusterDefaults; diagnostics: Diagnostic[] } => {
    if (inputs.kubevirtVersion !== undefined && modelledRelease(inputs.kubevirtVersion) === undefined)
      return {
        diagnostics: [diag('IT1011', `--kubevirt-version ${inputs.kubevirtVersion} is older than the releases itgen models (${MODELLED_RELEASES.join(', ')})`)],
      };
    if (inputs.kubevirt === undefined) return { diagnostics: [] };
    const cr = manifests([inputs.kubevirt]);
    if (hasErrors(cr.diagnostics)) return { diagnostics: cr.diagnostics };
    return kubevirtFromDocuments(cr.docs, inputs.kubevirt);
  })();
  const release = inputs.kubevirtVersion ?? read.config?.release;
  const note = hasErrors(read.diagnostics) ? undefined : releaseNote(release);
  if (note === undefined) return read;
  const given = inputs.kubevirtVersion !== undefined ? '--kubevirt-version' : `${inputs.kubevirt ?? 'the KubeVirt CR'} (status.observedKubeVirtVersion)`;
  return {
    ...read,
    diagnostics: [
      ...read.diagnostics,
      diag('IT6003', note, undefined, { severity: 'warning', hint: `${given} names ${release}; itgen models ${MODELLED_RELEASES.join(', ')}` }),
    ],
  };
}
