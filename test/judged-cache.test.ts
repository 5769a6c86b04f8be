/**
 * The judge's catalog answers kept between runs (src/load/judged-cache.ts): the bundled CLI's
 * second run reads them, and a cache file that is not this build's, not JSON, or too large reads as
 * no cache: the answers are the same as without one.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DEFAULT_GENERATOR, REPO, removeDir, scratchProject, TINY_CATALOG } from './helpers';

const BIN = path.join(REPO, 'bin', 'itgen');
/** The tiny catalog with a preference KubeVirt starts no VM with (Secure Boot, SMM off): judged answers of both kinds. */
const CATALOG = `${TINY_CATALOG}---
kind: Preference
name: sb
displayName: Secure Boot without SMM
spec:
  firmware: {preferredEfi: {secureBoot: true}}
  features: {preferredSmm: {enabled: false}}
`;

function run(dir: string, cache: string, args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(BIN, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cache } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('the judge’s answers kept between runs', () => {
  it('are written by the first run, read by the next, and anything else in the file reads as no cache', () => {
    const dir = scratchProject({ 'generators/t.yaml': DEFAULT_GENERATOR, 'catalog/catalog.yaml': CATALOG });
    const cache = mkdtempSync(path.join(os.tmpdir(), 'itgen-cache-'));
    try {
      const first = run(dir, cache, ['validate']);
      expect(first.code).toBe(1);
      expect(first.err).toContain('error IT8101 preference `sb`: KubeVirt starts no VM with it and an instance type of the catalog');
      expect(first.err).toContain('SecureBoot requires SMM, which is currently disabled.');
      // Beside the checks' kept result (load/check-cache.ts), which a run takes instead of judging
      // while the project reads the same: removed before each run below, so that the judge runs.
      const files = readdirSync(path.join(cache, 'itgen'));
      expect(files.filter((f) => f.startsWith('checks-'))).toHaveLength(1);
      const judged = files.filter((f) => f.startsWith('judged-'));
      expect(judged).toHaveLength(1);
      const file = path.join(cache, 'itgen', judged[0]!);
      const withoutChecks = (): void => {
        for (const f of readdirSync(path.join(cache, 'itgen'))) if (f.startsWith('checks-')) rmSync(path.join(cache, 'itgen', f));
      };
      const data = JSON.parse(readFileSync(file, 'utf8')) as { build: string; entries: Record<string, unknown[]> };
      expect(Object.keys(data.entries).length).toBeGreaterThan(0);
      withoutChecks();
      expect(run(dir, cache, ['validate'])).toEqual(first);
      // This build's file is read: entries forged to say admitted are taken (the cache is the user's own).
      const forged = Object.fromEntries(Object.keys(data.entries).map((k) => [k, [1]]));
      writeFileSync(file, JSON.stringify({ build: data.build, entries: forged }));
      withoutChecks();
      expect(run(dir, cache, ['validate']).code).toBe(0);
      // Another build's answers, a file that is not JSON, one past the bound: the same answers as without.
      for (const content of [JSON.stringify({ build: 'another', entries: forged }), '{not json', ' '.repeat(9 * 1024 * 1024)]) {
        writeFileSync(file, content);
        withoutChecks();
        expect(run(dir, cache, ['validate'])).toEqual(first);
      }
      // Turned off: nothing is read or written.
      const off = mkdtempSync(path.join(os.tmpdir(), 'itgen-cache-'));
      const r = spawnSync(BIN, ['validate'], { cwd: dir, encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: off, ITGEN_NO_CACHE: '1' } });
      expect(r.stderr).toBe(first.err);
      expect(readdirSync(off)).toEqual([]);
      removeDir(off);
    } finally {
      removeDir(dir);
      removeDir(cache);
    }
  });
});
