/**
 * Resize at the edges, against KubeVirt's own answers (test/fixtures/resize-edges/: the oracle's
 * `resize` mode on a running VMI, as the preview mode started it, with a migration in progress,
 * and with one that ended): while the VMI migrates, KubeVirt's VM controller refuses the CPU
 * hotplug and retries ("CPU hotplug is not allowed while VMI is migrating"): the change waits.
 */
import path from 'node:path';
import { replayResize } from './resize-corpus';

describe('resize of a VMI that is migrating', () => {
  const results = replayResize(path.join(__dirname, 'fixtures', 'resize-edges'));

  it('agrees with KubeVirt: the hotplug waits while the migration runs, and happens once it ended', () => {
    expect(results.map((r) => [r.id, r.outcome, r.why])).toEqual([
      ['plain', 'restart', []],
      ['migrating', 'pending', []],
      ['migrated', 'restart', []],
    ]);
  });
});
