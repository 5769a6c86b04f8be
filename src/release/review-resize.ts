/**
 * What the review comment says of a change that moves a VM's instance type or preference: each VM a
 * changed object resizes, and how KubeVirt applies it (live, pending, restart), in a table.
 */
import { type JsonObject, obj } from '../json';
import type { KubeObject } from '../emit/committed';
import { objectStore } from '../expand';
import { manifestObjects } from '../expand/documents';
import { resizePlan, type ResizePlan } from '../expand/resize';
import type { ClusterDefaults } from '../kubevirt/config';
import { type SourceDoc } from '../load/source';

import { md } from '../printable';

/** A VM whose Git manifest changes its instance type or preference in the change, and what applying it does. */
export interface VmResize {
  readonly file: string;
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly plan: ResizePlan;
}

export const matcherText = (vm: JsonObject): string =>
  (['instancetype', 'preference'] as const)
    .map((w) => obj(obj(vm['spec'])?.[w]))
    .map((m) => (m ? `${typeof m['kind'] === 'string' && m['kind'] !== '' ? `${m['kind']}/` : ''}${String(m['name'] ?? '')}` : '—'))
    .join(' + ');

/**
 * For each VM of the change whose instance type or preference matcher differs from the base's
 * (same namespace and name), what applying it to the running VM does (expand/resize.ts): it runs
 * with the base's objects, and switches to the change's.
 */
export function vmResizes(
  baseVmDocs: readonly SourceDoc[],
  headVmDocs: readonly SourceDoc[],
  before: readonly KubeObject[],
  after: readonly KubeObject[],
  config: ClusterDefaults,
): VmResize[] {
  const id = (vm: JsonObject): string => `${String(obj(vm['metadata'])?.['namespace'] ?? 'default')}/${String(obj(vm['metadata'])?.['name'] ?? '')}`;
  const base = new Map(
    manifestObjects(baseVmDocs)
      .filter((f) => f.value['kind'] === 'VirtualMachine')
      .map((f) => [id(f.value), f.value] as const),
  );
  const beforeStore = objectStore(before as unknown as JsonObject[]);
  const afterStore = objectStore(after as unknown as JsonObject[]);
  const out: VmResize[] = [];
  for (const f of manifestObjects(headVmDocs).filter((x) => x.value['kind'] === 'VirtualMachine')) {
    const old = base.get(id(f.value));
    if (!old) continue;
    const to: { instancetype?: JsonObject; preference?: JsonObject } = {};
    for (const w of ['instancetype', 'preference'] as const) {
      const a = obj(obj(old['spec'])?.[w]);
      const b = obj(obj(f.value['spec'])?.[w]);
      if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null) && b) to[w] = b;
    }
    if (to.instancetype === undefined && to.preference === undefined) continue;
    out.push({
      file: f.src.file,
      name: String(obj(f.value['metadata'])?.['name'] ?? ''),
      from: matcherText(old),
      to: matcherText(f.value),
      plan: resizePlan(old, to, { store: afterStore, startStore: beforeStore, config }),
    });
  }
  return out;
}

/** The review's section on VMs switched to another instance type or preference. */
export function resizeMarkdown(resizes: readonly VmResize[]): string {
  if (resizes.length === 0) return '';
  const why = (p: ResizePlan): string =>
    p.outcome === 'restart'
      ? `RestartRequired: ${md(p.restartRequired?.message ?? '')}; set by ${(p.restartRequired?.fields ?? [])
          .slice(0, 4)
          .map((f) => md(f))
          .join(', ')}`
      : p.outcome === 'rejected'
        ? p.admission.causes.map((c) => md(c.message)).join(', ')
        : p.outcome === 'failed'
          ? md(`${p.syncError?.reason ?? ''}: ${p.syncError?.message ?? ''}`)
          : p.outcome === 'start'
            ? md(`the VM does not run now (${p.notRunning?.reason ?? ''}: ${p.notRunning?.message ?? ''}); it starts with the new objects`)
            : [
                p.hotplug.sockets ? `CPU sockets ${p.hotplug.sockets.from} → ${p.hotplug.sockets.to}` : '',
                p.hotplug.memory ? `memory ${md(p.hotplug.memory.from)} → ${md(p.hotplug.memory.to)}` : '',
              ]
                .filter((x) => x !== '')
                .join(', ') || 'nothing to change on the running VM';
  const rows = resizes.slice(0, 100).map((r) => `| ${md(r.name)} | ${md(r.from)} → ${md(r.to)} | **${r.plan.outcome}** | ${why(r.plan)} |`);
  return `\n#### VMs switched to another instance type or preference\n\nWhat applying each does to the running VM, as KubeVirt's webhooks and VM controller would (\`itgen resize\`): \`live\` (hotplugged, through a live migration the cluster carries out), \`pending\` (accepted, waiting for a live migration), \`restart\`, \`start\` (the VM does not run now), \`rejected\` or \`failed\`.\n\n| VM | change | outcome | why |\n| --- | --- | --- | --- |\n${rows.join('\n')}${resizes.length > 100 ? `\n\n(${resizes.length - 100} more)` : ''}\n`;
}
