/** What an import learns of an npm package in the project's node_modules: its version, the catalogs it ships, and what an import of its Catalog loses. */
import { existsSync, readdirEntries, type DirEntry } from './reads';
import path from 'node:path';
import { didYouMean } from '../diagnostics';
import { readProjectFile } from './files';

/** Directories directly under `dir` (not hidden) that hold a `catalog.yaml` or `catalog.yml`, as `prefix` + name. */
function catalogDirsIn(dir: string, prefix: string): string[] {
  let entries: DirEntry[];
  try {
    entries = readdirEntries(dir);
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && e.isDirectory() && ['catalog.yaml', 'catalog.yml'].some((f) => existsSync(path.join(dir, e.name, f))))
    .map((e) => `${prefix}${e.name}`);
}

/**
 * What to say when a package import finds no catalog: install the package when it is not there,
 * else the catalogs it does ship (directories holding a `kind: Catalog` document), with a did-you-mean.
 */
export function packageHint(absRoot: string, pkg: string, catalog: string): string {
  const base = path.resolve(absRoot, 'node_modules', pkg);
  if (!existsSync(path.join(base, 'package.json'))) return `install it: npm install ${pkg}`;
  const shipped = [...catalogDirsIn(base, ''), ...catalogDirsIn(path.join(base, 'catalogs'), 'catalogs/')].sort();
  if (shipped.length === 0) return `${pkg} is installed but ships no catalog`;
  return `${didYouMean(catalog, shipped) ?? ''} ${pkg} ships: ${shipped.join(', ')}`.trim();
}

/**
 * The defaults of an imported Catalog document (naming, and the labels and annotations it gives its
 * instance types and preferences) that the importing catalog does not set, as dotted paths: what
 * the imported objects lose, since only the importing Catalog's defaults apply.
 */
export function droppedDefaults(imported: Record<string, unknown>, importing: Record<string, unknown>): string[] {
  const out: string[] = [];
  const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  for (const k of Object.keys(obj(imported['naming']))) if (!(k in obj(importing['naming']))) out.push(`naming.${k}`);
  for (const kind of ['instancetypes', 'preferences'])
    for (const field of ['labels', 'annotations']) {
      const have = obj(obj(importing[kind])[field]);
      for (const k of Object.keys(obj(obj(imported[kind])[field]))) if (!(k in have)) out.push(`${kind}.${field}.${k}`);
    }
  return out;
}

/** The installed version of a package of the project's node_modules, as its package.json says (bounded read, inside the project). */
export function packageVersion(absRoot: string, pkg: string): { package: string; installed?: string } {
  const manifest = readProjectFile(absRoot, path.join(absRoot, 'node_modules', pkg, 'package.json'));
  try {
    const v = 'bytes' in manifest ? (JSON.parse(manifest.bytes.toString('utf8')) as { version?: unknown }).version : undefined;
    return typeof v === 'string' && v.length <= 64 ? { package: pkg, installed: v } : { package: pkg };
  } catch {
    return { package: pkg };
  }
}
