/**
 * The release lock held to what was published: the lock at the base branch and at each release tag,
 * and the bundles, against the working tree's (a release rewritten, an object reused under a
 * removed name, a published spec changed).
 */

import { diag, type Diagnostic, type SourceRange } from '../diagnostics';

import { locate } from '../load/source';

import type { ReleaseLock } from '../schema/lock';

import { type LoadedLock, key } from './lock';

/**
 * A release's history is append-only (IT7109): against the lock as published (`base`: the base
 * branch's, in CI), a change may record the next release, never rewrite a past one. Every release
 * of the base stays, in order, at the start of `releases`; every object entry of the base stays,
 * with its `released`, `deprecated`, `removed` and `changed` history as it was; what a change adds
 * to an entry (a deprecation, a removal, a reviewed change with the digest it leads to) and every
 * new entry name a release the base does not have. Overrides are the next release's, free to
 * change.
 *
 * Over 80 lines: the history rules over one pair of locks, in order.
 */
export function lockHistoryProblems(current: LoadedLock, base: ReleaseLock, baseName: string): Diagnostic[] {
  const { lock, src } = current;
  const out: Diagnostic[] = [];
  const hint = `a pull request may add the next release, never rewrite a published one; restore the entries as ${baseName} has them (git checkout <base> -- ${current.file}), and record changes with \`itgen release\``;
  const pastReleases = new Set(base.releases);
  base.releases.forEach((v, i) => {
    if (lock.releases[i] !== v)
      out.push(
        diag(
          'IT7109',
          `release ${v} of ${baseName} is ${lock.releases.includes(v) ? 'moved' : 'gone'} in \`releases\``,
          locate(src, ['releases', Math.min(i, Math.max(lock.releases.length - 1, 0))]),
          {
            hint,
          },
        ),
      );
  });
  // The upstream package versions recorded for published releases are history too.
  (base.imports ?? []).forEach((x, i) => {
    const y = lock.imports?.[i];
    if (!y || y.release !== x.release || y.package !== x.package || y.version !== x.version)
      out.push(
        diag(
          'IT7109',
          `the import of ${x.package} ${x.version} recorded for ${x.release} differs from ${baseName}'s`,
          locate(src, y ? ['imports', i] : ['releases']),
          {
            hint,
          },
        ),
      );
  });
  const now = new Map(lock.objects.map((o, i) => [key(o.kind, o.name), { o, i }] as const));
  const baseKeys = new Set<string>();
  for (const b of base.objects) {
    const k = key(b.kind, b.name);
    baseKeys.add(k);
    const c = now.get(k);
    const where = `${b.kind} \`${b.name}\``;
    if (!c) {
      out.push(diag('IT7109', `${where}, released in ${b.released}, is gone from the release lock`, locate(src, ['objects']), { hint }));
      continue;
    }
    const at = (field: string | (string | number)[]): SourceRange => locate(src, ['objects', c.i, ...(Array.isArray(field) ? field : [field])]);
    for (const field of ['released', 'deprecated', 'removed'] as const) {
      const was = b[field];
      const is = c.o[field];
      if (was === is) continue;
      // Adding a deprecation or removal is the next release's, if it names a release the base has not published.
      if (field !== 'released' && was === undefined && is !== undefined && !pastReleases.has(is)) continue;
      // Dropping one is what `itgen release` does when an object is undeprecated or returns: it only
      // makes the guard stricter (a returning spec is held to its digest).
      if (field !== 'released' && was !== undefined && is === undefined) continue;
      out.push(
        diag(
          'IT7109',
          was === undefined
            ? `${where} is recorded as ${field} in ${is}, which ${baseName} published without it`
            : `${where} was ${field} in ${was} according to ${baseName}; this lock says ${is ?? 'nothing'}`,
          at(is === undefined ? 'name' : field),
          { hint },
        ),
      );
    }
    const before = b.changed ?? [];
    const after = c.o.changed ?? [];
    const keptHistory = before.every(
      (x, i) => after[i] !== undefined && after[i]!.release === x.release && after[i]!.from === x.from && after[i]!.reason === x.reason,
    );
    const addedPast = after.slice(before.length).find((x) => pastReleases.has(x.release));
    if (!keptHistory || addedPast)
      out.push(
        diag(
          'IT7109',
          `${where}: its recorded changes differ from ${baseName}'s${addedPast ? ` (a change in ${addedPast.release}, a published release)` : ''}`,
          at('name'),
          { hint },
        ),
      );
    if (c.o.digest !== b.digest && after.length === before.length && c.o.removed === b.removed)
      out.push(diag('IT7109', `${where}: its published digest differs from ${baseName}'s, and no reviewed change records why`, at('digest'), { hint }));
  }
  lock.objects.forEach((o, i) => {
    if (baseKeys.has(key(o.kind, o.name)) || !pastReleases.has(o.released)) return;
    out.push(
      diag(
        'IT7109',
        `${o.kind} \`${o.name}\` is recorded as released in ${o.released}, a release ${baseName} published without it`,
        locate(src, ['objects', i, 'released']),
        { hint },
      ),
    );
  });
  return out;
}
