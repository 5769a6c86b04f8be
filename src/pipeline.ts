/**
 * Over 400 lines: The pipeline is the one place the stages are chained (house rule 1); its helpers
 * are the glue between two stages each.
 */
import path from 'node:path';
import {
  diag,
  DIAGNOSTIC_CODES,
  didYouMean,
  hasErrors,
  sortDiagnostics,
  WARNING_CODES,
  type Diagnostic,
  type DiagnosticCode,
  type SourceRange,
} from './diagnostics';
import { layoutBase, type OutputFile } from './emit/layout';
import { committedSpecs } from './emit/committed';
import { compatibilitySummary, formatMatrixMarkdown, GRID_MAX_FAMILIES, preferencesAdmittingNone, type CompatibilitySummary } from './matrix';
import { objectDiag, type Finding } from './validate/context';
import { loadCatalogFiles, withImports, loadOptionalDocument, loadSingleDocument, relativePath } from './load/files';
import { vetGenerator } from './load/generator';
import { openJudgedMemo, type JudgedMemo } from './load/judged-cache';
import { locate, type SourceDoc } from './load/source';
import { DOCS_FILE, renderDocs } from './render/docs';
import { catalogFacts, factsMarkdown, type LauncherFacts } from './expand/facts';
import { kubevirtFromDocuments } from './expand/documents';
import type { ClusterDefaults } from './kubevirt/config';
import { KUBEVIRT_DEFAULTS } from './kubevirt/config';
import { obj, type JsonObject } from './json';
import { renderCatalog, type RenderedObject } from './render/manifests';
import { KIND_ORDER } from './schema/kubevirt-api';
import { applyNamespace } from './render/namespace';
import { policyCatalogOf, policyOptionsOf, profileProblems, type PolicyCatalog, type PolicyOptions } from './policy';
import { policyBase } from './policy/base';
import { checkLock, currentObjects, lockFileFor, type LoadedLock } from './validate/lock';
import { resolveCatalog } from './resolve/catalog';
import { selectCatalog, selectOptions } from './resolve/select';
import type { ResolvedCatalog } from './resolve/types';
import { readDocuments } from './schema/documents';
import type { WrittenGenerator } from './schema/generator';
import { checkDocument } from './schema/lazy';
import { runRules } from './validate';

export { within } from './load/files';
export { outputOverlaps } from './load/generator';

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
  /** The admission policies the generator's `policy:` asks for (written to `<output>/policy/`). */
  readonly policy?: { readonly catalog: PolicyCatalog; readonly options: PolicyOptions; readonly objects: readonly JsonObject[] };
}

/**
 * `suppressWarnings` entries that suppress nothing: a code itgen does not have (`IT5060`), or one
 * that is always an error (errors cannot be suppressed). Either would pass in silence otherwise.
 */
function suppressionProblems(generator: LoadedGenerator): Diagnostic[] {
  return (generator.config.suppressWarnings ?? []).flatMap((code, i) => {
    const at = locate(generator.src, ['suppressWarnings', i]);
    if (!Object.hasOwn(DIAGNOSTIC_CODES, code)) {
      return [
        diag('IT1009', `suppressWarnings: \`${code}\` is not a diagnostic code of itgen`, at, {
          hint: didYouMean(code, WARNING_CODES) ?? `warning codes: ${[...WARNING_CODES].join(', ')}`,
        }),
      ];
    }
    if (!WARNING_CODES.has(code as DiagnosticCode)) {
      return [
        diag('IT1009', `suppressWarnings: \`${code}\` (${DIAGNOSTIC_CODES[code as DiagnosticCode]}) is always an error; errors cannot be suppressed`, at, {
          hint: 'fix what it reports, or remove the entry',
        }),
      ];
    }
    return [];
  });
}

/** Diagnostics that follow from another at the same place: memory that is not memory (IT1205) makes every hugepage, hotplug and ratio check on it moot. */
const CONSEQUENCES: Readonly<Record<string, readonly string[]>> = { IT1205: ['IT4005', 'IT4013', 'IT5002'] };

/**
 * One mistake, one report: a cause's consequences at the same place are dropped (see CONSEQUENCES),
 * and the names kept from common-instancetypes (IT5006, one per family or preference) become one
 * warning with the count.
 */
function oneReportPerCause(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const place = (d: Diagnostic): string => (d.location ? `${d.location.file}:${d.location.line}:${d.location.col}` : '');
  const causes = new Map<string, Set<string>>();
  for (const d of diagnostics) for (const c of CONSEQUENCES[d.code] ?? []) causes.set(`${place(d)}|${c}`, new Set());
  const kept = diagnostics.filter((d) => !causes.has(`${place(d)}|${d.code}`));
  const upstream = kept.filter((d) => d.code === 'IT5006');
  if (upstream.length <= 3) return kept;
  const names = upstream.flatMap((d) => ((d as Finding).subject ? [(d as Finding).subject!.name] : []));
  const first = upstream[0]!;
  const merged = diag(
    'IT5006',
    `${names.length} objects keep the names of common-instancetypes objects (${names
      .slice(0, 6)
      .map((n) => `\`${n}\``)
      .join(', ')}${names.length > 6 ? ` and ${names.length - 6} more` : ''}): virt-operator deploys cluster-scoped objects of these names and reverts yours`,
    first.location,
    {
      severity: 'warning',
      ...(first.hint !== undefined ? { hint: first.hint } : {}),
      related: upstream.slice(1, 6).flatMap((d) => (d.location ? [{ message: 'also here', location: d.location }] : [])),
    },
  );
  return [...kept.filter((d) => d.code !== 'IT5006'), merged];
}

export function loadGenerator(root: string, generatorFile: string): { generator?: LoadedGenerator; diagnostics: Diagnostic[] } {
  const { doc, diagnostics } = loadSingleDocument(root, generatorFile);
  if (!doc) return { diagnostics };
  return generatorFromDocument(root, relativePath(path.resolve(root), path.resolve(root, generatorFile)), doc);
}

/**
 * A generator from an already parsed document. `file` (project-relative) is where the document
 * lives, or is taken to live: relative paths in it resolve against its directory.
 */
export function generatorFromDocument(root: string, file: string, doc: SourceDoc): { generator?: LoadedGenerator; diagnostics: Diagnostic[] } {
  const checked = checkDocument('generator', doc, (zod) => zod.generatorSchema);
  if (!checked.ok) return { diagnostics: checked.diagnostics };
  const config = checked.data;
  const vetted = vetGenerator(root, file, doc, { catalog: config.catalog, output: config.output, metadataName: config.metadata?.name });
  if (vetted.diagnostics.length > 0) return { diagnostics: vetted.diagnostics };
  return {
    generator: { name: vetted.name, file, config, src: doc, catalogDir: vetted.catalogDir, outputDir: vetted.outputDir },
    diagnostics: [],
  };
}

/** The release lock beside the generator (`generators/<name>.lock.yaml`); none until the first release. */
export function loadLock(root: string, generator: LoadedGenerator): { lock?: LoadedLock; diagnostics: Diagnostic[] } {
  const file = lockFileFor(generator.file, generator.name);
  const { doc, diagnostics } = loadOptionalDocument(root, file);
  if (!doc) return { diagnostics };
  const checked = checkDocument('lock', doc, (zod) => zod.lockSchema);
  if (!checked.ok) return { diagnostics: checked.diagnostics };
  return { lock: { file, lock: checked.data, src: doc }, diagnostics: [] };
}

/**
 * IT8101 (an error): a preference KubeVirt starts no VM with, whichever instance type of the catalog
 * the VM names (the judge's answer for a representative VM of each pair, matrix/index.ts), naming
 * the reason of one refusal. Not repeated where IT5004 already says no instance type meets its requirements.
 */
function admitsNone(catalog: ResolvedCatalog, summary: CompatibilitySummary, found: readonly Diagnostic[]): Diagnostic[] {
  const told = found.filter((d) => d.code === 'IT5004').map((d) => d.message);
  return preferencesAdmittingNone(summary).flatMap(({ name, reason }) => {
    const p = catalog.preferences.find((x) => x.name === name)!;
    const { subject: _about, ...d } = objectDiag('IT8101', p, 'KubeVirt starts no VM with it and an instance type of the catalog');
    const explained = {
      ...d,
      hint:
        reason !== undefined
          ? `KubeVirt's words for a VM naming it and one of them: ${reason}`
          : "no instance type of the catalog is meant for its architecture (see the families' `architectures`)",
    };
    return told.some((m) => m.includes(`\`${name}\``)) ? [] : [explained];
  });
}

/**
 * What a compilation produces: `files` (the default) renders the output directory (README, layout),
 * `objects` stops at the rendered, validated objects, for the commands that only need them (expand,
 * fit, policy, facts, select...): the same diagnostics but the README's, and no files.
 */
export type CompileMode = 'files' | 'objects';

/** load -> parse -> schema -> resolve -> select -> render -> validate -> lock -> lay out. Pure except for reading. */
export function compile(root: string, generatorFile: string, mode: CompileMode = 'files'): CompileResult {
  const empty = { catalog: undefined, objects: [], files: [] };
  const g = loadGenerator(root, generatorFile);
  if (!g.generator) return { generator: undefined, ...empty, diagnostics: sortDiagnostics(g.diagnostics) };
  return compileGenerator(root, g.generator, mode);
}

export function compileGenerator(root: string, generator: LoadedGenerator, mode: CompileMode = 'files'): CompileResult {
  const loaded = withImports(root, generator.catalogDir, loadCatalogFiles(root, generator.catalogDir));
  const lock = loadLock(root, generator);
  // With a lock, the committed base tells which field of a published object changed.
  const previous = lock.lock ? committedSpecs(root, generator.outputDir) : undefined;
  const cr = generatorKubevirt(root, generator);
  const result = compileDocuments(
    generator,
    loaded.docs,
    [...loaded.diagnostics, ...lock.diagnostics, ...cr.diagnostics],
    lock.lock,
    previous,
    cr.config,
    mode,
    (loaded.imports ?? []).flatMap((i) => (i.follows !== undefined ? [{ follows: i.follows, via: i.package ?? i.dir }] : [])),
    openJudgedMemo(root, generator.file),
  );
  const packages = (loaded.imports ?? []).flatMap((i) =>
    i.package !== undefined && i.installed !== undefined ? [{ package: i.package, version: i.installed }] : [],
  );
  return { ...result, diagnostics: pointAtImports(result.diagnostics, loaded.imports ?? [], loaded.docs), ...(packages.length > 0 ? { packages } : {}) };
}

/**
 * A diagnostic inside an imported catalog (node_modules/itgen/...) also points at the user's own
 * line that brought it in: the import entry of their catalog.
 */
function pointAtImports(diagnostics: readonly Diagnostic[], imports: readonly { dir: string; at: SourceRange }[], docs: readonly SourceDoc[]): Diagnostic[] {
  if (imports.length === 0) return [...diagnostics];
  const imported = (file: string): boolean => imports.some((i) => file.startsWith(`${i.dir}/`));
  // Fragments by the file that declares them, and the user's own `include` entries naming them.
  const fragmentsIn = new Map<string, Set<string>>();
  for (const d of docs) {
    const v = d.value as { kind?: unknown; name?: unknown } | null;
    if ((v?.kind === 'InstancetypeFragment' || v?.kind === 'PreferenceFragment') && typeof v.name === 'string' && imported(d.file))
      fragmentsIn.set(d.file, (fragmentsIn.get(d.file) ?? new Set()).add(v.name));
  }
  const includes: { name: string; at: SourceRange }[] = [];
  for (const d of docs) {
    const list = (d.value as { include?: unknown } | null)?.include;
    if (imported(d.file) || !Array.isArray(list)) continue;
    list.forEach((n, i) => {
      if (typeof n === 'string') includes.push({ name: n, at: locate(d, ['include', i]) });
    });
  }
  return diagnostics.map((d) => {
    const from = d.location ? imports.find((i) => d.location!.file.startsWith(`${i.dir}/`)) : undefined;
    if (!from) return d;
    const fragments = fragmentsIn.get(d.location!.file);
    const including = fragments ? includes.filter((x) => fragments.has(x.name)).slice(0, 3) : [];
    return {
      ...d,
      related: [
        ...(d.related ?? []),
        ...including.map((x) => ({ message: `\`${x.name}\` is included here`, location: x.at })),
        { message: 'in the catalog imported here', location: from.at },
      ],
    };
  });
}

/** Over 80 lines: the stages chained in order (house rule 1), each a call; what remains is the order. */
export function compileDocuments(
  generator: LoadedGenerator,
  docs: readonly SourceDoc[],
  initial: readonly Diagnostic[] = [],
  lock?: LoadedLock,
  previous?: Pick<ReadonlyMap<string, unknown>, 'get'>,
  kubevirt?: ClusterDefaults,
  mode: CompileMode = 'files',
  importsFollow: readonly { readonly follows: string; readonly via: string }[] = [],
  memo?: JudgedMemo,
): CompileResult {
  const diagnostics: Diagnostic[] = [...initial];
  const { model, diagnostics: schemaDiags } = readDocuments(docs);
  diagnostics.push(...schemaDiags);
  const { catalog: resolved, diagnostics: resolveDiags } = resolveCatalog(model);
  diagnostics.push(...resolveDiags);
  let catalog: ResolvedCatalog | undefined;
  let objects: RenderedObject[] = [];
  let files: OutputFile[] = [];
  let policy: CompileResult['policy'];
  if (resolved) {
    const config = generator.config;
    const selected = selectCatalog(resolved, { ...selectOptions(config), catalogHasErrors: hasErrors(diagnostics) }, generator.src);
    diagnostics.push(...selected.diagnostics);
    catalog = selected.catalog;
    objects = applyNamespace(
      renderCatalog(catalog, { vendor: config.vendor, scopes: config.scopes, labels: config.labels, annotations: config.annotations }),
      config.namespace,
    );
    // Semantic rules run on whatever resolved, even with earlier errors, so that one run reports
    // everything it can.
    diagnostics.push(...runRules({ catalog, objects, generator: config, generatorSrc: generator.src }));
    // On a catalog with errors, objects that failed to resolve would read as removed or changed:
    // the lock is checked once the catalog is sound. One mistake, one report.
    if (lock && !hasErrors(diagnostics)) diagnostics.push(...checkLock(lock, generator.name, currentObjects(objects, previous)).diagnostics);
    // The compatibility matrix admits every pair through src/expand; on a catalog with errors it
    // would only restate them.
    const matrix =
      !hasErrors(diagnostics) && catalog.instancetypes.length > 0 && catalog.preferences.length > 0 ? compatibilitySummary(catalog, kubevirt, memo) : undefined;
    if (matrix) diagnostics.push(...admitsNone(catalog, matrix, diagnostics));
    // Without the launcher facts (an error), the judge's matrix answers are kept now.
    if (hasErrors(diagnostics)) memo?.flush();
    if (!hasErrors(diagnostics)) {
      // The launcher facts feed the README and, with a KubeVirt CR named, IT8008: without either, not computed.
      const named = kubevirt !== undefined && generator.config.kubevirt !== undefined;
      const launcher = mode === 'files' || named ? launcherSection(objects, kubevirt, memo) : undefined;
      memo?.flush();
      // With the clusters' KubeVirt CR named, an instance type a VM cannot start with is said.
      if (named)
        for (const f of launcher?.refused ?? [])
          diagnostics.push(
            diag(
              'IT8008',
              `instance type \`${f.name}\`: a VM of it would be stored but not start on the clusters of ${generator.config.kubevirt}: ${f.refused ?? ''}`,
              locate(generator.src, ['kubevirt']),
              {
                severity: 'warning',
                hint: 'change the instance type, or the cluster configuration (feature gates, permittedHostDevices) the generator names',
              },
            ),
          );
      const readme =
        mode === 'objects'
          ? ''
          : renderDocs(catalog, objects, {
              generator: generator.name,
              generatorFile: generator.file,
              catalogDir: generator.catalogDir,
              vendor: config.vendor,
              scopes: config.scopes,
              namespace: config.namespace,
              launcher: launcher?.markdown,
              targetKubevirt: config.targetKubevirt,
              ...(catalog.follows !== undefined
                ? { follows: { release: catalog.follows } }
                : importsFollow[0] !== undefined
                  ? { follows: { release: importsFollow[0].follows, via: importsFollow[0].via } }
                  : {}),
              compatibility: matrix
                ? matrix.families.length <= GRID_MAX_FAMILIES
                  ? formatMatrixMarkdown(matrix)
                  : `${matrix.families.length} families are too many for a grid: \`itgen matrix\` lists every pair.`
                : undefined,
            });
      const extra: OutputFile[] = [{ path: DOCS_FILE, content: readme }];
      if (config.policy) {
        const policyCatalog = policyCatalogOf(objects, config.policy.otherNames ?? [], lock?.lock.objects ?? []);
        const options = policyOptionsOf(generator.name, config.policy);
        const base = policyBase(generator.name, policyCatalog, options);
        policy = { catalog: policyCatalog, options, objects: base.objects };
        extra.push(...base.files);
        for (const p of profileProblems(policyCatalog, options))
          diagnostics.push(
            diag(
              'IT5017',
              `policy profile \`${p.profile}\`: no instance type of the catalog has the ${p.key === 'classes' ? 'class' : p.key === 'families' ? 'family' : 'name'} \`${p.value}\``,
              locate(generator.src, ['policy', 'profiles', p.profile, p.key, p.index]),
              {
                severity: 'warning',
                hint: 'the profile allows nothing by it; check the spelling against `itgen explain` or the generated README',
              },
            ),
          );
        for (const c of base.celProblems)
          diagnostics.push(
            diag('IT5018', `the admission policy \`${c.policy}\` does not type-check: ${c.field}: ${c.message}`, locate(generator.src, ['policy']), {
              hint: 'a policy that does not compile would refuse every VM (failurePolicy Fail); report this to itgen',
            }),
          );
        for (const c of base.sizeProblems)
          diagnostics.push(
            diag('IT5019', `kube-apiserver would refuse the admission policy \`${c.policy}\`: ${c.field}: ${c.message}`, locate(generator.src, ['policy']), {
              hint: 'the catalog is too large for one policy object; split it into several generators, each with its own policy',
            }),
          );
      }
      if (mode === 'files') files = layoutBase(objects, KIND_ORDER, extra);
    }
  }
  // A catalog without its Catalog document, or without any file, is found through the generator.
  const atCatalog = locate(generator.src, ['catalog']);
  const placed = diagnostics.map((d) => (d.location === undefined && (d.code === 'IT2008' || d.code === 'IT1008') ? { ...d, location: atCatalog } : d));
  const suppressed = new Set(generator.config.suppressWarnings ?? []);
  placed.push(...suppressionProblems(generator));
  const sorted = sortDiagnostics(oneReportPerCause(placed.filter((d) => d.severity === 'error' || !suppressed.has(d.code))));
  return {
    generator,
    catalog,
    objects,
    files: hasErrors(sorted) ? [] : files,
    diagnostics: sorted,
    lock,
    ...(kubevirt ? { kubevirt } : {}),
    ...(policy ? { policy } : {}),
  };
}

/** Past this many instance types the README points at `itgen facts` instead of listing them. */
const LAUNCHER_MAX_INSTANCETYPES = 400;

/** The README's launcher section for the rendered objects, under the generator's KubeVirt configuration, and the instance types KubeVirt would not start. */
function launcherSection(
  objects: readonly RenderedObject[],
  kubevirt: ClusterDefaults | undefined,
  memo?: JudgedMemo,
): { markdown: string; refused: LauncherFacts[] } | undefined {
  const manifests = objects.map((o) => o.manifest as unknown as JsonObject);
  const its = manifests.filter((m) => String(m['kind']).endsWith('Instancetype'));
  if (its.length === 0) return undefined;
  if (its.length > LAUNCHER_MAX_INSTANCETYPES * 2)
    return { markdown: `${its.length} instance types are too many to list here: \`itgen facts\` exports them.`, refused: [] };
  // The facts are the judge's answers for a VM of each instance type: kept between runs with the matrix's.
  const config = kubevirt ?? KUBEVIRT_DEFAULTS;
  const key = memo ? JSON.stringify([its.map((m) => [m['kind'], obj(m['metadata'])?.['name'], obj(m['metadata'])?.['labels'], m['spec']]), config]) : '';
  const kept = memo?.facts(key) as LauncherFacts[] | undefined;
  const facts = kept ?? catalogFacts(manifests, config, 'instancetypes');
  if (memo && !kept) memo.setFacts(key, facts as unknown as Record<string, unknown>[]);
  const seen = new Set<string>();
  return { markdown: factsMarkdown(facts), refused: facts.filter((f) => f.refused !== undefined && !seen.has(f.name) && (seen.add(f.name), true)) };
}

/**
 * The KubeVirt CR the generator names (`kubevirt:`, inside the project), read and taken as
 * KubeVirt takes it; with it, an instance type a VM could not start with on those clusters is
 * IT8008 (a warning), at the generator's line.
 */
function generatorKubevirt(root: string, generator: LoadedGenerator): { config?: ClusterDefaults; diagnostics: Diagnostic[] } {
  const named = generator.config.kubevirt;
  if (named === undefined) return { diagnostics: [] };
  const rel = relativePath(root, path.resolve(root, path.dirname(generator.file), named));
  const loaded = loadSingleDocument(root, rel);
  if (!loaded.doc) return { diagnostics: loaded.diagnostics.map((d) => (d.location ? d : { ...d, location: locate(generator.src, ['kubevirt']) })) };
  return kubevirtFromDocuments([loaded.doc], rel);
}
