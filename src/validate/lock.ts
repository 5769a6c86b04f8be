/**
 * The release lock's check while compiling: the objects as the lock sees them (spec digests) and
 * what a change may not do to what was released (IT7101-IT7107), with the overrides that allow it.
 * Recording a release and writing the lock are release/lock.ts's.
 *
 * The lock held to what was published (IT7109) is lock-history.ts.
 */
import { isPlainObject } from '../json';
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';
import { specDigest } from '../digest';
import { locate, type SourceDoc } from '../load/source';
import { LABEL_PREFIX, type RenderedObject } from '../render/manifests';
import { originOf } from '../resolve/leaves';
import type { LockKind } from '../schema/kubevirt-api';
import type { JsonObject } from '../json';
import type { LockOverride, LockedObject, ReleaseLock } from '../schema/lock';
import { groupBy } from './context';
import { compareVersions } from '../version';

export interface LoadedLock {
  /** Project-relative path of the lock file. */
  readonly file: string;
  readonly lock: ReleaseLock;
  readonly src: SourceDoc;
}

/** One object as the lock sees it. */
export interface CurrentObject {
  readonly kind: LockKind;
  readonly name: string;
  readonly digest: string;
  readonly deprecated: boolean;
  /** The replacement its deprecation names, when it does. */
  readonly replacement?: string | undefined;
  /** Where the object was declared, for diagnostics; computed only when one is reported. */
  readonly location: () => SourceRange | undefined;
}

export function lockFileFor(generatorFile: string, generatorName: string): string {
  const dir = generatorFile.includes('/') ? generatorFile.slice(0, generatorFile.lastIndexOf('/') + 1) : '';
  return `${dir}${generatorName}.lock.yaml`;
}

/**
 * The objects as the lock sees them. With the committed specs (`previous`, by kind/name), a changed
 * object is located at the first field that differs from what was committed, where the catalog
 * sets it (a size override, say), instead of at the family.
 */
export function currentObjects(objects: readonly RenderedObject[], previous?: Pick<ReadonlyMap<string, unknown>, 'get'>): CurrentObject[] {
  const digests = new Map<object, string>();
  return objects.map((o) => {
    let digest = digests.get(o.manifest.spec);
    if (digest === undefined) {
      digest = specDigest(o.manifest.spec);
      digests.set(o.manifest.spec, digest);
    }
    return {
      kind: o.manifest.kind,
      name: o.manifest.metadata.name,
      digest,
      deprecated: o.manifest.metadata.labels?.[`${LABEL_PREFIX}deprecated`] === 'true',
      ...(o.source.deprecated?.replacement !== undefined ? { replacement: o.source.deprecated.replacement } : {}),
      location: () => {
        const before = previous?.get(key(o.manifest.kind, o.manifest.metadata.name));
        const changed = before === undefined ? undefined : firstDifference(before, o.manifest.spec, []);
        const leaf = changed !== undefined && changed.length > 0 ? originOf(o.source.leaves, changed) : undefined;
        return leaf ? locate(leaf.origin.src, leaf.origin.path) : locate(o.source.origin.src, o.source.origin.path);
      },
    };
  });
}

/** A generator's shipped VirtualMachineTemplates as the lock sees them (located at the generator's `templates`). */
export function currentTemplates(templates: readonly JsonObject[] | undefined, location: () => SourceRange | undefined): CurrentObject[] {
  return (templates ?? []).map((t) => ({
    kind: 'VirtualMachineTemplate',
    name: String((t['metadata'] as JsonObject | undefined)?.['name'] ?? ''),
    digest: specDigest(t['spec'] as never),
    deprecated: false,
    location,
  }));
}

/** How the lock keys an object: kind and name. */
export const key = (kind: string, name: string): string => `${kind}/${name}`;

/** The path of the first field where two specs differ (keys in the new spec's order), or undefined. */
function firstDifference(before: unknown, after: unknown, path: string[]): string[] | undefined {
  const isObj = isPlainObject;
  if (isObj(before) && isObj(after)) {
    for (const k of [...Object.keys(after), ...Object.keys(before).filter((x) => !(x in after))]) {
      const d = firstDifference(before[k], after[k], [...path, k]);
      if (d) return d;
    }
    return undefined;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : path;
}

/** The override of the lock that allows `allow` for this object, and its index. */
export function overrideFor(
  overrides: readonly LockOverride[],
  entry: { kind: string; name: string },
  allow: LockOverride['allow'],
): { o: LockOverride; i: number } | undefined {
  const i = overrides.findIndex((o) => o.allow === allow && o.name === entry.name && (o.kind === undefined || o.kind === entry.kind));
  return i < 0 ? undefined : { o: overrides[i]!, i };
}

export interface LockCheck {
  readonly diagnostics: Diagnostic[];
  /** Indexes of overrides that allowed something. */
  readonly usedOverrides: ReadonlySet<number>;
}

/**
 * Published objects that are gone, reported once per cause: a rename of everything (a `namePrefix`
 * added after a release: every name is now `<prefix><name>`) as one error saying so; otherwise one
 * error per name (its cluster and namespaced kinds together), or one listing them past ten.
 */
function goneReport(gone: readonly { entry: LockedObject; entryAt: SourceRange }[], current: readonly CurrentObject[], lock: ReleaseLock): Diagnostic[] {
  if (gone.length === 0) return [];
  const published = new Set(lock.objects.map((o) => o.name));
  const fresh = current.filter((c) => !published.has(c.name));
  const renamed = gone.map((g) => ({ g, to: fresh.find((c) => c.kind === g.entry.kind && c.name !== g.entry.name && c.name.includes(g.entry.name)) }));
  const matched = renamed.filter((r) => r.to !== undefined);
  const first = gone[0]!;
  const hint =
    'VMs may still reference them and GitOps pruning deletes them: mark them deprecated (with a replacement) for one release before removing them, or add reviewed `overrides:` entries with `allow: removal`';
  if (gone.length > 2 && matched.length >= gone.length * 0.8) {
    const ex = matched[0]!;
    return [
      diag(
        'IT7102',
        `${gone.length} published objects are gone because their names changed (\`${ex.g.entry.name}\` is now \`${ex.to!.name}\`): a name prefix, suffix or naming pattern added after a release renames every object`,
        first.entryAt,
        {
          hint: 'keep the published names (remove the namePrefix or naming change), or ship the renamed objects beside the old ones and deprecate the old ones for a release first',
        },
      ),
    ];
  }
  const byName = groupBy(gone, (g) => g.entry.name);
  const describe = (group: readonly { entry: LockedObject }[]): string => `\`${group[0]!.entry.name}\` (${group.map((g) => g.entry.kind).join(', ')})`;
  if (byName.length > 10) {
    return [
      diag(
        'IT7102',
        `${byName.length} published objects are gone without having been released deprecated: ${byName
          .slice(0, 10)
          .map(describe)
          .join(', ')} and ${byName.length - 10} more`,
        first.entryAt,
        { hint },
      ),
    ];
  }
  return byName.map((group) =>
    diag('IT7102', `${describe(group)}, published in ${group[0]!.entry.released}, is gone without having been released deprecated`, group[0]!.entryAt, {
      hint: 'VMs may still reference it and GitOps pruning deletes it: mark it deprecated (with a replacement) for one release before removing it, or add a reviewed `overrides:` entry with `allow: removal`',
    }),
  );
}

/**
 * Compare what the catalog generates now with what has been published.
 *
 * Over 80 lines: the lock's rules over one object at a time, in the order the lock states them.
 */
export function checkLock(loaded: LoadedLock, generatorName: string, current: readonly CurrentObject[]): LockCheck {
  const { lock, src } = loaded;
  const out: Diagnostic[] = [];
  const used = new Set<number>();
  if (lock.metadata.name !== generatorName) {
    out.push(
      diag(
        'IT7106',
        `release lock \`${loaded.file}\` belongs to generator \`${lock.metadata.name}\`, not \`${generatorName}\``,
        locate(src, ['metadata', 'name']),
        {
          hint: `a lock sits beside its generator as <generator>.lock.yaml; rename the file or fix metadata.name`,
        },
      ),
    );
    return { diagnostics: out, usedOverrides: used };
  }
  // A lock that contradicts itself cannot be held to: say where, and judge nothing by it.
  const contradictions = lockContradictions(loaded);
  if (contradictions.length > 0) return { diagnostics: contradictions, usedOverrides: used };
  const overrides = lock.overrides ?? [];
  const now = new Map(current.map((c) => [key(c.kind, c.name), c] as const));
  const bumpHint = (kind: string, name: string): string => {
    if (!kind.endsWith('Instancetype')) return 'published objects never change: publish the new spec under a new name and deprecate the old one';
    const m = /^(?:.*?)([a-z]+)(\d+)\.[^.]+$/.exec(name);
    if (m)
      return `published objects never change: bump the family version (${m[1]}${m[2]} -> ${m[1]}${Number(m[2]) + 1}) so the new spec gets new names, and keep or deprecate the old ones`;
    // Names without a version: the family needs one, and a pattern that shows it.
    return 'published objects never change: publish the new spec under new names and deprecate the old ones; for a family named without a version, give the new one `version: 2` and `naming: "{family}{version}.{size}"` (the old one keeps its names)';
  };
  const changed: { entry: LockedObject; current: CurrentObject; at: SourceRange | undefined; entryAt: SourceRange }[] = [];
  const gone: { entry: LockedObject; entryAt: SourceRange }[] = [];
  lock.objects.forEach((entry, i) => {
    const entryAt = locate(src, ['objects', i, 'name']);
    const c = now.get(key(entry.kind, entry.name));
    const where = `${entry.kind} \`${entry.name}\``;
    if (entry.removed === undefined) {
      if (c === undefined) {
        if (entry.deprecated !== undefined) return;
        const ov = overrideFor(overrides, entry, 'removal');
        if (ov) {
          used.add(ov.i);
          return;
        }
        gone.push({ entry, entryAt });
        return;
      }
      if (c.digest === entry.digest) return;
      const ov = overrideFor(overrides, entry, 'change');
      if (ov && ov.o.digest === c.digest) {
        used.add(ov.i);
        return;
      }
      changed.push({ entry, current: c, at: c.location(), entryAt });
      return;
    }
    // Removed in an earlier release: the name may come back only with the spec it had.
    if (c === undefined || c.digest === entry.digest) return;
    const ov = overrideFor(overrides, entry, 'reuse');
    if (ov && ov.o.digest === c.digest) {
      used.add(ov.i);
      return;
    }
    out.push(
      diag('IT7103', `${where} was removed in ${entry.removed} and comes back with a different spec`, c.location(), {
        hint: `a returning name must mean what it meant (VMs and docs still refer to it): choose a new name, or restore the published spec; reviewed exception: overrides: [{name: ${entry.name}, kind: ${entry.kind}, allow: reuse, digest: "${c.digest}", reason: ...}]`,
        related: [{ message: 'published spec recorded here', location: entryAt }],
      }),
    );
  });
  out.push(...goneReport(gone, current, lock));
  // One edit of a family changes every size in both scopes: one report per place that declares them.
  for (const group of groupBy(changed, (x) => `${x.entry.released}|${x.at ? `${x.at.file}:${x.at.line}:${x.at.col}` : ''}`)) {
    const first = group[0]!;
    const fixes = group.map((x) => `{name: ${x.entry.name}, kind: ${x.entry.kind}, allow: change, digest: "${x.current.digest}", reason: ...}`).join(', ');
    const names = [...new Set(group.map((x) => x.entry.name))];
    const kinds = [...new Set(group.map((x) => x.entry.kind))];
    const message =
      group.length === 1
        ? `${first.entry.kind} \`${first.entry.name}\`, published in ${first.entry.released}, changed its spec (${first.entry.digest.slice(0, 19)}... -> ${first.current.digest.slice(0, 19)}...)`
        : `${group.length} objects published in ${first.entry.released} changed their spec: ${names.map((n) => `\`${n}\``).join(', ')} (${kinds.join(', ')})`;
    out.push(
      diag('IT7101', message, first.at, {
        hint: `${bumpHint(first.entry.kind, first.entry.name)}; for a reviewed emergency fix, add to ${loaded.file}: overrides: [${fixes}]`,
        related: [
          { message: group.length === 1 ? 'published spec recorded here' : `published spec of \`${first.entry.name}\` recorded here`, location: first.entryAt },
        ],
      }),
    );
  }
  overrides.forEach((o, i) => {
    if (used.has(i)) return;
    const at = locate(src, ['overrides', i]);
    if (o.allow !== 'removal' && o.digest === undefined) {
      out.push(
        diag('IT7104', `override for \`${o.name}\` (allow: ${o.allow}) has no \`digest\``, at, {
          hint: 'an override names the exact spec that was reviewed: copy the digest from the error it answers',
        }),
      );
      return;
    }
    const other =
      o.allow !== 'removal' ? current.find((c) => c.name === o.name && (o.kind === undefined || c.kind === o.kind) && c.digest !== o.digest) : undefined;
    out.push(
      diag(
        'IT7104',
        other
          ? `override for \`${o.name}\` (allow: ${o.allow}) was reviewed for ${o.digest!.slice(0, 19)}..., but the spec now is ${other.digest}`
          : `override for \`${o.name}\` (allow: ${o.allow}) allows nothing in this catalog`,
        locate(src, ['overrides', i, other ? 'digest' : 'name']),
        {
          severity: 'warning',
          hint: other
            ? 'the spec changed again after the review: review the new spec and update the digest'
            : 'remove it, or check the name, kind and digest against the error it was meant to answer',
        },
      ),
    );
  });
  return { diagnostics: out, usedOverrides: used };
}

/** `v1.2.3-rc.1` -> comparable parts; pre-releases sort before their release. */

/**
 * What makes a release lock contradict itself (IT7108): releases out of order or repeated, an
 * object entry twice, an object released, deprecated, removed or changed in a version the lock
 * never released, deprecated before it was released, removed before it was released or
 * deprecated, changed outside its lifetime. `itgen release` never writes such a lock; a hand edit
 * or a pull request does, and then the removal guard and the notes would rest on it.
 */
export function lockContradictions(loaded: LoadedLock): Diagnostic[] {
  const { lock, src } = loaded;
  const out: Diagnostic[] = [];
  const hint = 'the release lock is written by `itgen release` and is append-only: restore it from the base branch (git checkout <base> -- <lock>)';
  const released = new Set(lock.releases);
  lock.releases.forEach((v, i) => {
    if (i > 0 && compareVersions(lock.releases[i - 1]!, v) >= 0)
      out.push(diag('IT7108', `releases: \`${v}\` is not newer than \`${lock.releases[i - 1]!}\` before it`, locate(src, ['releases', i]), { hint }));
  });
  const seen = new Map<string, number>();
  lock.objects.forEach((o, i) => {
    const at = (field: string | (string | number)[]): SourceRange => locate(src, ['objects', i, ...(Array.isArray(field) ? field : [field])]);
    const k = key(o.kind, o.name);
    const first = seen.get(k);
    if (first !== undefined) {
      out.push(
        diag('IT7108', `${o.kind} \`${o.name}\` has two entries in the lock`, at('name'), {
          hint,
          related: [{ message: 'first entry', location: locate(src, ['objects', first, 'name']) }],
        }),
      );
      return;
    }
    seen.set(k, i);
    const unknown = (field: string | (string | number)[], v: string): void => {
      out.push(
        diag('IT7108', `${o.kind} \`${o.name}\`: ${v} is not a release of this lock (releases: ${lock.releases.join(', ') || 'none'})`, at(field), { hint }),
      );
    };
    const versions: [string | (string | number)[], string | undefined][] = [
      ['released', o.released],
      ['deprecated', o.deprecated],
      ['removed', o.removed],
      ...(o.changed ?? []).map((c, j): [(string | number)[], string] => [['changed', j, 'release'], c.release]),
    ];
    let bad = false;
    for (const [field, v] of versions) {
      if (v !== undefined && !released.has(v)) {
        unknown(field, v);
        bad = true;
      }
    }
    if (bad) return;
    const before = (a: string, b: string): boolean => compareVersions(a, b) < 0;
    if (o.deprecated !== undefined && before(o.deprecated, o.released))
      out.push(diag('IT7108', `${o.kind} \`${o.name}\` is deprecated in ${o.deprecated}, before it was released in ${o.released}`, at('deprecated'), { hint }));
    if (o.removed !== undefined && !before(o.released, o.removed))
      out.push(diag('IT7108', `${o.kind} \`${o.name}\` is removed in ${o.removed}, not after it was released in ${o.released}`, at('removed'), { hint }));
    if (o.removed !== undefined && o.deprecated !== undefined && !before(o.deprecated, o.removed))
      out.push(diag('IT7108', `${o.kind} \`${o.name}\` is removed in ${o.removed}, not after it was deprecated in ${o.deprecated}`, at('removed'), { hint }));
    (o.changed ?? []).forEach((c, j) => {
      if (!before(o.released, c.release) || (o.removed !== undefined && !before(c.release, o.removed)))
        out.push(
          diag(
            'IT7108',
            `${o.kind} \`${o.name}\` is changed in ${c.release}, outside its life (released ${o.released}${o.removed ? `, removed ${o.removed}` : ''})`,
            at(['changed', j, 'release']),
            { hint },
          ),
        );
    });
  });
  return out;
}
