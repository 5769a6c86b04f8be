/**
 * The compatibility matrix of a catalog: which instance type x preference pairs of the same
 * architecture KubeVirt admits, and why not the others, in KubeVirt's words. Each pair is a
 * minimal VM naming both, admitted by src/expand (spread, conflicts, requirements) and then held to
 * the checks KubeVirt makes when the VM starts that depend only on the pair (threads with dedicated
 * CPUs, hugepage sizes of the architecture).
 */
import { admit } from '../expand';
import type { JsonObject } from '../resolve/leaves';
import type { ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import type { Architecture } from '../schema/common';
import { HUGEPAGE_SIZES_BY_ARCHITECTURE, preferenceArchitecture } from '../validate/rules-kubevirt';

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

/** What of a spec decides admission: the key under which outcomes are shared between pairs. */
function instancetypeKey(it: ResolvedInstancetype): string {
  return JSON.stringify([it.spec['cpu'], it.spec['memory']]);
}

function preferenceKey(p: ResolvedPreference): string {
  return JSON.stringify([p.spec['cpu'], p.spec['requirements'], p.spec['preferredArchitecture'], p.spec['preferSpreadSocketToCoreRatio']]);
}

/** KubeVirt's VMI validation of what the pair produces (the same words as IT4008 and IT4016). */
function launchProblem(vm: JsonObject, architecture: Architecture): string | undefined {
  const spec = (vm['spec'] as JsonObject)['template'] as JsonObject;
  const domain = (spec['spec'] as JsonObject)['domain'] as JsonObject;
  const cpu = (domain['cpu'] ?? {}) as JsonObject;
  const threads = typeof cpu['threads'] === 'number' ? cpu['threads'] : 1;
  if (cpu['dedicatedCpuPlacement'] === true) {
    if (architecture === 'arm64' && threads > 1) return `threads must not be greater than 1 at spec.template.spec.domain.cpu.threads (got ${threads}) when spec.template.spec.architecture is arm64`;
    if (threads > 2) return `Not more than two threads must be provided at spec.template.spec.domain.cpu.threads (got ${threads}) when DedicatedCPUPlacement is true`;
  }
  const pageSize = ((domain['memory'] ?? {}) as JsonObject)['hugepages'] as JsonObject | undefined;
  const size = pageSize?.['pageSize'];
  if (typeof size === 'string' && !HUGEPAGE_SIZES_BY_ARCHITECTURE[architecture].includes(size)) {
    return `page size '${size}' is not valid on ${architecture}; valid sizes are ${HUGEPAGE_SIZES_BY_ARCHITECTURE[architecture].join(' and ')}`;
  }
  return undefined;
}

export function compatibilityMatrix(catalog: ResolvedCatalog): CompatibilityMatrix {
  const outcomes = new Map<string, { admitted: boolean; reason?: string }>();
  const pairs: MatrixPair[] = [];
  const preferences = catalog.preferences.map((p) => ({ p, architecture: preferenceArchitecture(p) ?? catalog.defaultArchitecture }));
  for (const { p, architecture } of preferences) {
    for (const it of catalog.instancetypes) {
      if (it.architectures !== undefined && !it.architectures.includes(architecture)) continue;
      const key = `${instancetypeKey(it)}|${preferenceKey(p)}|${architecture}`;
      let outcome = outcomes.get(key);
      if (!outcome) {
        const vm: JsonObject = { kind: 'VirtualMachine', spec: { instancetype: { name: it.name }, preference: { name: p.name }, template: { spec: { domain: { devices: {} } } } } };
        const admitted = admit(vm, { instancetype: { kind: 'VirtualMachineClusterInstancetype', name: it.name, spec: it.spec }, preference: { kind: 'VirtualMachineClusterPreference', name: p.name, spec: p.spec } }, { cluster: { architecture: catalog.defaultArchitecture } });
        const reason = admitted.causes[0]?.message ?? (admitted.vm ? launchProblem(admitted.vm, architecture) : undefined);
        outcome = reason === undefined ? { admitted: true } : { admitted: false, reason };
        outcomes.set(key, outcome);
      }
      pairs.push({ instancetype: it.name, preference: p.name, ...outcome });
    }
  }
  return {
    instancetypes: catalog.instancetypes.map((it) => ({ name: it.name, family: `${it.family}${it.version ?? ''}`, size: it.size })),
    preferences: preferences.map(({ p, architecture }) => ({ name: p.name, architecture })),
    pairs,
  };
}

/** Preferences that admit no instance type of the catalog at all. */
export function preferencesAdmittingNone(matrix: CompatibilityMatrix): string[] {
  const admitted = new Set(matrix.pairs.filter((x) => x.admitted).map((x) => x.preference));
  return matrix.preferences.map((p) => p.name).filter((n) => !admitted.has(n));
}

/** For each preference, the instance types it refuses grouped by reason: the text form. */
export function formatMatrixText(matrix: CompatibilityMatrix): string {
  const lines: string[] = [];
  for (const p of matrix.preferences) {
    const mine = matrix.pairs.filter((x) => x.preference === p.name);
    const refused = mine.filter((x) => !x.admitted);
    lines.push(`${p.name} (${p.architecture}): ${mine.length - refused.length} of ${mine.length} instance types admitted`);
    const byReason = new Map<string, string[]>();
    for (const r of refused) byReason.set(r.reason!, [...(byReason.get(r.reason!) ?? []), r.instancetype]);
    for (const [reason, names] of byReason) lines.push(`  not ${names.join(', ')}: ${reason}`);
  }
  return lines.join('\n');
}

/**
 * A compact grid: a row per preference, a column per family, each cell `✓` (every size admitted),
 * `–` (none, or not of the preference's architecture) or `k/n` sizes admitted.
 */
export function formatMatrixMarkdown(matrix: CompatibilityMatrix): string {
  const families = [...new Set(matrix.instancetypes.map((i) => i.family))];
  const familyOf = new Map(matrix.instancetypes.map((i) => [i.name, i.family]));
  const cell = new Map<string, { admitted: number; total: number }>();
  for (const x of matrix.pairs) {
    const k = `${x.preference}|${familyOf.get(x.instancetype)}`;
    const c = cell.get(k) ?? { admitted: 0, total: 0 };
    c.total++;
    if (x.admitted) c.admitted++;
    cell.set(k, c);
  }
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const rows = matrix.preferences.map((p) => {
    const cells = families.map((f) => {
      const c = cell.get(`${p.name}|${f}`);
      return !c || c.admitted === 0 ? '–' : c.admitted === c.total ? '✓' : `${c.admitted}/${c.total}`;
    });
    return `| \`${esc(p.name)}\` | ${cells.join(' | ')} |`;
  });
  return [`| preference | ${families.map((f) => `\`${esc(f)}\``).join(' | ')} |`, `| --- | ${families.map(() => ':-:').join(' | ')} |`, ...rows].join('\n');
}
