/**
 * One generator's documents compiled, in two steps: the catalog's objects with every diagnostic
 * (schema, resolve, select, render, rules, the lock, the judge's matrix, the policy's profiles), then
 * the output files made from them (README, the admission-policy base, the layout). `compileDocuments`
 * chains them; an `objects` compilation stops after the first.
 */
import {
  diag,
  DIAGNOSTIC_CODES,
  didYouMean,
  hasErrors,
  shownNames,
  sortDiagnostics,
  WARNING_CODES,
  type Diagnostic,
  type DiagnosticCode,
} from '../diagnostics';
import { layoutBase, type OutputFile } from '../emit/layout';
import { catalogFacts, factsMarkdown, type LauncherFacts } from '../expand/facts';
import { obj, type JsonObject } from '../json';
import { KUBEVIRT_DEFAULTS, type ClusterDefaults } from '../kubevirt/config';
import type { JudgedMemo } from '../load/judged-cache';
import { locate, type SourceDoc } from '../load/source';
import { compatibilitySummary, formatMatrixMarkdown, GRID_MAX_FAMILIES, preferencesAdmittingNone, type CompatibilitySummary } from '../matrix';
import { policyCatalogOf, policyOptionsOf, profileDiagnostics } from '../policy/catalog';
import { policyBase } from '../policy/base';
import { DOCS_FILE, renderDocs } from '../render/docs';
import { renderCatalog, type RenderedObject } from '../render/manifests';
import { applyNamespace } from '../render/namespace';
import { resolveCatalog } from '../resolve/catalog';
import { selectCatalog, selectOptions } from '../resolve/select';
import type { ResolvedCatalog } from '../resolve/types';
import { readDocuments } from '../schema/documents';
import { KIND_ORDER } from '../schema/kubevirt-api';
import { generatorTemplates, templatesBase } from '../templates';
import { runRules } from '../validate';
import { objectDiag, type Finding } from '../validate/context';
import { checkLock, currentObjects, currentTemplates, type LoadedLock } from '../validate/lock';
import type { CompileMode, CompileResult, LoadedGenerator } from './types';

/** What compiling a generator's documents takes besides them. */
export interface CompileDocumentsOptions {
  /** Diagnostics found before (loading, imports, the lock, the generator's CR). */
  readonly initial?: readonly Diagnostic[];
  /** The generator's release lock, and the committed base's specs it tells changes by. */
  readonly lock?: LoadedLock | undefined;
  readonly previous?: Pick<ReadonlyMap<string, unknown>, 'get'> | undefined;
  /** The configuration of the clusters the generator names (`kubevirt:`). */
  readonly kubevirt?: ClusterDefaults | undefined;
  /** `files` (default): the output files too; `objects`: stop at the validated objects. */
  readonly mode?: CompileMode;
  /** The upstream releases the imported catalogs follow, for the README. */
  readonly importsFollow?: readonly { readonly follows: string; readonly via: string }[];
  /** The judge's answers kept between runs. */
  readonly memo?: JudgedMemo | undefined;
}

/** The first step's product: the selected catalog, its objects, the matrix and what was found. */
interface CompiledObjects {
  readonly catalog?: ResolvedCatalog;
  readonly objects: RenderedObject[];
  readonly matrix?: CompatibilitySummary;
  readonly launcher?: { markdown: string; refused: LauncherFacts[] };
  readonly policy?: NonNullable<CompileResult['policy']>;
  /** The VirtualMachineTemplates the generator's `templates:` asks for (written to `<output>/templates/`). */
  readonly templates?: readonly JsonObject[];
  readonly diagnostics: Diagnostic[];
}

/** Schema -> resolve -> select -> render -> rules -> lock -> matrix -> launcher facts (with a CR) -> policy profiles. */
export function compileObjects(generator: LoadedGenerator, docs: readonly SourceDoc[], opts: CompileDocumentsOptions = {}): CompiledObjects {
  const { lock, previous, kubevirt, memo } = opts;
  const diagnostics: Diagnostic[] = [...(opts.initial ?? [])];
  const { model, diagnostics: schemaDiags } = readDocuments(docs);
  diagnostics.push(...schemaDiags);
  const { catalog: resolved, diagnostics: resolveDiags } = resolveCatalog(model);
  diagnostics.push(...resolveDiags);
  if (!resolved) return { objects: [], diagnostics };
  const config = generator.config;
  const selected = selectCatalog(resolved, { ...selectOptions(config), catalogHasErrors: hasErrors(diagnostics) }, generator.src);
  diagnostics.push(...selected.diagnostics);
  const catalog = selected.catalog;
  const objects = applyNamespace(
    renderCatalog(catalog, { vendor: config.vendor, scopes: config.scopes, labels: config.labels, annotations: config.annotations }),
    config.namespace,
  );
  // Semantic rules run on whatever resolved, even with earlier errors, so that one run reports
  // everything it can.
  diagnostics.push(...runRules({ catalog, objects, generator: config, generatorSrc: generator.src }));
  // Templates: each named preference with the least specialised instance type KubeVirt starts it
  // with, at every release targeted; made once the catalog is sound (the lock records them too).
  const made = config.templates && !hasErrors(diagnostics) ? generatorTemplates(objects, config, kubevirt, generator.src) : undefined;
  if (made) diagnostics.push(...made.diagnostics);
  const templates = made?.objects;
  // On a catalog with errors, objects that failed to resolve would read as removed or changed:
  // the lock is checked once the catalog is sound. One mistake, one report.
  if (lock && !hasErrors(diagnostics))
    diagnostics.push(
      ...checkLock(lock, generator.name, [...currentObjects(objects, previous), ...currentTemplates(templates, () => locate(generator.src, ['templates']))])
        .diagnostics,
    );
  // The compatibility matrix admits every pair through src/expand; on a catalog with errors it
  // would only restate them.
  const matrix =
    !hasErrors(diagnostics) && catalog.instancetypes.length > 0 && catalog.preferences.length > 0 ? compatibilitySummary(catalog, kubevirt, memo) : undefined;
  if (matrix) diagnostics.push(...admitsNone(catalog, matrix, diagnostics));
  if (hasErrors(diagnostics)) {
    // Without the launcher facts (an error), the judge's matrix answers are kept now.
    memo?.flush();
    return { catalog, objects, diagnostics, ...(matrix ? { matrix } : {}) };
  }
  // The launcher facts feed the README and, with a KubeVirt CR named, IT8008: without either, not computed.
  const named = kubevirt !== undefined && config.kubevirt !== undefined;
  const launcher = (opts.mode ?? 'files') === 'files' || named ? launcherSection(objects, kubevirt, memo) : undefined;
  memo?.flush();
  // With the clusters' KubeVirt CR named, an instance type a VM cannot start with is said.
  if (named)
    for (const f of launcher?.refused ?? [])
      diagnostics.push(
        diag(
          'IT8008',
          `instance type \`${f.name}\`: a VM of it would be stored but not start on the clusters of ${config.kubevirt}: ${f.refused ?? ''}`,
          locate(generator.src, ['kubevirt']),
          {
            severity: 'warning',
            hint: 'change the instance type, or the cluster configuration (feature gates, permittedHostDevices) the generator names',
          },
        ),
      );
  const policy = config.policy ? policyProfiles(generator, objects, lock, diagnostics) : undefined;
  return {
    catalog,
    objects,
    diagnostics,
    ...(matrix ? { matrix } : {}),
    ...(launcher ? { launcher } : {}),
    ...(policy ? { policy } : {}),
    ...(templates ? { templates } : {}),
  };
}

/** The policy catalog of a generator's `policy:` (its profiles checked against the catalog: IT5017 into `diagnostics`). */
function policyProfiles(
  generator: LoadedGenerator,
  objects: readonly RenderedObject[],
  lock: LoadedLock | undefined,
  diagnostics: Diagnostic[],
): CompiledObjects['policy'] {
  const config = generator.config;
  if (!config.policy) return undefined;
  const policyCatalog = policyCatalogOf(objects, config.policy.otherNames ?? [], lock?.lock.objects ?? []);
  const policy = { catalog: policyCatalog, options: policyOptionsOf(generator.name, config.policy) };
  diagnostics.push(...profileDiagnostics(policyCatalog, policy.options, generator.src));
  return policy;
}

/** The output files of a sound catalog's objects: README, the admission-policy base (type-checked and sized as kube-apiserver would), the layout. */
export function compileOutputs(
  generator: LoadedGenerator,
  built: CompiledObjects & { readonly catalog: ResolvedCatalog },
  opts: CompileDocumentsOptions = {},
): { files: OutputFile[]; policy?: NonNullable<CompileResult['policy']>; diagnostics: Diagnostic[] } {
  const { catalog, objects, matrix, launcher } = built;
  const config = generator.config;
  const follows = opts.importsFollow?.[0];
  const readme = renderDocs(catalog, objects, {
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
      : follows !== undefined
        ? { follows: { release: follows.follows, via: follows.via } }
        : {}),
    compatibility: matrix
      ? matrix.families.length <= GRID_MAX_FAMILIES
        ? formatMatrixMarkdown(matrix)
        : `${matrix.families.length} families are too many for a grid: \`itgen matrix\` lists every pair.`
      : undefined,
  });
  const extra: OutputFile[] = [{ path: DOCS_FILE, content: readme }];
  const diagnostics: Diagnostic[] = [];
  let policy: CompileResult['policy'];
  if (built.policy) {
    const base = policyBase(generator.name, built.policy.catalog, built.policy.options);
    policy = { ...built.policy, objects: base.objects };
    extra.push(...base.files);
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
  if (built.templates) extra.push(...templatesBase(built.templates));
  return { files: layoutBase(objects, KIND_ORDER, extra), diagnostics, ...(policy ? { policy } : {}) };
}

/** load -> parse -> schema -> resolve -> select -> render -> validate -> lock -> (files) lay out, then the diagnostics placed, suppressed and sorted. */
export function compileDocuments(generator: LoadedGenerator, docs: readonly SourceDoc[], opts: CompileDocumentsOptions = {}): CompileResult {
  const built = compileObjects(generator, docs, opts);
  const sound = built.catalog !== undefined && !hasErrors(built.diagnostics);
  const outputs = sound && (opts.mode ?? 'files') === 'files' ? compileOutputs(generator, { ...built, catalog: built.catalog! }, opts) : undefined;
  const diagnostics = [...built.diagnostics, ...(outputs?.diagnostics ?? [])];
  // A catalog without its Catalog document, or without any file, is found through the generator.
  const atCatalog = locate(generator.src, ['catalog']);
  const placed = diagnostics.map((d) => (d.location === undefined && (d.code === 'IT2008' || d.code === 'IT1008') ? { ...d, location: atCatalog } : d));
  const suppressed = new Set(generator.config.suppressWarnings ?? []);
  placed.push(...suppressionProblems(generator));
  const sorted = sortDiagnostics(oneReportPerCause(placed.filter((d) => d.severity === 'error' || !suppressed.has(d.code))));
  const policy = outputs?.policy ?? (sound ? built.policy : undefined);
  return {
    generator,
    catalog: built.catalog,
    objects: built.objects,
    files: hasErrors(sorted) ? [] : (outputs?.files ?? []),
    diagnostics: sorted,
    lock: opts.lock,
    ...(opts.kubevirt ? { kubevirt: opts.kubevirt } : {}),
    ...(policy ? { policy } : {}),
    ...(sound && built.templates ? { templates: built.templates } : {}),
  };
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
 * Memory written in decimal units (IT1207, a warning) that hugepages then refuse (IT4005, an error
 * for each size of the family, at the same line): one mistake, one report. The sizes' errors become
 * one error naming them all, whose hint is the unit's; the warning goes.
 */
function misalignedByDecimalUnits(diagnostics: Diagnostic[], place: (d: Diagnostic) => string): Diagnostic[] {
  const units = new Map(diagnostics.filter((d) => d.code === 'IT1207').map((d) => [place(d), d] as const));
  const misaligned = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) if (d.code === 'IT4005' && units.has(place(d))) misaligned.set(place(d), [...(misaligned.get(place(d)) ?? []), d]);
  if (misaligned.size === 0) return diagnostics;
  const merged = new Map<string, Diagnostic>();
  for (const [at, list] of misaligned) {
    const unit = units.get(at)!;
    const names = list.flatMap((d) => [...(/instance types? ((?:`[^`]+`(?:, )?)+)/.exec(d.message)?.[1]?.matchAll(/`([^`]+)`/g) ?? [])].map((m) => m[1]!));
    const page = /page size '([^']+)'/.exec(list[0]!.message)?.[1];
    const shown = shownNames(names);
    const decimal = unit.message.slice(unit.message.lastIndexOf(': ') + 2);
    merged.set(
      at,
      diag(
        'IT4005',
        `instance type${names.length === 1 ? '' : 's'} ${shown} \`spec.memory.guest\`: guest memory is not a multiple of the page size${page ? ` '${page}'` : ''}, because ${decimal}`,
        list[0]!.location,
        { ...(unit.hint !== undefined ? { hint: unit.hint } : {}) },
      ),
    );
  }
  const out: Diagnostic[] = [];
  const said = new Set<string>();
  for (const d of diagnostics) {
    const at = place(d);
    if ((d.code === 'IT1207' || d.code === 'IT4005') && merged.has(at)) {
      // The merged error takes the place of the first of them.
      if (d.code === 'IT4005' && !said.has(at)) {
        out.push(merged.get(at)!);
        said.add(at);
      }
      continue;
    }
    out.push(d);
  }
  return out;
}

/**
 * One mistake, one report: a cause's consequences at the same place are dropped (see CONSEQUENCES),
 * and the names kept from common-instancetypes (IT5006, one per family or preference) become one
 * warning with the count.
 */
function oneReportPerCause(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const place = (d: Diagnostic): string => (d.location ? `${d.location.file}:${d.location.line}:${d.location.col}` : '');
  const causes = new Map<string, Set<string>>();
  for (const d of diagnostics) for (const c of CONSEQUENCES[d.code] ?? []) causes.set(`${place(d)}|${c}`, new Set());
  const kept = misalignedByDecimalUnits(
    diagnostics.filter((d) => !causes.has(`${place(d)}|${d.code}`)),
    place,
  );
  const upstream = kept.filter((d) => d.code === 'IT5006');
  if (upstream.length <= 3) return kept;
  // The rules merged their findings per message already (validate/index.ts mergeSubjects): the
  // names are the ones each message lists before its colon, with the count of those it folded.
  const names: string[] = [];
  let folded = 0;
  for (const d of upstream) {
    const subject = (d as Finding).subject;
    if (subject) {
      names.push(subject.name);
      continue;
    }
    const listed = d.message.slice(0, d.message.indexOf(': '));
    names.push(...[...listed.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
    folded += Number(/ and (\d+) more$/.exec(listed)?.[1] ?? 0);
  }
  const total = names.length + folded;
  const first = upstream[0]!;
  const merged = diag(
    'IT5006',
    `${total} objects keep the names of common-instancetypes objects (${shownNames(names, total)}): virt-operator deploys cluster-scoped objects of these names and reverts yours`,
    first.location,
    {
      severity: 'warning',
      ...(first.hint !== undefined ? { hint: first.hint } : {}),
      related: upstream.slice(1, 6).flatMap((d) => (d.location ? [{ message: 'also here', location: d.location }] : [])),
    },
  );
  return [...kept.filter((d) => d.code !== 'IT5006'), merged];
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
