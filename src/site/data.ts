/**
 * What the catalog explorer (`itgen site`) and `itgen select` know of a catalog: every instance
 * type with its resources, what its launcher pod asks of a node, its deprecation; every preference
 * with the instance types KubeVirt admits it with (and its reason for the others); the release
 * history. Plain data, the same for the page and the terminal.
 */
import { catalogFacts } from '../expand/facts';
import type { JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { instancetypePairingKey, preferencePairingKey } from '../kubevirt/pairing';
import type { RenderedObject } from '../render/manifests';
import { catalogOfObjects } from '../render/objects';
import type { ResolvedCatalog } from '../resolve/types';
import { formatBinary } from '../quantity';
import type { ReleaseSection } from '../release/notes';
import { pairOf } from './filter';
import { judgedKinds } from '../matrix';
import { preferenceArchitecture } from '../validate/rules-kubevirt';
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

/** The index of `key`, added (by `add`, which returns it) when new. */
function indexOf(index: Map<string, number>, key: string, add: () => number): number {
  let i = index.get(key);
  if (i === undefined) index.set(key, (i = add()));
  return i;
}

/** Memory as the catalog writes it (quantity.ts's `formatBinary`), a size that no unit divides in Gi to two places. */
function binary(bytes: number): string {
  const exact = formatBinary(bytes);
  return exact === String(bytes) && bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(2)}Gi` : exact;
}

/** The instance types `p` is admitted with, and the others (paired: its generator and architecture) with KubeVirt's reason. */
export function pairsOf(data: SiteData, p: SitePreference): { admitted: SiteInstancetype[]; refused: { it: SiteInstancetype; reason: string }[] } {
  const admitted: SiteInstancetype[] = [];
  const refused: { it: SiteInstancetype; reason: string }[] = [];
  for (const it of data.instancetypes) {
    const o = pairOf(data, p, it);
    if (o?.admitted === true) admitted.push(it);
    else if (o !== undefined) refused.push({ it, reason: o.reason ?? 'refused' });
  }
  return { admitted, refused };
}

/**
 * The explorer's data for the generators given, in their order.
 *
 * Over 80 lines: the explorer's data is one object built field by field.
 */
export function siteData(inputs: readonly SiteInput[], title = 'Instance types'): SiteData {
  // Deciding specs and pairing classes, each once (kubevirt/pairing.ts's keys).
  const pairSpecs: JsonObject[] = [];
  const specIndex = new Map<string, number>();
  const pairs: SitePairRow[] = [];
  const rowIndex = new Map<string, number>();
  const pick = (spec: JsonObject, keys: readonly string[]): JsonObject =>
    Object.fromEntries(keys.filter((k) => spec[k] !== undefined).map((k) => [k, spec[k]!]));
  const instancetypes: SiteInstancetype[] = [];
  const preferences: SitePreference[] = [];
  let kindCount = 0;
  for (const input of inputs) {
    const scopes = new Map<string, Set<string>>();
    for (const o of input.objects) {
      const set = scopes.get(o.manifest.metadata.name) ?? new Set<string>();
      set.add(o.scope);
      scopes.set(o.manifest.metadata.name, set);
    }
    // What the judge refuses beyond the sizes (matrix/index.ts), by kind of instance type, numbered per data.
    const judged = judgedKinds(input.catalog, input.config);
    const kindBase = kindCount;
    kindCount += new Set(judged.kindOf.values()).size;
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
        pairKey: indexOf(specIndex, instancetypePairingKey(spec), () => pairSpecs.push(pick(spec, ['cpu', 'memory'])) - 1),
        kind: kindBase + (judged.kindOf.get(it.name) ?? 0),
      });
    }
    for (const p of input.catalog.preferences) {
      const spec = p.spec;
      const req = (spec['requirements'] as JsonObject | undefined) ?? {};
      const architecture = preferenceArchitecture(p) ?? input.catalog.defaultArchitecture;
      const pairRow = indexOf(
        rowIndex,
        `${input.generator}|${architecture}|${input.catalog.defaultArchitecture}|${preferencePairingKey(spec)}`,
        () =>
          pairs.push({
            architecture,
            clusterArchitecture: input.catalog.defaultArchitecture,
            spec: pick(spec, ['cpu', 'requirements', 'preferredArchitecture', 'preferSpreadSocketToCoreRatio']),
          }) - 1,
      );
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
        refusedKinds: Object.fromEntries(Object.entries(judged.refused.get(p.name) ?? {}).map(([k, reason]) => [String(kindBase + Number(k)), reason])),
      });
    }
  }
  return {
    title,
    instancetypes,
    preferences,
    pairs,
    pairSpecs,
    history: inputs.filter((i) => (i.history ?? []).length > 0).map((i) => ({ generator: i.generator, sections: i.history! })),
  };
}

/** A generator-like input for objects read from files (`itgen select --with`, `site --with`): render/objects.ts reads them. */
export function siteInputOfObjects(objects: readonly JsonObject[], generator: string, config: ClusterDefaults): SiteInput {
  const read = catalogOfObjects(objects, generator);
  return { generator, catalog: read.catalog, objects: read.objects, config };
}
