import { diag, type Diagnostic } from '../diagnostics';
import type { Project } from '../project';
import { releaseNotes } from '../release/notes';
import { instancetypesCsv, parseRange, selectInstancetypes, siteData, type SelectFilter, type SiteData, type SiteInstancetype } from '../site';
import type { ClusterDefaults } from '../kubevirt/config';
import type { Catalogs } from '../project';
import { catalogsOrReport, fromNote, type Report } from './report';

/** The explorer's data of a run's catalogs: each one's objects, pod facts under `config` (or the generator's CR), matrix and release history. */
export function catalogsSiteData(catalogs: Catalogs, config: ClusterDefaults, title?: string): SiteData {
  const sources = catalogs.sources;
  return siteData(
    sources.map((s) => ({
      generator: s.name,
      catalog: s.catalog,
      objects: s.objects,
      config: s.kubevirt ?? config,
      ...(s.result?.lock ? { history: releaseNotes(s.result.lock.lock, s.objects) } : {}),
    })),
    title ?? (sources.length === 1 && sources[0]!.origin === 'generator' ? `Instance types of ${sources[0]!.name}` : 'Instance types'),
  );
}

/** The filters as typed: ranges and names as text, parsed and checked by `selectFilter`. */
export interface SelectQuery {
  readonly cpu?: string;
  readonly memory?: string;
  readonly arch?: string;
  readonly dedicated?: boolean;
  readonly hugepages?: string;
  readonly gpu?: string;
  readonly preference?: string;
  readonly families?: readonly string[];
  readonly classes?: readonly string[];
  readonly text?: string;
  readonly deprecated?: boolean;
  /** Options only a decision reads (--scope, --nodes, --pods), as given: listing refuses them rather than ignore them. */
  readonly decidingOnly?: readonly string[];
}

/** A query as a filter, or what is wrong with it. */
export function selectFilter(q: SelectQuery): { filter?: SelectFilter; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const range = (flag: string, v: string | undefined, what: 'count' | 'bytes'): readonly [number | undefined, number | undefined] | undefined => {
    if (v === undefined) return undefined;
    const r = parseRange(v, what);
    if ('error' in r) {
      diagnostics.push(diag('IT1011', `${flag}: ${r.error}`));
      return undefined;
    }
    return r;
  };
  // The architectures KubeVirt runs VMs on, as Kubernetes names them; the kernel's names map to them.
  let arch = q.arch;
  if (arch !== undefined) {
    const known: Readonly<Record<string, string>> = { amd64: 'amd64', arm64: 'arm64', s390x: 's390x', x86_64: 'amd64', aarch64: 'arm64' };
    const named = Object.hasOwn(known, arch.toLowerCase()) ? known[arch.toLowerCase()] : undefined;
    if (named === undefined) diagnostics.push(diag('IT1011', `--arch: \`${arch}\` is not an architecture KubeVirt runs VMs on: amd64, arm64 or s390x`));
    else arch = named;
  }
  const cpu = range('--cpu', q.cpu, 'count');
  const memory = range('--memory', q.memory, 'bytes');
  if (diagnostics.length > 0) return { diagnostics };
  const filter: SelectFilter = {
    ...(cpu ? { cpu } : {}),
    ...(memory ? { memory } : {}),
    ...(arch !== undefined ? { arch } : {}),
    ...(q.dedicated ? { dedicated: true } : {}),
    ...(q.hugepages !== undefined ? { hugepages: q.hugepages } : {}),
    ...(q.gpu !== undefined ? { gpu: q.gpu } : {}),
    ...(q.preference !== undefined ? { preference: q.preference } : {}),
    ...(q.text !== undefined ? { text: q.text } : {}),
    families: [...(q.families ?? [])],
    classes: [...(q.classes ?? [])],
    ...(q.deprecated ? { deprecated: true } : {}),
  };
  return { filter, diagnostics };
}

export interface SelectReport extends Report {
  readonly instancetypes: readonly SiteInstancetype[];
}

/** `itgen select`: the instance types that pass every filter, from the project or the files given. */
export function select(project: Project, query: SelectQuery): SelectReport {
  const [deciding] = query.decidingOnly ?? [];
  if (deciding !== undefined)
    return {
      instancetypes: [],
      notes: [],
      diagnostics: [diag('IT1011', `${deciding} is for a decision: give --os, --intent or --size with it (listing has no answer to place or scope)`)],
    };
  const parsed = selectFilter(query);
  if (!parsed.filter) return { instancetypes: [], diagnostics: parsed.diagnostics, notes: [] };
  const got = catalogsOrReport(project);
  if (!got.ok) return { instancetypes: [], ...got.report };
  const data = catalogsSiteData(got.catalogs, project.config());
  const filter = parsed.filter;
  if (filter.preference !== undefined && !data.preferences.some((p) => p.name === filter.preference))
    return {
      instancetypes: [],
      notes: [],
      diagnostics: [diag('IT1011', `--preference: \`${filter.preference}\` is not a preference of ${got.catalogs.from}`)],
    };
  return { instancetypes: selectInstancetypes(data, filter), diagnostics: got.catalogs.diagnostics, notes: fromNote(got.catalogs.from) };
}

/** One line per instance type. */
export function selectText(report: SelectReport): string {
  const rows = report.instancetypes;
  if (rows.length === 0) return 'no instance type matches';
  return rows
    .map((r) => {
      const devices = [...r.gpus, ...r.hostDevices];
      return `${r.name}: ${r.cpu} vCPU${r.cpu === 1 ? '' : 's'}, ${r.memory}${r.dedicatedCpu ? ', dedicated CPUs' : ''}${r.hugepages ? `, hugepages ${r.hugepages}` : ''}${devices.length > 0 ? `, ${devices.join(' ')}` : ''} (${r.class ? `${r.class}; ` : ''}pod requests cpu ${r.podCpu || '?'}, memory ${r.podMemory || '?'})${r.deprecated ? `; deprecated${r.replacement ? `, use ${r.replacement}` : ''}` : ''}`;
    })
    .join('\n');
}

export { instancetypesCsv as selectCsv };

/** `select -o json` listing: the instance types that pass every filter. */
export interface SelectListJson {
  readonly instancetypes: readonly SiteInstancetype[];
}

/** The instance types chosen, as JSON. */
export function selectJson(report: SelectReport): string {
  const doc: SelectListJson = { instancetypes: report.instancetypes };
  return JSON.stringify(doc, null, 2);
}
