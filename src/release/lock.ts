/**
 * The release lock: every object a generator has published, with a digest of its spec.
 *
 * KubeVirt snapshots an instance type or preference into a ControllerRevision when a VM starts,
 * so a published object that changes in place makes two VMs "of the same type" differ, and a
 * removed name that comes back with another spec silently changes what it means. The checks here
 * run on every generate, validate and check; `itgen release` records a new release.
 */
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';
import { locate, type SourceDoc } from '../load/source';
import { LABEL_PREFIX, type RenderedObject } from '../render/manifests';
import { KIND_ORDER, type ManifestKind } from '../schema/kubevirt-api';
import { toYaml } from '../emit/serialize';
import { GENERATOR_API_VERSION } from '../schema/names';
import type { LockOverride, LockedObject, ReleaseLock } from '../schema/lock';
import { LOCK_KIND } from '../schema/names';
import { groupBy } from '../validate/context';
import { originOf } from '../resolve/leaves';
import { specDigest } from './digest';
import { compareText } from '../order';

export interface LoadedLock {
  /** Project-relative path of the lock file. */
  readonly file: string;
  readonly lock: ReleaseLock;
  readonly src: SourceDoc;
}

/** One object as the lock sees it. */
export interface CurrentObject {
  readonly kind: ManifestKind;
  readonly name: string;
  readonly digest: string;
  readonly deprecated: boolean;
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
      location: () => {
        const before = previous?.get(key(o.manifest.kind, o.manifest.metadata.name));
        const changed = before === undefined ? undefined : firstDifference(before, o.manifest.spec, []);
        const leaf = changed !== undefined && changed.length > 0 ? originOf(o.source.leaves, changed) : undefined;
        return leaf ? locate(leaf.origin.src, leaf.origin.path) : locate(o.source.origin.src, o.source.origin.path);
      },
    };
  });
}

const key = (kind: string, name: string): string => `${kind}/${name}`;

/** The path of the first field where two specs differ (keys in the new spec's order), or undefined. */
function firstDifference(before: unknown, after: unknown, path: string[]): string[] | undefined {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    for (const k of [...Object.keys(after), ...Object.keys(before).filter((x) => !(x in after))]) {
      const d = firstDifference(before[k], after[k], [...path, k]);
      if (d) return d;
    }
    return undefined;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : path;
}

function overrideFor(
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

/** Compare what the catalog generates now with what has been published. */
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
function versionParts(v: string): { nums: number[]; pre: string | undefined } {
  const m = /^v(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(v);
  if (!m) return { nums: [0, 0, 0], pre: undefined };
  return { nums: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] };
}

export function compareVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  for (let i = 0; i < 3; i++) if (pa.nums[i] !== pb.nums[i]) return pa.nums[i]! - pb.nums[i]!;
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === undefined) return 1;
  if (pb.pre === undefined) return -1;
  return comparePrerelease(pa.pre, pb.pre);
}

/** Semver precedence of pre-release tags: dot-separated, numeric parts as numbers (rc.9 < rc.10). */
function comparePrerelease(a: string, b: string): number {
  const xs = a.split('.');
  const ys = b.split('.');
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1; // numeric identifiers sort before alphanumeric ones
    return x < y ? -1 : 1;
  }
  return xs.length - ys.length;
}

export function emptyLock(generatorName: string): ReleaseLock {
  return { apiVersion: GENERATOR_API_VERSION, kind: LOCK_KIND, metadata: { name: generatorName }, releases: [], objects: [] };
}

export interface ReleaseSummary {
  readonly added: number;
  readonly deprecated: number;
  readonly removed: number;
  readonly changed: number;
}

/**
 * The lock after publishing `version`: new objects added, deprecations and removals recorded,
 * overrides folded into the objects they allowed (with their reason) and cleared. The caller has
 * already checked the lock (no unexcused violation).
 */
export function recordRelease(
  previous: LoadedLock | undefined,
  generatorName: string,
  current: readonly CurrentObject[],
  version: string,
): { lock?: ReleaseLock; summary?: ReleaseSummary; diagnostics: Diagnostic[] } {
  const lock = previous?.lock ?? emptyLock(generatorName);
  const last = lock.releases[lock.releases.length - 1];
  if (last !== undefined && compareVersions(version, last) <= 0) {
    return {
      diagnostics: [
        diag(
          'IT7105',
          `release ${version} is not newer than the last release, ${last}`,
          previous ? locate(previous.src, ['releases', lock.releases.length - 1]) : undefined,
          {
            hint: 'releases only move forward; pick a higher version',
          },
        ),
      ],
    };
  }
  const overrides = lock.overrides ?? [];
  const byKey = new Map<string, LockedObject>(lock.objects.map((o) => [key(o.kind, o.name), { ...o }] as const));
  const summary = { added: 0, deprecated: 0, removed: 0, changed: 0 };
  const seen = new Set<string>();
  for (const c of current) {
    const k = key(c.kind, c.name);
    seen.add(k);
    const e = byKey.get(k);
    if (!e) {
      byKey.set(k, { kind: c.kind, name: c.name, digest: c.digest, released: version, ...(c.deprecated ? { deprecated: version } : {}) });
      summary.added++;
      if (c.deprecated) summary.deprecated++;
      continue;
    }
    if (e.digest !== c.digest) {
      const ov = overrideFor(overrides, e, e.removed !== undefined ? 'reuse' : 'change');
      e.changed = [...(e.changed ?? []), { release: version, from: e.digest, reason: ov?.o.reason ?? 'unrecorded' }];
      e.digest = c.digest;
      summary.changed++;
    }
    if (e.removed !== undefined) {
      delete e.removed;
      delete e.removedReason;
      summary.added++;
    }
    if (c.deprecated && e.deprecated === undefined) {
      e.deprecated = version;
      summary.deprecated++;
    } else if (!c.deprecated && e.deprecated !== undefined) {
      delete e.deprecated;
    }
  }
  for (const [k, e] of byKey) {
    if (seen.has(k) || e.removed !== undefined) continue;
    e.removed = version;
    // Removed without a deprecation release: only a reviewed override allowed it; keep its reason.
    if (e.deprecated === undefined) {
      const ov = overrideFor(overrides, e, 'removal');
      if (ov) e.removedReason = ov.o.reason;
    }
    summary.removed++;
  }
  const rank = new Map(KIND_ORDER.map((k, i) => [k, i] as const));
  const objects = [...byKey.values()].sort((a, b) => rank.get(a.kind)! - rank.get(b.kind)! || compareText(a.name, b.name));
  return {
    lock: { apiVersion: GENERATOR_API_VERSION, kind: LOCK_KIND, metadata: { name: generatorName }, releases: [...lock.releases, version], objects },
    summary,
    diagnostics: [],
  };
}

/** The lock file's text: a fixed key order, one object per list entry. */
export function serializeLock(lock: ReleaseLock): string {
  const ordered = {
    apiVersion: lock.apiVersion,
    kind: lock.kind,
    metadata: { name: lock.metadata.name },
    releases: lock.releases,
    objects: lock.objects.map((o) => ({
      kind: o.kind,
      name: o.name,
      digest: o.digest,
      released: o.released,
      ...(o.deprecated !== undefined ? { deprecated: o.deprecated } : {}),
      ...(o.removed !== undefined ? { removed: o.removed } : {}),
      ...(o.removedReason !== undefined ? { removedReason: o.removedReason } : {}),
      ...(o.changed !== undefined ? { changed: o.changed.map((c) => ({ release: c.release, from: c.from, reason: c.reason })) } : {}),
    })),
    ...(lock.overrides && lock.overrides.length > 0 ? { overrides: lock.overrides } : {}),
  };
  return `# Release lock of generator \`${lock.metadata.name}\`: every object it has published, with a digest of its spec.\n# Written by \`itgen release\`; generate fails when a published object changes, disappears\n# without a deprecation release, or a removed name returns with another spec. Review changes.\n${toYaml(ordered)}`;
}

/**
 * With a lock, a bundle is the recorded release: that version, and exactly its objects. An IT7107
 * when `version` is not the last release recorded, or the catalogs no longer generate what it recorded.
 */
export function checkBundleAgainstLock(loaded: LoadedLock, current: readonly CurrentObject[], version: string): Diagnostic[] {
  const lock = loaded.lock;
  const last = lock.releases[lock.releases.length - 1];
  if (last !== version) {
    return [
      diag('IT7107', `${version} is not the last release recorded in ${loaded.file} (${last ?? 'none'})`, undefined, {
        // A version the lock has already passed can only be bundled from its own commit.
        hint: lock.releases.includes(version)
          ? `${version} is an earlier release: check out the commit that recorded it (git log -- ${loaded.file}) and bundle there`
          : last !== undefined && compareVersions(version, last) < 0
            ? `${version} is older than the last release ${last} and was never recorded: releases only move forward; bundle ${last}, or record a newer one`
            : `run \`itgen release --version ${version}\` and commit the lock first`,
      }),
    ];
  }
  const recorded = new Map(lock.objects.filter((o) => o.removed === undefined).map((o) => [`${o.kind}/${o.name}`, o.digest] as const));
  const same = current.length === recorded.size && current.every((c) => recorded.get(`${c.kind}/${c.name}`) === c.digest);
  return same
    ? []
    : [
        diag('IT7107', `the catalogs no longer generate what ${loaded.file} recorded for ${version}`, undefined, {
          hint: 'bundle from the commit of the release, or record a new release',
        }),
      ];
}
