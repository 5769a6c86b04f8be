/**
 * The generated base's README.md: what a user browsing the repository (or a vendor's customer)
 * needs to pick an instance type and a preference. Built from the same selected catalog and
 * rendered objects as the manifests, so it can never disagree with them; deterministic like every
 * other output file, and checked by `itgen check`.
 */
import { md } from '../printable';
import { getPath, type JsonObject } from '../json';
import { seriesLabel } from '../resolve/naming';

import type { Deprecation, ResolvedCatalog, ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import { formatBinary } from '../quantity';
import type { Scope } from '../schema/generator';
import { type RenderedObject } from './manifests';
import { KIND_ORDER, targetRange } from '../schema/kubevirt-api';
import { DEPLOYED_COMMON_INSTANCETYPES, DEPLOYED_NAMES } from '../kubevirt/deployed-catalog';
import { releasesBetween, RELEASE_RULES, type ModelledRelease, type ReleaseRule } from '../kubevirt/releases';
import { compareText } from '../order';

export const DOCS_FILE = 'README.md';

export interface DocsOptions {
  readonly generator: string;
  readonly generatorFile: string;
  readonly catalogDir: string;
  readonly vendor?: string | undefined;
  readonly scopes: readonly Scope[];
  readonly namespace?: string | undefined;
  /**
   * The compatibility grid (markdown), computed by src/matrix from admission, which comes after
   * rendering in the pipeline: passed in as text so that render/ does not depend on a later stage.
   */
  readonly compatibility?: string | undefined;
  /** What each instance type's launcher pod requests (expand/facts.ts, a later stage: passed in as text). */
  readonly launcher?: string | undefined;
  /** The KubeVirt releases the catalog targets (the generator's `targetKubevirt`). */
  readonly targetKubevirt?: string | { readonly min: string; readonly max?: string | undefined } | undefined;
  /** The common-instancetypes release the catalog follows (its own `follows`, or an imported catalog's, `via` the import). */
  readonly follows?: { readonly release: string; readonly via?: string } | undefined;
}

/**
 * Per targeted KubeVirt release: the common-instancetypes release its virt-operator deploys, how many
 * of this catalog's cluster-wide names it deploys too (IT5006), and the rules that hold for it but
 * not for every targeted release (releases.ts), so a vendor sees what differs between the releases
 * its customers run; a rule every targeted release shares is no difference and is left out.
 */
function releaseTable(catalog: ResolvedCatalog, opts: DocsOptions, releases: readonly ModelledRelease[]): string | undefined {
  if (releases.length === 0) return undefined;
  const cluster = opts.scopes.includes('cluster');
  const rules: readonly ReleaseRule[] = Object.values(RELEASE_RULES).filter((rule) => !releases.every((r) => (rule.holdsFor as readonly string[]).includes(r)));
  const rows = releases.map((r) => {
    const deploys = DEPLOYED_COMMON_INSTANCETYPES[r];
    const deployed = DEPLOYED_NAMES[deploys];
    const shared =
      cluster && deployed
        ? [
            ...catalog.instancetypes.filter((it) => deployed.instancetypes.includes(it.name)),
            ...catalog.preferences.filter((p) => deployed.preferences.includes(p.name)),
          ].length
        : 0;
    const differs = rules.filter((rule) => rule.holdsFor.includes(r)).map((rule) => rule.words);
    return [r, followedRelease(opts) === deploys ? `${deploys} (the release this catalog follows)` : deploys, String(shared), differs.join('; ') || '—'];
  });
  return table(
    ['KubeVirt', 'common-instancetypes it deploys', 'names of this catalog it deploys too', 'what differs: the rules that hold for it'],
    ['l', 'l', 'r', 'l'],
    rows,
  );
}

/** The modelled releases the generator's `targetKubevirt` covers; none without one. */
function targetedReleases(opts: DocsOptions): ModelledRelease[] {
  if (opts.targetKubevirt === undefined) return [];
  const range = targetRange(opts.targetKubevirt);
  return releasesBetween(range.min, range.max);
}

/** The common-instancetypes release the catalog follows, without its commit. */
const followedRelease = (opts: DocsOptions): string | undefined => opts.follows?.release.split('@')[0];

/** What the catalog says it reproduces of kubevirt/common-instancetypes, and how it compares with what the targeted releases deploy. */
function followsLine(opts: DocsOptions, targeted: readonly ModelledRelease[]): string {
  const f = opts.follows;
  const release = followedRelease(opts);
  if (f === undefined || release === undefined) return '';
  const commit = f.release.split('@')[1];
  const what = `kubevirt/common-instancetypes ${code(release)}${commit !== undefined ? ` (commit ${code(commit)})` : ''}`;
  const deploying = targeted.filter((r) => DEPLOYED_COMMON_INSTANCETYPES[r] === release);
  const against =
    release === 'main'
      ? ' No KubeVirt release deploys `main`: it may hold objects and fields none of them deploys.'
      : deploying.length > 0
        ? ` The targeted ${deploying.join(', ')} deploy${deploying.length === 1 ? 's' : ''} it too.`
        : ' None of the targeted releases deploys it.';
  return ` This catalog follows ${what}${f.via !== undefined ? `, through its import of ${md(f.via, { table: false })}` : ''}.${against}`;
}

const get = getPath;

/** A table cell: one line, pipes escaped. */
function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(s: string): string {
  return `\`${s}\``;
}

function table(header: readonly string[], align: readonly ('l' | 'r')[], rows: readonly (readonly string[])[]): string {
  const lines = [`| ${header.join(' | ')} |`, `| ${align.map((a) => (a === 'r' ? '---:' : '---')).join(' | ')} |`];
  for (const r of rows) lines.push(`| ${r.map(cell).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}

/** What sets an instance type apart, in words (dedicated CPUs, hugepages, GPUs...). */
export function features(spec: JsonObject): string[] {
  const out: string[] = [];
  if (get(spec, ['cpu', 'dedicatedCPUPlacement']) === true) out.push('dedicated CPUs');
  if (get(spec, ['cpu', 'isolateEmulatorThread']) === true) out.push('isolated emulator thread');
  const pageSize = get(spec, ['memory', 'hugepages', 'pageSize']);
  if (typeof pageSize === 'string') out.push(`${pageSize} hugepages`);
  if (get(spec, ['cpu', 'numa', 'guestMappingPassthrough']) !== undefined) out.push('NUMA passthrough');
  if (get(spec, ['cpu', 'realtime']) !== undefined) out.push('realtime');
  const gpus = get(spec, ['gpus']);
  if (Array.isArray(gpus) && gpus.length > 0) {
    const names = gpus.map((g) => (g !== null && typeof g === 'object' && !Array.isArray(g) && typeof g['deviceName'] === 'string' ? g['deviceName'] : 'GPU'));
    out.push(`${gpus.length} GPU${gpus.length === 1 ? '' : 's'} (${[...new Set(names)].join(', ')})`);
  }
  const hostDevices = get(spec, ['hostDevices']);
  if (Array.isArray(hostDevices) && hostDevices.length > 0) out.push(`${hostDevices.length} host device${hostDevices.length === 1 ? '' : 's'}`);
  const overcommit = get(spec, ['memory', 'overcommitPercent']);
  if (typeof overcommit === 'number') out.push(`${overcommit}% memory overcommit`);
  const ioThreads = get(spec, ['ioThreadsPolicy']);
  if (typeof ioThreads === 'string') out.push(`IO threads: ${ioThreads}`);
  const maxSockets = get(spec, ['cpu', 'maxSockets']);
  if (typeof maxSockets === 'number') out.push(`at most ${maxSockets} socket${maxSockets === 1 ? '' : 's'}`);
  return out;
}

function deprecationNote(d: Deprecation | undefined): string {
  if (!d) return '';
  const parts = ['deprecated'];
  if (d.since !== undefined) parts.push(`since ${d.since}`);
  if (d.replacement !== undefined) parts.push(`use ${d.replacement}`);
  return parts.join(', ');
}

function instancetypeTable(its: readonly ResolvedInstancetype[]): string {
  const rows = its.map((it) => {
    const f = features(it.spec);
    const dep = deprecationNote(it.deprecated);
    if (dep) f.push(`**${dep}**`);
    return [code(it.name), String(it.cpu), formatBinary(it.memoryBytes), it.class, it.displayName, f.join(', ') || '—'];
  });
  return table(['Name', 'vCPUs', 'Memory', 'Class', 'Display name', 'Features'], ['l', 'r', 'r', 'l', 'l', 'l'], rows);
}

function familyGrid(its: readonly ResolvedInstancetype[]): string {
  // Columns: every size in ladder order (sizes of several ladders interleave by position).
  const sizeOrder = new Map<string, number>();
  for (const it of its) if (!sizeOrder.has(it.ladderSize)) sizeOrder.set(it.ladderSize, it.sizeIndex);
  const sizes = [...sizeOrder.keys()].sort((a, b) => sizeOrder.get(a)! - sizeOrder.get(b)! || compareText(a, b));
  const rows = new Map<string, { label: string; cells: Map<string, string[]> }>();
  for (const it of its) {
    // A row per series as users see it in the names: a family, or a variant its naming places as a
    // series of its own (`gn1.a10`); a variant appended to the size stays in its family's row.
    const key = seriesLabel([it], `${it.family}${it.version ?? ''}`);
    let row = rows.get(key);
    if (!row) {
      const dep = it.deprecated ? ` (${deprecationNote(it.deprecated)})` : '';
      row = { label: `${code(key)} ${it.class}${dep}`, cells: new Map() };
      rows.set(key, row);
    }
    const list = row.cells.get(it.ladderSize) ?? [];
    list.push(code(it.name));
    row.cells.set(it.ladderSize, list);
  }
  const body = [...rows.keys()].sort().map((k) => {
    const r = rows.get(k)!;
    return [r.label, ...sizes.map((s) => (r.cells.get(s) ?? []).join(', ') || '—')];
  });
  return table(['Family', ...sizes], ['l', ...sizes.map(() => 'l' as const)], body);
}

function requirements(spec: JsonObject): string {
  const parts: string[] = [];
  const cpu = get(spec, ['requirements', 'cpu', 'guest']);
  if (typeof cpu === 'number') parts.push(`${cpu} vCPU${cpu === 1 ? '' : 's'}`);
  const mem = get(spec, ['requirements', 'memory', 'guest']);
  if (typeof mem === 'string' || typeof mem === 'number') parts.push(String(mem));
  return parts.join(', ') || '—';
}

function preferenceTable(prefs: readonly ResolvedPreference[]): string {
  const rows = prefs.map((p) => {
    const os = get(p.spec, ['annotations', 'vm.kubevirt.io/os']);
    const arch = get(p.spec, ['requirements', 'architecture']) ?? get(p.spec, ['preferredArchitecture']);
    const dep = deprecationNote(p.deprecated);
    return [
      code(p.name),
      dep ? `${p.displayName} (**${dep}**)` : p.displayName,
      typeof os === 'string' ? os : '—',
      typeof arch === 'string' ? arch : 'any',
      requirements(p.spec),
      p.inherits.map(code).join(', ') || '—',
      p.include.map(code).join(', ') || '—',
    ];
  });
  return table(['Name', 'Display name', 'OS', 'Architecture', 'Requirements', 'Inherits', 'Includes'], ['l', 'l', 'l', 'l', 'l', 'l', 'l'], rows);
}

function deprecatedTable(catalog: ResolvedCatalog): string | undefined {
  const rows: string[][] = [];
  for (const it of catalog.instancetypes)
    if (it.deprecated) rows.push([code(it.name), 'instance type', it.deprecated.since ?? '—', it.deprecated.replacement ?? '—']);
  for (const p of catalog.preferences) if (p.deprecated) rows.push([code(p.name), 'preference', p.deprecated.since ?? '—', p.deprecated.replacement ?? '—']);
  if (rows.length === 0) return undefined;
  return table(['Name', 'What', 'Deprecated since', 'Use instead'], ['l', 'l', 'l', 'l'], rows);
}

export function renderDocs(catalog: ResolvedCatalog, objects: readonly RenderedObject[], opts: DocsOptions): string {
  const kinds = KIND_ORDER.filter((k) => objects.some((o) => o.manifest.kind === k));
  const out: string[] = [];
  out.push(`<!-- Generated by itgen from ${opts.generatorFile}; do not edit. Regenerate with \`itgen docs\` or \`itgen generate\`. -->`);
  out.push(`# Catalog \`${catalog.name}\` (generator \`${opts.generator}\`)\n`);
  const summary = [
    `${catalog.instancetypes.length} instance type${catalog.instancetypes.length === 1 ? '' : 's'} and ${catalog.preferences.length} preference${catalog.preferences.length === 1 ? '' : 's'} from \`${opts.catalogDir}\`, ${opts.vendor !== undefined ? `vendor \`${opts.vendor}\`` : 'no vendor label'}.`,
    kinds.length > 0
      ? `Kinds: ${kinds.map(code).join(', ')}; each in its own directory with a kustomization.yaml.`
      : 'No objects: the include and exclude lists of the generator leave none.',
  ];
  if (opts.namespace !== undefined && opts.scopes.includes('namespaced')) summary.push(`Namespaced objects are in namespace \`${opts.namespace}\`.`);
  out.push(`${summary.join('\n')}\n`);
  if (catalog.instancetypes.length > 0) {
    out.push(`## Instance types\n\n${instancetypeTable(catalog.instancetypes)}`);
    out.push(`## Family x size\n\n${familyGrid(catalog.instancetypes)}`);
  }
  if (opts.launcher !== undefined)
    out.push(
      `## What a VM of each instance type asks of a node\n\nThe virt-launcher pod KubeVirt renders for a VM of the instance type alone (a pod network and a graphics device, KubeVirt's default configuration), as \`itgen expand --as pod\` does: what it requests (the memory includes KubeVirt's overhead) and the node labels it needs besides \`kubevirt.io/schedulable\`, the architecture and the machine type. Every pod also takes one \`devices.kubevirt.io/kvm\` (and \`tun\`, \`vhost-net\` for the pod network). \`itgen facts\` exports it for every instance type and preference.\n\n${opts.launcher}\n`,
    );
  if (catalog.preferences.length > 0) out.push(`## Preferences\n\n${preferenceTable(catalog.preferences)}`);
  if (opts.compatibility !== undefined) {
    out.push(
      `## Compatibility\n\nWhich instance types each preference admits, as KubeVirt's VM admission decides (requirements, spread) and as the VM would start (threads with dedicated CPUs, hugepage sizes): \`✓\` every size of the family, \`k/n\` some, \`–\` none or another architecture. \`itgen matrix\` says why for each pair.\n\n${opts.compatibility}\n`,
    );
  }
  const targeted = targetedReleases(opts);
  const releases = releaseTable(catalog, opts, targeted);
  if (releases !== undefined)
    out.push(
      `## KubeVirt releases\n\nThe releases the catalog targets (\`targetKubevirt\`), as itgen models them: what each deploys itself, how many names of this catalog it deploys too (virt-operator reverts those; IT5006), and the rules that hold for it but not for every targeted release (\`itgen validate\` names the releases of each finding).${followsLine(opts, targeted)}\n\n${releases}\n`,
    );
  const dep = deprecatedTable(catalog);
  if (dep !== undefined) {
    out.push(
      `## Deprecated\n\nThese objects carry \`instancetype.kubevirt.io/deprecated: "true"\`. They stay for the VMs that use them and go away in a later release; new VMs should use the replacement.\n\n${dep}`,
    );
  }
  return `${out.join('\n')}`;
}
