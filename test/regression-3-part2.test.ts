/**
 * The earlier audits' corpus adversarial-3 (test/regression/README.md), replayed against the
 * built CLI (bin/itgen).
 */
import { replayCorpusTest } from './regression-runner';

replayCorpusTest('adversarial-3', true, { index: 2, of: 3 });
