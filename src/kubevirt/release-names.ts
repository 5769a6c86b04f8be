/**
 * The releases itgen models, and what a release named by a user (`v1.7`, `v1.7.0`, a CR's observed version, a target's bounds) answers as: the modelled release that stands for it, and the note that says which.
 */

/**
 * KubeVirt releases as data: the patch releases itgen answers as, and each rule that differs
 * between them, written once with the releases it holds for. A rule is read through `holds`; no
 * version comparison lives anywhere else. Releases are patch releases, not minor lines: a check can
 * leave a patch line (the arm64 Secure Boot refusal is in v1.8.0 and gone in v1.8.4).
 */

/** The releases itgen models, oldest first; the newest is the default answer. */
export const MODELLED_RELEASES = ['v1.6.6', 'v1.7.4', 'v1.8.0', 'v1.8.4', 'v1.9.0'] as const;

export type ModelledRelease = (typeof MODELLED_RELEASES)[number];

export const NEWEST_RELEASE: ModelledRelease = 'v1.9.0';

/** `v1.8.4` as numbers; a minor release (`v1.8`) as its `.0`. */
export function parts(release: string): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(release);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

export function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! - b[i]!;
  return 0;
}

/**
 * The modelled release a cluster of `release` answers as. A minor release (`v1.7`) is its patch line:
 * the newest modelled patch of it. A patch release answers as the modelled one of its own line not
 * newer than it (v1.8.2 as v1.8.0), else as its line's oldest modelled one (v1.7.0 as v1.7.4: the
 * same minor's webhooks and controller, closer than the minor before); a line without a modelled
 * patch answers as the newest modelled one before it (v1.10.0 as v1.9.0). Undefined for a release
 * older than every modelled line. `releaseNote` says which, when it is not the release itself.
 */
export function modelledRelease(release: string | undefined): ModelledRelease | undefined {
  if (release === undefined) return NEWEST_RELEASE;
  const r = parts(release);
  if (!r) return undefined;
  const minorOnly = !/^v?\d+\.\d+\.\d+$/.test(release);
  const line = MODELLED_RELEASES.filter((m) => parts(m)![0] === r[0] && parts(m)![1] === r[1]);
  if (line.length > 0) {
    if (minorOnly) return line[line.length - 1];
    const notNewer = line.filter((m) => compare(parts(m)!, r) <= 0);
    return notNewer[notNewer.length - 1] ?? line[0];
  }
  let found: ModelledRelease | undefined;
  for (const m of MODELLED_RELEASES) if (compare(parts(m)!, r) <= 0) found = m;
  return found;
}

/** Two releases of one minor line. */
export function sameMinor(a: string, b: string): boolean {
  const x = parts(a);
  const y = parts(b);
  return x !== undefined && y !== undefined && x[0] === y[0] && x[1] === y[1];
}

/** What a note says when `release` is answered as another, modelled one (`KubeVirt v1.7.0 is not modelled: answered as v1.7.4`); undefined when it is modelled itself, or none is given. */
export function releaseNote(release: string | undefined): string | undefined {
  if (release === undefined) return undefined;
  const m = modelledRelease(release);
  if (m === undefined || m === release || `v${release}` === m) return undefined;
  // A minor release names its line, which the line's newest modelled patch stands for: nothing to say.
  if (!/^v?\d+\.\d+\.\d+$/.test(release))
    return sameMinor(release, m) ? undefined : `KubeVirt ${release} is not among the modelled releases (${MODELLED_RELEASES.join(', ')}): answered as ${m}`;
  return `KubeVirt ${release} is not among the modelled releases (${MODELLED_RELEASES.join(', ')}): answered as ${m}`;
}

/**
 * The modelled releases from `min` to `max` (a minor release as a bound takes its whole patch line:
 * max v1.8 includes v1.8.4).
 */
export function releasesBetween(min: string, max: string | undefined): ModelledRelease[] {
  const lo = parts(min);
  const hiWritten = max !== undefined ? parts(max) : undefined;
  if (!lo) return [];
  const minorOnly = max !== undefined && !/^v?\d+\.\d+\.\d+$/.test(max);
  return MODELLED_RELEASES.filter((m) => {
    const p = parts(m)!;
    // A patch-less minimum is the whole minor line too (min v1.8 includes v1.8.0).
    if (compare(p, lo) < 0) return false;
    if (!hiWritten) return true;
    return minorOnly ? p[0] < hiWritten[0] || (p[0] === hiWritten[0] && p[1] <= hiWritten[1]) : compare(p, hiWritten) <= 0;
  });
}
