/**
 * KubeVirt's own answers, replayed without Go: the corpus under test/fixtures/kubevirt-corpus/ (see
 * its README: KubeVirt's commit, the oracle, the seed) through itgen's library. Every case must
 * agree with KubeVirt, except the differences listed in known-differences.json, each with the
 * class it belongs to (docs/design.md says why each class remains). A new disagreement fails, and
 * so does a listed one that now agrees (take it off the list). ITGEN_CORPUS_REPORT=1 prints the
 * agreement and every class; ITGEN_CORPUS=DIR replays another corpus made the same way.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { replayCorpus, summarize } from './kubevirt-corpus';
import { REPO } from './helpers';

const DIR = process.env['ITGEN_CORPUS'] ?? path.join(REPO, 'test', 'fixtures', 'kubevirt-corpus');
const KNOWN = path.join(DIR, 'known-differences.json');

describe('KubeVirt corpus', () => {
  const results = replayCorpus(DIR);
  if (process.env['ITGEN_CORPUS_REPORT']) process.stdout.write(`${summarize(results)}\n`);

  it("src/expand/vm-fields.ts is what tools/vm-fields.mjs makes of KubeVirt's VirtualMachine schema", () => {
    expect(spawnSync(process.execPath, [path.join(REPO, 'tools', 'vm-fields.mjs'), '--check'], { encoding: 'utf8' }).status).toBe(0);
  });

  it('src/expand/vm-fields-since.ts is what tools/vm-fields-since.mjs makes of each release’s VirtualMachine definitions', () => {
    expect(spawnSync(process.execPath, [path.join(REPO, 'tools', 'vm-fields-since.mjs'), '--check'], { encoding: 'utf8' }).status).toBe(0);
  });

  it('holds at least 3,000 cases across every category', () => {
    expect(new Set(results.map((r) => r.id)).size).toBeGreaterThanOrEqual(3000);
    expect(new Set(results.map((r) => r.category)).size).toBeGreaterThanOrEqual(10);
  });

  it.each(['v1.8.4', 'v1.8.0', 'v1.7.4', 'v1.6.6'])(
    'answers every VM case as KubeVirt %s does, the same cases answered by that release’s own code',
    (release) => {
      const replayed = replayCorpus(DIR, release);
      if (process.env['ITGEN_CORPUS_REPORT']) process.stdout.write(`${release}\n${summarize(replayed)}\n`);
      expect(replayed.length).toBeGreaterThanOrEqual(8000);
      expect(replayed.filter((r) => !r.agree).map((r) => `${r.id} ${r.check} ${r.why}`)).toEqual([]);
    },
  );

  it('agrees with KubeVirt on every case but the known differences, each listed with its class', () => {
    const known: Record<string, string> = existsSync(KNOWN) ? (JSON.parse(readFileSync(KNOWN, 'utf8')) as Record<string, string>) : {};
    const differing = Object.fromEntries(results.filter((r) => !r.agree).map((r) => [`${r.id} ${r.check}`, r.why ?? '']));
    expect(differing).toEqual(known);
  });
});
