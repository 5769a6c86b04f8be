/**
 * Reviewing a catalog change: the semantic diff as a pull-request comment (Markdown) or data
 * (JSON), and which VirtualMachines a change touches: what each becomes at its next start
 * (expanded before and after), whether KubeVirt still admits it, and what a removal or
 * deprecation means for it. Everything here reads objects and VMs; nothing is written.
 *
 * The resizes a change causes are review-resize.ts.
 */
import { type Json, type JsonObject, obj } from '../json';
import { diag, type Diagnostic } from '../diagnostics';
import type { KubeObject } from '../emit/committed';
import { expandDocuments, objectStore } from '../expand';
import { mergeStores, withRemovedNames } from '../expand/references';
import { manifestObjects } from '../expand/documents';
import { judgeDocuments, type Judging } from '../expand/judging';

import { locate, parseSource, type SourceDoc } from '../load/source';
import { compareText } from '../order';

import { diffFields, type FieldChange, type ObjectDiff } from './diff';
import type { CompileResult } from '../pipeline';
import { KINDS_OF, matcherKind } from '../schema/kubevirt-api';

/** The resources a reviewer compares: what a VM gets from an instance type. */
export interface Resources {
  readonly vcpu?: number;
  readonly memory?: string;
  readonly hugepages?: string;
  readonly dedicatedCpus?: boolean;
  readonly gpus?: number;
}

export function resourcesOf(o: KubeObject | undefined): Resources {
  const spec = obj(o?.['spec']);
  if (!o || !o.kind.endsWith('Instancetype') || !spec) return {};
  const cpu = obj(spec['cpu']);
  const memory = obj(spec['memory']);
  const gpus = spec['gpus'];
  return {
    ...(typeof cpu?.['guest'] === 'number' ? { vcpu: cpu['guest'] } : {}),
    ...(typeof memory?.['guest'] === 'string' || typeof memory?.['guest'] === 'number' ? { memory: String(memory['guest']) } : {}),
    ...(typeof obj(memory?.['hugepages'])?.['pageSize'] === 'string' ? { hugepages: obj(memory!['hugepages'])!['pageSize'] as string } : {}),
    ...(cpu?.['dedicatedCPUPlacement'] === true ? { dedicatedCpus: true } : {}),
    ...(Array.isArray(gpus) && gpus.length > 0 ? { gpus: gpus.length } : {}),
  };
}

/** A row of the review: the change, the resources before and after, the changed fields. */
export interface ReviewedChange extends ObjectDiff {
  readonly before: Resources;
  readonly after: Resources;
}

export function reviewedChanges(diffs: readonly ObjectDiff[], before: readonly KubeObject[], after: readonly KubeObject[]): ReviewedChange[] {
  const key = (kind: string, name: string): string => `${kind}\u0000${name}`;
  const b = new Map(before.map((o) => [key(o.kind, o.metadata.name), o] as const));
  const a = new Map(after.map((o) => [key(o.kind, o.metadata.name), o] as const));
  return diffs.map((d) => ({ ...d, before: resourcesOf(b.get(key(d.kind, d.name))), after: resourcesOf(a.get(key(d.kind, d.name))) }));
}

export { md } from '../printable';
import { md } from '../printable';

const code = (s: string): string => md(s);

function valueText(v: Json | undefined): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function resourceCell(before: Resources, after: Resources, key: keyof Resources, show: (v: NonNullable<Resources[keyof Resources]>) => string): string {
  const b = before[key];
  const a = after[key];
  if (a === undefined && b === undefined) return '';
  // The values come from committed objects: a plain number or quantity as it is, anything else a
  // code span like every input text.
  const cell = (v: NonNullable<Resources[keyof Resources]>): string => {
    const text = show(v);
    return /^[0-9]{1,12}(?:\.[0-9]{1,6})?(?:[KMGTPE]i?|[mk])?$/.test(text) || text === 'yes' ? text : md(text, { max: 40 });
  };
  if (a === b || b === undefined || a === undefined) return cell((a ?? b)!);
  return `${cell(b)} → ${cell(a)}`;
}

const KIND_SHORT: Readonly<Record<string, string>> = {
  VirtualMachineClusterInstancetype: 'cluster instance type',
  VirtualMachineInstancetype: 'instance type',
  VirtualMachineClusterPreference: 'cluster preference',
  VirtualMachinePreference: 'preference',
};

export interface MarkdownOptions {
  /** Rows shown before the table is cut with a count (GitHub comments hold 65,536 characters). */
  readonly maxRows?: number;
  /** Changed fields shown per object. */
  readonly maxFields?: number;
  /** Tables longer than this are folded in a <details> block. */
  readonly foldAbove?: number;
}

/** One generator's change as Markdown: a summary line, then a table folded when long and cut beyond `maxRows`. */
export function diffMarkdown(title: string, changes: readonly ReviewedChange[], opts: MarkdownOptions = {}): string {
  const maxRows = opts.maxRows ?? 100;
  const maxFields = opts.maxFields ?? 3;
  const foldAbove = opts.foldAbove ?? 15;
  const count = (c: ObjectDiff['change']): number => changes.filter((x) => x.change === c).length;
  const summary = `**${md(title, { table: false })}**: ${count('added')} added, ${count('removed')} removed, ${count('changed')} changed`;
  if (changes.length === 0) return `${summary} — no object changes.\n`;
  const rows = changes.slice(0, maxRows).map((c) => {
    const fields = c.fields
      .slice(0, maxFields)
      .map((f: FieldChange) => `${md(f.path, { max: 120 })}: ${code(valueText(f.before))} → ${code(valueText(f.after))}`)
      .join('<br>');
    const more = c.fields.length > maxFields ? `<br>and ${c.fields.length - maxFields} more` : '';
    return `| ${c.change} | ${Object.hasOwn(KIND_SHORT, c.kind) ? KIND_SHORT[c.kind] : code(c.kind)} | ${code(c.name)} | ${resourceCell(c.before, c.after, 'vcpu', String)} | ${resourceCell(c.before, c.after, 'memory', String)} | ${resourceCell(c.before, c.after, 'hugepages', String)} | ${resourceCell(c.before, c.after, 'dedicatedCpus', () => 'yes')} | ${resourceCell(c.before, c.after, 'gpus', String)} | ${fields}${more} |`;
  });
  const table = [
    '| change | kind | name | vCPU | memory | hugepages | dedicated CPUs | GPUs | changed fields |',
    '| --- | --- | --- | ---: | ---: | --- | --- | ---: | --- |',
    ...rows,
    ...(changes.length > maxRows ? [`\n… and ${changes.length - maxRows} more changes: run \`itgen diff\` to see them all.`] : []),
  ].join('\n');
  return changes.length > foldAbove
    ? `${summary}\n\n<details><summary>${changes.length} object changes</summary>\n\n${table}\n\n</details>\n`
    : `${summary}\n\n${table}\n`;
}

// ---------------------------------------------------------------------------------------------
// Which VMs a change touches

export interface VmImpact {
  readonly file: string;
  readonly vm: string;
  /** The objects it names that the change touches, and how. */
  readonly touched: readonly { readonly kind: string; readonly name: string; readonly change: 'removed' | 'deprecated' | 'changed' }[];
  /** Fields of the expanded VM that differ at its next start. */
  readonly fields: readonly FieldChange[];
  readonly admittedBefore: boolean;
  readonly admittedAfter: boolean;
  /** The VM runs on a ControllerRevision: the change reaches it only when it restarts with the revision cleared. */
  readonly pinned: boolean;
}

export interface ImpactOptions {
  /** Whether an object was shipped deprecated in an earlier release (the lock says); the removal's message says so. */
  readonly deprecatedEarlier?: (kind: string, name: string) => boolean;
  /** The replacement a deprecated object names, as the catalog says (after the generator's prefix). */
  readonly replacementOf?: (kind: string, name: string) => string | undefined;
}

/** The object a VM's matcher names, as kind and name (cluster kinds by default). */
function named(vm: JsonObject, which: 'instancetype' | 'preference'): { kind: string; name: string } | undefined {
  const m = obj(obj(vm['spec'])?.[which]);
  if (!m || typeof m['name'] !== 'string') return undefined;
  // A kind KubeVirt refuses is judged as the cluster kind (admission says the rest).
  return { kind: matcherKind(which, typeof m['kind'] === 'string' ? m['kind'] : undefined) ?? KINDS_OF[which].cluster, name: m['name'] };
}

/**
 * For VMs kept in Git: which of them reference objects the change removes, deprecates or changes,
 * what each becomes at its next start, and whether KubeVirt still admits it. Diagnostics: IT8301
 * (error) a VM loses an object (deprecated before or not), or is no longer admitted; IT8302
 * (warning) a VM on an object that is deprecated now (naming its replacement); IT8303 (warning) a
 * VM whose expansion changes. `judgeVms` judges every VM, touched or not.
 *
 * Over 80 lines: one pass over the VMs, each expanded before and after the change.
 */
export function vmImpact(
  vmDocs: readonly SourceDoc[],
  before: readonly KubeObject[],
  after: readonly KubeObject[],
  opts: ImpactOptions = {},
): { impacts: VmImpact[]; unaffected: number; diagnostics: Diagnostic[] } {
  const key = (kind: string, name: string): string => `${kind}\u0000${name}`;
  const b = new Map(before.map((o) => [key(o.kind, o.metadata.name), o] as const));
  const a = new Map(after.map((o) => [key(o.kind, o.metadata.name), o] as const));
  const beforeStore = objectStore(before as unknown as JsonObject[]);
  const afterStore = objectStore(after as unknown as JsonObject[]);
  const impacts: VmImpact[] = [];
  const diagnostics: Diagnostic[] = [];
  let unaffected = 0;
  for (const f of manifestObjects(vmDocs).filter((x) => x.value['kind'] === 'VirtualMachine')) {
    const vm = f.value;
    const name = String(obj(vm['metadata'])?.['name'] ?? '(unnamed)');
    const touched: VmImpact['touched'][number][] = [];
    const at = (which: string): ReturnType<typeof locate> => locate(f.src, [...f.path, 'spec', which, 'name']);
    for (const which of ['instancetype', 'preference'] as const) {
      const ref = named(vm, which);
      if (!ref) continue;
      const old = b.get(key(ref.kind, ref.name));
      const now = a.get(key(ref.kind, ref.name));
      if (!old && !now) continue;
      if (old && !now) {
        touched.push({ ...ref, change: 'removed' });
        // An error even after a deprecation release: GitOps prunes the object, and the VM, which
        // still names it, is no longer admitted as it is and never starts again.
        const earlier = opts.deprecatedEarlier?.(ref.kind, ref.name) ?? false;
        // The one suggestion: the replacement its deprecation named (the lock's, or the bundle's annotation).
        const replacement = opts.replacementOf?.(ref.kind, ref.name);
        diagnostics.push(
          diag(
            'IT8301',
            `VirtualMachine \`${name}\` uses ${ref.kind} \`${ref.name}\`, which this change removes${earlier ? ' (it was released deprecated before, but this VM still uses it)' : ' without a release that shipped it deprecated'}`,
            at(which),
            {
              hint:
                replacement !== undefined
                  ? `move the VM to \`${replacement}\`, its replacement, before the removal reaches the clusters`
                  : 'move the VM to the replacement before the removal reaches the clusters, or keep the object deprecated for another release',
            },
          ),
        );
        continue;
      }
      const labels = obj(obj(now?.['metadata'])?.['labels']);
      const deprecatedNow = labels?.['instancetype.kubevirt.io/deprecated'] === 'true';
      const wasDeprecated = obj(obj(old?.['metadata'])?.['labels'])?.['instancetype.kubevirt.io/deprecated'] === 'true';
      if (deprecatedNow) {
        // Newly deprecated, the change touches the VM; deprecated before, it is still worth saying.
        if (!wasDeprecated) touched.push({ ...ref, change: 'deprecated' });
        const replacement = opts.replacementOf?.(ref.kind, ref.name);
        diagnostics.push(
          diag(
            'IT8302',
            `VirtualMachine \`${name}\` uses ${ref.kind} \`${ref.name}\`, which ${wasDeprecated ? 'is deprecated' : 'this change deprecates'}`,
            at(which),
            {
              severity: 'warning',
              hint: typeof replacement === 'string' ? `move it to \`${replacement}\`` : 'move it to the replacement the release notes name',
            },
          ),
        );
      }
      if (old && now && diffFields(obj(old['spec']) ?? {}, obj(now['spec']) ?? {}).length > 0) touched.push({ ...ref, change: 'changed' });
    }
    if (touched.length === 0) {
      unaffected++;
      continue;
    }
    // At its next start with the revision cleared: a VM pinned to a ControllerRevision gets the object as it is then.
    const unpinned = unpin(vm);
    const doc = unpinned === vm ? f.src : parseSource(f.src.file, Buffer.from(JSON.stringify(unpinned))).docs[0]!;
    const run = (store: typeof beforeStore): { vm?: JsonObject; refused: boolean } => {
      const out = expandDocuments([doc], store, { admission: true, mutate: 'stored' }).outcomes.find((o) => o.name === name);
      return { ...(out?.vm ? { vm: out.vm } : {}), refused: (out?.diagnostics ?? []).some((d) => d.severity === 'error') };
    };
    const was = run(beforeStore);
    const will = run(afterStore);
    const fields = was.vm && will.vm ? diffFields(was.vm as Json, will.vm as Json) : [];
    const matcher = (which: string): JsonObject | undefined => obj(obj(vm['spec'])?.[which]);
    const pinned =
      typeof matcher('instancetype')?.['revisionName'] === 'string' ||
      typeof matcher('preference')?.['revisionName'] === 'string' ||
      obj(obj(vm['status'])?.['instancetypeRef'])?.['controllerRevisionRef'] !== undefined ||
      obj(obj(vm['status'])?.['preferenceRef'])?.['controllerRevisionRef'] !== undefined;
    impacts.push({ file: f.src.file, vm: name, touched, fields, admittedBefore: !was.refused, admittedAfter: !will.refused, pinned });
    const where = locate(f.src, [...f.path, 'metadata', 'name']);
    if (!was.refused && will.refused && !touched.some((t) => t.change === 'removed')) {
      diagnostics.push(
        diag('IT8301', `VirtualMachine \`${name}\` is admitted today and would no longer be after this change`, where, {
          hint: "run `itgen expand` on it against the new objects to see KubeVirt's refusal",
        }),
      );
    } else if (fields.length > 0) {
      diagnostics.push(
        diag(
          'IT8303',
          `VirtualMachine \`${name}\` changes at its ${pinned ? 'next start with its ControllerRevision cleared (it runs on a stored revision until then)' : 'next start'}: ${fields
            .slice(0, 4)
            .map((x) => `${x.path} ${valueText(x.before)} -> ${valueText(x.after)}`)
            .join(', ')}${fields.length > 4 ? ` and ${fields.length - 4} more` : ''}`,
          where,
          { severity: 'warning' },
        ),
      );
    }
  }
  impacts.sort((x, y) => compareText(x.file, y.file) || compareText(x.vm, y.vm));
  return { impacts, unaffected, diagnostics };
}

/** The VM without its ControllerRevision pins (matcher `revisionName`, the status refs), or the VM itself when it has none. */
function unpin(vm: JsonObject): JsonObject {
  const spec = obj(vm['spec']);
  const pinned = (['instancetype', 'preference'] as const).some((w) => obj(spec?.[w])?.['revisionName'] !== undefined) || vm['status'] !== undefined;
  if (!pinned) return vm;
  const out: JsonObject = { ...vm, spec: { ...spec } };
  for (const w of ['instancetype', 'preference'] as const) {
    const m = obj(spec?.[w]);
    if (m?.['revisionName'] !== undefined) {
      const { revisionName: _, ...rest } = m;
      (out['spec'] as JsonObject)[w] = rest;
    }
  }
  delete out['status'];
  return out;
}

/** The VM impact as Markdown, for the same comment as the diff. */
export function impactMarkdown(impacts: readonly VmImpact[], unaffected: number, maxRows = 100): string {
  if (impacts.length === 0) return `**VMs**: none of the ${unaffected} VMs given uses an object this change touches.\n`;
  const rows = impacts.slice(0, maxRows).map(
    (i) =>
      `| ${code(i.vm)} | ${code(i.file)} | ${i.touched.map((t) => `${t.change} ${code(t.name)}`).join(', ')} | ${i.admittedBefore ? 'yes' : 'no'} → ${i.admittedAfter ? 'yes' : '**no**'} | ${
        i.fields.length === 0
          ? '—'
          : `${i.fields.length} field${i.fields.length === 1 ? '' : 's'}: ${i.fields
              .slice(0, 3)
              .map((x) => code(x.path))
              .join(', ')}`
      }${i.pinned ? ' (at restart with its revision cleared)' : ''} |`,
  );
  return [
    `**VMs**: ${impacts.length} touched, ${unaffected} unaffected`,
    '',
    '| VM | file | what changes for it | admitted | at its next start |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    ...(impacts.length > maxRows ? [`\n… and ${impacts.length - maxRows} more VMs: run \`itgen diff --vms\` to see them all.`] : []),
    '',
  ].join('\n');
}

/** What the lock and the catalog of a compiled generator say about objects a VM uses: deprecated in an earlier release, and the replacement. */
export function impactOptions(r: CompileResult): ImpactOptions {
  const locked = new Map<string, { deprecated?: string | undefined }>((r.lock?.lock.objects ?? []).map((o) => [`${o.kind}/${o.name}`, o]));
  // The catalog's word for what it still deprecates, else the lock's for what it recorded (a removed object's).
  const replacements = new Map<string, string>([
    ...(r.lock?.lock.objects ?? []).flatMap((o) => (o.replacement !== undefined ? [[`${o.kind}/${o.name}`, o.replacement] as [string, string]] : [])),
    ...r.objects.flatMap((o) =>
      o.source.deprecated?.replacement ? [[`${o.manifest.kind}/${o.manifest.metadata.name}`, o.source.deprecated.replacement] as [string, string]] : [],
    ),
  ]);
  return {
    deprecatedEarlier: (kind, name) => locked.get(`${kind}/${name}`)?.deprecated !== undefined,
    replacementOf: (kind, name) => replacements.get(`${kind}/${name}`),
  };
}

/**
 * Every VM kept in Git judged as KubeVirt would judge it when GitOps applies it (the API server's
 * version mapping and schema, the mutating and validating webhooks, expand-spec, and where its pod
 * would run), against `objects` (what the project generates, every generator) plus the objects the
 * VM files themselves hold. What `vmImpact` already reported for a VM the change touches
 * (`reported`, by file and name) is not said twice.
 */
export function judgeVms(
  vmDocs: readonly SourceDoc[],
  objects: readonly KubeObject[],
  judging: Judging,
  reported: readonly VmImpact[] = [],
  locked: Parameters<typeof withRemovedNames>[1] = [],
): Diagnostic[] {
  const skip = new Set(reported.filter((i) => !i.admittedAfter).map((i) => `${i.file}\u0000${i.vm}`));
  const own = objectStore(objects as unknown as JsonObject[]);
  const store = withRemovedNames(judging.besides ? mergeStores(own, judging.besides) : own, locked);
  return judgeDocuments(vmDocs, store, { admission: true, revisionsInCluster: true }, judging, (o) => !skip.has(`${o.file}\u0000${o.name}`));
}

/**
 * What refuses the change, as the first section of the comment: a reviewer reading only the
 * comment sees "this change is refused" and why (a lock error, a VM no longer admitted), each
 * finding with its place, at most `max` of them.
 */
export function problemsMarkdown(diagnostics: readonly Diagnostic[], max = 20): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const warnings = diagnostics.length - errors.length;
  if (diagnostics.length === 0) return '';
  const head =
    errors.length > 0
      ? `**This change is refused**: ${errors.length} error${errors.length === 1 ? '' : 's'}${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.`
      : `**${warnings} warning${warnings === 1 ? '' : 's'}** (the change is not refused).`;
  const shown = [...errors, ...diagnostics.filter((d) => d.severity !== 'error')].slice(0, max);
  const lines = shown.map((d) => {
    const at = d.location ? `${d.location.file}:${d.location.line}:${d.location.col}` : '';
    return `- ${d.severity} ${d.code}${at ? ` at ${md(at, { table: false, max: 160 })}` : ''}: ${md(d.message, { table: false, max: 300 })}`;
  });
  const more = diagnostics.length > max ? [`- … and ${diagnostics.length - max} more: run \`itgen validate\` to see them all.`] : [];
  return [head, '', ...lines, ...more, ''].join('\n');
}

/** GitHub refuses a comment body over 65,536 characters; the review stays well inside. */
export const COMMENT_LIMIT = 60_000;

/** A review within `limit` characters: cut at a line, saying that it was cut and where the rest is. */
export function boundedComment(body: string, limit = COMMENT_LIMIT): string {
  if (body.length <= limit) return body;
  const note =
    "\n\n… the review is longer than a comment may be and was cut here: the full review is in the workflow run's `itgen-review` artifact, or run `itgen diff -o markdown`.\n";
  const cut = body.lastIndexOf('\n', limit - note.length);
  return `${body.slice(0, Math.max(cut, 0))}${note}`;
}
