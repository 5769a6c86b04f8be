/**
 * MIGRATION.md: per preset and per VM what became what, what could not be carried and why, the
 * VMs left alone and why, and the proof (old and new VMI spec compared) for each migrated VM.
 */

import { type Json } from '../json';
import type { PresetInput } from './inputs';
import type { MigrateOptions, VmRecord } from './types';
import type { ProjectGroup } from './project';
import { MERGED_SECTIONS } from './presets';

/** User text on one line of Markdown: control characters escaped, nothing that opens code or a table cell. */
function inline(s: string): string {
  return s
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/`/g, "'")
    .replace(/\|/g, '\\|');
}

function code(s: string): string {
  return `\`${inline(s)}\``;
}

function json(v: Json | undefined): string {
  return v === undefined ? '(absent)' : code(JSON.stringify(v));
}

function list(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.map(code).join(', ');
}

function selectorText(p: PresetInput): string {
  const parts = [
    ...Object.entries(p.preset.matchLabels).map(([k, v]) => `${k}=${v}`),
    ...p.preset.matchExpressions.map((r) => (r.values.length > 0 ? `${r.key} ${r.operator} (${r.values.join(', ')})` : `${r.key} ${r.operator}`)),
  ];
  return parts.length > 0 ? parts.map(code).join(', ') : 'everything in its namespace';
}

function presetSections(p: PresetInput): { merged: string[]; ignored: string[] } {
  const domain = p.preset.domain;
  const merged = MERGED_SECTIONS.filter((s) => {
    const [a, b] = s.split('.') as [string, string | undefined];
    const v = domain[a];
    return b === undefined
      ? v !== undefined && v !== null
      : v !== null && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, Json>)[b] !== undefined;
  });
  const ignored: string[] = [];
  for (const [k, v] of Object.entries(domain)) {
    if (k === 'resources') {
      for (const r of Object.keys(v as object)) if (r !== 'requests') ignored.push(`resources.${r}`);
    } else if (k === 'devices') {
      for (const d of Object.keys(v as object)) if (d !== 'watchdog') ignored.push(`devices.${d}`);
    } else if (!(MERGED_SECTIONS as readonly string[]).includes(k)) ignored.push(k);
  }
  return { merged, ignored };
}

export interface ReportInput {
  readonly vms: readonly VmRecord[];
  readonly presets: readonly PresetInput[];
  readonly vmis: readonly { readonly name: string; readonly namespace: string; readonly presets: readonly string[] }[];
  readonly groups: readonly ProjectGroup[];
  readonly options: MigrateOptions;
}

/** Over 80 lines: MIGRATION.md is one document written top to bottom. */
export function migrationReport(r: ReportInput): string {
  const migrated = r.vms.filter((v) => v.outcome.status === 'migrated');
  const differing = migrated.filter((v) => v.outcome.status === 'migrated' && v.outcome.differences.length > 0);
  const out: string[] = [];
  out.push('<!-- Written by `itgen migrate presets`. -->', '# Migration from VirtualMachineInstancePresets', '');
  out.push(
    `${r.presets.length} presets, ${r.vms.length} VirtualMachines: ${migrated.length} migrated (${migrated.length - differing.length} start exactly as with their presets, ${differing.length} differently), ` +
      `${r.vms.filter((v) => v.outcome.status === 'skipped').length} need a person, ${r.vms.filter((v) => v.outcome.status === 'excluded').length} excluded, ${r.vms.filter((v) => v.outcome.status === 'unselected').length} selected by no preset.`,
    '',
    'KubeVirt merges presets into a VMI when it is created (only `resources.requests`, `cpu`, `firmware`, `clock`, `features`, `devices.watchdog` and `ioThreadsPolicy`, each only where the VM has none). Instance types and preferences are named by the VM instead. For every migrated VM, the VMI spec KubeVirt builds from the rewritten VM (expanded offline as `itgen expand` does, against the objects this catalog generates) was compared field by field with the one it builds today from the old VM and its presets.',
    '',
    '## Next steps',
    '',
    '1. `itgen generate` here writes the kustomize base(s) under `output/`; commit `generators/`, `catalogs/`, `output/` and `kustomization.yaml`, and let Argo CD or Flux sync them (or `kubectl apply -k .`).',
    '2. Apply the VMs under `vms/` once the instance types and preferences exist (`itgen expand vms/*.yaml` shows what they become). A running VM takes the change at its next start.',
    '3. Delete the presets once no VM needs them: presets are deprecated and go away in `kubevirt.io/v2`.',
    '',
  );

  out.push('## Presets', '');
  for (const p of r.presets) {
    const users = r.vms.filter((v) => v.namespace === p.preset.namespace && v.presets.includes(p.preset.name));
    const madeInto = r.groups.flatMap((g) => [
      ...g.instancetypes.filter((o) => o.from.includes(p.preset.name)).map((o) => `instance type ${code(o.name)}`),
      ...g.preferences.filter((o) => o.from.includes(p.preset.name)).map((o) => `preference ${code(o.name)}`),
    ]);
    const { merged, ignored } = presetSections(p);
    out.push(`### ${code(p.preset.name)} (namespace ${code(p.preset.namespace)})`, '');
    out.push(`- Selects: ${selectorText(p)}`);
    out.push(`- Sections KubeVirt merges from it: ${list(merged)}`);
    if (ignored.length > 0) out.push(`- Ignored by KubeVirt (presets never merge them), so not migrated: ${list(ignored)}`);
    out.push(`- Became: ${madeInto.length > 0 ? madeInto.join(', ') : '(nothing: it supplied no section to any migrated VM)'}`);
    const state = (v: VmRecord): string => (v.outcome.status === 'migrated' ? '' : v.outcome.status === 'excluded' ? ' (excluded)' : ' (not migrated)');
    out.push(`- VMs it selects: ${users.length === 0 ? '(none given)' : users.map((v) => `${code(v.name)}${state(v)}`).join(', ')}`, '');
  }

  out.push('## Instance types and preferences', '');
  for (const g of r.groups) {
    const scope = g.cluster
      ? 'cluster-wide'
      : g.namespace !== undefined
        ? `namespace ${code(g.namespace)}`
        : 'namespaced (the namespace the base is applied to)';
    out.push(`Generator ${code(g.name)}, ${scope}:`, '');
    for (const o of g.instancetypes) out.push(`- instance type ${code(o.name)} from ${list(o.from)}: ${json(o.spec)}`);
    for (const o of g.preferences) out.push(`- preference ${code(o.name)} from ${list(o.from)}: ${json(o.spec)}`);
    out.push('');
  }

  out.push('## VirtualMachines', '');
  for (const v of migrated) {
    if (v.outcome.status !== 'migrated') continue;
    const o = v.outcome;
    out.push(
      `### ${code(v.name)} (namespace ${code(v.namespace)}): ${o.differences.length === 0 ? 'starts as before' : `${o.differences.length} difference(s)`}`,
      '',
    );
    out.push(`- Presets: ${list(v.presets)}; rewritten VM: ${code(o.file)}`);
    if (v.supplied.length > 0) out.push(`- What they gave it: ${v.supplied.map(([section, preset]) => `${code(section)} from ${code(preset)}`).join(', ')}`);
    out.push(
      `- Instance type: ${o.instancetype !== undefined ? code(o.instancetype) : '(none: its presets gave no resources or CPU)'}; preference: ${o.preference !== undefined ? code(o.preference) : '(none)'}`,
    );
    if (o.plan.remove.length > 0) out.push(`- Removed from the VM (the instance type provides them): ${list(o.plan.remove.map((p) => p.join('.')))}`);
    for (const a of o.plan.add)
      out.push(`- Put on the VM (no instance type or preference field holds it), from ${code(a.preset)}: ${code(a.path.join('.'))} = ${json(a.value)}`);
    for (const n of o.plan.notCarried)
      out.push(
        `- **Not carried**: ${code(n.field)} = ${json(n.value)}${n.preset !== undefined ? ` (from ${code(n.preset)})` : " (the VM's own)"}: ${inline(n.why)}`,
      );
    for (const w of v.warnings) out.push(`- KubeVirt warns at VMI creation today: ${inline(w)}`);
    if (o.differences.length > 0) {
      out.push('', '| field (spec.template.spec) | with presets | migrated |', '| --- | --- | --- |');
      for (const d of o.differences) out.push(`| ${code(d.field)} | ${json(d.before)} | ${json(d.after)} |`);
    }
    out.push('');
  }
  const skipped = r.vms.filter((v) => v.outcome.status === 'skipped');
  if (skipped.length > 0) {
    out.push('## Not migrated: needs a person', '');
    for (const v of skipped)
      if (v.outcome.status === 'skipped')
        out.push(`- ${code(v.name)} (namespace ${code(v.namespace)}, presets ${list(v.presets)}): ${inline(v.outcome.reason)}`);
    out.push('');
  }
  const excluded = r.vms.filter((v) => v.outcome.status === 'excluded');
  if (excluded.length > 0) {
    out.push(
      '## Excluded',
      '',
      'These VMs carry `virtualmachineinstancepresets.admission.kubevirt.io/exclude: "true"` in their template: KubeVirt applies no preset to them, and the migration leaves them alone.',
      '',
    );
    for (const v of excluded) out.push(`- ${code(v.name)} (namespace ${code(v.namespace)})`);
    out.push('');
  }
  const unselected = r.vms.filter((v) => v.outcome.status === 'unselected');
  if (unselected.length > 0) {
    out.push('## Selected by no preset', '');
    for (const v of unselected) out.push(`- ${code(v.name)} (namespace ${code(v.namespace)})`);
    out.push('');
  }
  const vmis = r.vmis.filter((v) => v.presets.length > 0);
  if (vmis.length > 0) {
    out.push(
      '## VirtualMachineInstances',
      '',
      'A VMI cannot name an instance type. These keep what their presets gave them while they run; create them anew from VirtualMachines that name the migrated objects.',
      '',
    );
    for (const v of vmis) out.push(`- ${code(v.name)} (namespace ${code(v.namespace)}), selected by ${list(v.presets)}`);
    out.push('');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
