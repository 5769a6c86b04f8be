import { diag, hasErrors, type Diagnostic } from '../diagnostics';
import { manifestObjects } from '../expand/documents';
import { suggestionFor } from '../expand/references';
import { resizePlan, type ResizePlan } from '../expand/resize';
import { matcherFromName, resizeOptions } from '../expand/resize-options';
import type { JsonObject } from '../json';
import type { Project } from '../project';
import { KINDS_OF, matcherKind } from '../schema/kubevirt-api';
import { fromNote, type Report } from './report';

export interface ResizeOptions {
  /** The VM's file (one VirtualMachine). */
  readonly vm: string;
  /** The instance type to switch to (NAME, or KIND/NAME). */
  readonly to?: string;
  /** The preference to switch to. */
  readonly preference?: string;
  /** Every instance type's outcome for this VM. */
  readonly plan?: boolean;
  /** The running VMI (`kubectl get vmi -o yaml`). */
  readonly vmi?: string;
  /** The running VMI cannot live-migrate. */
  readonly notMigratable?: boolean;
}

export interface ResizeReport extends Report {
  readonly vm?: string;
  readonly to?: { readonly instancetype?: JsonObject; readonly preference?: JsonObject };
  /** `--to`/`--preference`: what the change does. */
  readonly plan?: ResizePlan;
  /** When the new object is not found: the one suggestion (suggestionFor), as validate and the policies give it. */
  readonly suggestion?: string;
  /** `--plan`: every instance type with its outcome; `current` marks the VM's own. */
  readonly options?: readonly { readonly name: string; readonly kind: string; readonly current: boolean; readonly plan: ResizePlan }[];
}

/** `itgen resize`: KubeVirt's webhooks and VM controller on the edited VM, offline. */
export function resize(project: Project, opts: ResizeOptions): ResizeReport {
  const input = project.manifests([opts.vm]);
  const catalogs = project.catalogs('besides');
  const cr = project.kubevirt();
  const diagnostics: Diagnostic[] = [...catalogs.diagnostics, ...input.diagnostics, ...cr.diagnostics];
  let vmi: JsonObject | undefined;
  if (opts.vmi !== undefined) {
    const read = project.manifests([opts.vmi]);
    diagnostics.push(...read.diagnostics);
    vmi = manifestObjects(read.docs).find((f) => f.value['kind'] === 'VirtualMachineInstance')?.value;
    if (!vmi && !hasErrors(read.diagnostics))
      diagnostics.push(
        diag('IT8004', `\`${opts.vmi}\` holds no VirtualMachineInstance`, read.docs[0] ? { file: read.docs[0].file, line: 1, col: 1 } : undefined, {
          hint: 'kubectl get vmi NAME -o yaml > vmi.yaml',
        }),
      );
  }
  const vms = manifestObjects(input.docs).filter((f) => f.value['kind'] === 'VirtualMachine');
  if (vms.length !== 1)
    diagnostics.push(
      diag(
        'IT8004',
        vms.length === 0 ? 'no VirtualMachine found in the input' : `${vms.length} VirtualMachines in the input; resize takes one`,
        input.docs[0] ? { file: input.docs[0].file, line: 1, col: 1 } : undefined,
      ),
    );
  const to: { instancetype?: JsonObject; preference?: JsonObject } = {};
  for (const [flag, v, which] of [
    ['--to', opts.to, 'instancetype'],
    ['--preference', opts.preference, 'preference'],
  ] as const) {
    if (v === undefined) continue;
    const m = matcherFromName(v, which);
    if ('error' in m) diagnostics.push(diag('IT1011', `${flag} ${v}: ${String(m['error'])}`));
    else to[which] = m;
  }
  if (catalogs.blocking || hasErrors(diagnostics)) return { diagnostics, notes: [] };
  const vm = vms[0]!.value;
  const name = String((vm['metadata'] as JsonObject | undefined)?.['name'] ?? '');
  const context = { store: catalogs.store, config: project.config(), ...(opts.notMigratable ? { liveMigratable: false } : {}), ...(vmi ? { vmi } : {}) };
  const notes = fromNote(catalogs.from);
  if (opts.plan) {
    const matcher = (vm['spec'] as JsonObject | undefined)?.['instancetype'] as JsonObject | undefined;
    const options = resizeOptions(vm, context).map((o) => ({
      name: o.name,
      kind: o.kind,
      current: matcher?.['name'] === o.name && o.kind === matcherKind('instancetype', typeof matcher['kind'] === 'string' ? matcher['kind'] : undefined),
      plan: o.plan,
    }));
    return { vm: name, options, diagnostics, notes };
  }
  const plan = resizePlan(vm, to, context);
  const missing = plan.syncError?.reason === 'FailedFindPreference' ? 'preference' : 'instancetype';
  const named = to[missing];
  const suggestion =
    plan.outcome === 'failed' && named && typeof named['name'] === 'string'
      ? suggestionFor(catalogs.store, matcherKind(missing, named['kind']) ?? KINDS_OF[missing].cluster, named['name'])
      : undefined;
  return { vm: name, to, plan, ...(suggestion !== undefined ? { suggestion } : {}), diagnostics, notes };
}

const LIMIT_WORDS: Readonly<Record<string, string>> = {
  instancetype: 'from the instance type',
  cluster: "from the KubeVirt CR's liveUpdateConfiguration",
  'default-ratio': "KubeVirt's default ratio",
};
const SOURCE_WORDS: Readonly<Record<string, string>> = {
  instancetype: 'the instance type',
  preference: 'the preference',
  cluster: "the cluster's configuration",
};

/** `name: outcome: why`, or with `--plan` the instance types grouped by outcome. */
export function resizeText(report: ResizeReport): string {
  if (report.options) {
    const groups: ResizePlan['outcome'][] = ['live', 'pending', 'restart', 'start', 'rejected', 'failed'];
    return groups
      .map((g) => {
        const members = report.options!.filter((o) => o.plan.outcome === g);
        const label = (o: (typeof members)[number]): string =>
          `${o.kind === KINDS_OF.instancetype.namespaced ? 'virtualmachineinstancetype/' : ''}${o.name}${o.current ? ' (current)' : ''}`;
        return members.length === 0 ? '' : `${g} (${members.length}):\n${members.map((o) => `  ${label(o)}: ${resizeWhy(o.plan)}`).join('\n')}`;
      })
      .filter((s) => s !== '')
      .join('\n');
  }
  if (!report.plan) return '';
  const assumed = report.plan.migration?.assumed ?? [];
  return `${report.vm ?? ''}: ${report.plan.outcome}: ${resizeWhy(report.plan)}${report.suggestion !== undefined ? `; ${report.suggestion}` : ''}${assumed.length > 0 ? `; assumed: ${assumed.join('; ')}` : ''}`;
}

/** `resize --to/--preference -o json`: the change and what it does (the plan), or why it was not judged. */
export interface ResizeChangeJson extends Partial<ResizePlan> {
  readonly vm?: string;
  readonly to?: ResizeReport['to'];
  /** When the new object is not found: the one suggestion. */
  readonly suggestion?: string;
}

/** `resize --plan -o json`: every instance type the VM could switch to and what the switch does; `current` marks its own. */
export interface ResizeOptionsJson {
  readonly vm?: string;
  readonly options: readonly (ResizePlan & { readonly instancetype: { readonly name: string; readonly kind: string }; readonly current: boolean })[];
}

/** `resize -o json`. */
export type ResizeJson = ResizeChangeJson | ResizeOptionsJson;

/** The JSON document of a change (`--to`, `--preference`): the plan, or why there is none. */
export function resizeChange(report: ResizeReport): ResizeChangeJson {
  return {
    ...(report.vm !== undefined ? { vm: report.vm } : {}),
    ...(report.to ? { to: report.to } : {}),
    ...report.plan,
    ...(report.suggestion !== undefined ? { suggestion: report.suggestion } : {}),
  };
}

/** The JSON of a resize report, as `-o json` prints it. */
export function resizeJson(report: ResizeReport): string {
  const doc: ResizeJson = report.options
    ? {
        ...(report.vm !== undefined ? { vm: report.vm } : {}),
        options: report.options.map((o) => ({ instancetype: { name: o.name, kind: o.kind }, current: o.current, ...o.plan })),
      }
    : resizeChange(report);
  return JSON.stringify(doc, null, 2);
}

/** Why, in KubeVirt's words first, then what KubeVirt does not say. */
export function resizeWhy(p: ResizePlan): string {
  switch (p.outcome) {
    case 'rejected':
      return `KubeVirt's admission refuses it: ${p.admission.causes.map((c) => c.message).join(', ')}`;
    case 'failed':
      return `admitted, but the VM controller cannot apply it (${p.syncError?.reason ?? ''}): ${p.syncError?.message ?? ''}`;
    case 'start':
      return `the VM does not run now (${p.notRunning?.reason ?? ''}: ${p.notRunning?.message ?? ''}); KubeVirt starts it with the new objects`;
    case 'restart': {
      const r = p.restartRequired;
      const set = (r?.fields ?? []).map((f, i) => `${f} (${SOURCE_WORDS[r!.sources[i] ?? 'cluster']})`).join(', ');
      return `RestartRequired: "${r?.message ?? ''}"; set by ${set}${p.toLive !== undefined ? `; live with ${p.toLive}` : ''}`;
    }
    default: {
      if (p.syncError) return `the VM controller retries: ${p.syncError.message}; live once ${p.toLive ?? ''}`;
      const limit = (h: { from: unknown; to: unknown; max?: unknown; maxFrom?: string }, what: string): string =>
        `${what} ${String(h.from)} -> ${String(h.to)} (at most ${String(h.max ?? '?')}, ${LIMIT_WORDS[h.maxFrom ?? 'default-ratio']})`;
      const parts = [...(p.hotplug.sockets ? [limit(p.hotplug.sockets, 'CPU sockets')] : []), ...(p.hotplug.memory ? [limit(p.hotplug.memory, 'memory')] : [])];
      if (parts.length === 0) return 'nothing to change on the running VM';
      return `${parts.join(', ')}${p.outcome === 'live' ? ', hotplugged through a live migration' : `; the hotplug waits for a live migration the cluster does not do: live with ${p.toLive ?? ''}`}`;
    }
  }
}
