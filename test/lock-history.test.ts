/**
 * A pull request controls the committed release lock, so the lock is held to the one the base
 * branch published (`--base REF`, which the CI templates pass): a change may add the next release,
 * never rewrite a past one (IT7109). The attack of the third adversarial corpus: mark a published
 * preference `deprecated: v1.0.0` in the lock and delete it from the catalog in the same change.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { commitAll, edit, git, gitProject, itgen, remove, runInProcess } from './e2e-helpers';
import { REPO } from './helpers';

function released(): string {
  const dir = gitProject();
  expect(itgen(dir, 'generate').code).toBe(0);
  expect(itgen(dir, 'release', '--version', 'v1.0.0').code).toBe(0);
  commitAll(dir, 'release v1.0.0');
  return dir;
}

const LOCK = 'generators/small.lock.yaml';

describe('the release lock against the base branch (--base)', () => {
  it('refuses a lock that marks a published object deprecated in a past release, where it passed before', () => {
    const dir = released();
    try {
      // The attack: deprecate `legacy` retroactively in the lock, and remove it from the catalog.
      edit(dir, LOCK, /(name: legacy\n(?: {4}[^\n]*\n)*? {4}released: v1\.0\.0\n)/g, '$1    deprecated: v1.0.0\n');
      edit(dir, 'catalogs/small/preferences.yaml', /---\nkind: Preference\nname: legacy[\s\S]*$/, '');
      // Without the base, the lock is self-consistent and the removal looks like one after a deprecation release.
      expect(itgen(dir, 'validate').code).toBe(0);
      const r = itgen(dir, 'validate', '--base', 'main');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /generators\/small\.lock\.yaml:\d+:\d+ error IT7109 VirtualMachineClusterPreference `legacy` is recorded as deprecated in v1\.0\.0, which main published without it/,
      );
      for (const command of [['generate'], ['diff'], ['release', '--version', 'v1.1.0']]) {
        const c = itgen(dir, ...command, '--base', 'main');
        expect([command[0], c.code]).toEqual([command[0], 1]);
        expect(c.stderr).toContain('IT7109');
      }
    } finally {
      remove(dir);
    }
  });

  it.each([
    ['a published release dropped', (dir: string): void => edit(dir, LOCK, 'releases:\n  - v1.0.0\n', 'releases: []\n'), /release v1\.0\.0 of main is gone/],
    [
      'an entry dropped',
      (dir: string): void => edit(dir, LOCK, /\n {2}- kind: VirtualMachineClusterPreference\n {4}name: legacy\n(?: {4}[^\n]*\n)*/, '\n'),
      /`legacy`, released in v1\.0\.0, is gone from the release lock/,
    ],
    [
      'a digest rewritten',
      (dir: string): void => edit(dir, LOCK, /(name: u1\.large\n {4}digest: sha256:)[0-9a-f]/, '$10'),
      /`u1\.large`: its published digest differs from main's/,
    ],
  ])('refuses %s', (_what, change, message) => {
    const dir = released();
    try {
      change(dir);
      const r = itgen(dir, 'validate', '--base', 'main');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
    } finally {
      remove(dir);
    }
  });

  it('accepts the next release recorded by itgen release, and a project with no lock at the base', () => {
    const dir = released();
    try {
      edit(dir, 'catalogs/small/preferences.yaml', 'displayName: Legacy Linux\n', 'displayName: Legacy Linux\ndeprecated: {replacement: linux}\n');
      expect(itgen(dir, 'generate', '--base', 'main').code).toBe(0);
      expect(itgen(dir, 'release', '--version', 'v1.1.0', '--base', 'main').code).toBe(0);
      expect(readFileSync(path.join(dir, LOCK), 'utf8')).toContain('deprecated: v1.1.0');
      expect(itgen(dir, 'validate', '--base', 'main')).toMatchObject({ code: 0, stderr: '' });
      commitAll(dir, 'release v1.1.0');
      // The next release removes it: allowed, it was published deprecated.
      edit(dir, 'catalogs/small/preferences.yaml', /---\nkind: Preference\nname: legacy[\s\S]*$/, '');
      expect(itgen(dir, 'validate', '--base', 'main').code).toBe(0);
    } finally {
      remove(dir);
    }
    const fresh = gitProject();
    try {
      commitAll(fresh, 'catalog');
      expect(itgen(fresh, 'generate').code).toBe(0);
      expect(itgen(fresh, 'release', '--version', 'v1.0.0', '--base', 'main').code).toBe(0);
      expect(itgen(fresh, 'validate', '--base', 'main').code).toBe(0);
    } finally {
      remove(fresh);
    }
  });

  it('a base that cannot be read fails the check rather than skipping it', () => {
    const dir = released();
    try {
      const r = itgen(dir, 'validate', '--base', 'origin/no-such-branch');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('error IT7109 cannot read the release lock generators/small.lock.yaml at origin/no-such-branch');
    } finally {
      remove(dir);
    }
  });
});

describe('the CI jobs init writes hold the lock to the base branch', () => {
  it.each(['github', 'gitlab'] as const)('%s: the validate step fails on a pull request that rewrites the lock', (ci) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-ci-lock-'));
    try {
      expect(runInProcess(dir, ['init', 'acme', '--vendor', 'acme.example', '--ci', ci]).code).toBe(0);
      const repo = path.join(dir, 'acme');
      git(repo, 'init', '-q', '-b', 'main');
      git(repo, 'config', 'user.email', 'e2e@example.com');
      git(repo, 'config', 'user.name', 'itgen e2e');
      mkdirSync(path.join(repo, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(path.join(REPO, 'bin', 'itgen'), path.join(repo, 'node_modules', '.bin', 'itgen'));
      writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\n');
      expect(runInProcess(repo, ['generate']).code).toBe(0);
      expect(runInProcess(repo, ['release', '--version', 'v1.0.0']).code).toBe(0);
      commitAll(repo, 'release v1.0.0');
      git(repo, 'remote', 'add', 'origin', repo);
      git(repo, 'fetch', '-q', 'origin');
      git(repo, 'checkout', '-q', '-b', 'attack');
      edit(repo, 'generators/acme.lock.yaml', /(name: acme\.windows\n(?: {4}[^\n]*\n)*? {4}released: v1\.0\.0\n)/g, '$1    deprecated: v1.0.0\n');
      const script =
        ci === 'github'
          ? (
              parse(readFileSync(path.join(repo, '.github/workflows/itgen.yaml'), 'utf8')) as { jobs: { itgen: { steps: { run?: string }[] } } }
            ).jobs.itgen.steps.find((s) => s.run?.includes('itgen validate'))!.run!
          : (parse(readFileSync(path.join(repo, 'ci/itgen.gitlab-ci.yml'), 'utf8')) as { itgen: { script: string[] } }).itgen.script
              .filter((l) => l.includes('itgen validate'))
              .join('\n');
      const env = { ...process.env, ...(ci === 'github' ? { BASE_REF: 'main' } : { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' }) };
      const r = spawnSync('bash', ['-ec', script], { cwd: repo, encoding: 'utf8', env });
      expect(r.status).toBe(1);
      expect(`${r.stdout}${r.stderr}`).toContain('IT7109');
      // On the default branch (no base), the same step runs without it.
      const plain = spawnSync('bash', ['-ec', script], {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, BASE_REF: '', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: '' },
      });
      expect(plain.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('release tags', () => {
  it('the lock a release tag holds is history too: a change rewritten on the base branch itself is caught by the tag', () => {
    const dir = released();
    try {
      git(dir, 'tag', 'v1.0.0');
      // Someone rewrote history on main directly (no pull request saw it): the tag still says otherwise.
      edit(dir, LOCK, /(name: legacy\n(?: {4}[^\n]*\n)*? {4}released: v1\.0\.0\n)/g, '$1    deprecated: v1.0.0\n');
      commitAll(dir, 'rewrite');
      const r = itgen(dir, 'validate', '--base', 'main');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /error IT7109 VirtualMachineClusterPreference `legacy` is recorded as deprecated in v1\.0\.0, which tag v1\.0\.0 published without it/,
      );
    } finally {
      remove(dir);
    }
  });
});

describe('published bundles (--bundles DIR)', () => {
  it('the lock must agree with what the bundles shipped, and a bundle must match its checksum', () => {
    const dir = released();
    try {
      expect(itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', 'published').code).toBe(0);
      expect(itgen(dir, 'validate', '--bundles', 'published')).toMatchObject({ code: 0, stderr: '' });
      // The attack, with no base branch at hand (a fork's CI, a tarball): the bundles refuse it.
      edit(dir, LOCK, /(name: legacy\n(?: {4}[^\n]*\n)*? {4}released: v1\.0\.0\n)/g, '$1    deprecated: v1.0.0\n');
      edit(dir, 'catalogs/small/preferences.yaml', /---\nkind: Preference\nname: legacy[\s\S]*$/, '');
      const r = itgen(dir, 'validate', '--bundles', 'published');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /error IT7109 VirtualMachineClusterPreference `legacy` is recorded as deprecated in v1\.0\.0, but the v1\.0\.0 bundle small-instancetypes-all-bundle-v1\.0\.0\.yaml shipped it not deprecated/,
      );
      // A bundle edited to match the rewritten lock no longer matches its checksum.
      const bundle = path.join(dir, 'published', 'small-instancetypes-all-bundle-v1.0.0.yaml');
      writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(/name: legacy\n/g, 'name: legacy\n  # tampered\n'));
      const t = itgen(dir, 'validate', '--bundles', 'published');
      expect(t.code).toBe(1);
      expect(t.stderr).toContain('error IT7107 published/small-instancetypes-all-bundle-v1.0.0.yaml does not have the sum CHECKSUMS.sha256 records');
    } finally {
      remove(dir);
    }
  });
});

describe('itgen notes', () => {
  it('--unreleased previews what the next release records; past releases print even while the lock refuses the working tree', () => {
    const dir = released();
    try {
      edit(dir, 'catalogs/small/preferences.yaml', 'displayName: Legacy Linux\n', 'displayName: Legacy Linux\ndeprecated: {replacement: linux}\n');
      const preview = itgen(dir, 'notes', '--unreleased');
      expect(preview.code).toBe(0);
      expect(preview.stdout).toMatch(/## unreleased\n\n### Deprecated\n\n- VirtualMachineClusterPreference \(1\):\n {2}- `legacy`/);
      expect(preview.stdout.indexOf('## unreleased')).toBeLessThan(preview.stdout.indexOf('## v1.0.0'));
      expect(itgen(dir, 'notes').stdout).not.toContain('unreleased');
      // A published spec changed in place: the lock refuses it, the past notes still print.
      edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi');
      const refused = itgen(dir, 'notes');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('IT7101');
      expect(refused.stdout).toContain('## v1.0.0');
    } finally {
      remove(dir);
    }
  });
});
