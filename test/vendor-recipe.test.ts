/**
 * docs/16-vendor-recipe.md is a recipe that works: its catalog and generator, taken from the page's
 * own code blocks, build on the packaged common-instancetypes (as node_modules/itgen ships it) as a
 * base, and ship only the vendor's objects, with no error and no warning but the metrics one.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile } from '../src/pipeline';
import { REPO, removeDir, scratchProject } from './helpers';

/** The page's YAML code blocks whose first line names `file` (`# catalogs/acme/catalog.yaml`), with the blocks that continue it (starting with `---`). */
function blocksOf(page: string, file: string): string {
  const blocks = [...page.matchAll(/```yaml\n([^]*?)```/g)].map((m) => m[1]!);
  const out: string[] = [];
  let taking = false;
  for (const b of blocks) {
    if (b.startsWith(`# ${file}\n`)) taking = true;
    else if (!b.startsWith('---')) taking = false;
    if (taking) out.push(b);
  }
  return out.join('');
}

describe("the vendor's recipe (docs/16-vendor-recipe.md)", () => {
  it('builds on upstream as a base and ships only the vendor’s objects', () => {
    const page = readFileSync(path.join(REPO, 'docs', '16-vendor-recipe.md'), 'utf8');
    const catalog = blocksOf(page, 'catalogs/acme/catalog.yaml');
    const generator = blocksOf(page, 'generators/acme.yaml');
    expect(catalog).toContain('base: true');
    const dir = scratchProject({ 'generators/acme.yaml': generator, 'catalogs/acme/catalog.yaml': catalog });
    try {
      mkdirSync(path.join(dir, 'node_modules', 'itgen', 'catalogs'), { recursive: true });
      cpSync(path.join(REPO, 'catalogs', 'common-instancetypes'), path.join(dir, 'node_modules', 'itgen', 'catalogs', 'common-instancetypes'), {
        recursive: true,
      });
      const version = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
      writeFileSync(path.join(dir, 'node_modules', 'itgen', 'package.json'), JSON.stringify({ name: 'itgen', version }));
      const r = compile(dir, 'generators/acme.yaml');
      expect(r.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([expect.stringMatching(/^IT5007 /)]);
      const names = [...new Set(r.objects.map((o) => o.manifest.metadata.name))];
      expect(names.filter((n) => !/^ax1\./.test(n) && n !== 'acme.appliance')).toEqual([]);
      expect(names).toContain('acme.appliance');
      expect(names.filter((n) => n.startsWith('ax1.')).length).toBeGreaterThan(5);
    } finally {
      removeDir(dir);
    }
  });
});
