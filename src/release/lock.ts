/**
 * The release lock: every object a generator has published, with a digest of its spec.
 *
 * KubeVirt snapshots an instance type or preference into a ControllerRevision when a VM starts,
 * so a published object that changes in place makes two VMs "of the same type" differ, and a
 * removed name that comes back with another spec silently changes what it means. The checks run
 * on every generate, validate and check (validate/lock.ts); `itgen release` records a new release
 * here.
 */
import { diag, type Diagnostic } from '../diagnostics';
import { KIND_ORDER } from '../schema/kubevirt-api';
import { toYaml } from '../emit/serialize';
import type { LockedObject, ReleaseLock } from '../schema/lock';
import { GENERATOR_API_VERSION, LOCK_KIND } from '../schema/names';
import { key, overrideFor, type CurrentObject, type LoadedLock } from '../validate/lock';
import { locate } from '../load/source';
import { compareText } from '../order';

export { checkLock, currentObjects, currentTemplates, lockFileFor, type CurrentObject, type LoadedLock, type LockCheck } from '../validate/lock';

import { compareVersions } from '../version';
export { compareVersions };

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
 *
 * Over 80 lines: one pass over the current objects and one over the lock's, each case as the lock records it.
 */
export function recordRelease(
  previous: LoadedLock | undefined,
  generatorName: string,
  current: readonly CurrentObject[],
  version: string,
  packages: readonly { readonly package: string; readonly version: string }[] = [],
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
      byKey.set(k, {
        kind: c.kind,
        name: c.name,
        digest: c.digest,
        released: version,
        ...(c.deprecated ? { deprecated: version, ...(c.replacement !== undefined ? { replacement: c.replacement } : {}) } : {}),
      });
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
    // The replacement as the latest release names it (none once no longer deprecated).
    if (c.deprecated && c.replacement !== undefined) e.replacement = c.replacement;
    else delete e.replacement;
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
  // The catalog's kinds in their order, then the templates.
  const rank = new Map<string, number>([...KIND_ORDER, 'VirtualMachineTemplate'].map((k, i) => [k, i] as const));
  const objects = [...byKey.values()].sort((a, b) => rank.get(a.kind)! - rank.get(b.kind)! || compareText(a.name, b.name));
  return {
    lock: {
      apiVersion: GENERATOR_API_VERSION,
      kind: LOCK_KIND,
      metadata: { name: generatorName },
      releases: [...lock.releases, version],
      objects,
      // Which upstream package versions this release's imported catalogs came from.
      ...(lock.imports !== undefined || packages.length > 0
        ? { imports: [...(lock.imports ?? []), ...packages.map((p) => ({ release: version, package: p.package, version: p.version }))] }
        : {}),
    },
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
      ...(o.replacement !== undefined ? { replacement: o.replacement } : {}),
      ...(o.removed !== undefined ? { removed: o.removed } : {}),
      ...(o.removedReason !== undefined ? { removedReason: o.removedReason } : {}),
      ...(o.changed !== undefined ? { changed: o.changed.map((c) => ({ release: c.release, from: c.from, reason: c.reason })) } : {}),
    })),
    ...(lock.overrides && lock.overrides.length > 0 ? { overrides: lock.overrides } : {}),
    ...(lock.imports && lock.imports.length > 0 ? { imports: lock.imports.map((x) => ({ release: x.release, package: x.package, version: x.version })) } : {}),
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
