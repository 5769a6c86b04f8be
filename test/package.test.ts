/**
 * itgen as a vendor installs it: `npm pack`, the tarball installed into an empty git repository
 * with nothing of the clone around, then `npx itgen init`, generate, validate, check and
 * `kubectl kustomize .`; and init refusing to overwrite. The true end-to-end run of the package.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from './helpers';

function sh(cwd: string, command: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
}

describe('the npm package', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'itgen-package-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs into an empty repository and runs init, generate, validate, check and kustomize there', () => {
    // npm test built dist/ (pretest); pack it as it is.
    const packed = sh(REPO, 'npm', ['pack', '--ignore-scripts', '--pack-destination', work]);
    expect(packed.status).toBe(0);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    const repo = path.join(work, 'acme');
    mkdirSync(repo);
    expect(sh(repo, 'git', ['init', '-q']).status).toBe(0);
    writeFileSync(path.join(repo, 'package.json'), '{"name": "acme-catalog", "private": true}\n');
    const installed = sh(repo, 'npm', ['install', '--prefer-offline', '--no-save', path.join(work, tarball)]);
    expect([installed.status, installed.stderr.split('\n').filter((l) => /ERR/.test(l))]).toEqual([0, []]);
    const itgen = (...args: string[]): SpawnSyncReturns<string> => sh(repo, path.join(repo, 'node_modules', '.bin', 'itgen'), args);
    expect(itgen('--version').stdout).toMatch(/^itgen \d+\.\d+\.\d+/);
    const init = itgen('init', '--vendor', 'acme.example');
    expect([init.status, init.stderr]).toEqual([
      0,
      expect.stringContaining('wrote 9 files to . (generator acme, named after the directory; --name to choose another, vendor acme.example)'),
    ]);
    for (const command of ['generate', 'validate', 'check']) {
      const r = itgen(command);
      expect([command, r.status, r.stderr.includes('error')]).toEqual([command, 0, false]);
    }
    const built = sh(repo, 'kubectl', ['kustomize', '.']);
    expect(built.status).toBe(0);
    expect(built.stdout.match(/^kind: /gm)).toHaveLength(18);
    // The library is importable, as `import { generate } from 'itgen'`, and the compiler's stages as `itgen/stages`.
    const lib = sh(repo, process.execPath, [
      '-e',
      "const i = require('itgen'); const s = require('itgen/stages'); console.log(typeof i.generate, typeof i.openProject, typeof s.expand, typeof s.admit, typeof i.expand)",
    ]);
    expect(lib.stdout.trim()).toBe('function function function function undefined');
    // The documentation ships with the package: every relative link of the README and of docs/
    // leads to a file of the installed package, where users read them.
    const pkg = path.join(repo, 'node_modules', 'itgen');
    const pages = [
      'README.md',
      ...readdirSync(path.join(pkg, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    expect(pages.length).toBeGreaterThan(15);
    const dead = pages.flatMap((page) =>
      [...readFileSync(path.join(pkg, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!.split('#')[0]!)
        .filter((link) => link !== '' && !/^[a-z]+:/.test(link))
        .filter((link) => !existsSync(path.join(pkg, path.dirname(page), link)))
        .map((link) => `${page} -> ${link}`),
    );
    expect(dead).toEqual([]);
    // The Argo CD and Flux examples ship with the package.
    expect(readdirSync(path.join(repo, 'node_modules', 'itgen', 'examples')).sort()).toEqual(['argocd', 'flux']);
    const again = itgen('init');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('nothing written');
  });
});
