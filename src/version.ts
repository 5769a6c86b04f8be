/** itgen's version, as package.json says (test/cli.test.ts keeps the two equal). */
export const VERSION = '0.1.0';

/**
 * A kubevirt/common-instancetypes release a catalog follows (`Catalog.follows`): `main` or `vX.Y.Z`,
 * optionally `@` and a commit. Read by the schema, and by the import of a catalog whose Catalog
 * document the schema never sees.
 */
export const UPSTREAM_RELEASE = /^(main|v\d+\.\d+\.\d+)(@[0-9a-f]{7,40})?$/;

function versionParts(v: string): { nums: number[]; pre: string | undefined } {
  const m = /^v(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(v);
  if (!m) return { nums: [0, 0, 0], pre: undefined };
  return { nums: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] };
}

/** Semver precedence of release versions (`v1.2.0`, `v1.2.0-rc.1`). */
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
