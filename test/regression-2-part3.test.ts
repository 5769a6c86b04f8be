/**
 * The earlier audits' corpus adversarial-2 (test/regression/README.md), replayed against the
 * built CLI (bin/itgen); its format predates the check for absolute paths.
 */
import { replayCorpusTest } from './regression-runner';

replayCorpusTest('adversarial-2', false, { index: 3, of: 3 });
