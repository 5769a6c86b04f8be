/**
 * `itgen init`: a vendor's repository in one command. Right after it generate, validate and check
 * pass and kubectl kustomize builds the objects; a second init writes nothing; KubeVirt's own
 * vendor is refused.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../src/cli/main';
import { readDirTree } from './helpers';

function itgen(cwd: string, ...argv: string[]): { code: number; text: string } {
  let text = '';
  const code = run(argv, { out: (s) => (text += `${s}\n`), err: (s) => (text += `${s}\n`), cwd, color: false });
  return { code, text };
}

describe('itgen init', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-init-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a repository that generates, validates, checks and builds', () => {
    const r = itgen(dir, 'init', 'acme', '--vendor', 'acme.example');
    expect(r).toMatchObject({ code: 0 });
    const repo = path.join(dir, 'acme');
    expect(Object.keys(readDirTree(repo).reduce((m, f) => ({ ...m, [f.path]: 1 }), {})).sort()).toEqual([
      '.github/workflows/itgen.yaml',
      '.gitignore',
      'catalogs/acme/catalog.yaml',
      'catalogs/acme/families.yaml',
      'catalogs/acme/preferences.yaml',
      'generators/acme.yaml',
      'kustomization.yaml',
    ]);
    expect(readFileSync(path.join(repo, 'generators/acme.yaml'), 'utf8')).toContain('vendor: acme.example');
    expect(readFileSync(path.join(repo, 'catalogs/acme/catalog.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/\.\.\/node_modules\/itgen\/schema\/catalog\.schema\.json/,
    );
    for (const command of ['generate', 'validate', 'check']) expect([command, itgen(repo, command)]).toEqual([command, expect.objectContaining({ code: 0 })]);
    expect(itgen(repo, 'validate').text).not.toMatch(/warning|error/);
    const built = spawnSync('kubectl', ['kustomize', repo], { encoding: 'utf8' });
    expect(built.status).toBe(0);
    expect(built.stdout.match(/^kind: /gm)).toHaveLength(18);
    expect(built.stdout).toContain('instancetype.kubevirt.io/vendor: acme.example');
    expect(built.stdout).not.toContain('vendor: kubevirt.io');
  });

  it('refuses to overwrite anything, naming the files, and writes nothing', () => {
    expect(itgen(dir, 'init', '--name', 'acme').code).toBe(0);
    const before = readDirTree(dir);
    const r = itgen(dir, 'init', '--name', 'acme');
    expect(r.code).toBe(1);
    expect(r.text).toContain('found: generators/acme.yaml, catalogs/acme/catalog.yaml');
    expect(r.text).toContain('nothing written');
    expect(readDirTree(dir)).toEqual(before);
  });

  it('derives the name and the vendor, and never impersonates KubeVirt', () => {
    expect(itgen(dir, 'init', 'My Catalog').code).toBe(0);
    expect(readFileSync(path.join(dir, 'My Catalog', 'generators', 'my-catalog.yaml'), 'utf8')).toContain('vendor: my-catalog.example.com');
    const r = itgen(dir, 'init', 'other', '--vendor', 'kubevirt.io');
    expect(r.code).toBe(1);
    expect(r.text).toContain("--vendor kubevirt.io is KubeVirt's own");
  });
});
