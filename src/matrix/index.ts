/**
 * The compatibility matrix of a catalog: which instance type x preference pairs of the same
 * architecture KubeVirt admits and starts, and why not the others, in KubeVirt's words. A pair's
 * answer is the judge's (expand/judge.ts) for a representative VM: one naming both and nothing
 * else, started as KubeVirt starts it. What depends on the size (admission's spread and requirement
 * checks, threads with dedicated CPUs, hugepage sizes) is `pairOutcome`, from the two specs; the
 * judge runs once per preference and kind of instance type (its spec without the size), on the
 * first size `pairOutcome` admits, and its refusal holds for every size of that kind.
 */
import { objectStore } from '../expand';
import { judgeVm } from '../expand/judge';
import type { JsonObject } from '../json';
import { KUBEVIRT_DEFAULTS, withEveryGate, type ClusterDefaults } from '../kubevirt/config';
import type { JudgedMemo } from '../load/judged-cache';
import { instancetypePairingKey, pairOutcome, preferencePairingKey } from '../kubevirt/pairing';
import { sha256Hex } from '../digest';
import { seriesLabel } from '../resolve/naming';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import { ARCHITECTURES } from '../schema/kubevirt-api';
import type { Architecture } from '../schema/common';
import { preferenceArchitecture } from '../validate/rules-kubevirt';

export { pairOutcome } from '../kubevirt/pairing';

export interface MatrixPair {
  readonly instancetype: string;
  readonly preference: string;
  readonly admitted: boolean;
  /** Why KubeVirt refuses the pair, in its words. */
  readonly reason?: string;
}

export interface CompatibilityMatrix {
  readonly instancetypes: readonly { readonly name: string; readonly family: string; readonly size: string }[];
  readonly preferences: readonly { readonly name: string; readonly architecture: Architecture }[];
  /** Every pair of the same architecture, preferences then instance types in catalog order. */
  readonly pairs: readonly MatrixPair[];
}

/** What of a spec decides admission (kubevirt/pairing.ts): the key under which outcomes are shared between pairs. */
/** Instance types share outcomes when their whole specs are equal (sizes of a family differ in CPU and memory). */
const instancetypeKey = (it: ResolvedInstancetype): string => JSON.stringify(it.spec);
/** Preferences share outcomes only when their whole specs are equal: the start reads all of it. */
const preferenceKey = (p: ResolvedPreference): string => JSON.stringify(p.spec);

/** An instance type's spec without what its size sets: the kind the judge answers once for. */
function sizelessKey(it: ResolvedInstancetype): string {
  const cpu = { ...((it.spec['cpu'] ?? {}) as JsonObject) };
  const memory = { ...((it.spec['memory'] ?? {}) as JsonObject) };
  delete cpu['guest'];
  delete cpu['maxSockets'];
  delete memory['guest'];
  delete memory['maxGuest'];
  return JSON.stringify({ ...it.spec, cpu, memory });
}

/**
 * The judge's answer for a VM naming `it` and `p` and nothing else, on `architecture`'s nodes,
 * under `config` with every feature gate on: a catalog pair is refused for what it is, not for a
 * cluster's configuration (the VM owner's gate judges that, with the cluster's CR).
 */
export function representativeOutcome(
  it: ResolvedInstancetype,
  p: ResolvedPreference,
  architecture: Architecture,
  config: ClusterDefaults = KUBEVIRT_DEFAULTS,
): { admitted: boolean; reason?: string } {
  const objects: JsonObject[] = [
    { apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineClusterInstancetype', metadata: { name: 'it' }, spec: it.spec as JsonObject },
    { apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineClusterPreference', metadata: { name: 'p' }, spec: p.spec as JsonObject },
  ];
  const vm: JsonObject = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: 'representative', namespace: 'default' },
    spec: { runStrategy: 'Always', instancetype: { name: 'it' }, preference: { name: 'p' }, template: { spec: { domain: { devices: {} } } } },
  };
  const v = judgeVm(vm, objectStore(objects), { config: { ...withEveryGate(config), architecture }, decoding: 'lenient' });
  if (v.stage === 'runs') return { admitted: true };
  const cause = v.stage === 'lookup' ? v.referenceErrors[0]?.message : v.causes[0]?.message;
  return { admitted: false, reason: cause ?? `refused (${v.stage})` };
}

/**
 * Admission outcomes shared between pairs whose deciding fields are equal: a catalog of thousands
 * of instance types has a few dozen distinct (cpu, memory) specs, and preferences fewer still.
 * Each deciding spec gets a number once, so that a pair's lookup hashes no text.
 */
class Outcomes {
  /** pairOutcome's answers, by the two pairing keys and the architecture. */
  private readonly cache = new Map<number, { admitted: boolean; reason?: string }>();
  private readonly itIds = new Map<ResolvedInstancetype, number>();
  private readonly prefIds = new Map<ResolvedPreference, number>();
  private readonly itKeys = new Map<string, number>();
  private readonly prefKeys = new Map<string, number>();
  /** The judge's answers, by kind of instance type, preference spec and architecture (numbers, see `of`). */
  private readonly judgedByKind = new Map<number, { admitted: boolean; reason?: string }>();
  private readonly sizeless = new Map<ResolvedInstancetype, number>();
  private readonly sizelessKeys = new Map<string, number>();
  /** What decides the judge's answers, each spec digested once when answers are kept between runs. */
  private readonly sizelessSpecs: string[] = [];
  private readonly prefSpecs: string[] = [];
  private readonly configKey: string;

  constructor(
    private readonly catalog: ResolvedCatalog,
    private readonly config: ClusterDefaults = KUBEVIRT_DEFAULTS,
    /** Answers kept from earlier runs (load/judged-cache.ts), by what decides them. */
    private readonly memo?: JudgedMemo,
  ) {
    this.configKey = sha256Hex(JSON.stringify(config));
  }

  private readonly pairIds = new Map<ResolvedInstancetype | ResolvedPreference, number>();
  private readonly pairKeys = new Map<string, number>();

  /** The number of what `pairOutcome` reads of an object (its pairing key), shared by objects that pair alike. */
  private pairId(o: ResolvedInstancetype | ResolvedPreference): number {
    let id = this.pairIds.get(o);
    if (id === undefined)
      this.pairIds.set(o, (id = idOf(this.pairKeys, o.kind === 'instancetype' ? `i${instancetypePairingKey(o.spec)}` : `p${preferencePairingKey(o.spec)}`)));
    return id;
  }

  /** The number of the instance type's deciding spec: equal for instance types that decide alike. */
  key(it: ResolvedInstancetype): number {
    let id = this.itIds.get(it);
    if (id === undefined) this.itIds.set(it, (id = idOf(this.itKeys, instancetypeKey(it))));
    return id;
  }

  of(it: ResolvedInstancetype, p: ResolvedPreference, architecture: Architecture): { admitted: boolean; reason?: string } {
    const sized = this.sized(it, p, architecture);
    return sized.admitted ? this.judged(it, p, architecture)! : sized;
  }

  /** pairOutcome's answer: what the sizes decide. */
  private sized(it: ResolvedInstancetype, p: ResolvedPreference, architecture: Architecture): { admitted: boolean; reason?: string } {
    // Below 2^53 while there are fewer than 2^22 distinct pairing keys.
    const key = (this.pairId(it) * 2 ** 22 + this.pairId(p)) * 4 + ARCHITECTURES.indexOf(architecture);
    let outcome = this.cache.get(key);
    if (!outcome) this.cache.set(key, (outcome = pairOutcome(it.spec, p.spec, architecture, this.catalog.defaultArchitecture)));
    return outcome;
  }

  /** The judge's answer for the pair's kind (undefined when the size refuses the pair first). */
  judged(it: ResolvedInstancetype, p: ResolvedPreference, architecture: Architecture): { admitted: boolean; reason?: string } | undefined {
    let pid = this.prefIds.get(p);
    if (pid === undefined) {
      const key = preferenceKey(p);
      this.prefIds.set(p, (pid = idOf(this.prefKeys, key)));
      this.prefSpecs[pid] = this.memo ? sha256Hex(key) : key;
    }
    if (!this.sized(it, p, architecture).admitted) return undefined;
    // What the size does not decide: the judge, once per kind of instance type and preference.
    let kind = this.sizeless.get(it);
    if (kind === undefined) {
      const spec = sizelessKey(it);
      this.sizeless.set(it, (kind = idOf(this.sizelessKeys, spec)));
      this.sizelessSpecs[kind] = this.memo ? sha256Hex(spec) : spec;
    }
    const judgedKey = (kind * 2 ** 22 + pid) * 4 + ARCHITECTURES.indexOf(architecture);
    let judged = this.judgedByKind.get(judgedKey);
    if (!judged) {
      const decides = `${this.sizelessSpecs[kind]!}\u0000${this.prefSpecs[pid]!}\u0000${architecture}\u0000${this.configKey}`;
      judged = this.memo?.get(decides);
      if (!judged) {
        judged = representativeOutcome(it, p, architecture, this.config);
        this.memo?.set(decides, judged);
      }
      this.judgedByKind.set(judgedKey, judged);
    }
    return judged;
  }
}

/**
 * What the judge refuses of each preference beyond what the size decides: for each preference, the
 * kinds of instance type (their spec without the size) KubeVirt starts no VM of with it, with its
 * words; for each instance type, the number of its kind. What `select` and the explorer page add to
 * `pairOutcome`, which they run themselves.
 */
export function judgedKinds(
  catalog: ResolvedCatalog,
  config?: ClusterDefaults,
): { kindOf: ReadonlyMap<string, number>; refused: ReadonlyMap<string, Readonly<Record<number, string>>> } {
  const outcomes = new Outcomes(catalog, config);
  const kindOf = new Map<string, number>();
  const kinds = new Map<string, number>();
  for (const it of catalog.instancetypes) {
    const k = sizelessKey(it);
    let id = kinds.get(k);
    if (id === undefined) kinds.set(k, (id = kinds.size));
    kindOf.set(it.name, id);
  }
  const refused = new Map<string, Record<number, string>>();
  for (const p of catalog.preferences) {
    const architecture = preferenceArchitecture(p) ?? catalog.defaultArchitecture;
    const mine: Record<number, string> = {};
    const decided = new Set<number>();
    for (const it of catalog.instancetypes) {
      const kind = kindOf.get(it.name)!;
      if (decided.has(kind) || !meantFor(it, architecture)) continue;
      const judged = outcomes.judged(it, p, architecture);
      if (judged === undefined) continue;
      decided.add(kind);
      if (!judged.admitted) mine[kind] = judged.reason ?? 'refused';
    }
    if (Object.keys(mine).length > 0) refused.set(p.name, mine);
  }
  return { kindOf, refused };
}

function idOf(ids: Map<string, number>, key: string): number {
  let id = ids.get(key);
  if (id === undefined) ids.set(key, (id = ids.size));
  return id;
}

const meantFor = (it: ResolvedInstancetype, architecture: Architecture): boolean => it.architectures === undefined || it.architectures.includes(architecture);

/**
 * For each class of preferences that decide alike (same CPU, requirements, architecture: see
 * preferenceKey), the outcome for every instance type in catalog order (undefined: not of that
 * architecture). Work grows with classes x instance types, and each class asks admission once per
 * distinct instance type spec; preferences of one class share the row.
 */
function rowsByClass(
  catalog: ResolvedCatalog,
  config?: ClusterDefaults,
): {
  preferences: { p: ResolvedPreference; architecture: Architecture; row: readonly ({ admitted: boolean; reason?: string } | undefined)[] }[];
} {
  const outcomes = new Outcomes(catalog, config);
  const rows = new Map<string, ({ admitted: boolean; reason?: string } | undefined)[]>();
  const preferences = catalog.preferences.map((p) => {
    const architecture = preferenceArchitecture(p) ?? catalog.defaultArchitecture;
    const classKey = `${preferenceKey(p)}|${architecture}`;
    let row = rows.get(classKey);
    if (!row) {
      const bySpec = new Map<number, { admitted: boolean; reason?: string }>();
      row = catalog.instancetypes.map((it) => {
        if (!meantFor(it, architecture)) return undefined;
        const k = outcomes.key(it);
        let o = bySpec.get(k);
        if (!o) bySpec.set(k, (o = outcomes.of(it, p, architecture)));
        return o;
      });
      rows.set(classKey, row);
    }
    return { p, architecture, row };
  });
  return { preferences };
}

/** Every pair (for `itgen matrix -o json`): instance types x preferences of the same architecture. */
export function compatibilityMatrix(catalog: ResolvedCatalog, config?: ClusterDefaults): CompatibilityMatrix {
  const { preferences } = rowsByClass(catalog, config);
  const pairs: MatrixPair[] = [];
  for (const { p, row } of preferences) {
    row.forEach((o, i) => {
      if (o) pairs.push({ instancetype: catalog.instancetypes[i]!.name, preference: p.name, ...o });
    });
  }
  return {
    instancetypes: catalog.instancetypes.map((it) => ({ name: it.name, family: `${it.family}${it.version ?? ''}`, size: it.size })),
    preferences: preferences.map(({ p, architecture }) => ({ name: p.name, architecture })),
    pairs,
  };
}

/**
 * For each preference, the instance types it refuses grouped by reason: the text form. Built from
 * the class rows without listing pairs, so a 10,000-object catalog costs classes x instance types.
 */
export function formatMatrixText(catalog: ResolvedCatalog, config?: ClusterDefaults): string {
  const { preferences } = rowsByClass(catalog, config);
  const blocks = new Map<object, { admitted: number; total: number; lines: string[] }>();
  const lines: string[] = [];
  for (const { p, architecture, row } of preferences) {
    let block = blocks.get(row);
    if (!block) {
      let admitted = 0;
      let total = 0;
      const byReason = new Map<string, string[]>();
      row.forEach((o, i) => {
        if (!o) return;
        total++;
        if (o.admitted) admitted++;
        else {
          let names = byReason.get(o.reason!);
          if (!names) byReason.set(o.reason!, (names = []));
          names.push(catalog.instancetypes[i]!.name);
        }
      });
      block = { admitted, total, lines: [...byReason].map(([reason, names]) => `  not ${names.join(', ')}: ${reason}`) };
      blocks.set(row, block);
    }
    lines.push(`${p.name} (${architecture}): ${block.admitted} of ${block.total} instance types admitted`);
    for (const l of block.lines) lines.push(l);
  }
  return lines.join('\n');
}

/** Per preference and family: how many instance types it admits of how many of its architecture. */
export interface CompatibilitySummary {
  readonly families: readonly string[];
  /** How each family shows to users: the series its instance type names carry (resolve/naming.ts seriesLabel). */
  readonly labels?: ReadonlyMap<string, string>;
  readonly preferences: readonly {
    readonly name: string;
    readonly architecture: Architecture;
    readonly perFamily: ReadonlyMap<string, { readonly admitted: number; readonly total: number }>;
    readonly reason?: string | undefined;
  }[];
}

/**
 * What the generated README and the IT8101 warning need, without listing every pair: instance
 * types are grouped by family and deciding spec, so the work grows with the distinct specs, not
 * with instance types x preferences (a 100,000-object catalog would otherwise build billions).
 */
export function compatibilitySummary(catalog: ResolvedCatalog, config?: ClusterDefaults, memo?: JudgedMemo): CompatibilitySummary {
  const outcomes = new Outcomes(catalog, config, memo);
  const groups = new Map<string, { family: string; it: ResolvedInstancetype; members: ResolvedInstancetype[] }>();
  for (const it of catalog.instancetypes) {
    const family = `${it.family}${it.version ?? ''}`;
    const k = `${family}|${outcomes.key(it)}|${(it.architectures ?? []).join(',')}`;
    const g = groups.get(k);
    if (g) g.members.push(it);
    else groups.set(k, { family, it, members: [it] });
  }
  const families = [...new Set(catalog.instancetypes.map((it) => `${it.family}${it.version ?? ''}`))];
  // Preferences that decide alike (same CPU, requirements and architecture) share one row of results.
  const byClass = new Map<string, { perFamily: Map<string, { admitted: number; total: number }>; reason: string | undefined }>();
  const preferences = catalog.preferences.map((p) => {
    const architecture = preferenceArchitecture(p) ?? catalog.defaultArchitecture;
    const classKey = `${preferenceKey(p)}|${architecture}`;
    let row = byClass.get(classKey);
    if (!row) {
      const perFamily = new Map<string, { admitted: number; total: number }>();
      let reason: string | undefined;
      for (const g of groups.values()) {
        if (!meantFor(g.it, architecture)) continue;
        const o = outcomes.of(g.it, p, architecture);
        const c = perFamily.get(g.family) ?? { admitted: 0, total: 0 };
        c.total += g.members.length;
        if (o.admitted) c.admitted += g.members.length;
        else reason ??= o.reason;
        perFamily.set(g.family, c);
      }
      byClass.set(classKey, (row = { perFamily, reason }));
    }
    return { name: p.name, architecture, perFamily: row.perFamily, reason: row.reason };
  });
  // Each family's members, gathered once (a catalog of many families would otherwise be scanned per family).
  const members = new Map<string, ResolvedInstancetype[]>();
  for (const it of catalog.instancetypes) {
    const f = `${it.family}${it.version ?? ''}`;
    const list = members.get(f);
    if (list) list.push(it);
    else members.set(f, [it]);
  }
  const labels = new Map(families.map((f) => [f, seriesLabel(members.get(f) ?? [], f)] as const));
  return { families, labels, preferences };
}

/** Preferences that admit no instance type of the catalog at all, with one reason KubeVirt gives. */
export function preferencesAdmittingNone(summary: CompatibilitySummary): { name: string; reason?: string | undefined }[] {
  return summary.preferences.filter((p) => ![...p.perFamily.values()].some((c) => c.admitted > 0)).map((p) => ({ name: p.name, reason: p.reason }));
}

/** Beyond this many families the grid is too wide to read: the README points at `itgen matrix`. */
export const GRID_MAX_FAMILIES = 40;

/**
 * A compact grid: a row per preference, a column per family, each cell `✓` (every size admitted),
 * `–` (none, or not of the preference's architecture) or `k/n` sizes admitted.
 */
export function formatMatrixMarkdown(summary: CompatibilitySummary): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const rows = summary.preferences.map((p) => {
    const cells = summary.families.map((f) => {
      const c = p.perFamily.get(f);
      return !c || c.admitted === 0 ? '–' : c.admitted === c.total ? '✓' : `${c.admitted}/${c.total}`;
    });
    return `| \`${esc(p.name)}\` | ${cells.join(' | ')} |`;
  });
  return [
    `| preference | ${summary.families.map((f) => `\`${esc(summary.labels?.get(f) ?? f)}\``).join(' | ')} |`,
    `| --- | ${summary.families.map(() => ':-:').join(' | ')} |`,
    ...rows,
  ].join('\n');
}
