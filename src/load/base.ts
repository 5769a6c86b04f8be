/**
 * Whether an existing directory is a kustomize base itgen wrote, proved from its exact layout
 * before `generate` replaces it. A kustomization.yaml proves nothing: in a GitOps repository nearly
 * every directory has one. A base itgen wrote holds only:
 *
 *   kustomization.yaml         byte for byte the kustomization itgen writes over kind directories
 *   README.md, CHANGELOG.md    regular files (the docs and, with a release lock, the changelog)
 *   VirtualMachine<Kind>s/     one per kind, holding only regular files named
 *     kustomization.yaml       and virtualmachine<kind>s.yaml (-2, -3... for a kind too large for one file)
 *   policy/                    the admission policies (a generator's `policy:`), holding only the regular
 *                              files kustomization.yaml, admission-policies.yaml and README.md
 *
 * The top kustomization is the signature: no hand-written kustomization lists only itgen's kind
 * directories in itgen's exact bytes. Inside a base so proved, a file at one of itgen's own paths
 * is itgen's even when edited by hand (it says "do not edit"; `check` reports the edit as drift and
 * `generate` restores it). Anything else (another file, a link, a directory of another name, a
 * kustomization that lists `namespace.yaml`) is a file itgen cannot prove it wrote: the output is
 * refused and the diagnostic names those files. Only names and the first bytes of the top
 * kustomization are read, so the proof costs the same for a base of ten objects or forty thousand.
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync } from './reads';
import path from 'node:path';

/** The kind directories of a base (emit/layout.ts's KIND_DIRS, written out here at the floor). */
const KIND_DIR = /^VirtualMachine(Cluster)?(Instancetype|Preference)s$/;
/**
 * How a generated kustomization.yaml reads, byte for byte (emit/layout.ts's `kustomization`;
 * before 2026-11-21 it started without the `---`, and such bases are still itgen's).
 */
const KUSTOMIZATION = /^(?:---\n)?apiVersion: kustomize\.config\.k8s\.io\/v1beta1\nkind: Kustomization\nresources:(?: \[\]\n|\n((?: {2}- [^\n]+\n)+))$/;
/** The first bytes read of the top kustomization: itgen's, over four kind directories, fits. */
const HEAD_BYTES = 512;

/** The start of a regular file (at most HEAD_BYTES), or undefined when it is not one or cannot be read. */
function head(abs: string): string | undefined {
  let fd: number | undefined;
  try {
    if (!lstatSync(abs).isFile()) return undefined;
    fd = openSync(abs);
    const buf = Buffer.alloc(HEAD_BYTES + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether `text` is a kustomization itgen writes whose resources are all in `allowed`. */
function isOwnKustomization(text: string | undefined, allowed: (name: string) => boolean): boolean {
  if (text === undefined || text.length > HEAD_BYTES) return false;
  const m = KUSTOMIZATION.exec(text);
  if (!m) return false;
  const entries = (m[1] ?? '').split('\n').filter((l) => l !== '');
  return entries.every((l) => allowed(l.slice(4)));
}

/** The entries of a directory of the base that are not `own` regular files (paths relative to the base). */
function foreignIn(abs: string, dir: string, own: (name: string) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(abs).sort();
  } catch {
    return [`${dir}/ (unreadable)`];
  }
  return names.filter((name) => !(own(name) && isRegularFile(path.join(abs, name)))).map((name) => `${dir}/${name}`);
}

/** A kind directory holds its kustomization and `<kind>s.yaml`, and for a kind too large for one file `<kind>s-2.yaml`, ... (emit/layout.ts). */
function foreignInKindDir(abs: string, dir: string): string[] {
  const stem = dir.toLowerCase();
  return foreignIn(
    abs,
    dir,
    (name) =>
      name === 'kustomization.yaml' || name === `${stem}.yaml` || (name.startsWith(`${stem}-`) && /^[1-9][0-9]{0,5}\.yaml$/.test(name.slice(stem.length + 1))),
  );
}

/** The policy directory holds exactly the three files policy/base.ts writes. */
/** What the generator's `templates:` writes to <output>/templates/ (src/templates/). */
const TEMPLATE_FILES: ReadonlySet<string> = new Set(['kustomization.yaml', 'virtualmachinetemplates.yaml']);
const POLICY_FILES = new Set(['kustomization.yaml', 'admission-policies.yaml', 'README.md']);

function isRegularFile(abs: string): boolean {
  try {
    return lstatSync(abs).isFile();
  } catch {
    return false;
  }
}

/**
 * The entries of an existing, non-empty directory that itgen cannot prove it wrote, as paths
 * relative to it (directories end in `/`), sorted; empty when the directory is a base itgen wrote.
 */
export function foreignEntries(absolute: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(absolute).sort();
  } catch {
    return ['. (unreadable)'];
  }
  // Without itgen's own top kustomization nothing here is proved: every entry would be replaced.
  const proved = names.includes('kustomization.yaml') && isOwnKustomization(head(path.join(absolute, 'kustomization.yaml')), (r) => KIND_DIR.test(r));
  for (const name of names) {
    const p = path.join(absolute, name);
    let st;
    try {
      st = lstatSync(p);
    } catch {
      out.push(name);
      continue;
    }
    if (!proved) out.push(st.isDirectory() ? `${name}/` : name);
    else if (st.isDirectory() && KIND_DIR.test(name)) out.push(...foreignInKindDir(p, name));
    else if (st.isDirectory() && name === 'policy') out.push(...foreignIn(p, 'policy', (n) => POLICY_FILES.has(n)));
    else if (st.isDirectory() && name === 'templates') out.push(...foreignIn(p, 'templates', (n) => TEMPLATE_FILES.has(n)));
    else if (!((name === 'kustomization.yaml' || name === 'README.md' || name === 'CHANGELOG.md') && st.isFile()))
      out.push(st.isDirectory() ? `${name}/` : name);
  }
  return out;
}
