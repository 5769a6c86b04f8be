/**
 * Release notes from the release lock: what each release added (with the resources and features
 * that set an object apart), deprecated (with its replacement), removed, and changed in place
 * through a reviewed override (with the reason the lock keeps), per kind, newest release first.
 * The lock is the record; the current catalog adds what the lock does not hold (specs, the
 * replacement a deprecation names). Existing locks give notes for all their past releases.
 */
import { type JsonObject } from '../json';
import { formatBinary, parseQuantity } from '../quantity';
import { features } from '../render/docs';
import type { RenderedObject } from '../render/manifests';

import { KIND_ORDER } from '../schema/kubevirt-api';
import type { ReleaseLock } from '../schema/lock';
import { compareText } from '../order';
import { md } from './review';
import { LOCK_KINDS } from '../schema/kubevirt-api';
import { compareVersions } from './lock';

export interface NoteEntry {
  readonly kind: string;
  readonly name: string;
  /** `2 vCPUs, 4Gi, dedicated CPUs`; `use u2.large`; the reason of an override. */
  readonly detail?: string;
}

export interface ReleaseSection {
  readonly version: string;
  readonly added: readonly NoteEntry[];
  readonly deprecated: readonly NoteEntry[];
  readonly removed: readonly NoteEntry[];
  readonly changed: readonly NoteEntry[];
  /** The npm packages (and versions) the release imported catalogs from, with the version before when it moved. */
  readonly imports?: readonly { readonly package: string; readonly version: string; readonly before?: string }[];
}

function describe(o: RenderedObject | undefined): string | undefined {
  if (!o) return undefined;
  const spec = o.manifest.spec as unknown as JsonObject;
  if (o.source.kind === 'instancetype') {
    const cpu = (spec['cpu'] as JsonObject | undefined)?.['guest'];
    const memory = (spec['memory'] as JsonObject | undefined)?.['guest'];
    const bytes = typeof memory === 'string' ? parseQuantity(memory) : undefined;
    return [`${String(cpu)} vCPU${cpu === 1 ? '' : 's'}`, bytes !== undefined ? formatBinary(bytes) : String(memory), ...features(spec)].join(', ');
  }
  return o.source.displayName;
}

/** The sections of the lock's releases, newest first; with `since`, only the releases after it. */
export function releaseNotes(lock: ReleaseLock, objects: readonly RenderedObject[], since?: string): ReleaseSection[] {
  const byKey = new Map<string, RenderedObject>(objects.map((o) => [`${o.manifest.kind}/${o.manifest.metadata.name}`, o] as const));
  // The catalog's kinds in their order, then the templates.
  const rank = (kind: string): number => [...KIND_ORDER, 'VirtualMachineTemplate'].indexOf(kind);
  const order = (a: NoteEntry, b: NoteEntry): number => rank(a.kind) - rank(b.kind) || compareText(a.name, b.name);
  const versions = [...lock.releases].filter((v) => since === undefined || compareVersions(v, since) > 0).reverse();
  return versions.map((version) => {
    const added: NoteEntry[] = [];
    const deprecated: NoteEntry[] = [];
    const removed: NoteEntry[] = [];
    const changed: NoteEntry[] = [];
    for (const o of lock.objects) {
      const current = byKey.get(`${o.kind}/${o.name}`);
      const entry = (detail: string | undefined): NoteEntry => ({ kind: o.kind, name: o.name, ...(detail !== undefined ? { detail } : {}) });
      if (o.released === version) added.push(entry(describe(current)));
      if (o.deprecated === version) {
        const replacement = current?.source.deprecated?.replacement;
        deprecated.push(entry(replacement !== undefined ? `use ${replacement}` : undefined));
      }
      if (o.removed === version) removed.push(entry(o.removedReason));
      for (const c of o.changed ?? []) if (c.release === version) changed.push(entry(c.reason));
    }
    const earlier = (pkg: string): string | undefined =>
      [...(lock.imports ?? [])].reverse().find((x) => x.package === pkg && compareVersions(x.release, version) < 0)?.version;
    const imports = (lock.imports ?? [])
      .filter((x) => x.release === version)
      .map((x) => {
        const before = earlier(x.package);
        return { package: x.package, version: x.version, ...(before !== undefined && before !== x.version ? { before } : {}) };
      });
    return {
      version,
      added: added.sort(order),
      deprecated: deprecated.sort(order),
      removed: removed.sort(order),
      changed: changed.sort(order),
      ...(imports.length > 0 ? { imports } : {}),
    };
  });
}

const TITLES: readonly [keyof Omit<ReleaseSection, 'version' | 'imports'>, string][] = [
  ['added', 'Added'],
  ['deprecated', 'Deprecated'],
  ['removed', 'Removed'],
  ['changed', 'Changed in place (reviewed overrides)'],
];

/** The notes as Markdown: a section per release, newest first, a list per change and kind. */
export function notesMarkdown(generator: string, sections: readonly ReleaseSection[]): string {
  const out = [`# Changelog of ${md(generator, { table: false })}`, '', '<!-- Written by itgen from the release lock; do not edit. -->', ''];
  if (sections.length === 0) out.push('No release recorded yet.', '');
  for (const s of sections) {
    out.push(`## ${s.version}`, '');
    if (s.imports && s.imports.length > 0)
      out.push(
        `Imported catalogs from ${s.imports.map((x) => `${md(x.package, { table: false })} ${md(x.version, { table: false })}${x.before !== undefined ? ` (was ${md(x.before, { table: false })})` : ''}`).join(', ')}.`,
        '',
      );
    let any = false;
    for (const [key, title] of TITLES) {
      const entries = s[key];
      if (entries.length === 0) continue;
      any = true;
      out.push(`### ${title}`, '');
      const kinds = [...new Set(entries.map((e) => e.kind))];
      for (const kind of kinds) {
        const mine = entries.filter((e) => e.kind === kind);
        // A kind the lock's schema admits is one of four fixed words; anything else is input text.
        out.push(`- ${(LOCK_KINDS as readonly string[]).includes(kind) ? kind : md(kind, { table: false })} (${mine.length}):`);
        for (const e of mine)
          out.push(`  - ${md(e.name, { table: false })}${e.detail !== undefined && e.detail !== '' ? `: ${md(e.detail, { table: false, max: 300 })}` : ''}`);
      }
      out.push('');
    }
    if (!any) out.push('No object changes.', '');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

export const CHANGELOG_FILE = 'CHANGELOG.md';
