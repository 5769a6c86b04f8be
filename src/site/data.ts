/**
 * What the catalog explorer (`itgen site`) and `itgen select` know of a catalog: every instance
 * type with its resources, what its launcher pod asks of a node, its deprecation; every preference
 * with the instance types KubeVirt admits it with (and its reason for the others); the release
 * history. Plain data, the same for the page and the terminal.
 */
import { catalogFacts } from '../expand/facts';
import type { JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { pairingTable } from '../matrix';
import type { RenderedObject } from '../render/manifests';
import { catalogOfObjects } from '../render/objects';
import type { ResolvedCatalog } from '../resolve/types';
import { formatBinary } from '../quantity';
import type { ReleaseSection } from '../release/notes';
import { pairOutcome } from './filter';
import type { SiteData, SiteInstancetype, SitePairRow, SitePreference } from './types';
export type { SiteData, SiteInstancetype, SitePairRow, SitePreference } from './types';

export interface SiteInput {
  readonly generator: string;
  readonly catalog: ResolvedCatalog;
  readonly objects: readonly RenderedObject[];
  readonly config: ClusterDefaults;
  readonly history?: readonly ReleaseSection[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Memory as the catalog writes it (quantity.ts's `formatBinary`), a size that no unit divides in Gi to two places. */
function binary(bytes: number): string {
  const exact = formatBinary(bytes);
  return exact === String(bytes) && bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(2)}Gi` : exact;
}

/** The instance types `p` is admitted with, and the others (paired: its generator and architecture) with KubeVirt's reason. */
export function pairsOf(data: SiteData, p: SitePreference): { admitted: SiteInstancetype[]; refused: { it: SiteInstancetype; reason: string }[] } {
  const admitted: SiteInstancetype[] = [];
  const refused: { it: SiteInstancetype; reason: string }[] = [];
  const row = data.pairs[p.pairRow]!;
  for (const it of data.instancetypes) {
    if (it.generator !== p.generator) continue;
    const o = pairOutcome(row, it);
    if (o === -1) admitted.push(it);
    else if (o >= 0) refused.push({ it, reason: data.reasons[o]! });
  }
  return { admitted, refused };
}

/**
 * The explorer's data for the generators given, in their order.
 *
 * Over 80 lines: the explorer's data is one object built field by field.
 */
export function siteData(inputs: readonly SiteInput[], title = 'Instance types'): SiteData {
  const reasons: string[] = [];
  const reasonIndex = new Map<string, number>();
  const reasonOf = (r: string): number => {
    let i = reasonIndex.get(r);
    if (i === undefined) {
      i = reasons.length;
      reasons.push(r);
      reasonIndex.set(r, i);
    }
    return i;
  };
  const instancetypes: SiteInstancetype[] = [];
  const preferences: SitePreference[] = [];
  const pairs: SitePairRow[] = [];
  let keyCount = 0;
  for (const input of inputs) {
    const scopes = new Map<string, Set<string>>();
    for (const o of input.objects) {
      const set = scopes.get(o.manifest.metadata.name) ?? new Set<string>();
      set.add(o.scope);
      scopes.set(o.manifest.metadata.name, set);
    }
    const facts = new Map(
      catalogFacts(
        input.objects.map((o) => o.manifest as unknown as JsonObject),
        input.config,
      ).map((f) => [`${f.kind.includes('Preference') ? 'p' : 'i'}/${f.name}`, f]),
    );
    for (const it of input.catalog.instancetypes) {
      const f = facts.get(`i/${it.name}`);
      const requests = { ...(f?.requests ?? {}) };
      const podCpu = requests['cpu'] ?? '';
      const podMemory = requests['memory'] ?? '';
      delete requests['cpu'];
      delete requests['memory'];
      const spec = it.spec;
      const devices = (key: string): string[] =>
        (Array.isArray(spec[key]) ? (spec[key] as JsonObject[]) : []).map((d) => str(d['deviceName'])).filter((d) => d !== '');
      instancetypes.push({
        name: it.name,
        generator: input.generator,
        displayName: it.displayName,
        description: it.description,
        scopes: [...(scopes.get(it.name) ?? [])].sort(),
        family: `${it.family}${it.version ?? ''}`,
        size: it.size,
        class: it.class,
        cpu: it.cpu,
        memoryBytes: it.memoryBytes,
        memory: binary(it.memoryBytes),
        memoryPerCpuBytes: it.memoryPerCPUBytes,
        hugepages: str((spec['memory'] as JsonObject | undefined)?.['hugepages'] && ((spec['memory'] as JsonObject)['hugepages'] as JsonObject)['pageSize']),
        dedicatedCpu: (spec['cpu'] as JsonObject | undefined)?.['dedicatedCPUPlacement'] === true,
        gpus: devices('gpus'),
        hostDevices: devices('hostDevices'),
        architectures: [...(it.architectures ?? [])],
        deprecated: it.deprecated !== undefined,
        replacement: it.deprecated?.replacement ?? '',
        podCpu,
        podMemory,
        podOther: requests,
        nodeLabels: Object.entries(f?.nodeLabels ?? {}).map(([k, v]) => `${k}=${v}`),
        refused: f?.refused ?? '',
        pairKey: 0,
      });
    }
    const pairing = pairingTable(input.catalog);
    const base = keyCount;
    keyCount += pairing.table.length > 0 ? pairing.table[0]!.length : new Set(pairing.keys).size;
    const rowBase = pairs.length;
    pairing.table.forEach((row, r) =>
      pairs.push({ architecture: pairing.architectures[r]!, base, cells: row.map((o) => (o.admitted ? -1 : reasonOf(o.reason ?? 'refused'))) }),
    );
    const mine = instancetypes.slice(instancetypes.length - input.catalog.instancetypes.length);
    mine.forEach((it, i) => ((it as { pairKey: number }).pairKey = base + pairing.keys[i]!));
    // Preferences of one class share a row, and so the count of what it admits.
    const admitted = new Map<number, number>();
    const admittedBy = (row: number): number => {
      let n = admitted.get(row);
      if (n === undefined) admitted.set(row, (n = mine.filter((it) => pairOutcome(pairs[row]!, it) === -1).length));
      return n;
    };
    input.catalog.preferences.forEach((p, j) => {
      const spec = p.spec;
      const req = (spec['requirements'] as JsonObject | undefined) ?? {};
      const pairRow = rowBase + pairing.rows[j]!;
      preferences.push({
        name: p.name,
        generator: input.generator,
        displayName: p.displayName,
        os: str((spec['annotations'] as JsonObject | undefined)?.['vm.kubevirt.io/os']),
        architecture: p.architecture ?? '',
        requiredCpu: Number((req['cpu'] as JsonObject | undefined)?.['guest'] ?? 0),
        requiredMemory: str((req['memory'] as JsonObject | undefined)?.['guest']),
        deprecated: p.deprecated !== undefined,
        pairRow,
        admittedCount: admittedBy(pairRow),
      });
    });
  }
  return {
    title,
    instancetypes,
    preferences,
    reasons,
    pairs,
    history: inputs.filter((i) => (i.history ?? []).length > 0).map((i) => ({ generator: i.generator, sections: i.history! })),
  };
}

/** A generator-like input for objects read from files (`itgen select --with`, `site --with`): render/objects.ts reads them. */
export function siteInputOfObjects(objects: readonly JsonObject[], generator: string, config: ClusterDefaults): SiteInput {
  const read = catalogOfObjects(objects, generator);
  return { generator, catalog: read.catalog, objects: read.objects, config };
}
