/**
 * Resize against KubeVirt's own answers (test/fixtures/resize-corpus/README.md): the outcome, the
 * admission's words, the sync error, the RestartRequired message and the fields behind it, and the
 * hotplug.
 */
import path from 'node:path';
import { replayResize } from './resize-corpus';

/** The first ten cases where itgen and KubeVirt differ, each with why. */
const disagreements = (results: ReturnType<typeof replayResize>): string[] =>
  results
    .filter((r) => r.why.length > 0)
    .map((r) => `${r.id} ${r.category}: ${r.why.join(' | ')}`)
    .slice(0, 10);

describe('the resize corpus (KubeVirt d923fdb815: VM webhooks on UPDATE and the VM controller)', () => {
  const results = replayResize(path.join(__dirname, 'fixtures', 'resize-corpus'));

  it('covers at least 1,000 cases and every outcome', () => {
    expect(results.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(results.map((r) => r.outcome))).toEqual(new Set(['live', 'pending', 'restart', 'rejected', 'failed']));
  });

  it('agrees with KubeVirt on every case', () => {
    expect(disagreements(results)).toEqual([]);
  });

  // The same changes answered by the oracle built at earlier release tags (README): planned as that release.
  it.each(['v1.8.4', 'v1.8.0', 'v1.7.4', 'v1.6.6'])('agrees with KubeVirt %s on every case, answered by that release’s own code', (release) => {
    const replayed = replayResize(path.join(__dirname, 'fixtures', 'resize-corpus'), release, `answers-${release}.jsonl.gz`);
    expect(replayed.length).toBeGreaterThanOrEqual(1000);
    expect(disagreements(replayed)).toEqual([]);
  });
});

describe('the resize corpus of running VMIs given with the change (test/fixtures/resize-vmi-corpus/)', () => {
  const dir = path.join(__dirname, 'fixtures', 'resize-vmi-corpus');

  it.each([undefined, 'v1.8.4', 'v1.8.0', 'v1.7.4', 'v1.6.6'])('agrees with KubeVirt (%s) on every case, a migration in progress waiting', (release) => {
    const replayed = replayResize(dir, release, release === undefined ? 'answers.jsonl.gz' : `answers-${release}.jsonl.gz`);
    expect(replayed.length).toBeGreaterThanOrEqual(300);
    expect(disagreements(replayed)).toEqual([]);
    // A CPU hotplug while the VMI migrates: the VM controller's sync error, and the change waits.
    expect(replayed.filter((r) => r.category.endsWith('-migrating') && r.outcome === 'pending').length).toBeGreaterThanOrEqual(5);
  });
});
